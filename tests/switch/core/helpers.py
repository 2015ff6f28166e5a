"""Test helpers: load the reference programs, read STF files, and a minimal
hand-made v1model architecture (unicast only) around Program."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from p4sim.switch.program import Program
from p4sim.switch.runtime_api import ExactParam, LpmParam, TernaryParam
from p4sim.reference import reference_dir

REFERENCE = reference_dir()
DROP_PORT = 511


def load_reference(name: str, **kwargs) -> Program:
    with open(REFERENCE / "p4c-out" / f"{name}.json") as fh:
        return Program.load(json.load(fh), **kwargs)


def reference_json(name: str) -> dict:
    with open(REFERENCE / "p4c-out" / f"{name}.json") as fh:
        return json.load(fh)


@dataclass
class StfCase:
    """One `packet` line of an STF file and the `expect` lines that follow it."""

    port: int
    data: bytes
    expects: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class StfFile:
    adds: list[tuple[str, list[str], str, list[tuple[str, str]]]] = field(default_factory=list)
    cases: list[StfCase] = field(default_factory=list)


def read_stf(name: str) -> StfFile:
    """Just enough of the STF format for the reference files: add, packet, expect."""
    stf = StfFile()
    for raw in (REFERENCE / "stf" / f"{name}.stf").read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] == "add":
            match = re.match(r"add\s+(\S+)\s+(.*?)\s*(\S+)\((.*)\)$", line)
            assert match, line
            table, keys, action, args = match.groups()
            arg_pairs = [tuple(a.split(":")) for a in args.split(",") if a]
            stf.adds.append((table, keys.split(), action, arg_pairs))
        elif words[0] == "packet":
            stf.cases.append(StfCase(int(words[1]), bytes.fromhex("".join(words[2:]))))
        elif words[0] == "expect":
            stf.cases[-1].expects.append((int(words[1]), "".join(words[2:]).upper()))
    return stf


def stf_key_param(text: str, kind: str):
    """'name:0x0a000000/8' style key values into runtime params."""
    value = text.split(":", 1)[1]
    if "/" in value:
        v, plen = value.split("/")
        return LpmParam(int(v, 0), int(plen))
    if "&&&" in value:
        v, m = value.split("&&&")
        return TernaryParam(int(v, 0), int(m, 0))
    return ExactParam(int(value, 0))


def install_stf_entries(program: Program, stf: StfFile) -> None:
    for table, keys, action, args in stf.adds:
        rt = program.runtime.tables[table]
        params = [stf_key_param(k, el.match_kind) for k, el in zip(keys, rt.key_spec)]
        rt.add_entry(params, action, [int(v, 0) for _, v in args])


def run_unicast(program: Program, port: int, data: bytes,
                queue_meta: dict[str, int] | None = None) -> tuple[int | None, bytes | None, object]:
    """parse -> verify -> ingress -> (unicast by hand) -> egress -> update -> deparse.

    Returns (egress port or None when dropped, output bytes, the packet)."""
    pkt = program.new_packet(data, port)
    program.parse(pkt)
    program.verify_checksums(pkt)
    program.ingress(pkt)
    espec = pkt.get_std("egress_spec")
    if espec == DROP_PORT or pkt.arch.drop_errors:
        return None, None, pkt
    pkt.set_std("egress_port", espec)
    for name, value in (queue_meta or {}).items():
        pkt.set_std(name, value)
    program.egress(pkt)
    if pkt.get_std("egress_spec") == DROP_PORT or pkt.arch.drop_errors:
        return None, None, pkt
    program.update_checksums(pkt)
    out = program.deparse(pkt)
    if pkt.arch.truncate_length is not None:
        out = out[:pkt.arch.truncate_length]
    return espec, out, pkt


def stf_matches(expected: str, actual: bytes) -> bool:
    """STF comparison: '*' is one wildcard hex digit."""
    got = actual.hex().upper()
    if len(got) != len(expected):
        return False
    return all(e == "*" or e == g for e, g in zip(expected, got))
