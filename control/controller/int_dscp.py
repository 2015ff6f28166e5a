"""Which DSCP the compiled fabric parses as INT, read from its BMv2 JSON.

fabric.p4 recognises INT-MD by a DSCP value/mask fixed at compile time (INT_DSCP,
INT_DSCP_MASK in p4src/include/define.p4), not by a value set the controller fills:
BMv2's P4Runtime server cannot write value sets. The INT policy's DSCP is what INT
sources mark, so it must be one the program parses, or INT would silently stop at the
first hop. Both targets run the same BMv2 JSON, so the check reads it there.
"""
from __future__ import annotations

import json

INT_PARSE_STATE = "check_int"
INT_NEXT_STATE = "check_int_shim"
DSCP_BITS = 6


class IntDscpError(ValueError):
    """The device config does not parse INT the way the policy marks it."""


def _field_bytes(program: dict, field: list[str]) -> int:
    """Bytes a select key field takes in a BMv2 transition value (bits rounded up)."""
    header_types = {t["name"]: t for t in program.get("header_types", [])}
    for header in program.get("headers", []):
        if header["name"] == field[0]:
            for name, bits, *_ in header_types[header["header_type"]]["fields"]:
                if name == field[1]:
                    return (bits + 7) // 8
    raise IntDscpError(f"select key field {'.'.join(field)} is not in the program")


def parsed_int_dscp(device_config: bytes, where: str = "device config") -> tuple[int, int]:
    """(value, mask) of the DSCP match that leads the parser into the INT shim."""
    try:
        program = json.loads(device_config)
    except ValueError as exc:
        raise IntDscpError(f"{where}: not BMv2 JSON ({exc})") from None
    for parser in program.get("parsers", []):
        for state in parser.get("parse_states", []):
            if state.get("name") != INT_PARSE_STATE:
                continue
            # A transition value concatenates the key fields, each in whole bytes.
            keys = [k["value"] for k in state.get("transition_key", []) if k["type"] == "field"]
            if ["ipv4", "dscp"] not in keys:
                break
            widths = [_field_bytes(program, k) for k in keys]
            at = keys.index(["ipv4", "dscp"])
            shift = 8 * sum(widths[at + 1:])
            field_mask = (1 << (8 * widths[at])) - 1
            for transition in state.get("transitions", []):
                if transition.get("next_state") == INT_NEXT_STATE and transition.get("value"):
                    value = int(transition["value"], 16)
                    mask = int(transition["mask"], 16) if transition.get("mask") else -1
                    dscp_mask = (1 << DSCP_BITS) - 1
                    return ((value >> shift) & field_mask & dscp_mask,
                            (mask >> shift) & field_mask & dscp_mask)
    raise IntDscpError(f"{where}: no parser state {INT_PARSE_STATE!r} selecting on the DSCP "
                       f"into {INT_NEXT_STATE!r}: not a fabric.p4 build?")


def check_int_dscp(device_config: bytes, dscp: int, where: str = "device config") -> None:
    """IntDscpError unless packets marked ``dscp`` are parsed as INT by this program."""
    value, mask = parsed_int_dscp(device_config, where)
    if dscp & mask != value & mask:
        raise IntDscpError(
            f"INT DSCP {dscp:#04x} is not parsed as INT by {where}, which recognises DSCP "
            f"{value:#04x} under mask {mask:#04x} (INT_DSCP/INT_DSCP_MASK, fixed at compile "
            f"time): set the policy's int.dscp to {value:#04x} or rebuild with "
            f"-DINT_DSCP={dscp:#04x}")
