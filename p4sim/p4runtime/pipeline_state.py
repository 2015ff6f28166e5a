"""Everything the server remembers about the committed pipeline.

The switch stores entries by its own handles; P4Runtime identifies members and groups
by controller-chosen IDs and attaches fields the switch does not keep (controller
metadata, the opaque metadata bytes, the idle timeout as written).  This object holds
those mappings for one committed pipeline and is thrown away with it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.p4info_index import P4InfoIndex

if TYPE_CHECKING:  # annotations only: no import of the switch (or cycle) at run time
    from p4sim.p4runtime.entities.oneshot import OneShot
    from p4sim.switch.program import RuntimeState


@dataclass
class EntryExtras:
    """P4Runtime fields of a table entry that the switch does not store."""
    controller_metadata: int = 0
    metadata: bytes = b""
    idle_timeout_ns: int = 0


@dataclass
class ProfileIds:
    """Controller IDs <-> switch handles of one action profile's members and groups."""
    members: dict[int, int] = field(default_factory=dict)      # member_id -> handle
    member_ids: dict[int, int] = field(default_factory=dict)   # handle -> member_id
    groups: dict[int, int] = field(default_factory=dict)       # group_id -> handle
    group_ids: dict[int, int] = field(default_factory=dict)    # handle -> group_id
    group_max_size: dict[int, int] = field(default_factory=dict)  # group_id -> max_size
    # member_id -> extra switch members made for weights > 1, oldest first (a weight w
    # is the member's first w handles, as BMv2's P4Runtime server does it)
    member_copies: dict[int, list[int]] = field(default_factory=dict)


@dataclass
class PipelineState:
    """The committed pipeline: P4Info, device config and the ID bookkeeping."""
    p4info: p4info_pb2.P4Info
    device_config: bytes
    cookie: p4runtime_pb2.ForwardingPipelineConfig.Cookie | None
    index: P4InfoIndex
    runtime: RuntimeState  # of the loaded program
    entry_extras: dict[tuple[str, int], EntryExtras] = field(default_factory=dict)
    profiles: dict[str, ProfileIds] = field(default_factory=dict)
    # Multicast groups made to serve multi-replica clone sessions: session -> group.
    clone_groups: dict[int, int] = field(default_factory=dict)
    # Clone session entries as written, for read-back symmetry: session -> entry.
    clone_entries: dict[int, p4runtime_pb2.CloneSessionEntry] = field(default_factory=dict)
    # Multicast group entries as written (metadata etc.): group -> entry.
    mcast_entries: dict[int, p4runtime_pb2.MulticastGroupEntry] = field(default_factory=dict)
    # One-shot action sets: (table, entry handle) -> hidden group and members.
    oneshots: dict[tuple[str, int], OneShot] = field(default_factory=dict)
    # Digest configuration per digest ID.
    digest_configs: dict[int, p4runtime_pb2.DigestEntry.Config] = field(default_factory=dict)

    def profile_ids(self, profile_name: str) -> ProfileIds:
        return self.profiles.setdefault(profile_name, ProfileIds())

    def full_config(self) -> p4runtime_pb2.ForwardingPipelineConfig:
        config = p4runtime_pb2.ForwardingPipelineConfig(
            p4info=self.p4info, p4_device_config=self.device_config)
        if self.cookie is not None:
            config.cookie.CopyFrom(self.cookie)
        return config
