"""Builder features the reference programs do not exercise."""
from __future__ import annotations

import pytest
from p4.config.v1 import p4info_pb2

from p4sim.compiler.control_plane import (
    ActionInfo, ActionParamInfo, ActionProfileInfo, ActionRefInfo, Annot, ControlPlaneModel,
    ControllerHeaderInfo, CounterInfo, DigestInfo, MatchFieldInfo, MeterInfo, StructMemberInfo,
    TableInfo, ValueSetInfo)
from p4sim.compiler.p4info import P4InfoError, build_p4info, compute_ids
from p4sim.compiler.p4info.ids import IdPrefix


def table(name: str = "I.t", **kwargs: object) -> TableInfo:
    fields = dict(match_fields=(MatchFieldInfo("k", bitwidth=8, match_type="exact"),),
                  action_refs=(ActionRefInfo("I.a"),), size=16)
    fields.update(kwargs)
    return TableInfo(name, **fields)  # type: ignore[arg-type]


def model(**kwargs: object) -> ControlPlaneModel:
    base = dict(tables=[table()], actions=[ActionInfo("I.a")])
    base.update(kwargs)
    return ControlPlaneModel(**base)  # type: ignore[arg-type]


def test_defaultonly_reference_gets_scope_and_annotation() -> None:
    info = build_p4info(model(tables=[table(action_refs=(
        ActionRefInfo("I.a", annotations=(Annot("defaultonly"),)),))]))
    ref = info.tables[0].action_refs[0]
    assert ref.scope == p4info_pb2.ActionRef.DEFAULT_ONLY
    assert list(ref.annotations) == ["@defaultonly"]


def test_tableonly_scope_without_annotation_adds_it() -> None:
    info = build_p4info(model(tables=[table(action_refs=(
        ActionRefInfo("I.a", scope="TABLE_ONLY"),))]))
    ref = info.tables[0].action_refs[0]
    assert ref.scope == p4info_pb2.ActionRef.TABLE_ONLY
    assert list(ref.annotations) == ["@tableonly"]


def test_both_scopes_is_an_error() -> None:
    bad = model(tables=[table(action_refs=(ActionRefInfo(
        "I.a", annotations=(Annot("defaultonly"), Annot("tableonly"))),))])
    with pytest.raises(P4InfoError, match="both @tableonly and @defaultonly"):
        build_p4info(bad)


def test_annotations_and_documentation() -> None:
    action = ActionInfo("I.a", annotations=(
        Annot("name", '"I.a"'), Annot("id", "5"), Annot("brief", '"short"'),
        Annot("description", '"long"'), Annot("my_anno", "1, 2")),
        params=(ActionParamInfo("p", bitwidth=4, doc_brief="param doc"),))
    info = build_p4info(model(actions=[action]))
    preamble = info.actions[0].preamble
    assert list(preamble.annotations) == ["@my_anno(1, 2)"]
    assert preamble.doc.brief == "short" and preamble.doc.description == "long"
    assert info.actions[0].params[0].doc.brief == "param doc"
    assert not info.tables[0].preamble.HasField("doc")


def test_hidden_objects_shape_aliases_but_are_not_emitted() -> None:
    hidden = ActionInfo("E.a", annotations=(Annot("hidden"),))
    info = build_p4info(model(actions=[ActionInfo("I.a"), hidden]))
    assert [a.preamble.name for a in info.actions] == ["I.a"]
    assert info.actions[0].preamble.alias == "I.a"


def test_aliases_count_symbols_of_every_kind() -> None:
    info = build_p4info(model(counters=[CounterInfo("E.a", unit="PACKETS", size=4)]))
    assert info.actions[0].preamble.alias == "I.a"
    assert info.counters[0].preamble.alias == "E.a"
    assert info.tables[0].preamble.alias == "t"


def test_direct_meter_idle_timeout_and_profile() -> None:
    info = build_p4info(model(
        tables=[table(direct_resources=("I.dm", "I.dc"), idle_timeout=True,
                      implementation="I.ap")],
        meters=[MeterInfo("I.dm", unit="BYTES", direct_table="I.t")],
        counters=[CounterInfo("I.dc", unit="packets_and_bytes", direct_table="I.t")],
        action_profiles=[ActionProfileInfo("I.ap", table_names=("I.t",), with_selector=False,
                                           size=128, max_group_size=8)]))
    ids = compute_ids([(IdPrefix.DIRECT_METER, "I.dm", None), (IdPrefix.DIRECT_COUNTER, "I.dc", None),
                       (IdPrefix.TABLE, "I.t", None), (IdPrefix.ACTION_PROFILE, "I.ap", None)])
    t = info.tables[0]
    assert list(t.direct_resource_ids) == [ids[(IdPrefix.DIRECT_METER, "I.dm")],
                                           ids[(IdPrefix.DIRECT_COUNTER, "I.dc")]]
    assert t.idle_timeout_behavior == p4info_pb2.Table.NOTIFY_CONTROL
    assert t.implementation_id == ids[(IdPrefix.ACTION_PROFILE, "I.ap")]
    assert info.direct_meters[0].direct_table_id == ids[(IdPrefix.TABLE, "I.t")]
    assert info.direct_meters[0].spec.unit == p4info_pb2.MeterSpec.BYTES
    assert info.direct_counters[0].spec.unit == p4info_pb2.CounterSpec.BOTH
    profile = info.action_profiles[0]
    assert (profile.with_selector, profile.size, profile.max_group_size) == (False, 128, 8)
    assert not info.counters and not info.meters


def test_selector_fields_skipped_but_keep_their_position() -> None:
    info = build_p4info(model(tables=[table(match_fields=(
        MatchFieldInfo("h", bitwidth=16, match_type="selector"),
        MatchFieldInfo("k", bitwidth=8, match_type="exact"),
        MatchFieldInfo("x", bitwidth=8, match_type="my_kind")))]))
    fields = info.tables[0].match_fields
    assert [(f.id, f.name) for f in fields] == [(2, "k"), (3, "x")]
    assert fields[1].other_match_type == "my_kind"


def test_leading_dot_of_global_name_is_dropped() -> None:
    info = build_p4info(model(tables=[table(action_refs=(ActionRefInfo(".a"),))],
                              actions=[ActionInfo(".a")]))
    assert info.actions[0].preamble.name == "a"
    assert info.tables[0].action_refs[0].id == info.actions[0].preamble.id


def test_fixed_ids_reach_the_output() -> None:
    info = build_p4info(model(actions=[ActionInfo("I.a", fixed_id=0x42)],
                              tables=[table(fixed_id=0x02000010)]))
    assert info.actions[0].preamble.id == 0x01000042
    assert info.tables[0].preamble.id == 0x02000010
    assert info.tables[0].action_refs[0].id == 0x01000042


@pytest.mark.parametrize(("bad", "message"), [
    (dict(tables=[table(action_refs=(ActionRefInfo("I.missing"),))]),
     "table 'I.t' refers to action 'I.missing', which the control-plane model does not declare"),
    (dict(tables=[table(implementation="I.nope")]),
     r"table 'I.t' \(implementation\) refers to action profile 'I.nope'"),
    (dict(tables=[table(direct_resources=("I.c",))]),
     "table 'I.t' lists direct resource 'I.c', which is neither"),
    (dict(counters=[CounterInfo("I.c", unit="flows", size=1)]),
     "counter 'I.c': unknown unit 'flows'"),
    (dict(tables=[table(const_default_action="I.b")]),
     r"table 'I.t' \(const default action\) refers to action 'I.b'"),
])
def test_dangling_references_are_clear_errors(bad: dict[str, object], message: str) -> None:
    with pytest.raises(P4InfoError, match=message):
        build_p4info(model(**bad))


def test_value_set_of_struct_fields() -> None:
    value_set = ValueSetInfo("P.vs", match_fields=(
        MatchFieldInfo("a", bitwidth=8, match_type="exact"),
        MatchFieldInfo("b", bitwidth=16, match_type="ternary",
                       annotations=(Annot("match", "ternary"), Annot("note", '"x"'))),
        MatchFieldInfo("c", bitwidth=4, match_type="", fixed_id=9)), size=8)
    info = build_p4info(model(value_sets=[value_set]))
    out = info.value_sets[0]
    assert out.size == 8
    assert [(m.id, m.name, m.bitwidth) for m in out.match] == [(1, "a", 8), (2, "b", 16), (9, "c", 4)]
    assert [m.match_type for m in out.match] == [p4info_pb2.MatchField.EXACT,
                                                 p4info_pb2.MatchField.TERNARY,
                                                 p4info_pb2.MatchField.EXACT]
    assert list(out.match[1].annotations) == ['@note("x")']


def test_digests_share_one_type_info_struct() -> None:
    members = (StructMemberInfo("mac", 48), StructMemberInfo("port", 9))
    info = build_p4info(model(digests=[
        DigestInfo("learn_t", struct_name="learn_t", members=members),
        DigestInfo("I.d2", struct_name="learn_t", members=members)]))
    assert [d.type_spec.struct.name for d in info.digests] == ["learn_t", "learn_t"]
    struct = info.type_info.structs["learn_t"]
    assert [(m.name, m.type_spec.bitstring.bit.bitwidth) for m in struct.members] == \
        [("mac", 48), ("port", 9)]


def test_hidden_table_is_not_emitted() -> None:
    hidden = table("I.tbl_act", annotations=(Annot("hidden"),))
    info = build_p4info(model(tables=[table(), hidden]))
    assert [t.preamble.name for t in info.tables] == ["I.t"]


def test_controller_header_id_hashes_the_type_name() -> None:
    header = ControllerHeaderInfo("packet_in", metadata=(StructMemberInfo("port", 9),),
                                  type_name="packet_in_header_t")
    info = build_p4info(model(controller_headers=[header]))
    ids = compute_ids([(IdPrefix.CONTROLLER_HEADER, "packet_in_header_t", None)])
    out = info.controller_packet_metadata[0]
    assert out.preamble.id == ids[(IdPrefix.CONTROLLER_HEADER, "packet_in_header_t")]
    assert (out.preamble.name, out.preamble.alias) == ("packet_in", "packet_in")
    assert [(m.id, m.name, m.bitwidth) for m in out.metadata] == [(1, "port", 9)]
