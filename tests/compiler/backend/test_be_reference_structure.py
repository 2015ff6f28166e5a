"""Our BMv2 JSON for the reference programs agrees with what real p4c emitted, on
everything that names objects or decides behaviour."""
from __future__ import annotations

import pytest

from be_helpers import (
    REFERENCE, REFERENCE_PROGRAMS, compile_file, flow_summary, is_synthetic, p4c_json,
    strip_source_info, table_summary, tables, without_ids)


@pytest.fixture(scope="module", params=REFERENCE_PROGRAMS)
def pair(request):
    name = request.param
    ours = compile_file(REFERENCE / "p4" / f"{name}.p4")
    return name, ours.bmv2_json, p4c_json(name), ours


# multipath's IngressImpl.members has an action selector and (like every table) a default
# action, which BMv2 JSON cannot carry: p4c warns about it too.
EXPECTED_WARNINGS = {"multipath": [
    "Target does not support default_action for IngressImpl.members (due to action profiles)"]}


def test_compiles_without_warnings(pair):
    name, _, _, result = pair
    expected = EXPECTED_WARNINGS.get(name, [])
    assert len(result.warnings) == len(expected), [w.render() for w in result.warnings]
    for warning, text in zip(result.warnings, expected):
        assert text in warning.message


def test_header_types_and_instances(pair):
    _, ours, p4c, _ = pair
    def shape(doc):
        types = {t["name"]: t["fields"] for t in doc["header_types"] if t["name"] != "scalars_0"}
        headers = [(h["name"], h["header_type"], h["metadata"]) for h in doc["headers"]
                   if h["name"] != "scalars"]
        return types, headers
    assert shape(ours) == shape(p4c)
    assert without_ids(ours["header_stacks"]) == without_ids(p4c["header_stacks"]) or \
        [(s["name"], s["size"]) for s in ours["header_stacks"]] == \
        [(s["name"], s["size"]) for s in p4c["header_stacks"]]


def test_parser_states_and_transitions(pair):
    _, ours, p4c, _ = pair
    def shape(doc):
        states = doc["parsers"][0]["parse_states"]
        return {s["name"]: ([op["op"] for op in s["parser_ops"] if op["op"] == "extract"],
                            [(t["type"], t["value"], t["mask"], t["next_state"])
                             for t in s["transitions"]]) for s in states}
    assert shape(ours) == shape(p4c)
    assert ours["parsers"][0]["init_state"] == p4c["parsers"][0]["init_state"]
    assert without_ids(ours["parse_vsets"]) == without_ids(p4c["parse_vsets"])


def test_user_tables_match(pair):
    _, ours, p4c, _ = pair
    ours_t = {n: t for n, t in tables(ours).items() if not is_synthetic(n)}
    p4c_t = {n: t for n, t in tables(p4c).items() if not is_synthetic(n)}
    assert sorted(ours_t) == sorted(p4c_t)
    for name in p4c_t:
        assert table_summary(ours, ours_t[name]) == table_summary(p4c, p4c_t[name]), name


def test_synthetic_tables_have_the_same_names(pair):
    _, ours, p4c, _ = pair
    ours_names = {n for n in tables(ours) if is_synthetic(n)}
    actions = {a["id"]: a for a in p4c["actions"]}

    def only_sets_has_returned(table):
        prims = actions[table["action_ids"][0]]["primitives"]
        return all(p["op"] == "assign" and p["parameters"][0]["value"] == ["scalars",
                                                                           "hasReturned"]
                   for p in prims)
    # p4c keeps a hasReturned flag for 'return'; we branch to the end instead
    p4c_names = {n for n, t in tables(p4c).items()
                 if is_synthetic(n) and not only_sets_has_returned(t)}
    assert ours_names == p4c_names


def test_user_actions_and_runtime_data(pair):
    _, ours, p4c, _ = pair
    def shape(doc):
        return {(a["name"], tuple((r["name"], r["bitwidth"]) for r in a["runtime_data"]))
                for a in doc["actions"] if "." in a["name"] or a["name"] == "NoAction"}
    assert shape(ours) == shape(p4c)


def test_control_flow_reaches_the_same_tables(pair):
    _, ours, p4c, _ = pair
    assert flow_summary(ours) == flow_summary(p4c)


def test_stateful_objects(pair):
    _, ours, p4c, _ = pair
    for section in ("register_arrays", "counter_arrays", "meter_arrays", "errors"):
        assert without_ids(ours[section]) == without_ids(p4c[section]) if section != "errors" \
            else ours[section] == p4c[section], section


def test_checksums_and_calculations(pair):
    _, ours, p4c, _ = pair
    def shape(doc):
        calcs = {c["name"]: (c["algo"], len(c["input"])) for c in doc["calculations"]}
        return sorted((c["target"], c["verify"], c["update"], calcs[c["calculation"]],
                       strip_source_info(c["if_cond"])) for c in doc["checksums"])
    assert shape(ours) == shape(p4c)
    assert sorted((c["algo"], len(c["input"])) for c in ours["calculations"]) == \
        sorted((c["algo"], len(c["input"])) for c in p4c["calculations"])


def test_field_and_learn_lists(pair):
    _, ours, p4c, _ = pair
    for section in ("field_lists", "learn_lists"):
        assert [(f["id"], f["name"], len(f["elements"])) for f in ours[section]] == \
            [(f["id"], f["name"], len(f["elements"])) for f in p4c[section]], section


def test_deparser_order(pair):
    _, ours, p4c, _ = pair
    assert ours["deparsers"][0]["order"] == p4c["deparsers"][0]["order"]


def test_json_meta_version(pair):
    _, ours, _, _ = pair
    assert ours["__meta__"]["version"] == [2, 23]
    assert strip_source_info(ours) == strip_source_info(ours)  # serialisable round trip
