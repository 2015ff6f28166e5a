"""p4sim-stf refuses what it cannot run with exit status 2 and a clear message."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from p4sim.stf.cli import EXIT_CANNOT_RUN, EXIT_FAIL, main
from p4sim.stf.compile import CompileFailed, compile_program
from p4sim.reference import reference_dir

REFERENCE = reference_dir()
PROGRAM = str(REFERENCE / "p4" / "l3_lpm.p4")
STF = str(REFERENCE / "stf" / "l3_lpm.stf")
JSON = str(REFERENCE / "p4c-out" / "l3_lpm.json")


@pytest.mark.skipif(shutil.which("simple_switch") is not None, reason="BMv2 is installed here")
def test_bmv2_thrift_target_without_binaries_names_what_is_missing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([PROGRAM, STF, "--target", "bmv2-thrift", "--json", JSON]) == EXIT_CANNOT_RUN
    err = capsys.readouterr().err
    assert "simple_switch" in err and "simple_switch_CLI" in err and "PATH" in err


@pytest.mark.skipif(shutil.which("p4c-bm2-ss") is not None, reason="p4c is installed here")
def test_bmv2_thrift_compile_without_p4c_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([PROGRAM, STF, "--target", "bmv2-thrift"]) == EXIT_CANNOT_RUN
    assert "p4c-bm2-ss" in capsys.readouterr().err


def test_p4runtime_target_names_a_missing_switch(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([PROGRAM, STF, "--target", "bmv2", "--switch", "no-such-switch-binary", "--json", JSON])
    assert code == EXIT_CANNOT_RUN
    err = capsys.readouterr().err
    assert "switch 'no-such-switch-binary' is not an executable on PATH" in err and "$SWITCH" in err


def test_p4runtime_target_names_a_missing_compiler(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([PROGRAM, STF, "--target", "bmv2", "--p4c", "no-such-p4c"])
    assert code == EXIT_CANNOT_RUN
    assert "compiler 'no-such-p4c' (--p4c) is not an executable on PATH" in capsys.readouterr().err


def test_bad_stf_line_is_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.stf"
    bad.write_text("packet 1 00\nexpect two 00\n")
    assert main([PROGRAM, str(bad), "--json", JSON]) == EXIT_CANNOT_RUN
    assert f"{bad}:2:8: error: bad port" in capsys.readouterr().err


def test_unknown_table_is_a_located_command_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad_table.stf"
    bad.write_text("add no_such_table k:1 a()\n")
    assert main([PROGRAM, str(bad), "--json", JSON]) == EXIT_FAIL
    assert f"{bad}:1:1: error: no table 'no_such_table'" in capsys.readouterr().out


def test_program_that_does_not_compile_fails(tmp_path: Path) -> None:
    broken = tmp_path / "broken.p4"
    broken.write_text("this is not P4;\n")
    with pytest.raises(CompileFailed, match="broken.p4"):
        compile_program(str(broken), "p4sim")


def test_console_script_runs() -> None:
    script = Path(sys.executable).with_name("p4sim-stf")
    result = subprocess.run([str(script), PROGRAM, STF, "--json", JSON], capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PASS: 3/3 expectations met" in result.stdout
