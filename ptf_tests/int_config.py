"""INT settings and expected-packet helpers shared by the INT tests."""
from __future__ import annotations

from ptf.mask import Mask
from scapy.packet import Packet

from wire_formats.layers import DSCP_INT, INT_ALL_SUPPORTED, REPORT_UDP_PORT, IntHop, int_hop_words
from fabric_base import FabricTest
from fabric_config import INT_NODE, INT_SINK_PORTS, INT_WATCHLIST, REPORT_ENCAP

NODE_ID = 0x0A0B0C0D
DOMAIN_ID = 0x0101
INSTRUCTIONS = INT_ALL_SUPPORTED
REPORT_SESSION = 100
COLLECTOR_PORT = 4
COLLECTOR_MAC = "00:00:00:00:c0:11"
SWITCH_MAC = "00:aa:00:00:00:01"
SWITCH_IP = "192.168.100.1"
COLLECTOR_IP = "192.168.100.2"
REPORT_SRC_PORT = 40000
HW_ID = 1
INNER_BYTES = 64
REPORT_MODE = "FabricEgress.int_egress.int_sink.report_filter.report_mode"
REPORT_NEXT_HOP = "FabricEgress.int_egress.int_report.report_next_hop"
SUPPRESSED = "FabricEgress.int_egress.int_sink.report_filter.suppressed_reports"

# Words of one hop (bits 0-5 and 7) whose values depend on timing: hop latency (2),
# queue occupancy (low 24 bits of 3), ingress and egress timestamps (4-7).
_TIMING_WORDS = ((2, 0, 32), (3, 8, 24), (4, 0, 32), (5, 0, 32), (6, 0, 32), (7, 0, 32))


def enable_int_node(test: FabricTest) -> None:
    """This switch is INT node NODE_ID and marks the INT packets it sources with
    DSCP_INT, the DSCP the program recognises INT by (INT_DSCP, fixed at compile
    time)."""
    test.set_default(INT_NODE, "FabricEgress.int_egress.set_int_node",
                     {"node_id": NODE_ID, "int_dscp": DSCP_INT})


def watch(test: FabricTest, dst: str, hop_budget: int = 4) -> None:
    """Start INT-MD on packets to ``dst``."""
    test.insert(INT_WATCHLIST, "FabricEgress.int_egress.int_source.start_int",
                {"ipv4_dst": f"{dst}&&&255.255.255.255"},
                {"instructions": INSTRUCTIONS, "hop_budget": hop_budget,
                 "domain_id": DOMAIN_ID}, priority=10)


def make_sink(test: FabricTest, port: int) -> None:
    """``port`` faces a host: INT ends there and reports go to the collector port."""
    test.insert(INT_SINK_PORTS, "FabricEgress.int_egress.int_sink.set_int_sink",
                {"egress_port": port}, {"report_session": REPORT_SESSION})
    test.add_clone_session(REPORT_SESSION, COLLECTOR_PORT)
    test.set_default(REPORT_ENCAP, "FabricEgress.int_egress.int_report.set_report_encap",
                     {"src_mac": SWITCH_MAC, "dst_mac": COLLECTOR_MAC, "src_ip": SWITCH_IP,
                      "collector_ip": COLLECTOR_IP, "src_port": REPORT_SRC_PORT,
                      "collector_port": REPORT_UDP_PORT, "hw_id": HW_ID, "inner_bytes": INNER_BYTES})


def make_spread_sink(test: FabricTest, port: int, uplinks: dict[int, str]) -> None:
    """As make_sink, but reports spread by flow over ``uplinks`` (port -> next-hop MAC),
    one clone session each from REPORT_SESSION on."""
    test.insert(INT_SINK_PORTS, "FabricEgress.int_egress.int_sink.set_int_sink_spread",
                {"egress_port": port}, {"report_session": REPORT_SESSION, "sessions": len(uplinks)})
    for i, (uplink, mac) in enumerate(sorted(uplinks.items())):
        test.add_clone_session(REPORT_SESSION + i, uplink)
        test.insert(REPORT_NEXT_HOP, "FabricEgress.int_egress.int_report.set_report_next_hop",
                    {"egress_port": uplink}, {"dst_mac": mac})
    test.set_default(REPORT_ENCAP, "FabricEgress.int_egress.int_report.set_report_encap",
                     {"src_mac": SWITCH_MAC, "dst_mac": COLLECTOR_MAC, "src_ip": SWITCH_IP,
                      "collector_ip": COLLECTOR_IP, "src_port": REPORT_SRC_PORT,
                      "collector_port": REPORT_UDP_PORT, "hw_id": HW_ID, "inner_bytes": INNER_BYTES})


def report_every_packet(test: FabricTest) -> None:
    """Per-packet reports instead of the default (changes only)."""
    test.set_default(REPORT_MODE, "FabricEgress.int_egress.int_sink.report_filter.report_every_packet")


def report_hop_set_changes(test: FabricTest) -> None:
    """Reports on a flow's first packet and hop set changes only (buckets ignored)."""
    test.set_default(REPORT_MODE, "FabricEgress.int_egress.int_sink.report_filter.report_changes",
                     {"latency_step": 0, "queue_step": 0})


def own_hop_words(ingress_port: int, egress_port: int) -> list[int]:
    """This switch's metadata, timing values as zero (they are masked)."""
    return int_hop_words(INSTRUCTIONS, IntHop(
        node_id=NODE_ID, ingress_port=ingress_port, egress_port=egress_port, hop_latency=0,
        queue_id=0, queue_occupancy=0, ingress_ts=0, egress_ts=0))


def mask_own_hop(pkt: Packet, stack_offset: int) -> Mask:
    """``pkt`` with the timing fields of the first hop at byte ``stack_offset``
    ignored."""
    mask = Mask(pkt)
    for word, skip_bits, width in _TIMING_WORDS:
        mask.set_do_not_care((stack_offset + 4 * word) * 8 + skip_bits, width)
    return mask


# ------------------------------------------------------------ INT domains
INT_DOMAIN = "FabricEgress.int_egress.int_domain"
INT_DOMAIN_BORDER = "FabricEgress.int_egress.border.int_domain_border"
NEXT_DOMAIN_ID = 0x0202       # the domain beyond a border port
NEXT_DOMAIN_HOP_BUDGET = 5


def set_domain(test: FabricTest, domain_id: int = DOMAIN_ID) -> None:
    """This switch belongs to INT domain ``domain_id``: it acts on that domain's INT
    headers only."""
    test.set_default(INT_DOMAIN, "FabricEgress.int_egress.set_int_domain",
                     {"domain_id": domain_id})


def make_border(test: FabricTest, port: int, next_domain: int = NEXT_DOMAIN_ID,
                hop_budget: int = NEXT_DOMAIN_HOP_BUDGET) -> None:
    """``port`` leads into ``next_domain``: packets this switch sinks there leave with
    a fresh INT-MD header of that domain (the port needs a sink entry too)."""
    test.insert(INT_DOMAIN_BORDER, "FabricEgress.int_egress.border.start_next_domain",
                {"egress_port": port},
                {"instructions": INSTRUCTIONS, "hop_budget": hop_budget,
                 "domain_id": next_domain})
