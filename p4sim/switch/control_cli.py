"""p4sim-cli: run-time commands for a running p4sim-switch (simple_switch_CLI's role).

  p4sim-cli [--thrift-port N] set_queue_depth DEPTH [PORT [PRIO]]
  p4sim-cli [--thrift-port N] set_queue_rate PPS [PORT [PRIO]]
  p4sim-cli [--thrift-port N] show_ports | stats
  p4sim-cli [--thrift-port N] table_add TABLE ACTION KEY... => ARG... [PRIORITY]
  p4sim-cli [--thrift-port N] table_set_default TABLE ACTION [ARG...]
  p4sim-cli [--thrift-port N] mirroring_add SESSION PORT
  p4sim-cli [--thrift-port N] act_prof_create_member|act_prof_create_group|
            act_prof_add_member_to_group|table_indirect_add[_with_group] ...
  p4sim-cli [--thrift-port N] mc_mgrp_create|mc_node_create|mc_node_associate|... ...
Without a command, commands are read one per line from standard input, as
`echo "set_queue_rate 100 1" | simple_switch_CLI` does.  The switch must have been
started with `--thrift-port N` (its control channel is closed otherwise, as
simple_switch_grpc has no Thrift server); N defaults to 9090 here, as in simple_switch_CLI.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from p4sim.switch.control_channel import DEFAULT_PORT, ControlClient, ControlError
from p4sim.switch.table_commands import CommandError, split_table_add

USAGE = {
    "set_queue_depth": "set_queue_depth DEPTH [PORT [PRIORITY]]",
    "set_queue_rate": "set_queue_rate PPS [PORT [PRIORITY]]",
    "show_ports": "show_ports",
    "stats": "stats",
    "table_add": "table_add TABLE ACTION KEY... => ARG... [PRIORITY]",
    "table_set_default": "table_set_default TABLE ACTION [ARG...]",
    "mirroring_add": "mirroring_add SESSION PORT",
    "table_indirect_add": "table_indirect_add TABLE KEY... => MEMBER [PRIORITY]",
    "table_indirect_add_with_group":
        "table_indirect_add_with_group TABLE KEY... => GROUP [PRIORITY]",
    "act_prof_create_member": "act_prof_create_member PROFILE ACTION [ARG...]",
    "act_prof_create_group": "act_prof_create_group PROFILE",
    "act_prof_add_member_to_group": "act_prof_add_member_to_group PROFILE MEMBER GROUP",
    "mc_mgrp_create": "mc_mgrp_create GROUP",
    "mc_mgrp_destroy": "mc_mgrp_destroy GROUP",
    "mc_node_create": "mc_node_create RID PORT...",
    "mc_node_destroy": "mc_node_destroy NODE",
    "mc_node_associate": "mc_node_associate GROUP NODE",
    "mc_node_dissociate": "mc_node_dissociate GROUP NODE",
}
MC_TWO_NUMBERS = {"mc_node_associate": ("group", "node"), "mc_node_dissociate": ("group", "node")}
MC_ONE_NUMBER = {"mc_mgrp_create": "group", "mc_mgrp_destroy": "group", "mc_node_destroy": "node"}


def _number(text: str, what: str, real: bool = False) -> int | float:
    try:
        return float(text) if real else int(text, 0)
    except ValueError:
        raise ControlError(f"{what} must be {'a number' if real else 'an integer'}, "
                           f"got {text!r}") from None


def run_command(client: ControlClient, words: Sequence[str]) -> str:
    """Execute one command line; return the text to print."""
    cmd, args = words[0], list(words[1:])
    if cmd not in USAGE:
        raise ControlError(f"unknown command {cmd!r}; commands: {', '.join(USAGE)}")
    if cmd in ("set_queue_depth", "set_queue_rate"):
        if not 1 <= len(args) <= 3:
            raise ControlError(f"usage: {USAGE[cmd]}")
        value = _number(args[0], "DEPTH" if cmd == "set_queue_depth" else "PPS",
                        real=cmd == "set_queue_rate")
        port = _number(args[1], "PORT") if len(args) > 1 else None
        priority = _number(args[2], "PRIORITY") if len(args) > 2 else None
        key = "depth" if cmd == "set_queue_depth" else "pps"
        client.call(cmd, **{key: value, "port": port, "priority": priority})
        return ""
    if cmd == "table_add":
        try:
            request = split_table_add(args)
        except CommandError as exc:
            raise ControlError(str(exc)) from None
        handle = client.call("table_add", **request)
        return f"Entry has been added with handle {handle}"
    if cmd in ("table_indirect_add", "table_indirect_add_with_group"):
        if len(args) < 3 or "=>" not in args:
            raise ControlError(f"usage: {USAGE[cmd]}")
        cut = args.index("=>")
        handle = client.call("table_indirect_add", table=args[0], keys=args[1:cut],
                             args=args[cut + 1:],
                             with_group=cmd == "table_indirect_add_with_group")
        return f"Entry has been added with handle {handle}"
    if cmd == "act_prof_create_member":
        if len(args) < 2:
            raise ControlError(f"usage: {USAGE[cmd]}")
        handle = client.call(cmd, profile=args[0], action=args[1], args=args[2:])
        return f"Member has been created with handle {handle}"
    if cmd == "act_prof_create_group":
        if len(args) != 1:
            raise ControlError(f"usage: {USAGE[cmd]}")
        return f"Group has been created with handle {client.call(cmd, profile=args[0])}"
    if cmd == "act_prof_add_member_to_group":
        if len(args) != 3:
            raise ControlError(f"usage: {USAGE[cmd]}")
        client.call(cmd, profile=args[0], member=args[1], group=args[2])
        return ""
    if cmd in MC_ONE_NUMBER or cmd in MC_TWO_NUMBERS:
        names = (MC_ONE_NUMBER[cmd],) if cmd in MC_ONE_NUMBER else MC_TWO_NUMBERS[cmd]
        if len(args) != len(names):
            raise ControlError(f"usage: {USAGE[cmd]}")
        client.call(cmd, **{n: _number(a, n.upper()) for n, a in zip(names, args)})
        return ""
    if cmd == "mc_node_create":
        if len(args) < 1:
            raise ControlError(f"usage: {USAGE[cmd]}")
        handle = client.call(cmd, rid=_number(args[0], "RID"),
                             ports=[_number(a, "PORT") for a in args[1:]])
        return f"Node was created with handle {handle}"
    if cmd == "table_set_default":
        if len(args) < 2:
            raise ControlError(f"usage: {USAGE[cmd]}")
        client.call("table_set_default", table=args[0], action=args[1], args=args[2:])
        return ""
    if cmd == "mirroring_add":
        if len(args) != 2:
            raise ControlError(f"usage: {USAGE[cmd]}")
        client.call("mirroring_add", session=_number(args[0], "SESSION"),
                    port=_number(args[1], "PORT"))
        return ""
    if args:
        raise ControlError(f"usage: {USAGE[cmd]}")
    if cmd == "show_ports":
        rows = client.call("show_ports")
        lines = [f"{'port #':>8} | iface name"]
        lines += [f"{row['port']:>8} | {row['iface']}" for row in rows]
        return "\n".join(lines)
    return json.dumps(client.call("stats"), indent=2, sort_keys=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="p4sim-cli", description=__doc__.splitlines()[0])
    parser.add_argument("--thrift-port", type=int, default=DEFAULT_PORT,
                        help="the switch's control channel on 127.0.0.1: the port given "
                             "to p4sim-switch --thrift-port, which opens none without it "
                             "(default %(default)s, simple_switch_CLI's)")
    parser.add_argument("--thrift-ip", default="127.0.0.1", help=argparse.SUPPRESS)
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="; ".join(USAGE.values()))
    options = parser.parse_args(argv)
    try:
        client = ControlClient(options.thrift_port, options.thrift_ip)
    except ControlError as exc:
        print(f"p4sim-cli: error: {exc} (was the switch started with --thrift-port "
              f"{options.thrift_port}?)", file=sys.stderr)
        return 1
    lines = [options.command] if options.command else [
        line.split() for line in sys.stdin if line.strip() and not line.startswith("#")]
    status = 0
    with client:
        for words in lines:
            try:
                text = run_command(client, words)
            except ControlError as exc:
                print(f"p4sim-cli: error: {' '.join(words)}: {exc}", file=sys.stderr)
                status = 1
                continue
            if text:
                print(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
