"""The STF statements, one frozen dataclass each, as the parser produces them.

Key values stay as text until the runner knows the key's match kind and width
(``0x0a**`` means a mask for a ternary key but a prefix for an lpm key).
"""
from __future__ import annotations

from dataclasses import dataclass

from p4sim.stf.errors import StfLocation


@dataclass(frozen=True)
class KeyMatch:
    """``NAME:VALUE`` in an ``add``; VALUE is resolved against the key's match kind."""

    name: str
    text: str
    location: StfLocation


@dataclass(frozen=True)
class ActionCall:
    """``ACTION(PARAM:VALUE, ...)``."""

    name: str
    args: tuple[tuple[str, int], ...]
    location: StfLocation


@dataclass(frozen=True)
class AddEntry:
    """``add TABLE [PRIORITY] KEY:VALUE ... ACTION(...) [= ID]``."""

    table: str
    priority: int | None
    keys: tuple[KeyMatch, ...]
    action: ActionCall
    entry_id: str | None
    location: StfLocation


@dataclass(frozen=True)
class SetDefault:
    """``setdefault TABLE ACTION(...)``."""

    table: str
    action: ActionCall
    location: StfLocation


@dataclass(frozen=True)
class RemoveAll:
    """``remove all``: empties every table."""

    location: StfLocation


@dataclass(frozen=True)
class SendPacket:
    """``packet PORT HEX``."""

    port: int
    data: bytes
    location: StfLocation


@dataclass(frozen=True)
class Expect:
    """``expect PORT [HEX with * nibbles][$]``; no pattern means any packets on the port."""

    port: int
    pattern: str | None  # upper-case hex digits and '*', one char per nibble
    exact_length: bool
    location: StfLocation


@dataclass(frozen=True)
class Wait:
    """``wait``: let every packet sent so far be processed."""

    location: StfLocation


@dataclass(frozen=True)
class MirroringAdd:
    """``mirroring_add SESSION PORT`` or ``mirroring_add_mc SESSION GROUP``."""

    session: int
    port: int | None
    mcast_group: int | None
    location: StfLocation


@dataclass(frozen=True)
class MirroringDelete:
    """``mirroring_delete SESSION``: the session is unconfigured again (clones dropped)."""

    session: int
    location: StfLocation


@dataclass(frozen=True)
class MirroringGet:
    """``mirroring_get SESSION``: prints the session's configuration."""

    session: int
    location: StfLocation


@dataclass(frozen=True)
class McGroupCreate:
    """``mc_mgrp_create GROUP``."""

    group: int
    location: StfLocation


@dataclass(frozen=True)
class McNodeCreate:
    """``mc_node_create RID PORT...``; nodes get handles 0, 1, ... in creation order."""

    rid: int
    ports: tuple[int, ...]
    location: StfLocation


@dataclass(frozen=True)
class McNodeUpdate:
    """``mc_node_update NODE_HANDLE PORT...``: the node's ports, in every group it is in."""

    node: int
    ports: tuple[int, ...]
    location: StfLocation


@dataclass(frozen=True)
class McNodeAssociate:
    """``mc_node_associate GROUP NODE_HANDLE``."""

    group: int
    node: int
    location: StfLocation


@dataclass(frozen=True)
class CounterRead:
    """``counter_read COUNTER INDEX``: prints the counter."""

    counter: str
    index: int
    location: StfLocation


@dataclass(frozen=True)
class CounterWrite:
    """``counter_write COUNTER INDEX PACKETS BYTES``."""

    counter: str
    index: int
    packets: int
    byte_count: int
    location: StfLocation


@dataclass(frozen=True)
class CheckCounter:
    """``check_counter COUNTER(INDEX|ID) [packets|bytes OP VALUE]``: an assertion."""

    counter: str
    index: int | str  # an int index, or the ID given to an ``add ... = ID`` entry
    count_type: str  # "packets" or "bytes"
    operator: str  # == != < <= > >=
    value: int
    location: StfLocation


@dataclass(frozen=True)
class RegisterRead:
    """``register_read REGISTER INDEX``: prints the cell."""

    register: str
    index: int
    location: StfLocation


@dataclass(frozen=True)
class RegisterWrite:
    """``register_write REGISTER INDEX VALUE``."""

    register: str
    index: int
    value: int
    location: StfLocation


@dataclass(frozen=True)
class RegisterReset:
    """``register_reset REGISTER``."""

    register: str
    location: StfLocation


@dataclass(frozen=True)
class MeterSetRates:
    """``meter_set_rates METER INDEX RATE:BURST...`` or ``meter_array_set_rates METER
    RATE:BURST...`` (``index`` None: every cell). Rates are units per microsecond, as
    simple_switch_CLI takes them: committed first, then peak."""

    meter: str
    index: int | None
    rates: tuple[tuple[float, int], ...]
    location: StfLocation


@dataclass(frozen=True)
class MeterGetRates:
    """``meter_get_rates METER INDEX``: prints the cell's rates."""

    meter: str
    index: int
    location: StfLocation


Command = (
    AddEntry | SetDefault | RemoveAll | SendPacket | Expect | Wait | MirroringAdd
    | MirroringDelete | MirroringGet | McGroupCreate | McNodeCreate | McNodeUpdate
    | McNodeAssociate | CounterRead | CounterWrite | CheckCounter | RegisterRead
    | RegisterWrite | RegisterReset | MeterSetRates | MeterGetRates
)
