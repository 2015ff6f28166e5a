"""p4sim-cli: simple_switch_CLI's runtime commands for a running p4sim-switch.

  p4sim-cli [--thrift-port N] COMMAND ARG...     one command
  p4sim-cli [--thrift-port N] < commands.txt     a script, as simple_switch_CLI reads it

Commands, with simple_switch_CLI's syntax and output: table_add, table_set_default,
table_reset_default, table_delete, table_modify, table_num_entries, table_clear,
table_dump, table_info, table_indirect_add[_with_group], show_tables, show_actions,
act_prof_create_member, act_prof_create_group, act_prof_add_member_to_group,
act_prof_remove_member_from_group, act_prof_delete_member, act_prof_delete_group,
mc_mgrp_create, mc_mgrp_destroy, mc_node_create, mc_node_destroy, mc_node_associate,
mc_node_dissociate, mirroring_add, register_read, register_write, register_reset,
counter_read, counter_write, counter_reset, meter_set_rates, meter_get_rates,
set_queue_depth, set_queue_rate, switch_info, show_ports, stats (p4sim's).
A script on standard input gets simple_switch_CLI's banner and "RuntimeCmd: " prompts;
a failing command prints simple_switch_CLI's error line on stdout and, on stderr, the
line number, the command and the cause; the rest of the script still runs, and the exit
status is 1 if any command failed. The switch must have been started with
`--thrift-port N` (its control channel is closed otherwise, as simple_switch_grpc has
no Thrift server); N defaults to 9090, as in simple_switch_CLI.
"""

from __future__ import annotations

import argparse
import io
import itertools
import sys
from typing import Iterable, Sequence, TextIO

from p4sim.switch import cli_commands
from p4sim.switch.cli_commands import CliError, Session
from p4sim.switch.control_channel import DEFAULT_PORT, ControlClient, ControlError

PROMPT = "RuntimeCmd: "
INTRO = "Control utility for runtime P4 table manipulation"
USAGE = {name: command.usage for name, command in cli_commands.COMMANDS.items()}


def run_command(client: ControlClient, words: Sequence[str]) -> str:
    """Execute one command line; return what it prints (ControlError on failure)."""
    out = io.StringIO()
    try:
        cli_commands.run(Session(client, out), list(words))
    except CliError as exc:
        raise ControlError(exc.cause) from None
    return out.getvalue().rstrip("\n")


def run_script(session: Session, lines: Iterable[str], prompts: bool) -> int:
    """Run commands one per line, as simple_switch_CLI's command loop does (a prompt
    before each line is read, one more at the end); returns the number that failed.
    Blank lines and # comments are skipped."""
    failed = 0
    pending = iter(lines)
    for number in itertools.count(1):
        if prompts:
            session.out.write(PROMPT)
            session.out.flush()
        line = next(pending, None)
        if line is None:
            break
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        try:
            cli_commands.run(session, words)
        except CliError as exc:
            failed += 1
            session.print(exc.shown)
            where = f"line {number}: " if prompts else ""
            print(f"p4sim-cli: error: {where}{' '.join(words)}: {exc.cause}", file=session.err)
    if prompts:
        session.out.write("\n")
    return failed


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="p4sim-cli", description=__doc__.splitlines()[0])
    parser.add_argument("--thrift-port", type=int, default=DEFAULT_PORT,
                        help="the switch's control channel: the port given to p4sim-switch "
                             "--thrift-port, which opens none without it (default "
                             "%(default)s, simple_switch_CLI's)")
    parser.add_argument("--thrift-ip", default="127.0.0.1",
                        help="address of the control channel (default %(default)s)")
    parser.add_argument("--json", help="accepted for simple_switch_CLI's sake; the "
                                       "program is always described by the switch")
    parser.add_argument("--pre", choices=["None", "SimplePre", "SimplePreLAG"],
                        help="accepted for simple_switch_CLI's sake (p4sim has one PRE)")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="one command and its arguments; without, commands are read "
                             "from standard input")
    return parser


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    options = _parser().parse_args(argv)
    try:
        client = ControlClient(options.thrift_port, options.thrift_ip)
    except ControlError as exc:
        print(f"p4sim-cli: error: {exc} (was the switch started with --thrift-port "
              f"{options.thrift_port}?)", file=sys.stderr)
        return 1
    with client:
        session = Session(client, sys.stdout, sys.stderr)
        if options.command:
            return 1 if run_script(session, [" ".join(options.command)], prompts=False) else 0
        print("Obtaining JSON from switch...")
        try:
            session.info   # noqa: B018 (fetched once, as simple_switch_CLI fetches the JSON)
        except CliError as exc:
            print(f"p4sim-cli: error: cannot describe the switch's program: {exc.cause}",
                  file=sys.stderr)
            return 1
        print("Done")
        print(INTRO)
        failed = run_script(session, stdin if stdin is not None else sys.stdin, prompts=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
