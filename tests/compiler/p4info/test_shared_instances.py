"""An instance handed to two controls through constructor parameters is one object:
p4c's P4Info lists its counter once (named by the path of its declaration), and the
BMv2 JSON has one counter array that both inlined applications count into."""
from __future__ import annotations

from pathlib import Path

from p4sim.compiler.driver import compile_program

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
PROGRAM = CORPUS / "346_shared_instance_through_constructor.p4"
NAME = "Ingress.Stages.shared.hits"


def test_the_shared_counter_is_listed_once_in_p4info() -> None:
    result = compile_program(str(PROGRAM))
    assert [c.name for c in result.control_plane.counters] == [NAME]


def test_both_applications_count_into_one_counter_array() -> None:
    doc = compile_program(str(PROGRAM)).bmv2_json
    assert [c["name"] for c in doc["counter_arrays"]] == [NAME]
    counted = [p["parameters"][0]["value"] for a in doc["actions"] for p in a["primitives"]
               if p["op"] == "count"]
    assert counted == [NAME, NAME]
