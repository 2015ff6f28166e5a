"""The control-plane interface of a loaded program, mirroring bm_sim's runtime API.

The P4Runtime server, the STF runner and the CLI program tables, action profiles and
externs only through the names defined here. Values are plain Python ints. Every
failure raises TableError with a TableErrorCode; a failed operation changes nothing.

Priorities follow bm_sim: for ternary, range and optional tables a *smaller*
numerical priority wins (the P4Runtime server converts, as PI does for BMv2).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import NamedTuple, Union


class TableErrorCode(enum.Enum):
    """Mirrors bm_sim's MatchErrorCode, plus codes for the other runtime objects."""

    SUCCESS = 0
    TABLE_FULL = 1
    INVALID_HANDLE = 2
    EXPIRED_HANDLE = 3
    COUNTERS_DISABLED = 4
    METERS_DISABLED = 5
    AGEING_DISABLED = 6
    INVALID_TABLE_NAME = 7
    INVALID_ACTION_NAME = 8
    WRONG_TABLE_TYPE = 9
    INVALID_MBR_HANDLE = 10
    MBR_STILL_USED = 11
    MBR_ALREADY_IN_GRP = 12
    MBR_NOT_IN_GRP = 13
    INVALID_GRP_HANDLE = 14
    GRP_STILL_USED = 15
    EMPTY_GRP = 16
    DUPLICATE_ENTRY = 17
    BAD_MATCH_KEY = 18
    INVALID_METER_OPERATION = 19
    DEFAULT_ACTION_IS_CONST = 20
    DEFAULT_ENTRY_IS_CONST = 21
    NO_DEFAULT_ENTRY = 22
    INVALID_ACTION_PROFILE_NAME = 23
    NO_ACTION_PROFILE_SELECTION = 24
    IMMUTABLE_TABLE_ENTRY = 25
    BAD_ACTION_DATA = 26
    INVALID_INDEX = 27
    INVALID_NAME = 28
    ERROR = 29


class TableError(Exception):
    """Any failed runtime operation."""

    def __init__(self, code: TableErrorCode, message: str) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ExactParam:
    value: int


@dataclass(frozen=True)
class LpmParam:
    value: int
    prefix_len: int


@dataclass(frozen=True)
class TernaryParam:
    value: int
    mask: int


@dataclass(frozen=True)
class RangeParam:
    low: int
    high: int


@dataclass(frozen=True)
class OptionalParam:
    """value None is the wildcard."""

    value: int | None


@dataclass(frozen=True)
class ValidParam:
    valid: bool


MatchParam = Union[ExactParam, LpmParam, TernaryParam, RangeParam, OptionalParam, ValidParam]


@dataclass(frozen=True)
class MeterConfig:
    """Two-rate three-colour meter rates, per second in the meter's unit
    (packets or bytes), and burst sizes in that unit."""

    cir: float
    cburst: int
    pir: float
    pburst: int


class KeyField(NamedTuple):
    """One element of a table key: display name, match kind, bit width."""

    name: str
    match_kind: str
    bitwidth: int


@dataclass
class EntryView:
    """A snapshot of one table entry.

    For direct tables `action`/`args` are set; for indirect tables `member` or
    `group` is set instead.
    """

    handle: int
    keys: list[MatchParam]
    priority: int
    action: str | None = None
    args: list[int] = field(default_factory=list)
    member: int | None = None
    group: int | None = None
    is_const: bool = False
    ttl_ms: int | None = None
    counter: tuple[int, int] | None = None
    meter_config: MeterConfig | None = None


@dataclass
class MemberView:
    handle: int
    action: str
    args: list[int]


@dataclass
class GroupView:
    handle: int
    members: dict[int, int]  # member handle -> weight


__all__ = [
    "TableErrorCode", "TableError", "ExactParam", "LpmParam", "TernaryParam",
    "RangeParam", "OptionalParam", "ValidParam", "MatchParam", "MeterConfig",
    "KeyField", "EntryView", "MemberView", "GroupView",
]
