"""bench/compile.py times good programs, reports bad ones and carries on."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

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
