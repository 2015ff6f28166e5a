"""The packet as the pipeline sees it: a flat PHV list plus the unparsed bytes.

Every header instance owns a run of slots in one flat list `Packet.f`: its fields,
then its validity bit (and, for a header with a varbit field, the varbit's current
width in bits). Header stacks and header-union stacks own one more slot for their
`next` index. Compiled
closures address slots by precomputed integer index, so a packet copy is one list
copy and no name is looked up per packet.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

# The standard_metadata fields (and intrinsic aliases) the v1model architecture
# reads or writes per packet; StdSlots has an attribute for each, None when absent.
ARCH_STD_FIELDS = (
    "ingress_port", "egress_spec", "egress_port", "instance_type", "packet_length",
    "enq_timestamp", "enq_qdepth", "deq_timedelta", "deq_qdepth",
    "ingress_global_timestamp", "egress_global_timestamp", "mcast_grp", "egress_rid",
    "priority", "parser_error", "checksum_error")


@dataclass(slots=True)
class ArchRequests:
    """What primitives ask the v1model architecture to do with this packet."""

    clone_session: int | None = None
    clone_field_list: int | None = None
    resubmit_field_list: int | None = None
    recirculate_field_list: int | None = None
    truncate_length: int | None = None
    digests: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    exit_called: bool = False
    drop_errors: list[str] = field(default_factory=list)

    def copy(self) -> "ArchRequests":
        return ArchRequests(
            self.clone_session, self.clone_field_list, self.resubmit_field_list,
            self.recirculate_field_list, self.truncate_length, list(self.digests),
            self.exit_called, list(self.drop_errors))


@dataclass
class HeaderInfo:
    """Static description of one header instance and where it lives in the PHV."""

    name: str
    hid: int
    type_name: str
    metadata: bool
    base: int
    field_names: list[str]
    widths: list[int]          # 0 for the varbit field
    signed: list[bool]
    varbit_index: int | None   # position of the varbit field, if any
    varbit_max_bits: int       # from max_length, for the varbit field
    fixed_bits: int            # sum of the fixed widths

    @property
    def valid_slot(self) -> int:
        return self.base + len(self.field_names)

    @property
    def vl_width_slot(self) -> int:
        return self.base + len(self.field_names) + 1

    @property
    def n_slots(self) -> int:
        return len(self.field_names) + (2 if self.varbit_index is not None else 1)

    def field_slot(self, field_name: str) -> int:
        return self.base + self.field_names.index(field_name)


@dataclass
class StackInfo:
    name: str
    header_ids: list[int]
    next_slot: int


@dataclass
class UnionInfo:
    name: str
    header_ids: list[int]
    member_names: list[str]


@dataclass
class UnionStackInfo:
    """A stack of header unions: its elements (unions of one type) and, like a header
    stack, one PHV slot for its `next` index, moved by extract, push_front and pop_front."""

    name: str
    unions: list[UnionInfo]
    next_slot: int

    @property
    def member_names(self) -> list[str]:
        return self.unions[0].member_names

    def member_ids(self, member: str) -> list[int]:
        """Header id of `member` in each element, in stack order (KeyError if unknown)."""
        try:
            index = self.member_names.index(member)
        except ValueError:
            raise KeyError(member) from None
        return [u.header_ids[index] for u in self.unions]


class StdSlots:
    """PHV slot and width mask of the standard_metadata fields an architecture uses.

    The architecture writes a dozen of these per packet; `pkt.f[std.egress_spec]`
    (and `value & std.egress_spec_mask` when writing) is the fast, official way to do
    it. A field the program lacks has slot None (and mask 0): simple_switch writes
    queueing and timestamp metadata only when the program declares them.
    """

    def __init__(self, slots: dict[str, int], masks: dict[str, int]) -> None:
        for name in ARCH_STD_FIELDS:
            setattr(self, name, slots.get(name))
            setattr(self, name + "_mask", masks.get(name, 0))

    def slot(self, name: str) -> int | None:
        return getattr(self, name, None)

    def mask(self, name: str) -> int:
        return getattr(self, name + "_mask", 0)


class PhvLayout:
    """Slot allocation for one program; shared read-only by all its packets."""

    def __init__(self) -> None:
        self.headers: list[HeaderInfo] = []
        self.header_by_name: dict[str, HeaderInfo] = {}
        self.header_by_id: dict[int, HeaderInfo] = {}
        self.stacks: dict[str, StackInfo] = {}
        self.unions: dict[str, UnionInfo] = {}
        self.union_stacks: dict[str, UnionStackInfo] = {}
        self.n_slots = 0
        self.template: list[int] = []
        self.std_slots: dict[str, int] = {}
        self.std_masks: dict[str, int] = {}
        self.port_slot: int | None = None
        self.port_mask = 0
        self.length_slot: int | None = None
        self.length_mask = 0
        self.field_lists: dict[int, list[tuple[str, str]]] = {}
        self.metadata_spans: list[tuple[int, int, list[int]]] = []

    def add_header(self, info: HeaderInfo) -> None:
        self.headers.append(info)
        self.header_by_name[info.name] = info
        self.header_by_id[info.hid] = info

    def alloc(self, count: int) -> int:
        base = self.n_slots
        self.n_slots += count
        return base

    def finish(self) -> None:
        """Build the initial PHV: everything zero, metadata headers valid."""
        std = self.header_by_name.get("standard_metadata")
        if std is not None:
            for i, name in enumerate(std.field_names):
                self.std_slots[name] = std.base + i
                self.std_masks[name] = (1 << std.widths[i]) - 1
            self.port_slot = self.std_slots.get("ingress_port")
            self.port_mask = self.std_masks.get("ingress_port", 0)
            self.length_slot = self.std_slots.get("packet_length")
            self.length_mask = self.std_masks.get("packet_length", 0)
        template = [0] * self.n_slots
        for info in self.headers:
            if info.metadata:
                template[info.valid_slot] = 1
        self.template = template
        self.metadata_spans = [
            (info.base, info.base + info.n_slots,
             template[info.base:info.base + info.n_slots])
            for info in self.headers if info.metadata]

    @cached_property
    def std(self) -> StdSlots:
        """Slots of the architecture's standard fields (built on first use, after the
        loader has added the intrinsic field aliases)."""
        return StdSlots(self.std_slots, self.std_masks)


class Packet:
    """PHV and bytes of one packet moving through the pipelines."""

    __slots__ = ("f", "data", "offset", "payload", "arch", "layout", "ingress_length")

    def __init__(self, layout: PhvLayout, data: bytes, ingress_port: int) -> None:
        self.layout = layout
        self.f = f = layout.template.copy()
        self.data = data
        self.offset = 0
        self.payload = data
        self.arch = ArchRequests()
        self.ingress_length = length = len(data)
        if layout.port_slot is not None:
            f[layout.port_slot] = ingress_port & layout.port_mask
        if layout.length_slot is not None:
            f[layout.length_slot] = length & layout.length_mask

    def get_std(self, name: str) -> int:
        """Read a standard_metadata field by name."""
        try:
            return self.f[self.layout.std_slots[name]]
        except KeyError:
            raise KeyError(f"no standard_metadata field {name!r}") from None

    def set_std(self, name: str, value: int) -> None:
        """Write a standard_metadata field, truncated to its width."""
        try:
            slot = self.layout.std_slots[name]
        except KeyError:
            raise KeyError(f"no standard_metadata field {name!r}") from None
        self.f[slot] = value & self.layout.std_masks[name]

    def reset_metadata(self, preserved: dict[tuple[str, str], Any] | None = None) -> None:
        """Zero every metadata header (as bm_sim's PHV reset of a copy that re-enters a
        pipeline), then put back the `preserved` fields (see preserved_fields)."""
        f = self.f
        for start, end, values in self.layout.metadata_spans:
            f[start:end] = values
        if preserved:
            self.restore_fields(preserved)

    def copy(self) -> "Packet":
        """Deep copy for clones and multicast replicas."""
        other = Packet.__new__(Packet)
        other.layout = self.layout
        other.f = list(self.f)
        other.data = self.data
        other.offset = self.offset
        other.payload = self.payload
        other.arch = self.arch.copy()
        other.ingress_length = self.ingress_length
        return other

    def is_valid(self, header_name: str) -> bool:
        return bool(self.f[self.layout.header_by_name[header_name].valid_slot])

    def get_field(self, header_name: str, field_name: str) -> int:
        """Read any field by name (for tests and tools, not the fast path)."""
        return self.f[self.layout.header_by_name[header_name].field_slot(field_name)]

    def set_field(self, header_name: str, field_name: str, value: int) -> None:
        info = self.layout.header_by_name[header_name]
        index = info.field_names.index(field_name)
        self.f[info.base + index] = value & ((1 << info.widths[index]) - 1)

    def preserved_fields(self, field_list_id: int) -> dict[tuple[str, str], Any]:
        """Values of a field list (resubmit/recirculate/clone), keyed by (header, field)."""
        fields = self.layout.field_lists.get(field_list_id, [])
        return {(h, n): self.get_field(h, n) for h, n in fields}

    def restore_fields(self, values: dict[tuple[str, str], Any]) -> None:
        for (h, n), value in values.items():
            self.set_field(h, n, value)
