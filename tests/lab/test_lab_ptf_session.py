"""ptf_tests/run.sh (python -m lab.ptf_session): its refusals and its teardown (root)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from lab.readiness import wait_until

ROOT = Path(__file__).resolve().parents[2]
RUN = ROOT / "ptf_tests/run.sh"


def run(env: dict[str, str], *args: str) -> tuple[int, str, int]:
    """(exit status, stderr, PID): run.sh execs the session, which names its namespace
    fb-ptf-<its PID>."""
    process = subprocess.Popen([str(RUN), *args], env={**os.environ, **env}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, cwd=ROOT)
    _out, err = process.communicate(timeout=600)
    return process.returncode, err, process.pid


@pytest.mark.netns
def test_a_switch_that_never_comes_up_fails_with_its_log_and_leaves_no_namespace(tmp_path: Path) -> None:
    switch = tmp_path / "broken_switch"
    switch.write_text("#!/bin/sh\necho \"cannot open $2\" >&2\nexit 7\n")
    switch.chmod(0o755)
    status, stderr, pid = run({"SWITCH": str(switch), "TMPDIR": str(tmp_path)})  # its kept logs
    assert status == 1, stderr
    assert "switch did not come up; its log (" in stderr and "/fb-ptf-logs." in stderr
    assert "exited (status 7)" in stderr and "cannot open 1@swp1" in stderr
    assert not Path(f"/var/run/netns/fb-ptf-{pid}").exists()


@pytest.mark.netns
def test_a_passing_session_removes_its_logs_unless_asked_to_keep_them(tmp_path: Path) -> None:
    """The logs go under TMPDIR (tempfile.mkdtemp): nothing is left there after a pass,
    and --keep-logs leaves the switch's and ptf's logs, named on stderr."""
    for keep in (False, True):
        scratch = tmp_path / ("kept" if keep else "removed")
        scratch.mkdir()
        args = ["--keep-logs"] if keep else []
        status, stderr, _pid = run({"TMPDIR": str(scratch)}, *args, "test_ecn.ShallowQueueNotMarked")
        assert status == 0, stderr
        left = list(scratch.glob("fb-ptf-logs.*"))
        if keep:
            assert len(left) == 1 and f"logs in {left[0]}" in stderr
            assert {"switch.log", "ptf.log"} <= {p.name for p in left[0].iterdir()}
        else:
            assert left == [] and "logs in" not in stderr


@pytest.mark.netns
def test_a_bad_target_is_refused_naming_the_variable(tmp_path: Path) -> None:
    status, stderr, _pid = run({"TARGET": "bvm2", "TMPDIR": str(tmp_path)})
    assert status == 1
    assert "TARGET='bvm2' is not a target: use p4sim or bmv2" in stderr


@pytest.mark.netns
def test_sigterm_tears_everything_down_and_exits_130(tmp_path: Path) -> None:
    pid_file = tmp_path / "switch.pid"
    switch = tmp_path / "silent_switch"  # runs, never listens: the session waits for it
    switch.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 600\n")
    switch.chmod(0o755)
    process = subprocess.Popen([str(RUN)], env={**os.environ, "SWITCH": str(switch),
                                                "TMPDIR": str(tmp_path)}, cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    namespace = Path(f"/var/run/netns/fb-ptf-{process.pid}")
    try:
        wait_until(lambda: pid_file.exists() and pid_file.read_text().strip() != "", "switch started", 120)
        assert namespace.exists()
        process.terminate()
        _out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert not namespace.exists()
    assert not Path(f"/proc/{pid_file.read_text().strip()}").exists()  # the switch was stopped
