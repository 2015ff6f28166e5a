"""An action profile constructed in a table's implementation property and named there
with @name takes that name verbatim (p4c uses the property's control-plane name: no
control prefix), and its P4Info ID follows from that name like any other object's."""
from __future__ import annotations

from pathlib import Path

from p4sim.compiler.driver import compile_program
from p4sim.compiler.p4info import build_p4info

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PROGRAM = CORPUS / "347_named_in_place_action_profiles.p4"


def test_profiles_take_the_property_name_and_tables_point_at_them() -> None:
    p4info = build_p4info(compile_program(str(PROGRAM)).control_plane)
    profiles = {p.preamble.name: p for p in p4info.action_profiles}
    assert sorted(profiles) == ["ap", "ap_ws"]
    tables = {t.preamble.name: t for t in p4info.tables}
    assert tables["Steer.indirect"].implementation_id == profiles["ap"].preamble.id
    assert tables["Steer.indirect_ws"].implementation_id == profiles["ap_ws"].preamble.id
    assert profiles["ap_ws"].with_selector and profiles["ap_ws"].max_group_size == 200
    assert list(profiles["ap"].table_ids) == [tables["Steer.indirect"].preamble.id]


def test_profile_ids_are_those_of_their_names() -> None:
    """0x11 is the action-profile ID prefix; the low 24 bits hash the name (the same
    IDs p4c gives objects called "ap" and "ap_ws")."""
    p4info = build_p4info(compile_program(str(PROGRAM)).control_plane)
    ids = {p.preamble.name: p.preamble.id for p in p4info.action_profiles}
    assert ids == {"ap": 294074782, "ap_ws": 300324846}
    assert all(i >> 24 == 0x11 for i in ids.values())


def test_the_bmv2_json_uses_the_same_names() -> None:
    doc = compile_program(str(PROGRAM)).bmv2_json
    (pipeline, _) = doc["pipelines"]
    assert [p["name"] for p in pipeline["action_profiles"]] == ["ap", "ap_ws"]
    by_table = {t["name"]: t.get("action_profile") for t in pipeline["tables"]}
    assert by_table["Steer.indirect"] == "ap" and by_table["Steer.indirect_ws"] == "ap_ws"
