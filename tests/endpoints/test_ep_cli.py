"""Command-line errors of the endpoints: refused with the reason, before any socket."""
from __future__ import annotations

import pytest

from endpoints import receiver, sender


@pytest.mark.parametrize("argv, message", [
    (["--credit-rate", "0"], "credit rate must be > 0 bytes/s, got 0.0"),
    (["--credit-window", "100"], "credit window (100 B) must hold one chunk (8192 B)"),
    (["--ack-every", "0"], "ack_every must be >= 1 packet, got 0"),
    (["--timeout", "-1"], "timeout must be > 0 s, got -1.0"),
    (["--flows", "0"], "flows must be >= 1, got 0"),
    (["--flows", "2", "--out", "x.bin"], "--out holds one flow; with --flows > 1 use --out-dir"),
    (["--out-dir", "/nonexistent/dir"], "--out-dir /nonexistent/dir: not a directory"),
])
def test_receiver_refuses_bad_settings(argv, message, capsys):
    assert receiver.main(["--bind", "10.0.0.2", *argv]) == 2
    assert f"receiver: {message}" in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--bytes", "-5"], "--bytes must be >= 0, got -5"),
    (["--bytes", "10", "--mss", "0"], "mss must be >= 1 byte, got 0"),
    (["--bytes", "10", "--initial-window", "0"], "initial_window must be >= 1 packet, got 0"),
])
def test_sender_refuses_bad_settings(argv, message, capsys):
    assert sender.main(["--src", "10.0.0.1", "--dst", "10.0.0.2", *argv]) == 2
    assert f"sender: {message}" in capsys.readouterr().err


def test_sender_needs_exactly_one_data_source(capsys):
    with pytest.raises(SystemExit) as exit_info:
        sender.main(["--src", "10.0.0.1", "--dst", "10.0.0.2"])
    assert exit_info.value.code == 2
    assert "one of the arguments --bytes --file is required" in capsys.readouterr().err


def test_sender_reports_an_unreadable_file(tmp_path, capsys):
    missing = tmp_path / "nothing.bin"
    assert sender.main(["--src", "10.0.0.1", "--dst", "10.0.0.2", "--file", str(missing)]) == 2
    assert f"sender: cannot read --file {missing}: No such file or directory" in \
        capsys.readouterr().err


def test_receiver_refuses_an_unknown_credit_carrier(capsys):
    with pytest.raises(SystemExit) as exit_info:
        receiver.main(["--bind", "10.0.0.2", "--credit-carrier", "pigeon"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'pigeon'" in capsys.readouterr().err
