"""lab.process and lab.switch.SwitchProcess on real child processes."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lab.errors import NotReady, ProcessError
from lab.process import ManagedProcess
from lab.switch import SwitchProcess


def python(code: str) -> list[str]:
    return [sys.executable, "-u", "-c", code]


def gone(pid: int) -> bool:
    """No process with this PID any more (reaped, not a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_ready_line_output_and_log(tmp_path: Path) -> None:
    log = tmp_path / "child.log"
    with ManagedProcess("child", python("import sys; print('hello'); print('oops', file=sys.stderr);"
                                        "print('ready 42')"), log) as child:
        assert child.wait_for_line("ready", 30) == "ready 42"
        assert child.wait(30) == 0
    assert child.output.splitlines()[0] == "hello" and "oops" in child.output
    assert log.read_text().splitlines() == ["hello", "oops", "ready 42"]


def test_readiness_timeout_is_clear_and_the_child_is_gone() -> None:
    with pytest.raises(NotReady) as caught:
        with ManagedProcess("sleeper", python("print('started'); import time; time.sleep(600)")) as child:
            child.wait_for_line("started", 30)
            child.wait_until(lambda: False, "listening on port 1", 0.3)
    assert str(caught.value).startswith("sleeper: not listening on port 1 within 0.3 s:\nstarted")
    assert child.popen.returncode is not None and gone(child.pid)


def test_a_line_never_printed_times_out_naming_it() -> None:
    with ManagedProcess("quiet", python("import time; time.sleep(600)")) as child:
        with pytest.raises(NotReady, match="quiet did not print 'ready' within 0.2 s"):
            child.wait_for_line("ready", 0.2)
    assert gone(child.pid)


def test_exiting_before_ready_says_so_with_the_output() -> None:
    child = ManagedProcess("crash", python("import sys; print('bad config'); sys.exit(3)"))
    with pytest.raises(ProcessError, match=r"crash exited \(status 3\) before printing 'ready':\nbad config"):
        child.wait_for_line("ready", 30)
    child2 = ManagedProcess("crash2", python("import sys; print('no port'); sys.exit(4)"))
    with pytest.raises(ProcessError, match=r"crash2 exited \(status 4\) before its port accepted:\nno port"):
        child2.wait_until(lambda: False, "its port accepted", 60)


def test_send_line_reaches_stdin() -> None:
    with ManagedProcess("echo", python("import sys; print('got', sys.stdin.readline().strip())"),
                        stdin=subprocess.PIPE) as child:
        child.send_line("go")
        assert child.wait_for_line("got", 30) == "got go"
    with ManagedProcess("no-stdin", python("pass")) as child:
        with pytest.raises(ProcessError, match="started without stdin=subprocess.PIPE"):
            child.send_line("go")


def test_stop_kills_a_child_that_ignores_sigterm() -> None:
    child = ManagedProcess("stubborn", python("import signal, time; signal.signal(signal.SIGTERM, "
                                              "signal.SIG_IGN); print('ready'); time.sleep(600)"))
    child.wait_for_line("ready", 30)
    assert child.stop(timeout=0.5) == -9
    assert gone(child.pid)


def test_stderr_kept_apart() -> None:
    with ManagedProcess("two", python("import sys; print('out'); print('err', file=sys.stderr)"),
                        separate_stderr=True) as child:
        assert child.wait(30) == 0
    assert child.stderr == "err" and set(child.output.splitlines()) == {"out", "err"}


def test_switch_process_not_ready_is_killed() -> None:
    popen = subprocess.Popen(python("import sys, time; print('starting', file=sys.stderr); time.sleep(600)"),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with pytest.raises(ProcessError, match=r"p4sim-switch not ready within 0.5 s: starting"):
        SwitchProcess(popen, 0.5)
    assert popen.returncode is not None and gone(popen.pid)


def test_switch_process_ready_line_and_terminate() -> None:
    popen = subprocess.Popen([sys.executable, "-m", "p4sim.target.switch_cli", "--no-p4", "--no-grpc",
                              "--thrift-port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    switch = SwitchProcess(popen, 60)
    assert switch.ready_line.startswith("p4sim-switch ready: device 0")
    status, stderr = switch.terminate()
    assert status == 0, stderr
    assert gone(popen.pid)
