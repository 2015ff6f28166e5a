"""The fabric's constants are written once in P4 (p4src/include/define.p4) and once in
Python (mostly wire_formats/layers.py); this test holds the two equal.

Every ``const`` and ``#define`` of define.p4 is either mapped to its Python name(s) or
listed as P4-only with a reason, so a constant added to the P4 without that decision
fails here. The reader is strict: a const or define line it cannot read fails too,
rather than being skipped.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

DEFINE_P4 = Path(__file__).resolve().parents[2] / "p4src" / "include" / "define.p4"

# P4 name -> "module.attribute" (or several: each must equal the P4 value).
PYTHON: dict[str, str | tuple[str, ...]] = {
    "CPU_PORT": ("wire_formats.layers.CPU_PORT",
                 "control.topology.Switch.cpu_port"),  # topology stays scapy-free
    "ETHERTYPE_IPV4": "wire_formats.layers.ETHERTYPE_IPV4",
    "ETHERTYPE_VLAN": "wire_formats.layers.ETHERTYPE_VLAN",
    "IP_PROTO_TCP": "wire_formats.layers.IP_PROTO_TCP",
    "IP_PROTO_UDP": "wire_formats.layers.IP_PROTO_UDP",
    "ECN_CE": "wire_formats.layers.ECN_CE",
    "UDP_PORT_UEC": "wire_formats.layers.UDP_PORT_UEC",
    "PDS_TYPE_RUD_REQ": "wire_formats.layers.PDS_RUD_REQ",
    "PDS_TYPE_ROD_REQ": "wire_formats.layers.PDS_ROD_REQ",
    "PDS_TYPE_RUDI_REQ": "wire_formats.layers.PDS_RUDI_REQ",
    "PDS_TYPE_UUD_REQ": "wire_formats.layers.PDS_UUD_REQ",
    "PDS_TYPE_CONTROL": "wire_formats.layers.PDS_CONTROL",
    "PDS_TYPE_RUD_CC_REQ": "wire_formats.layers.PDS_RUD_CC_REQ",
    "PDS_TYPE_ROD_CC_REQ": "wire_formats.layers.PDS_ROD_CC_REQ",
    "PDS_CTL_CREDIT": "wire_formats.layers.CTL_CREDIT",
    "PUNT_REASON_ACL": "wire_formats.layers.PUNT_REASON_ACL",
    "INT_DSCP": "wire_formats.layers.DSCP_INT",
    "INT_DSCP_MASK": "wire_formats.layers.DSCP_INT_MASK",
    "INT_TYPE_MD": "wire_formats.layers.INT_TYPE_MD",
    "INT_VERSION": "wire_formats.layers.INT_VERSION",
    "INT_MD_HEADER_WORDS": "wire_formats.layers.INT_MD_HEADER_WORDS",
    "INT_BIT_NODE_ID": "wire_formats.layers.INT_BIT_NODE_ID",
    "INT_BIT_L1_PORTS": "wire_formats.layers.INT_BIT_L1_PORTS",
    "INT_BIT_HOP_LATENCY": "wire_formats.layers.INT_BIT_HOP_LATENCY",
    "INT_BIT_QUEUE": "wire_formats.layers.INT_BIT_QUEUE",
    "INT_BIT_INGRESS_TS": "wire_formats.layers.INT_BIT_INGRESS_TS",
    "INT_BIT_EGRESS_TS": "wire_formats.layers.INT_BIT_EGRESS_TS",
    "INT_BIT_L2_PORTS": "wire_formats.layers.INT_BIT_L2_PORTS",
    "INT_BIT_TX_UTIL": "wire_formats.layers.INT_BIT_TX_UTIL",
    "INT_BIT_BUFFER": "wire_formats.layers.INT_BIT_BUFFER",
    "INT_UNAVAILABLE": "wire_formats.layers.INT_UNAVAILABLE",
    "REPORT_VERSION": "wire_formats.layers.REPORT_VERSION",
    "REPORT_TYPE_INT": "wire_formats.layers.REPORT_TYPE_INT",
    "REPORT_INNER_IPV4": "wire_formats.layers.REPORT_INNER_IPV4",
    "REPORT_FIXED_BYTES": "wire_formats.layers.REPORT_FIXED_BYTES",
    "REPORT_INT_MAIN_BYTES": ("wire_formats.layers.REPORT_INT_MAIN_BYTES",
                              "control.collector.scapy_decode.INT_REPORT_FIXED_BYTES"),
    "REPORT_LATENCY_STEP": "control.controller.int_report_mode.LATENCY_STEP_US",
    "REPORT_QUEUE_STEP": "control.controller.int_report_mode.QUEUE_STEP_PACKETS",
    "MP_CLASS_OTHER": "control.controller.program.MP_CLASS_OTHER",
    "MP_CLASS_UEC": "control.controller.program.MP_CLASS_UEC",
    "MP_CLASS_ROCEV2": "control.controller.program.MP_CLASS_ROCEV2",
    "MP_CLASS_TCP": "control.controller.program.MP_CLASS_TCP",
    "MP_CLASS_OTHER_UDP": "control.controller.program.MP_CLASS_OTHER_UDP",
}

# P4 name -> why Python has no counterpart.
P4_ONLY: dict[str, str] = {
    "MP_MODE_ECMP": "set by the action the controller picks (by name), never written as a number",
    "MP_MODE_ENTROPY": "set by the action the controller picks (by name)",
    "MP_MODE_ROUND_ROBIN": "set by the action the controller picks (by name)",
    "REPORT_INNER_MAX_BYTES": "the switch's cut; readers go by Report Length",
    "IPV4_FLAGS_DF": "Python sets DF through scapy (flags='DF') or the whole 16-bit word",
    "INSTANCE_EGRESS_CLONE": "v1model instance type, seen only inside the pipeline",
    "FIELD_LIST_INT_REPORT": "v1model field-list index, seen only inside the pipeline",
    "METER_RED": "v1model meter colour, seen only inside the pipeline",
    "UDP_PORT_ROCEV2": "the controller names RoCEv2 by protocol class, never by port",
}


@dataclass(frozen=True)
class P4Constant:
    name: str
    value: int
    bits: int | None  # None for a #define


_COMMENT = re.compile(r"//.*$")
_CONST = re.compile(r"^const\s+(?P<type>bit<\d+>|[A-Za-z_]\w*)\s+(?P<name>[A-Z_][A-Z0-9_]*)"
                    r"\s*=\s*(?P<value>\S+)\s*;$")
_DEFINE = re.compile(r"^#define\s+(?P<name>[A-Z_][A-Z0-9_]*)(?:\s+(?P<value>\S+))?$")
_TYPEDEF = re.compile(r"^typedef\s+bit<(?P<bits>\d+)>\s+(?P<name>\w+)\s*;$")
_GUARD = re.compile(r"^#ifndef\s+(?P<name>\w+)$")
_LITERAL = re.compile(r"^(?:\d+w)?(?P<digits>0[xX][0-9a-fA-F_]+|0[bB][01_]+|\d[\d_]*)$")


def _literal(text: str, where: str) -> int:
    match = _LITERAL.match(text)
    if not match:
        raise ValueError(f"{where}: {text!r} is not an integer literal")
    return int(match.group("digits").replace("_", ""), 0)


def read_constants(text: str, source: str = "define.p4") -> dict[str, P4Constant]:
    """Every const and #define of ``text``; raises ValueError on one it cannot read
    (an expression, a line break inside it, an unknown type) or on a name given twice."""
    widths: dict[str, int] = {}
    constants: dict[str, P4Constant] = {}
    guard: str | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.sub("", raw).strip()
        where = f"{source}:{number}"
        if "/*" in line:
            raise ValueError(f"{where}: block comments are not read; use //")
        constant: P4Constant | None = None
        if match := _TYPEDEF.match(line):
            widths[match.group("name")] = int(match.group("bits"))
        elif line.startswith("const") and line[5:6] in (" ", "\t"):
            match = _CONST.match(line)
            if not match:
                raise ValueError(f"{where}: cannot read {raw.strip()!r}")
            kind = match.group("type")
            bits = int(kind[4:-1]) if kind.startswith("bit<") else widths.get(kind)
            if bits is None:
                raise ValueError(f"{where}: type {kind} is not a typedef of bit<N> seen so far")
            constant = P4Constant(match.group("name"), _literal(match.group("value"), where), bits)
            if not 0 <= constant.value < 1 << bits:
                raise ValueError(f"{where}: {constant.value} does not fit {kind}")
        elif line.startswith("#define"):
            match = _DEFINE.match(line)
            if not match:
                raise ValueError(f"{where}: cannot read {raw.strip()!r}")
            if match.group("value") is None:
                if match.group("name") != guard:
                    raise ValueError(f"{where}: #define without a value that is not the "
                                     f"include guard")
                continue
            constant = P4Constant(match.group("name"), _literal(match.group("value"), where),
                                  None)
        elif guard is None and (match := _GUARD.match(line)):
            guard = match.group("name")
        if constant is not None:
            if constant.name in constants:
                raise ValueError(f"{where}: {constant.name} defined twice")
            constants[constant.name] = constant
    return constants


def python_value(path: str) -> object:
    """The value at "package.module.Attr.attr": the longest importable module prefix,
    then attributes."""
    parts = path.split(".")
    for split in range(len(parts) - 1, 0, -1):
        try:
            value: object = importlib.import_module(".".join(parts[:split]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[split:]:
            value = getattr(value, attribute)
        return value
    raise AssertionError(f"{path}: no importable module")


def _names(mapped: str | tuple[str, ...]) -> tuple[str, ...]:
    return (mapped,) if isinstance(mapped, str) else mapped


CONSTANTS = read_constants(DEFINE_P4.read_text())


def test_every_p4_constant_is_mapped_or_p4_only():
    assert not set(PYTHON) & set(P4_ONLY), "a constant both mapped and P4-only"
    unknown = sorted(set(CONSTANTS) - set(PYTHON) - set(P4_ONLY))
    assert not unknown, f"map these to Python or list them as P4-only: {unknown}"
    gone = sorted((set(PYTHON) | set(P4_ONLY)) - set(CONSTANTS))
    assert not gone, f"no longer in define.p4: {gone}"
    assert all(reason.strip() for reason in P4_ONLY.values())


@pytest.mark.parametrize("name", sorted(PYTHON))
def test_python_counterpart_has_the_p4_value(name):
    for path in _names(PYTHON[name]):
        value = python_value(path)
        assert isinstance(value, int) and not isinstance(value, bool), f"{path} = {value!r}"
        assert value == CONSTANTS[name].value, f"{path} = {value:#x}, {name} = " \
                                               f"{CONSTANTS[name].value:#x} in define.p4"


def test_the_reader_found_both_kinds():
    assert CONSTANTS["UDP_PORT_UEC"] == P4Constant("UDP_PORT_UEC", 4793, 16)
    assert CONSTANTS["CPU_PORT"] == P4Constant("CPU_PORT", 255, 9)  # through port_num_t
    assert CONSTANTS["INT_DSCP"] == P4Constant("INT_DSCP", 0x17, None)


@pytest.mark.parametrize("line", [
    "const bit<16> X = 1 + 2;",           # an expression
    "const bit<16> X =",                  # broken over lines
    "const widget_t X = 1;",              # a type the reader does not know
    "const bit<4> X = 16;",               # does not fit
    "#define X (1 << 2)",
    "#define STRAY_GUARD",
    "/* const bit<8> X = 1; */",          # would be skipped or read wrongly
])
def test_the_reader_refuses_what_it_cannot_read(line):
    with pytest.raises(ValueError):
        read_constants(f"#ifndef GUARD\n#define GUARD\n{line}\n")


def test_the_reader_refuses_a_name_given_twice():
    with pytest.raises(ValueError, match="twice"):
        read_constants("const bit<8> X = 1;\n#define X 2\n")
