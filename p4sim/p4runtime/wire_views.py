"""Light stand-ins for the protobuf messages of a table-entry update, as `wire` decodes
them: they answer the attribute and HasField/WhichOneof questions the entity handlers
ask of protobuf messages.

They are built once per update of every Write, so they cost as little as Python
allows: no __init__ (the decoder sets only the fields present; the rest are class
defaults), and a view stands for its own oneof member where protobuf nests a message
(a FieldMatchView is its `lpm`, a TableActionView its `action`, an UpdateView its
`entity`).  Nothing mutates a view once decoded.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any


class _EmptyPart:
    """What protobuf answers for an unset oneof member: every field at its default."""
    value = mask = low = high = b""
    prefix_len = 0


_EMPTY_PART = _EmptyPart()


def _member(kind: str) -> Any:
    # One property per oneof member (not __getattr__, whose failed lookup first costs
    # an AttributeError on every access): the view itself if set, else an empty part.
    return property(lambda self: self if self.kind == kind else _EMPTY_PART)


class FieldMatchView:
    """A FieldMatch; `value`/`mask`/`prefix_len` are those of its one set member
    (`low`/`high` for a range, which the wire numbers like value/mask)."""
    field_id = 0
    kind: str | None = None
    value = b""
    mask = b""
    prefix_len = 0

    low = property(lambda self: self.value)
    high = property(lambda self: self.mask)

    def WhichOneof(self, _name: str) -> str | None:   # noqa: N802 - protobuf's name
        return self.kind

    exact = _member("exact")
    ternary = _member("ternary")
    lpm = _member("lpm")
    range = _member("range")
    optional = _member("optional")


class ParamView(tuple):
    """An Action.Param: (param_id, value), constructed without Python code."""
    __slots__ = ()
    param_id = property(itemgetter(0))
    value = property(itemgetter(1))


class TableActionView:
    """A TableAction, which is also its `action` member (action_id, params).  The
    decoder keeps the params flat in `param_data` (id, value, id, value, ...: no object
    per param); `params` builds ParamViews from it for readers that want them."""
    kind: str | None = None
    action_id = 0
    param_data: list[Any] | tuple = ()
    action_profile_member_id = 0
    action_profile_group_id = 0

    action = property(lambda self: self)

    @property
    def params(self) -> list[ParamView]:
        data = self.param_data
        return [ParamView((data[i], data[i + 1])) for i in range(0, len(data), 2)]

    def WhichOneof(self, _name: str) -> str | None:   # noqa: N802
        return self.kind


_NO_ACTION = TableActionView()


class TableEntryView:
    """The subset of TableEntry the fast path accepts (no direct resources, no idle
    timeout, not const): other entries take the protobuf path.  `match` is always set
    by the decoder."""
    table_id = 0
    match: list[FieldMatchView]
    action = _NO_ACTION
    priority = 0
    controller_metadata = 0
    metadata = b""
    is_default_action = False
    has_action = False
    is_const = False
    idle_timeout_ns = 0

    def HasField(self, name: str) -> bool:   # noqa: N802
        return name == "action" and self.has_action


class UpdateView:
    """An Update of a table entry, which is also its `entity`."""
    type = 0
    table_entry: TableEntryView

    entity = property(lambda self: self)

    def WhichOneof(self, _name: str) -> str:   # noqa: N802
        return "table_entry"


class WriteRequestView:
    """WriteRequest fields the server reads; `updates` mixes views and protobufs."""

    def __init__(self) -> None:
        self.device_id = 0
        self.role = ""
        self.election_id: Any = None       # a p4runtime_pb2.Uint128 once decoded
        self.atomicity = 0
        self.updates: list = []

    def HasField(self, name: str) -> bool:   # noqa: N802
        return name == "election_id" and self.election_id is not None
