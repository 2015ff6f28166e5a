"""Pure translation of (topology, policy, routes, weights) into one switch's entities.

No connection here: these functions are unit-tested by asserting on the entities, and
the agents diff their output against what a switch holds.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field
from typing import Mapping

from p4.v1 import p4runtime_pb2

from control.controller.int_report_mode import REPORT_MODE_TABLE, report_mode_action
from control.controller.int_report_spread import collector_exits, spread_items
from control.link_frames import data_packets_per_second
from control.controller.state import STAGE_BASE, STAGE_GROUP, STAGE_ROUTE, STAGE_TABLE, Item, item
from control.p4rt.entities import P4Names
from control.policy import FEEDBACK_PDS_TYPES, Policy, WatchEntry
from control.routing import Route, link_between
from control.controller.int_domains import border_ports, domain_items, switch_borders
from control.controller.partition_borders import border_port_numbers, switch_border_items
from control.topology import Domain, Host, Topology, router_mac, switch_ip

SELECTOR = "FabricIngress.routing.multipath_selector"
TRIM_METER = "FabricIngress.trimming.data_rate"
REPORT_SESSION = 100
REPORT_SRC_PORT = 40000
PORT_SPACE = 512           # v1model ports are 9 bits
MAX_WEIGHT = 16            # copies of one next hop in a group
MODE_ACTIONS = {"ecmp": "use_ecmp", "entropy": "use_entropy", "round_robin": "use_round_robin"}
# protocol_class of multipath_class_modes (define.p4's MP_CLASS_*), per policy protocol.
MP_CLASS_OTHER, MP_CLASS_UEC, MP_CLASS_ROCEV2, MP_CLASS_TCP, MP_CLASS_OTHER_UDP = 0, 1, 2, 3, 4
PROTOCOL_CLASS_IDS = {"other": MP_CLASS_OTHER, "uec": MP_CLASS_UEC, "rocev2": MP_CLASS_ROCEV2,
                      "tcp": MP_CLASS_TCP, "other_udp": MP_CLASS_OTHER_UDP}
CLASS_MODES_TABLE = "FabricIngress.routing.multipath_class_modes"
DEFAULT_WEIGHT = 1

# (switch, destination name, egress port) -> member weight; absent = DEFAULT_WEIGHT
Weights = Mapping[tuple[str, str, int], int]


@dataclass(frozen=True)
class FabricPlan:
    """Everything fixed for a run: the topology, the policy and group numbering."""

    topo: Topology
    policy: Policy
    # A domain's controller (fabricctl run --domain): INT uses its domain ID and border
    # ports (int_domains); topo is then domain_view()'s, with that domain's collector.
    domain: Domain | None = None
    destinations: tuple[Host, ...] = field(init=False)

    def __post_init__(self) -> None:
        dests = list(self.topo.hosts)
        if self.topo.collector is not None:
            dests.append(self.topo.collector.as_host())
        object.__setattr__(self, "destinations", tuple(dests))

    def group_id(self, destination: str) -> int:
        """One group per destination, numbered in topology order from 1 (the same on
        every switch, which makes tables easy to read across the fabric)."""
        for i, dest in enumerate(self.destinations):
            if dest.name == destination:
                return i + 1
        raise KeyError(f"no destination named {destination!r}")


def member_id(group_id: int, port: int, copy: int = 0) -> int:
    """The P4Runtime member ID of copy ``copy`` of the next hop on ``port`` in group
    ``group_id``: ((group * MAX_WEIGHT) + copy) * 512 + port."""
    if not 0 <= copy < MAX_WEIGHT:
        raise ValueError(f"member copy {copy} of group {group_id} port {port}: "
                         f"weights go up to {MAX_WEIGHT}")
    return (group_id * MAX_WEIGHT + copy) * PORT_SPACE + port


def member_port(member: int) -> int:
    """The egress port a member ID of member_id() stands for."""
    return member % PORT_SPACE


def weighted_members(group_id: int, weights: Mapping[int, int]) -> dict[int, int]:
    """Group membership {member ID: 1} for {port: weight}: a weight is expressed by
    repeating the next hop's member, never by P4Runtime member weights. Those are the
    server's to realise (BMv2's appends the copies after every member that existed
    before, which moved a 3:1 group's split of one set of 64 flows from 64:0 to 32:32),
    while members of weight 1 are hashed over the same way by BMv2 and p4sim: hash %
    member count, members in the order they were made."""
    members: dict[int, int] = {}
    for port, weight in weights.items():
        if not 1 <= weight <= MAX_WEIGHT:
            raise ValueError(f"group {group_id} port {port}: weight {weight} is not in "
                             f"1..{MAX_WEIGHT}")
        members.update({member_id(group_id, port, copy): 1 for copy in range(weight)})
    return members


def switch_items(names: P4Names, plan: FabricPlan, switch: str, routes: list[Route],
                 weights: Weights | None = None) -> list[Item]:
    """Every entity ``switch`` should hold for these routes (routes of other switches
    are ignored, so the fabric-wide route list can be passed as is)."""
    weights = weights or {}
    mine = [r for r in routes if r.switch == switch]
    items = _route_items(names, plan, switch, mine, weights)
    items += class_mode_items(names, plan.policy)
    items += _partition_items(names, plan, switch)
    if plan.domain is not None:  # partitions across borders: link VIDs <-> our partitions
        items += switch_border_items(names, plan.topo, plan.policy, switch)
    items += _threshold_items(names, plan, switch)
    items += _credit_items(names, plan, switch)
    items += feedback_items(names, plan.policy)
    if plan.policy.int.enabled and plan.topo.collector is not None:
        items += _int_items(names, plan, switch, mine)
    return items


# ------------------------------------------------------------------------------ routing
def _route_items(names: P4Names, plan: FabricPlan, switch: str, routes: list[Route],
                 weights: Weights) -> list[Item]:
    sw = plan.topo.switch(switch)
    own_mac = router_mac(sw)
    items: list[Item] = []
    for route in routes:
        dest = route.host
        gid = plan.group_id(dest.name)
        port_weights = {hop.port: 1 if route.direct else
                        weights.get((switch, dest.name, hop.port), DEFAULT_WEIGHT)
                        for hop in route.next_hops}
        for hop in route.next_hops:
            dst_mac = dest.mac if route.direct else router_mac(plan.topo.switch(hop.neighbor))
            for copy in range(port_weights[hop.port]):
                items.append(item(STAGE_BASE, action_profile_member=names.member(
                    SELECTOR, member_id(gid, hop.port, copy), "FabricIngress.routing.forward",
                    {"port": hop.port, "src_mac": own_mac, "dst_mac": dst_mac,
                     "member_index": hop.port})))
        member: int | None = None
        group: int | None = None
        if route.direct:
            member = member_id(gid, route.next_hops[0].port)
        else:
            items.append(item(STAGE_GROUP, action_profile_group=names.group(
                SELECTOR, gid, weighted_members(gid, port_weights))))
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                "FabricIngress.routing.multipath_modes", {"group_id": gid},
                f"FabricIngress.routing.{MODE_ACTIONS[plan.policy.spray_mode(dest.name)]}")))
            group = gid
        items.append(item(STAGE_TABLE, table_entry=names.table_entry(
            "FabricIngress.routing.next_hops", {"group_id": gid}, member_id=member,
            group_id=group)))
        for partition in partitions_reaching(plan, dest):
            items.append(item(STAGE_ROUTE, table_entry=names.table_entry(
                "FabricIngress.routing.routes", {"partition": partition, "ipv4_dst": f"{dest.ip}/32"},
                "FabricIngress.routing.set_group", {"group": gid})))
    return items


def class_mode_items(names: P4Names, policy: Policy) -> list[Item]:
    """multipath_class_modes entries for the classes the policy names, on every switch
    (fabric links carry each packet's partition in its tag). The defaults need none: without
    an entry the pipeline pins RoCEv2 and TCP and gives UEC the group's mode."""
    items: list[Item] = []
    for partition in [0] + [p.id for p in policy.partitions]:
        for protocol, class_id in PROTOCOL_CLASS_IDS.items():
            named = {(partition, protocol), (None, protocol)} & policy.spray_classes.keys()
            mode = policy.class_mode(partition, protocol)
            if named and mode is not None:
                items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                    CLASS_MODES_TABLE, {"partition": partition, "protocol_class": class_id},
                    f"FabricIngress.routing.{MODE_ACTIONS[mode]}")))
    return items


def partitions_reaching(plan: FabricPlan, dest: Host) -> list[int]:
    """Partition 0 (the shared one) reaches every destination; a partition reaches only
    its members, on every switch (fabric links carry the partition in its tag)."""
    result = [0]
    for part in plan.policy.partitions:
        if (dest.switch, dest.port) in part.members:
            result.append(part.id)
    return result


# ------------------------------------------------------------------------------ partitions
PARTITIONS_TABLE = "FabricIngress.partition.partitions"
TAG_PORTS_TABLE = "FabricEgress.partition_tag.tag_ports"
# partitions entries: a tag (fabric tag, host VLAN) beats the port alone.
TAGGED_PRIORITY, PORT_PRIORITY = 20, 10


def _partition_items(names: P4Names, plan: FabricPlan, switch: str) -> list[Item]:
    """Members' ports classify by port (and host VLAN) and leave untagged or with that
    VLAN; fabric ports classify by partition tag and tag every packet of a non-zero
    partition (p4src/include/control/partition_tag.p4). Queue classes on every switch."""
    policy = plan.policy
    if not policy.partitions:
        return []
    items: list[Item] = []
    borders = border_port_numbers(plan.topo, policy, switch) if plan.domain is not None else set()
    fabric_ports = sorted(p for p in plan.topo.all_ports(switch)
                          if link_between(plan.topo, switch, p) is not None and p not in borders)
    for part in policy.partitions:
        for sw, port in part.members:
            if sw != switch:
                continue
            items.append(_entry(names, PARTITIONS_TABLE, {"ingress_port": port},
                                "FabricIngress.partition.set_partition", {"id": part.id},
                                priority=PORT_PRIORITY))
            if part.vlan is None:
                items.append(_entry(names, TAG_PORTS_TABLE, {"egress_port": port},
                                    "FabricEgress.partition_tag.access_port"))
                continue
            items.append(_entry(names, PARTITIONS_TABLE, _tagged(port, part.vlan),
                                "FabricIngress.partition.set_partition_untag", {"id": part.id},
                                priority=TAGGED_PRIORITY))
            items.append(_entry(names, TAG_PORTS_TABLE, {"egress_port": port},
                                "FabricEgress.partition_tag.tagged_access_port",
                                {"vlan_id": part.vlan}))
            items.append(_entry(names, "FabricEgress.partition_check.port_partitions",
                                {"egress_port": port},
                                "FabricEgress.partition_check.restrict_to_partition", {"id": part.id}))
        items.append(_entry(names, "FabricEgress.partition_tag.partition_tags",
                            {"partition": part.id}, "FabricEgress.partition_tag.set_tag",
                            {"vlan_id": part.fabric_tag}))
        if part.queue is not None:
            items.append(_entry(names, "FabricIngress.partition.partition_queues",
                                {"partition": part.id}, "FabricIngress.partition.set_queue",
                                {"queue": part.queue}))
        for port in fabric_ports:
            items.append(_entry(names, PARTITIONS_TABLE, _tagged(port, part.fabric_tag),
                                "FabricIngress.partition.set_partition_untag", {"id": part.id},
                                priority=TAGGED_PRIORITY))
    for port in fabric_ports:
        items.append(_entry(names, TAG_PORTS_TABLE, {"egress_port": port},
                            "FabricEgress.partition_tag.fabric_port"))
    return items


def _tagged(port: int, vlan: int) -> dict[str, object]:
    return {"ingress_port": port, "vlan_is_valid": "1&&&1", "vlan_id": f"{vlan}&&&0xfff"}


def _entry(names: P4Names, table: str, match: dict, action: str, params: dict | None = None,
           priority: int = 0) -> Item:
    return item(STAGE_TABLE, table_entry=names.table_entry(table, match, action, params or {},
                                                           priority=priority))


# ------------------------------------------------------------------------------ thresholds
def _threshold_items(names: P4Names, plan: FabricPlan, switch: str) -> list[Item]:
    items: list[Item] = []
    pol = plan.policy
    for port in sorted(plan.topo.all_ports(switch)):
        ecn = pol.ecn.for_port(switch, port)
        if ecn is not None:
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                "FabricEgress.ecn.ecn_thresholds", {"egress_port": port},
                "FabricEgress.ecn.set_ecn_threshold", {"depth": ecn})))
        trim = pol.trim.for_port(switch, port)
        if trim is not None:
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                "FabricIngress.trimming.trim_thresholds", {"egress_port": port},
                "FabricIngress.trimming.set_trim_threshold", {"depth": trim})))
            link = link_between(plan.topo, switch, port)
            if link is not None and link.rate_pps:
                burst = trim if pol.trim_meter_burst is None else pol.trim_meter_burst
                items.append(item(STAGE_BASE, modify_only=True,
                                  meter_entry=trim_meter(names, port, link.rate_pps, burst)))
    for cls in pol.trim_classes:
        items.append(item(STAGE_TABLE, table_entry=names.table_entry(
            "FabricIngress.trimming.trim_classes", {"dscp": cls.dscp}, "FabricIngress.trimming.trim_to",
            {"length": cls.length, "trimmed_dscp": cls.trimmed_dscp, "queue": cls.queue})))
    return items


def trim_meter(names: P4Names, port: int, rate_pps: float, threshold: int) -> p4runtime_pb2.MeterEntry:
    """The port's virtual data queue (trimming.p4's data_rate): it drains at the link's
    rate and holds ``threshold`` packets, so it turns red when the link's real queue
    (in the tc qdisc after the switch, where the pipeline cannot see it) would hold
    more than the threshold. Both buckets alike: red or green, never yellow. The link's
    rate counts full-size frames; the meter counts data packets (control.link_frames)."""
    rate = max(1, round(data_packets_per_second(rate_pps)))
    return names.meter_config(TRIM_METER, port, rate, threshold, rate, threshold)


def feedback_items(names: P4Names, pol: Policy) -> list[Item]:
    """The policy's [feedback] queue for every non-data PDS type (feedback.p4)."""
    if pol.feedback_queue is None:
        return []
    return [item(STAGE_TABLE, table_entry=names.table_entry(
        "FabricIngress.feedback.feedback_queues", {"pds_type": pds_type},
        "FabricIngress.feedback.set_feedback_queue", {"queue": pol.feedback_queue}))
        for pds_type in FEEDBACK_PDS_TYPES]


def _credit_items(names: P4Names, plan: FabricPlan, switch: str) -> list[Item]:
    items: list[Item] = []
    credit = plan.policy.credit
    for port in sorted(plan.topo.all_ports(switch)):
        if credit.meter_pps is not None:
            items.append(item(STAGE_BASE, modify_only=True, meter_entry=names.meter_config(
                "FabricIngress.credit_marking.credit_rate", port, credit.meter_pps, credit.meter_burst,
                credit.meter_pps, credit.meter_burst)))
        for i, band in enumerate(credit.bands):
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                "FabricIngress.credit_marking.credit_bands",
                {"ingress_port": port, "queue_depth": f"{band.min_depth}..{band.max_depth}"},
                "FabricIngress.credit_marking.reduce_credit", {"shift": band.shift},
                priority=len(credit.bands) - i)))
    return items


# ------------------------------------------------------------------------------ INT
def _int_items(names: P4Names, plan: FabricPlan, switch: str, routes: list[Route]) -> list[Item]:
    pol = plan.policy.int
    topo = plan.topo
    sw = topo.switch(switch)
    items = [
        item(STAGE_BASE, modify_only=True, table_entry=names.default_entry(
            "FabricEgress.int_egress.int_node", "FabricEgress.int_egress.set_int_node",
            {"node_id": sw.node_id, "int_dscp": pol.dscp})),
    ]
    host_ports = sorted(topo.host_facing_ports(switch))
    domain_id = pol.domain_id if plan.domain is None else plan.domain.id
    for port in host_ports:
        for watch in pol.watchlist:
            items.append(item(STAGE_TABLE, table_entry=names.table_entry(
                "FabricEgress.int_egress.int_source.int_watchlist", watch_match(port, watch),
                "FabricEgress.int_egress.int_source.start_int",
                {"instructions": pol.instructions, "hop_budget": pol.hop_budget, "domain_id": domain_id},
                priority=10)))
    sink_ports = host_ports
    if plan.domain is not None:  # the switch's own INT domain; border ports sink it too
        borders = switch_borders(topo, switch, pol.hop_budget, pol.instructions)
        items += domain_items(names, domain_id, borders)
        sink_ports = sorted(set(host_ports) | set(border_ports(borders)))
    exits = collector_exits(plan, switch, routes)
    if not exits:
        return items  # the collector is unreachable from here: no reports
    next_mac = exits[0][1]
    collector = topo.collector
    assert collector is not None  # collector_exits found the way to it
    # A clone session per next hop towards the collector, sinks spreading over them.
    items += spread_items(names, exits, REPORT_SESSION, sink_ports)
    items.append(item(STAGE_BASE, modify_only=True, table_entry=names.default_entry(
        "FabricEgress.int_egress.int_report.report_encap",
        "FabricEgress.int_egress.int_report.set_report_encap",
        {"src_mac": router_mac(sw), "dst_mac": next_mac, "src_ip": switch_ip(sw),
         "collector_ip": collector.ip, "src_port": REPORT_SRC_PORT, "collector_port": pol.report_port,
         "hw_id": sw.node_id & 0x3F, "inner_bytes": pol.inner_bytes})))
    items.append(item(STAGE_BASE, modify_only=True, table_entry=names.default_entry(
        REPORT_MODE_TABLE, *report_mode_action(pol.report_mode))))
    return items


def watch_match(port: int, watch: WatchEntry) -> dict[str, str]:
    """Ternary match text for one watchlist entry on one host-facing ingress port."""
    match = {"ingress_port": f"{port}&&&0x1ff"}
    for name, prefix in (("ipv4_src", watch.src), ("ipv4_dst", watch.dst)):
        if prefix is not None:
            net = ipaddress.IPv4Network(prefix)
            if net.prefixlen:
                match[name] = f"{net.network_address}&&&{net.netmask}"
    for name, value, mask in (("ip_proto", watch.proto, "0xff"), ("l4_src_port", watch.src_port, "0xffff"),
                              ("l4_dst_port", watch.dst_port, "0xffff")):
        if value is not None:
            match[name] = f"{value}&&&{mask}"
    return match
