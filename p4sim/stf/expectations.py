"""Compare what came out of the switch with the STF ``expect`` lines.

As in p4c's runner: expectations are ordered per port (not across ports); a pattern
may be shorter than the packet unless it ends in ``$``; an ``expect PORT`` without
data accepts any packets on that port; any other packet is unexpected.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from p4sim.stf.commands import Expect

_MAX_LISTED_DIFFS = 12


@dataclass(frozen=True)
class Outcome:
    """One expectation and the packet it was compared with."""

    expect: Expect
    received: bytes | None
    problem: str | None  # None when met

    @property
    def met(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class Verdict:
    outcomes: tuple[Outcome, ...]
    unexpected: tuple[tuple[int, bytes], ...]

    @property
    def passed(self) -> bool:
        return all(o.met for o in self.outcomes) and not self.unexpected

    def render(self) -> str:
        lines = []
        for outcome in self.outcomes:
            lines.extend(render_outcome(outcome))
        for port, data in self.unexpected:
            lines.append(f"unexpected packet on port {port} ({len(data)} bytes): {data.hex().upper()}")
        return "\n".join(lines)


def mismatch(pattern: str, exact_length: bool, data: bytes) -> str | None:
    """Why ``data`` does not fit ``pattern`` (one char per nibble), or None."""
    received = data.hex().upper()
    if len(received) < len(pattern):
        return f"packet too short: {len(data)} bytes, expected at least {(len(pattern) + 1) // 2}"
    if exact_length and len(received) != len(pattern):
        return f"packet too long: {len(data)} bytes, expected exactly {len(pattern) // 2}"
    differing = differing_bytes(pattern, received)
    if differing:
        return f"{len(differing)} byte(s) differ"
    return None


def differing_bytes(pattern: str, received_hex: str) -> list[int]:
    """Offsets of bytes whose non-``*`` nibbles differ."""
    offsets: list[int] = []
    for index, want in enumerate(pattern):
        if index < len(received_hex) and want != "*" and want != received_hex[index]:
            if not offsets or offsets[-1] != index // 2:
                offsets.append(index // 2)
    return offsets


def check_outputs(expects: list[Expect], outputs: list[tuple[int, bytes]]) -> Verdict:
    """Pair expectations with the packets that left each port, in order."""
    # No frame of zero bytes ever leaves a port (p4c's BMv2 runs record none), so
    # a packet deparsed to nothing is not an output.
    outputs = [(port, data) for port, data in outputs if data]
    by_port: dict[int, list[bytes]] = defaultdict(list)
    for port, data in outputs:
        by_port[port].append(data)
    any_ports = {e.port for e in expects if e.pattern is None}
    next_index: dict[int, int] = defaultdict(int)
    outcomes = []
    for expect in expects:
        if expect.pattern is None:
            outcomes.append(Outcome(expect, None, None))
            continue
        if expect.port in any_ports:
            outcomes.append(Outcome(expect, None, f"port {expect.port} also has an 'expect {expect.port}' "
                                                  "without data, which accepts anything: keep one form"))
            continue
        packets = by_port.get(expect.port, [])
        index = next_index[expect.port]
        next_index[expect.port] += 1
        if index >= len(packets):
            outcomes.append(Outcome(expect, None, f"no packet came out of port {expect.port} "
                                                  f"({len(packets)} came out, this is #{index + 1})"))
            continue
        problem = mismatch(expect.pattern, expect.exact_length, packets[index])
        outcomes.append(Outcome(expect, packets[index], problem))
    unexpected = []
    for port, data in outputs:
        if port in any_ports:
            continue
        if next_index[port] > 0:
            next_index[port] -= 1  # consumed by an expectation
            continue
        unexpected.append((port, data))
    return Verdict(tuple(outcomes), tuple(unexpected))


def render_outcome(outcome: Outcome) -> list[str]:
    expect = outcome.expect
    where = f"line {expect.location.line}"
    if expect.pattern is None:
        return [f"expect port {expect.port} ({where}): any packets accepted"]
    status = "ok" if outcome.met else f"FAILED: {outcome.problem}"
    lines = [f"expect port {expect.port} ({where}): {status}",
             f"  expected {_spaced(expect.pattern)}{'$' if expect.exact_length else ''}"]
    if outcome.received is None:
        lines.append("  received nothing")
        return lines
    received = outcome.received.hex().upper()
    lines.append(f"  received {_spaced(received)}")
    if not outcome.met:
        offsets = differing_bytes(expect.pattern, received)
        if offsets:
            marks = "".join("^^ " if i in offsets else "   " for i in range((len(received) + 1) // 2))
            lines.append(f"  diff     {marks.rstrip()}")
            for offset in offsets[:_MAX_LISTED_DIFFS]:
                want = expect.pattern[2 * offset:2 * offset + 2]
                got = received[2 * offset:2 * offset + 2]
                lines.append(f"    byte {offset}: expected {want}, received {got}")
            if len(offsets) > _MAX_LISTED_DIFFS:
                lines.append(f"    ... and {len(offsets) - _MAX_LISTED_DIFFS} more")
    return lines


def _spaced(hex_text: str) -> str:
    return " ".join(hex_text[i:i + 2] for i in range(0, len(hex_text), 2))
