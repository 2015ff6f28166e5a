"""lab.target: TARGET / SWITCH / P4C read into one Target, refused clearly when wrong."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from lab.errors import TargetError
from lab.target import Target

VENV_BIN = Path(sys.executable).parent


def test_no_variables_select_p4sim_from_this_venv() -> None:
    target = Target.from_environment({})
    assert target.name == "p4sim"
    assert target.switch == str(VENV_BIN / "p4sim-switch")
    assert target.compiler == str(VENV_BIN / "p4sim-compile")
    assert not target.switch_is_bmv2 and not target.switch_from_env
    assert target.require_switch() == str((VENV_BIN / "p4sim-switch").resolve())


def test_bmv2_selects_the_real_toolchain_by_name() -> None:
    target = Target.from_environment({"TARGET": "bmv2"})
    assert (target.name, target.compiler, target.switch) == ("bmv2", "p4c-bm2-ss", "simple_switch_grpc")
    assert target.switch_is_bmv2


def test_a_bad_target_is_refused_naming_the_variable() -> None:
    with pytest.raises(TargetError, match=r"TARGET='bvm2' is not a target: use p4sim or bmv2"):
        Target.from_environment({"TARGET": "bvm2"})


def test_a_flag_replaces_target_but_not_switch() -> None:
    target = Target.from_environment({"TARGET": "nonsense", "SWITCH": "my_switch"}, name="bmv2")
    assert (target.name, target.switch, target.compiler) == ("bmv2", "my_switch", "p4c-bm2-ss")
    assert target.switch_from_env and not target.compiler_from_env
    with pytest.raises(TargetError, match="the target='x'"):
        Target.from_environment({}, name="x")


def test_relative_paths_are_taken_from_where_they_were_read(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    target = Target.from_environment({"SWITCH": "bin/sw", "P4C": "p4c-on-path"})
    assert target.switch == str(tmp_path / "bin/sw")
    assert target.compiler == "p4c-on-path"     # a bare name stays a name for PATH


def test_a_missing_switch_is_refused_naming_the_variable_that_chose_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "simple_switch_grpc"
    with pytest.raises(TargetError, match=rf"SWITCH='{missing}' is not an executable program"):
        Target.from_environment({"SWITCH": str(missing)}).require_switch()
    not_executable = tmp_path / "switch"
    not_executable.write_text("#!/bin/sh\n")
    with pytest.raises(TargetError, match="SWITCH="):
        Target.from_environment({"SWITCH": str(not_executable)}).require_switch()
    os.chmod(not_executable, 0o755)
    assert Target.from_environment({"SWITCH": str(not_executable)}).require_switch() == str(not_executable)


def test_a_missing_default_names_target(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(TargetError, match=r"TARGET=bmv2 runs 'p4c-bm2-ss', which is not an executable "
                                          r"program \(install BMv2 and p4c, or set P4C\)"):
        Target.from_environment({"TARGET": "bmv2"}).require_compiler()
