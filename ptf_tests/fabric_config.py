"""P4Runtime names of fabric.p4 and small configuration recipes shared by the tests
(each write goes through FabricTest, so it is undone after the test)."""
from __future__ import annotations

from scapy.layers.inet import IP
from scapy.layers.l2 import Ether
from scapy.packet import raw

from fabric_base import FabricTest

ROUTES = "FabricIngress.routing.routes"
NEXT_HOPS = "FabricIngress.routing.next_hops"
MODES = "FabricIngress.routing.multipath_modes"
CLASS_MODES = "FabricIngress.routing.multipath_class_modes"
SELECTOR = "FabricIngress.routing.multipath_selector"
FORWARD = "FabricIngress.routing.forward"
SET_GROUP = "FabricIngress.routing.set_group"
PARTITIONS = "FabricIngress.partition.partitions"
PORT_PARTITIONS = "FabricEgress.partition_check.port_partitions"
PARTITION_QUEUES = "FabricIngress.partition.partition_queues"
TAG_PORTS = "FabricEgress.partition_tag.tag_ports"
PARTITION_TAGS = "FabricEgress.partition_tag.partition_tags"
PUNT_RULES = "FabricIngress.packet_io.punt_rules"
ECN_THRESHOLDS = "FabricEgress.ecn.ecn_thresholds"
TRIM_THRESHOLDS = "FabricIngress.trimming.trim_thresholds"
TRIM_CLASSES = "FabricIngress.trimming.trim_classes"
TRIM_METER = "FabricIngress.trimming.data_rate"
TRIMMED_BY_QUEUE = "FabricEgress.trim.trimmed_by_queue"
FEEDBACK_QUEUES = "FabricIngress.feedback.feedback_queues"
FEEDBACK_BY_QUEUE = "FabricEgress.feedback_count.feedback_by_queue"
CREDIT_BANDS = "FabricIngress.credit_marking.credit_bands"
CREDIT_METER = "FabricIngress.credit_marking.credit_rate"
INT_NODE = "FabricEgress.int_egress.int_node"
INT_WATCHLIST = "FabricEgress.int_egress.int_source.int_watchlist"
INT_SINK_PORTS = "FabricEgress.int_egress.int_sink.int_sink_ports"
REPORT_ENCAP = "FabricEgress.int_egress.int_report.report_encap"

ROUTER_MAC = "00:aa:00:00:00:01"


def host_mac(port: int) -> str:
    """MAC address of the test host behind a switch port."""
    return f"00:00:00:00:00:{port:02x}"


def routed(pkt: Ether, port: int, **ip_fields: int) -> Ether:
    """``pkt`` as the switch sends it to the host on ``port``: router MAC as source,
    the host's as destination, TTL one less, ``ip_fields`` set, IPv4 checksum redone."""
    out = pkt.copy()
    out[Ether].src, out[Ether].dst = ROUTER_MAC, host_mac(port)
    out[IP].ttl -= 1
    for name, value in ip_fields.items():
        setattr(out[IP], name, value)
    del out[IP].chksum
    return Ether(raw(out))


def add_next_hop(test: FabricTest, member_id: int, port: int,
                 counter_index: int | None = None) -> None:
    """A profile member forwarding to the host on ``port``, counted at ``counter_index``
    (default ``member_id``)."""
    test.add_member(SELECTOR, member_id, FORWARD,
                    {"port": port, "src_mac": ROUTER_MAC, "dst_mac": host_mac(port),
                     "member_index": member_id if counter_index is None else counter_index})


def route_to_port(test: FabricTest, prefix: str, port: int, partition: int = 0,
                  group: int = 1, member_id: int | None = None) -> None:
    """``prefix`` in ``partition`` goes to one next hop on ``port``."""
    member_id = port if member_id is None else member_id
    add_next_hop(test, member_id, port)
    test.insert(ROUTES, SET_GROUP, {"partition": partition, "ipv4_dst": prefix},
                {"group": group})
    test.insert_to_member(NEXT_HOPS, member_id, {"group_id": group})


COPY_STRIDE = 1000  # member id of copy c of the next hop on port p: p + c * 1000


def route_to_group(test: FabricTest, prefix: str, group: int, weights: dict[int, int],
                   mode_action: str | None = None) -> None:
    """``prefix`` (partition 0) goes to a multipath group of next hops, {port: weight};
    ``mode_action`` picks the spreading mode. A weight w is w members of weight 1 for
    that port (ids port, port + 1000, ...; all counted at the port), as the controller
    writes it: P4Runtime member weights are realised differently by each server, plain
    members are hashed over the same way on BMv2 and p4sim."""
    members = {}
    for port, weight in weights.items():
        for copy in range(weight):
            add_next_hop(test, port + copy * COPY_STRIDE, port, counter_index=port)
            members[port + copy * COPY_STRIDE] = 1
    test.add_group(SELECTOR, group, members)
    test.insert(ROUTES, SET_GROUP, {"partition": 0, "ipv4_dst": prefix}, {"group": group})
    test.insert_to_group(NEXT_HOPS, group, {"group_id": group})
    if mode_action is not None:
        test.insert(MODES, f"FabricIngress.routing.{mode_action}", {"group_id": group})


# protocol_class values of CLASS_MODES (define.p4's MP_CLASS_*).
CLASS_UEC, CLASS_ROCEV2, CLASS_TCP, CLASS_OTHER_UDP = 1, 2, 3, 4


def set_class_mode(test: FabricTest, partition: int, protocol_class: int, mode_action: str) -> None:
    """Packets of ``protocol_class`` in ``partition`` use ``mode_action`` whatever their
    group's mode."""
    test.insert(CLASS_MODES, f"FabricIngress.routing.{mode_action}",
                {"partition": partition, "protocol_class": protocol_class})

# Partitions across domain borders (control/controller/partition_borders.py).
BORDER_PORTS = "FabricIngress.partition.border_ports"
BORDER_TAG_IN = "FabricIngress.partition.border_tag_in"
BORDER_EGRESS_PORTS = "FabricEgress.partition_check.border_egress_ports"
BORDER_TAG_OUT = "FabricEgress.partition_check.border_tag_out"
BORDER_UNMAPPED_IN = "FabricIngress.partition.border_unmapped_in"
BORDER_UNMAPPED_OUT = "FabricEgress.partition_check.border_unmapped_out"
