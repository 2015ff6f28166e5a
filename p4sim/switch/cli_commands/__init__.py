"""simple_switch_CLI's runtime commands for p4sim-cli, one module per family; each
command parses and checks its words, prints what simple_switch_CLI prints and calls
the switch's control channel (p4sim/switch/control_runtime.py, control_channel.py)."""
from __future__ import annotations

from p4sim.switch.cli_commands import externs, profiles, replication, switch_cmds, tables
from p4sim.switch.cli_commands.errors import CliError
from p4sim.switch.cli_commands.session import Command, Session

COMMANDS: dict[str, Command] = {**tables.COMMANDS, **profiles.COMMANDS,
                                **replication.COMMANDS, **externs.COMMANDS,
                                **switch_cmds.COMMANDS}


def run(session: Session, words: list[str]) -> None:
    """Run one command line (already split); CliError says why it failed."""
    command = COMMANDS.get(words[0])
    if command is None:
        raise CliError(f"*** Unknown syntax: {' '.join(words)}",
                       f"unknown command {words[0]!r}; commands: {', '.join(sorted(COMMANDS))}")
    command.handler(session, list(words[1:]))


__all__ = ["COMMANDS", "CliError", "Command", "Session", "run"]
