"""Program.load refuses bad JSON with a LoadError that names the place and quotes
the offending fragment."""
from __future__ import annotations

import copy

import pytest

from p4sim.switch.errors import LoadError
from p4sim.switch.program import Program
from .helpers import reference_json


def _load_error(doc) -> LoadError:
    with pytest.raises(LoadError) as info:
        Program.load(doc)
    return info.value


def test_wrong_major_version() -> None:
    doc = reference_json("l3_lpm")
    doc["__meta__"]["version"] = [3, 0]
    err = _load_error(doc)
    assert "major version 3" in str(err) and '"version":[3,0]' in str(err)


def test_missing_meta() -> None:
    doc = reference_json("l3_lpm")
    del doc["__meta__"]
    assert "__meta__" in str(_load_error(doc))


def test_not_an_object() -> None:
    assert "JSON object" in str(_load_error([1, 2]))


def test_missing_top_level_key() -> None:
    doc = reference_json("l3_lpm")
    del doc["pipelines"]
    assert "missing key 'pipelines'" in str(_load_error(doc))


def test_missing_key_in_action_quotes_the_action() -> None:
    doc = reference_json("l3_lpm")
    del doc["actions"][2]["runtime_data"]
    err = _load_error(doc)
    assert "missing key 'runtime_data'" in str(err)
    assert '"name":"IngressImpl.forward"' in str(err)


def test_unknown_expression_op() -> None:
    doc = reference_json("l3_lpm")
    doc["pipelines"][0]["conditionals"][0]["expression"]["value"]["op"] = "nand"
    err = _load_error(doc)
    assert "unknown expression op 'nand'" in str(err) and "conditional node_2" in str(err)


def test_unknown_primitive() -> None:
    doc = reference_json("l3_lpm")
    doc["actions"][0]["primitives"][0]["op"] = "teleport"
    err = _load_error(doc)
    assert "unknown primitive 'teleport'" in str(err)
    assert "IngressImpl.drop" in str(err) and '"op":"teleport"' in str(err)


def test_dangling_next_table() -> None:
    doc = reference_json("l3_lpm")
    doc["pipelines"][0]["conditionals"][0]["true_next"] = "IngressImpl.nowhere"
    assert "'IngressImpl.nowhere' does not exist" in str(_load_error(doc))


def test_dangling_field_reference() -> None:
    doc = reference_json("l3_lpm")
    doc["actions"][2]["primitives"][1]["parameters"][0]["value"] = ["ethernet", "dst_mac"]
    err = _load_error(doc)
    assert "header 'ethernet' has no field 'dst_mac'" in str(err)
    assert '["ethernet","dst_mac"]' in str(err)


def test_dangling_header_in_deparser() -> None:
    doc = reference_json("l3_lpm")
    doc["deparsers"][0]["order"].append("ipv6")
    assert "unknown header 'ipv6'" in str(_load_error(doc))


def test_unknown_action_id_in_table() -> None:
    doc = reference_json("l3_lpm")
    doc["pipelines"][0]["tables"][0]["action_ids"] = [2, 99]
    assert "unknown action id 99" in str(_load_error(doc))


def test_unknown_hash_algorithm() -> None:
    doc = reference_json("l3_lpm")
    doc["calculations"][0]["algo"] = "md5"
    assert "unknown hash algorithm 'md5'" in str(_load_error(doc))


def test_runtime_data_index_out_of_range() -> None:
    doc = reference_json("l3_lpm")
    doc["actions"][2]["primitives"][0]["parameters"][1]["value"] = 7
    assert "runtime_data index 7 out of range" in str(_load_error(doc))


def test_transition_to_unknown_state() -> None:
    doc = reference_json("l3_lpm")
    doc["parsers"][0]["parse_states"][0]["transitions"][0]["next_state"] = "parse_ipv6"
    assert "unknown state 'parse_ipv6'" in str(_load_error(doc))


def test_bad_const_entry_width() -> None:
    doc = reference_json("multipath")
    tables = doc["pipelines"][0]["tables"]
    classifier = next(t for t in tables if t["name"] == "IngressImpl.classifier")
    classifier["entries"][0]["match_key"][0]["key"] = "0x1ff"
    err = _load_error(doc)
    assert "bad const entry" in str(err) and "table IngressImpl.classifier" in str(err)


def test_every_reference_program_loads_and_good_docs_are_untouched() -> None:
    for name in ("l3_lpm", "multipath", "replication", "stack_and_queues"):
        doc = reference_json(name)
        before = copy.deepcopy(doc)
        Program.load(doc)
        assert doc == before
