#!/bin/bash
# Runs the fabric PTF tests against one switch (TARGET / SWITCH select it, default
# p4sim-switch) in a private network namespace, and removes the namespace whatever
# happens: the lab harness does it (python -m lab.ptf_session; see lab/ptf_session.py).
# Ports 1..4 are veth pairs (switch side swpN, test side hN); the CPU port (255) is
# reached through P4Runtime. Needs root. Extra arguments go to ptf (e.g. a test name);
# a first argument --keep-logs keeps the switch and ptf logs of a passing run too.
# Exits non-zero when the switch does not come up or any test fails (130 when interrupted).
# Environment: TARGET, SWITCH, P4C (the programs), PTF (ptf), PY (the Python to use).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
PY=${PY:-$root/.venv/bin/python}
keep=()
if [[ ${1:-} == --keep-logs ]]; then keep=(--keep-logs); shift; fi
exec "$PY" -m lab.ptf_session --test-dir "$here" "${keep[@]}" -- "$@"
