"""Comparison 4: p4sim's STF result against BMv2's recorded one.

Both sides are reduced to the same failure facts, so "both fail the same way" means
the same set: a packet missing on a port, a packet that differs (both contents), an
unexpected packet. The recording runner writes ``FAIL port P: unexpected packet HEX``,
``FAIL port P: expected packet K missing: HEX``, ``FAIL port P: packet K`` followed by
``expected HEX`` / ``got HEX``, then ``FAILED (N)`` or ``PASS``; ``unsupported: CMD``
when it could not run a command (exit code 3).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from p4sim.stf import commands as c
from p4sim.stf.runner import StfResult

_UNEXPECTED = re.compile(r"FAIL port (\d+): unexpected packet ([0-9A-Fa-f*]+)$")
_MISSING = re.compile(r"FAIL port (\d+): expected packet (\d+) missing: ([0-9A-Fa-f*]+)\$?$")
_DIFFERS = re.compile(r"FAIL port (\d+): packet (\d+)$")
_EXPECTED = re.compile(r"expected\s+([0-9A-Fa-f*]+)\$?$")
_GOT = re.compile(r"got\s+([0-9A-Fa-f]+)$")
_SUMMARY = re.compile(r"(PASS|FAILED \(\d+\))$")


class Fact(NamedTuple):
    """One way an STF run failed: kind ``missing`` (expected set), ``differs`` (expected
    and received set), ``unexpected`` (received set) or ``other`` (text set)."""

    kind: str
    port: int | None
    position: int | None = None
    expected: str | None = None
    received: str | None = None
    text: str | None = None

    def render(self) -> str:
        if self.kind == "missing":
            return f"port {self.port}: expected packet {self.position} missing: {self.expected}"
        if self.kind == "differs":
            return (f"port {self.port}: packet {self.position} expected {self.expected} "
                    f"got {self.received}")
        if self.kind == "unexpected":
            return f"port {self.port}: unexpected packet {self.received}"
        return str(self.text)


def unsupported_commands(log: str) -> list[str]:
    return [line.split(":", 1)[1].strip() for line in log.splitlines()
            if line.startswith("unsupported:")]


def recorded_facts(log: str) -> list[Fact]:
    """The failure facts in a recorded ``bmv2-stf.log``."""
    facts: list[Fact] = []
    pending: tuple[int, int] | None = None
    expected: str | None = None
    for raw in log.splitlines():
        line = raw.strip()
        if not line or _SUMMARY.match(line) or line.startswith("unsupported:"):
            continue
        if pending is not None:
            if m := _EXPECTED.match(line):
                expected = m.group(1).upper()
                continue
            if m := _GOT.match(line):
                facts.append(Fact("differs", pending[0], pending[1], expected, m.group(1).upper()))
                pending, expected = None, None
                continue
        if m := _UNEXPECTED.match(line):
            facts.append(Fact("unexpected", int(m.group(1)), received=m.group(2).upper()))
        elif m := _MISSING.match(line):
            facts.append(Fact("missing", int(m.group(1)), int(m.group(2)), m.group(3).upper()))
        elif m := _DIFFERS.match(line):
            pending = (int(m.group(1)), int(m.group(2)))
        else:
            facts.append(Fact("other", None, text=line))
    return facts


def run_facts(result: StfResult) -> list[Fact]:
    """The same facts for a run of the runner (indices count a port's expectations from 0)."""
    facts: list[Fact] = []
    per_port: dict[int, int] = {}
    for outcome in result.verdict.outcomes:
        expect = outcome.expect
        if expect.pattern is None:
            continue
        index = per_port.get(expect.port, 0)
        per_port[expect.port] = index + 1
        if outcome.met:
            continue
        if outcome.received is None and (outcome.problem or "").startswith("no packet"):
            facts.append(Fact("missing", expect.port, index, expect.pattern))
        elif outcome.received is not None:
            facts.append(Fact("differs", expect.port, index, expect.pattern,
                              outcome.received.hex().upper()))
        else:
            facts.append(Fact("other", expect.port, text=f"port {expect.port}: {outcome.problem}"))
    for port, data in result.verdict.unexpected:
        facts.append(Fact("unexpected", port, received=data.hex().upper()))
    facts.extend(Fact("other", None, text=error) for error in result.command_errors)
    return facts


def stale_facts(facts: list[Fact], statements: list[c.Command]) -> list[Fact]:
    """Recorded facts naming an expectation the STF file no longer has: the recording
    was made with another version of the test."""
    expected = {(s.port, s.pattern) for s in statements if isinstance(s, c.Expect)}
    return [f for f in facts if f.kind in ("missing", "differs") and (f.port, f.expected) not in expected]
