# p4sim / AI-fabric data planes. `make run` and `make test` do all set-up on a fresh machine.
# TARGET=p4sim (default) uses our embedded compiler and switch; TARGET=bmv2 uses
# p4c-bm2-ss and simple_switch_grpc from PATH.
TARGET ?= p4sim
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

ifeq ($(TARGET),bmv2)
P4C    := p4c-bm2-ss
SWITCH := simple_switch_grpc
else ifeq ($(TARGET),p4sim)
P4C    := $(VENV)/bin/p4sim-compile
SWITCH := $(VENV)/bin/p4sim-switch
else
$(error TARGET must be p4sim or bmv2, not '$(TARGET)')
endif
export TARGET P4C SWITCH

PROGRAMS := $(basename $(notdir $(wildcard p4src/*.p4)))
P4_DEPS  := $(shell find p4src/include -name '*.p4' 2>/dev/null)
OUTPUTS  := $(foreach p,$(PROGRAMS),build/$(p).json build/$(p).p4info.txtpb)

.PHONY: all install build test test-unit test-ptf run bench check clean evidence soak lab demo

all: build

install: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -e '.[dev]'
	touch $@

build: $(OUTPUTS)

# One compiler run makes both files (a grouped target).
build/%.json build/%.p4info.txtpb &: p4src/%.p4 $(P4_DEPS) | $(STAMP)
	@mkdir -p build
	$(P4C) --arch v1model -o build/$*.json --p4runtime-files build/$*.p4info.txtpb $<

# Static type check of p4sim, control, endpoints and labs (settings: pyproject.toml [tool.mypy]).
check: $(STAMP)
	$(VENV)/bin/mypy

test: test-unit test-ptf

test-unit: $(STAMP) build
	$(PY) -m pytest -q tests

test-ptf: $(STAMP) build
	@if [ -x ptf_tests/run.sh ]; then ptf_tests/run.sh; else echo "no PTF suite yet"; fi

# One teaching lab: `make lab LAB=spraying` (SOLUTION=1 for its solution); see labs/README.md.
lab: $(STAMP)
	$(PY) -m labs.run_lab $(LAB) $(if $(filter 1 yes true,$(SOLUTION)),--solution) --target $(TARGET)

# `make test` five times in a row beside a two-process CPU burner; stops at the first failure.
soak: $(STAMP) build
	MAKE="$(MAKE)" tests/soak.sh

# The leaf-spine experiment (EXPERIMENT=full for the whole matrix); `make demo`: one switch.
run: $(STAMP) build
	$(PY) -m control.experiment

demo: $(STAMP) build
	$(PY) -m control.demo

bench: $(STAMP) build
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

# Copy a refreshed recording of the real toolchain (the team's shared/reference) into
# the repository's evidence folder; commit the result.
REFERENCE ?= ../shared/reference
evidence:
	@test -d "$(REFERENCE)/project" || { echo "no recording at $(REFERENCE) (set REFERENCE=DIR)"; exit 1; }
	for d in p4 p4c-out stf project toolchain bmv2-runs; do \
	  rm -rf tests/real_toolchain/$$d; cp -r "$(REFERENCE)/$$d" tests/real_toolchain/; done
	cp "$(REFERENCE)/p4info_ids.tsv" "$(REFERENCE)/bmv2-facts.md" tests/real_toolchain/
	chmod -R u+w tests/real_toolchain

clean:
	rm -rf build .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
