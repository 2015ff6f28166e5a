"""Switch-wide commands: set_queue_depth, set_queue_rate, switch_info, show_ports,
stats (p4sim's counters as JSON)."""
from __future__ import annotations

import json

from p4sim.switch.cli_commands.errors import usage_error
from p4sim.switch.cli_commands.session import Command, Session, exactly, integer

QUEUE_DEPTH = "set_queue_depth DEPTH [PORT [PRIORITY]]"
QUEUE_RATE = "set_queue_rate PPS [PORT [PRIORITY]]"
SWITCH_INFO_WIDTH = 25   # simple_switch_CLI: 5 + the longest attribute name


def _queue(s: Session, args: list[str], cmd: str, usage: str) -> None:
    if not args:
        raise usage_error("Insufficient number of args", usage)
    if len(args) > 3:
        raise usage_error(f"Wrong number of args, expected at most 3 but got {len(args)}",
                          usage)
    if cmd == "set_queue_rate":
        try:
            value: float = float(args[0])
        except ValueError:
            raise usage_error("Bad format for rate_pps, expected a number", usage) from None
        key = "pps"
    else:
        value, key = integer(args[0], "nb_pkts", usage), "depth"
    port = integer(args[1], "egress_port", usage) if len(args) > 1 else None
    priority = integer(args[2], "priority", usage) if len(args) > 2 else None
    s.call(cmd, **{key: value, "port": port, "priority": priority})


def set_queue_depth(s: Session, args: list[str]) -> None:
    _queue(s, args, "set_queue_depth", QUEUE_DEPTH)


def set_queue_rate(s: Session, args: list[str]) -> None:
    _queue(s, args, "set_queue_rate", QUEUE_RATE)


def switch_info(s: Session, args: list[str]) -> None:
    exactly(args, 0, "switch_info")
    for name, value in s.call("switch_info").items():
        s.print(f"{name:{SWITCH_INFO_WIDTH}}: {value}")


def show_ports(s: Session, args: list[str]) -> None:
    exactly(args, 0, "show_ports")
    s.print(f"{'port #':^10}{'iface name':^20}{'status':^10}extra info")
    s.print("=" * 50)
    for row in s.call("show_ports"):
        s.print(f"{row['port']:^10}{row['iface']:^20}{'UP':^10}")


def stats(s: Session, args: list[str]) -> None:
    exactly(args, 0, "stats")
    s.print(json.dumps(s.call("stats"), indent=2, sort_keys=True))


COMMANDS = {
    "set_queue_depth": Command(set_queue_depth, QUEUE_DEPTH),
    "set_queue_rate": Command(set_queue_rate, QUEUE_RATE),
    "switch_info": Command(switch_info, "switch_info"),
    "show_ports": Command(show_ports, "show_ports"),
    "stats": Command(stats, "stats"),
}
