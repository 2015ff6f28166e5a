"""What the STF runner needs from a switch; implemented by p4sim and by BMv2.

Both targets take the same resolved entries (see entries.py), so the meaning of the
STF file does not depend on the target.
"""
from __future__ import annotations

from typing import Protocol

from p4sim.stf.entries import ResolvedAction, ResolvedEntry


class TargetCommandError(Exception):
    """The target refused a command (bad entry, unknown group, ...)."""


class ProgramLoadFailed(Exception):
    """The target refused the program's JSON (the message quotes why)."""


class Target(Protocol):
    """A running switch with one program loaded."""

    def add_entry(self, entry: ResolvedEntry) -> int:
        """Add a table entry; returns its handle."""

    def set_default(self, table: str, action: ResolvedAction) -> None: ...

    def clear_tables(self) -> None: ...

    def mirroring_add(self, session: int, port: int | None, mcast_group: int | None) -> None: ...

    def mirroring_delete(self, session: int) -> None: ...

    def mirroring_get(self, session: int) -> str:
        """The session's configuration, as text for the log."""

    def mc_group_create(self, group: int) -> None: ...

    def mc_node_create(self, rid: int, ports: tuple[int, ...]) -> int:
        """Create a replication node; returns its handle (0, 1, ... as BMv2 numbers them)."""

    def mc_node_associate(self, group: int, node: int) -> None: ...

    def mc_node_update(self, node: int, ports: tuple[int, ...]) -> None:
        """Give a node new ports, in every group it belongs to."""

    def read_counter(self, name: str, index: int) -> tuple[int, int]:
        """(bytes, packets) of an indirect counter cell."""

    def read_direct_counter(self, table: str, handle: int) -> tuple[int, int]: ...

    def write_counter(self, name: str, index: int, byte_count: int, packets: int) -> None: ...

    def read_register(self, name: str, index: int) -> int: ...

    def write_register(self, name: str, index: int, value: int) -> None: ...

    def reset_register(self, name: str) -> None: ...

    def meter_set_rates(self, name: str, index: int, rates: tuple[tuple[float, int], ...]) -> None:
        """Configure one cell: (units per microsecond, burst) committed, then peak."""

    def meter_get_rates(self, name: str, index: int) -> list[tuple[float, int]] | None:
        """A cell's rates as meter_set_rates takes them; None when unconfigured."""

    def send(self, port: int, data: bytes) -> None: ...

    def wait_idle(self) -> None:
        """Return once every packet sent so far has been fully processed."""

    def outputs(self) -> list[tuple[int, bytes]]:
        """Every packet that left the switch so far, in order, with its port."""

    def close(self) -> None: ...
