"""ControlPlaneModels written by hand for the four reference programs in
tests/real_toolchain/p4, listing objects in the order p4c emits them."""
from __future__ import annotations


from p4sim.compiler.control_plane import (
    ActionInfo, ActionParamInfo, ActionProfileInfo, ActionRefInfo, Annot, ControlPlaneModel,
    ControllerHeaderInfo, CounterInfo, DigestInfo, MatchFieldInfo, MeterInfo, RegisterInfo,
    StructMemberInfo, TableInfo, ValueSetInfo)
from p4sim.reference import reference_dir

REFERENCE_DIR = reference_dir()

NO_ACTION = ActionInfo("NoAction", annotations=(Annot("noWarn", '"unused"'),))
DROP = ActionInfo("IngressImpl.drop")


def l3_lpm() -> ControlPlaneModel:
    return ControlPlaneModel(
        tables=[TableInfo(
            "IngressImpl.ipv4_lpm",
            match_fields=(MatchFieldInfo("dst_addr", bitwidth=32, match_type="lpm"),),
            action_refs=(ActionRefInfo("IngressImpl.forward"), ActionRefInfo("IngressImpl.drop")),
            size=1024,
            direct_resources=("IngressImpl.route_counter",))],
        actions=[
            DROP,
            ActionInfo("IngressImpl.forward", params=(
                ActionParamInfo("port", bitwidth=9),
                ActionParamInfo("dst_mac", bitwidth=48),
                ActionParamInfo("src_mac", bitwidth=48)))],
        counters=[CounterInfo("IngressImpl.route_counter", unit="BOTH",
                              direct_table="IngressImpl.ipv4_lpm")],
    )


def multipath() -> ControlPlaneModel:
    return ControlPlaneModel(
        tables=[
            TableInfo(
                "IngressImpl.classifier",
                match_fields=(
                    MatchFieldInfo("diffserv", bitwidth=8, match_type="ternary"),
                    MatchFieldInfo("udp_dport", bitwidth=16, match_type="range"),
                    MatchFieldInfo("protocol", bitwidth=8, match_type="optional")),
                action_refs=(ActionRefInfo("IngressImpl.classify"), ActionRefInfo("NoAction")),
                size=1024, const_default_action="NoAction",
                is_const_table=True, has_initial_entries=True),
            TableInfo(
                "IngressImpl.route",
                match_fields=(MatchFieldInfo("hdr.ipv4.dst_addr", bitwidth=32, match_type="lpm"),),
                action_refs=(ActionRefInfo("IngressImpl.to_group"),
                             ActionRefInfo("IngressImpl.drop")),
                size=1024),
            TableInfo(
                "IngressImpl.members",
                match_fields=(
                    MatchFieldInfo("hdr.ipv4.dst_addr", bitwidth=32, match_type="exact"),
                    MatchFieldInfo("meta.flow_hash", bitwidth=16, match_type="selector"),
                    MatchFieldInfo("meta.seq", bitwidth=32, match_type="selector")),
                action_refs=(ActionRefInfo("IngressImpl.set_member"),
                             ActionRefInfo("IngressImpl.drop"), ActionRefInfo("NoAction")),
                size=1024, implementation="IngressImpl.spray_selector"),
        ],
        actions=[
            NO_ACTION,
            DROP,
            ActionInfo("IngressImpl.set_member", params=(
                ActionParamInfo("port", bitwidth=9),
                ActionParamInfo("member_index", bitwidth=32))),
            ActionInfo("IngressImpl.classify", params=(ActionParamInfo("klass", bitwidth=8),)),
            ActionInfo("IngressImpl.to_group",
                       params=(ActionParamInfo("group_index", bitwidth=32),)),
        ],
        action_profiles=[ActionProfileInfo(
            "IngressImpl.spray_selector", table_names=("IngressImpl.members",),
            with_selector=True, size=1024)],
        counters=[CounterInfo("IngressImpl.member_pkts", unit="PACKETS", size=64)],
        meters=[MeterInfo("IngressImpl.class_meter", unit="PACKETS", size=16)],
        registers=[RegisterInfo("IngressImpl.group_seq", bitwidth=32, size=64)],
    )


def _controller_header(direction: str, port_field: str) -> ControllerHeaderInfo:
    return ControllerHeaderInfo(
        direction,
        annotations=(Annot("controller_header", f'"{direction}"'),),
        metadata=(StructMemberInfo(port_field, 9), StructMemberInfo("pad", 7)),
        type_name=f"{direction}_t")


def replication() -> ControlPlaneModel:
    return ControlPlaneModel(
        tables=[
            TableInfo(
                "IngressImpl.l2",
                match_fields=(MatchFieldInfo("hdr.ethernet.dst_addr", bitwidth=48,
                                             match_type="exact"),),
                action_refs=tuple(ActionRefInfo(f"IngressImpl.{a}")
                                  for a in ("unicast", "flood", "to_cpu", "drop")),
                size=1024),
            TableInfo(
                "IngressImpl.smac",
                match_fields=(MatchFieldInfo("hdr.ethernet.src_addr", bitwidth=48,
                                             match_type="exact"),),
                action_refs=(ActionRefInfo("IngressImpl.learn"), ActionRefInfo("NoAction")),
                size=1024),
        ],
        actions=[
            NO_ACTION,
            DROP,
            ActionInfo("IngressImpl.flood", params=(ActionParamInfo("group", bitwidth=16),)),
            ActionInfo("IngressImpl.unicast", params=(ActionParamInfo("port", bitwidth=9),)),
            ActionInfo("IngressImpl.to_cpu"),
            ActionInfo("IngressImpl.learn"),
        ],
        controller_headers=[_controller_header("packet_in", "ingress_port"),
                            _controller_header("packet_out", "egress_port")],
        digests=[DigestInfo("learn_t", struct_name="learn_t", members=(
            StructMemberInfo("src_addr", 48), StructMemberInfo("ingress_port", 9)))],
    )


def stack_and_queues() -> ControlPlaneModel:
    return ControlPlaneModel(
        tables=[
            TableInfo(
                "IngressImpl.fwd",
                match_fields=(MatchFieldInfo("std_meta.ingress_port", bitwidth=9,
                                             match_type="exact"),),
                action_refs=(ActionRefInfo("IngressImpl.forward"),
                             ActionRefInfo("IngressImpl.drop")),
                size=1024),
            TableInfo(
                "EgressImpl.hop_record",
                match_fields=(MatchFieldInfo("is_probe", bitwidth=1, match_type="exact"),),
                action_refs=(ActionRefInfo("EgressImpl.push_hop"),
                             ActionRefInfo("EgressImpl.pop_all"), ActionRefInfo("NoAction")),
                size=1024),
        ],
        actions=[
            DROP,
            ActionInfo("IngressImpl.forward", params=(ActionParamInfo("port", bitwidth=9),)),
            NO_ACTION,
            ActionInfo("EgressImpl.push_hop",
                       params=(ActionParamInfo("switch_id", bitwidth=16),)),
            ActionInfo("EgressImpl.pop_all"),
        ],
        value_sets=[ValueSetInfo(
            "ParserImpl.probe_types",
            match_fields=(MatchFieldInfo("", bitwidth=16, match_type="exact"),), size=4)],
    )


REFERENCE_MODELS = {
    "l3_lpm": l3_lpm,
    "multipath": multipath,
    "replication": replication,
    "stack_and_queues": stack_and_queues,
}
