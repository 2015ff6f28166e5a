"""One CLI session on a switch's control channel: output, the program's description
(fetched once, as simple_switch_CLI fetches the JSON), argument checks."""
from __future__ import annotations

import sys
from typing import Any, Callable, TextIO

from p4sim.switch.cli_commands.errors import CliError, refused, usage_error
from p4sim.switch.cli_commands.program_info import ProgramInfo
from p4sim.switch.control_channel import ControlClient, ControlError


class Session:
    def __init__(self, client: ControlClient, out: TextIO, err: TextIO | None = None) -> None:
        self.client = client
        self.out = out
        self.err = err if err is not None else sys.stderr
        self._info: ProgramInfo | None = None

    @property
    def info(self) -> ProgramInfo:
        if self._info is None:
            self._info = ProgramInfo.from_description(self.call("describe"))
        return self._info

    def forget_program(self) -> None:
        """The program may have changed (e.g. over P4Runtime): describe it again."""
        self._info = None

    def call(self, cmd: str, **args: Any) -> Any:
        try:
            return self.client.call(cmd, **args)
        except ControlError as exc:
            raise refused(exc) from None

    def print(self, *parts: object) -> None:
        print(*parts, file=self.out)

    def note(self, text: str) -> None:
        """A remark on stderr, where simple_switch_CLI writes its own (stdout stays
        parseable)."""
        print(text, file=self.err)


Handler = Callable[[Session, list[str]], None]


class Command:
    """A CLI command: its handler and usage line."""

    def __init__(self, handler: Handler, usage: str) -> None:
        self.handler = handler
        self.usage = usage


def exactly(args: list[str], count: int, usage: str) -> None:
    if len(args) != count:
        raise usage_error(f"Wrong number of args, expected {count} but got {len(args)}", usage)


def at_least(args: list[str], count: int, usage: str) -> None:
    if len(args) < count:
        raise usage_error("Insufficient number of args", usage)


def integer(text: str, what: str, usage: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise usage_error(f"Bad format for {what}, expected integer", usage) from None
