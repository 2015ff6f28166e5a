"""How a command fails: simple_switch_CLI's line on stdout, our cause on stderr."""
from __future__ import annotations

from p4sim.switch.control_channel import ControlError

# simple_switch_CLI's wording for what the switch refused, by ControlError.kind.
_REFUSED = {"table": "Invalid table operation ({code})", "pre": "Invalid PRE operation ({code})",
            "queue": "Error: {message}", "request": "Error: {message}"}


class CliError(Exception):
    """A command that failed: `shown` is what simple_switch_CLI prints for it,
    `cause` the detail (the switch's reason, the known names, the usage)."""

    def __init__(self, shown: str, cause: str | None = None) -> None:
        super().__init__(cause or shown)
        self.shown = shown
        self.cause = cause or shown


def usage_error(message: str, usage: str) -> CliError:
    """Wrong argument count or format: "Error: ..." plus the usage line."""
    return CliError(f"Error: {message}", f"{message}; usage: {usage}")


def refused(exc: ControlError) -> CliError:
    """The switch refused a request (TableError, PreError, ...)."""
    template = _REFUSED.get(exc.kind, "Error: {message}")
    return CliError(template.format(code=exc.code or "ERROR", message=exc), str(exc))
