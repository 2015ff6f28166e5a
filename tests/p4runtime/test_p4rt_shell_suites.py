"""Run the p4runtime-shell interop suites (shell_p4rt_*.py) in child pytest processes.

p4runtime-shell keeps global state and imports IPython, whose import adds a regular
`tests` package to sys.path; isolating the suites keeps both away from other tests.
"""
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SUITES = sorted(p.name for p in HERE.glob("shell_p4rt_*.py"))


def test_suites_are_present():
    assert len(SUITES) >= 3


@pytest.mark.parametrize("suite", SUITES)
def test_shell_suite(suite):
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(HERE / suite)],
        cwd=HERE.parent.parent, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert " passed" in result.stdout
