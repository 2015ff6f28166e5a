"""bench/compile.py times good programs, reports bad ones and carries on."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from p4info_reference_models import REFERENCE_DIR

REPO = Path(__file__).resolve().parents[3]
BENCH = REPO / "bench" / "compile.py"


def run_bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), "--repeat", "1", *args],
                          capture_output=True, text=True, timeout=300, check=False)


def test_bad_program_is_reported_and_the_run_goes_on(tmp_path: Path) -> None:
    bad = tmp_path / "broken.p4"
    bad.write_text("control {\n")
    good = REFERENCE_DIR / "p4" / "l3_lpm.p4"
    result = run_bench(str(bad), str(good))
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines()
            if line.split() and line.split()[0].endswith(".p4")}
    assert "FAIL (exit 1:" in rows[str(bad)] and "broken.p4:" in rows[str(bad)]
    assert re.search(r"\d+\.\d{3} s", rows[str(good.relative_to(REPO))])
    assert "1/2 compiled; 1 failed" in result.stdout


def test_strict_mode_fails_on_a_failure(tmp_path: Path) -> None:
    missing = tmp_path / "missing.p4"
    result = run_bench("--strict", str(missing))
    assert result.returncode == 1
    assert "FAIL (no such file)" in result.stdout


def test_bytecode_mode_is_reported_and_selectable() -> None:
    good = str(REFERENCE_DIR / "p4" / "l3_lpm.p4")
    cached = run_bench(good)
    uncached = run_bench("--no-bytecode-cache", good)
    assert "byte-code: cached (as installed)" in cached.stdout, cached.stderr
    assert "byte-code: not cached (PYTHONDONTWRITEBYTECODE=1)" in uncached.stdout
    assert "1/1 compiled" in cached.stdout and "1/1 compiled" in uncached.stdout


def test_p4c_column_says_not_recorded_without_p4c_or_a_recorded_time(tmp_path: Path) -> None:
    """This machine has no p4c-bm2-ss and the recording holds no p4c timings: the bench
    says so for each row instead of showing a number."""
    if shutil.which("p4c-bm2-ss"):
        pytest.skip("p4c-bm2-ss is on PATH: the bench measures it instead")
    good = REFERENCE_DIR / "p4" / "l3_lpm.p4"
    result = run_bench(str(good))
    row = next(line for line in result.stdout.splitlines() if line.startswith("tests/"))
    assert re.search(r"\d+\.\d{3} s", row) and row.rstrip().endswith("p4c: not recorded")


def test_recorded_p4c_times_are_read_from_the_summary_column(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench_module(monkeypatch)
    summary = tmp_path / "SUMMARY.tsv"
    summary.write_text("name\tp4c_rc\tp4c_seconds\nfabric\t0\t1.250\n001_x\t0\t-\n")
    recorded = bench.recorded_p4c_seconds(summary)
    assert recorded == {"fabric": 1.25}
    assert bench.recorded_cell(Path("p4src/fabric.p4"), recorded) == "  1.250 s (recorded)"
    assert bench.recorded_cell(Path("tests/corpus/001_x.p4"), recorded) == "p4c: not recorded"
    summary.write_text("name\tp4c_rc\nfabric\t0\n")
    assert bench.recorded_p4c_seconds(summary) == {}


def _bench_module(monkeypatch: pytest.MonkeyPatch):
    """bench/compile.py as a module (it is a script, not a package member); registered
    for the test only, as its dataclasses need."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("bench_compile", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module
