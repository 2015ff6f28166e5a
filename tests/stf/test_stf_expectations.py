"""Matching outputs to expectations: per-port order, wildcards, length, extras."""
from __future__ import annotations

from p4sim.stf.commands import Expect
from p4sim.stf.errors import StfLocation
from p4sim.stf.expectations import check_outputs, mismatch


def expect(port: int, pattern: str | None, exact: bool = False, line: int = 1) -> Expect:
    return Expect(port, pattern, exact, StfLocation("t.stf", line))


def test_pattern_prefix_and_wildcards() -> None:
    assert mismatch("00*1", False, bytes([0x00, 0xF1, 0x99])) is None
    assert "too short" in mismatch("0011", False, bytes([0x00]))
    assert "too long" in mismatch("0011", True, bytes([0x00, 0x11, 0x22]))
    assert "1 byte(s) differ" in mismatch("0011", False, bytes([0x00, 0x12]))


def test_order_is_per_port_not_global() -> None:
    expects = [expect(1, "01"), expect(2, "02"), expect(1, "03")]
    verdict = check_outputs(expects, [(2, b"\x02"), (1, b"\x01"), (1, b"\x03")])
    assert verdict.passed


def test_swapped_packets_on_one_port_fail_with_a_byte_diff() -> None:
    verdict = check_outputs([expect(1, "0102", line=3), expect(1, "0304", line=4)],
                            [(1, b"\x03\x04"), (1, b"\x01\x02")])
    assert not verdict.passed
    text = verdict.render()
    assert "expect port 1 (line 3): FAILED" in text
    assert "byte 0: expected 01, received 03" in text
    assert "^^ ^^" in text


def test_missing_and_unexpected_packets() -> None:
    verdict = check_outputs([expect(1, "01"), expect(1, "02")], [(1, b"\x01"), (5, b"\xee")])
    assert not verdict.passed
    text = verdict.render()
    assert "received nothing" in text
    assert "unexpected packet on port 5 (1 bytes): EE" in text


def test_dataless_expect_accepts_any_packets_on_its_port() -> None:
    verdict = check_outputs([expect(3, None)], [(3, b"\x01"), (3, b"\x02")])
    assert verdict.passed
    assert not check_outputs([], [(3, b"\x01")]).passed


def test_mixing_dataless_and_data_expectations_on_a_port_fails() -> None:
    verdict = check_outputs([expect(3, None), expect(3, "01")], [(3, b"\x01")])
    assert not verdict.passed
    assert "without data" in verdict.render()


def test_zero_byte_outputs_are_not_packets() -> None:
    # A packet deparsed to nothing never leaves a port, so it is neither
    # unexpected nor consumed by an expectation.
    assert check_outputs([], [(2, b"")]).passed
    verdict = check_outputs([expect(1, "01")], [(1, b""), (1, b"\x01")])
    assert verdict.passed
