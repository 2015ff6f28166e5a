"""The summary's JSON: round trip, and every bad field refused with its path and reason."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from control.peering.summary import (SUMMARY_VERSION, Health, SummaryError, from_dict,
                                     from_json, known_partitions, to_dict, to_json)

KNOWN = known_partitions({1: "tenant-a", 2: "tenant-b"})


def test_round_trip_is_exact(east):
    text = to_json(east, KNOWN)
    back = from_json(text, KNOWN)
    assert back == east
    assert to_json(back, KNOWN) == text
    doc = json.loads(text)
    assert doc["version"] == SUMMARY_VERSION
    assert doc["borders"][0]["capacity_bps"] == {"rate": 100_000_000, "load": 20_000_000,
                                                 "available": 80_000_000}
    assert doc["borders"][1]["capacity_bps"]["available"] == 0  # load above rate: never negative
    assert doc["borders"][1]["health"] == {"up": False, "last_seen": None}


def test_a_summary_names_no_switch_address(east):
    text = to_json(east, KNOWN)
    assert "127.0.0.1" not in text and "grpc" not in text and "device" not in text
    assert set(json.loads(text)["borders"][0]) == {"switch", "link", "latency_us",
                                                   "capacity_bps", "health"}


def test_without_known_partitions_any_partition_is_read(east):
    assert from_json(to_json(east)).partitions == east.partitions


def _problems(doc: object, known=KNOWN) -> list[tuple[str, str]]:
    with pytest.raises(SummaryError) as caught:
        from_dict(doc, known, source="summary from east")
    assert str(caught.value).startswith("summary from east: ")
    return caught.value.problems


def _set(doc: dict, path: str, value: object) -> None:
    """Set (or, with value DELETE, remove) the field at a dotted path with [i] indices."""
    parts = path.replace("]", "").replace("[", ".").split(".")
    node = doc
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    last = parts[-1]
    key = int(last) if last.isdigit() else last
    if value is DELETE:
        del node[key]
    else:
        node[key] = value


DELETE = object()

CASES = [
    ("domain.id", -1, "domain.id", "out of range"),
    ("domain.id", 70000, "domain.id", "out of range"),
    ("domain.name", "bad name", "domain.name", "is not a name"),
    ("domain.name", DELETE, "domain.name", "missing"),
    ("domain", DELETE, "domain", "missing"),
    ("serial", -3, "serial", "out of range"),
    ("serial", "7", "serial", "must be an integer"),
    ("generated_at", -1.0, "generated_at", "negative a time"),
    ("generated_at", True, "generated_at", "must be a number"),
    ("partitions", {}, "partitions", "must be an array"),
    ("partitions[0].id", 256, "partitions[0].id", "out of range"),
    ("partitions[0].name", "", "partitions[0].name", "non-empty string"),
    ("partitions[0].prefixes[0]", "10.2.1.1/24", "partitions[0].prefixes[0]", "host bits set"),
    ("partitions[0].prefixes[0]", "10.2.1.0", "partitions[0].prefixes[0]", "the length is missing"),
    ("partitions[0].prefixes[0]", "10.2.1.0/33", "partitions[0].prefixes[0]", "not an IPv4 prefix"),
    ("partitions[0].prefixes[0]", "2001:db8::/32", "partitions[0].prefixes[0]", "not an IPv4 prefix"),
    ("partitions[0].prefixes[0]", 167903488, "partitions[0].prefixes[0]", "in quotes"),
    ("partitions[1].prefixes[0]", "10.2.0.0/16", "partitions[1].prefixes[0]", "overlaps partitions[0].prefixes[0]"),
    ("partitions[1].id", 0, "partitions[1].id", "duplicate 0"),
    ("partitions[1].id", 7, "partitions[1].id", "unknown to this domain"),
    ("partitions[1].name", "tenant-b", "partitions[1].name", "is 'tenant-a' in this domain"),
    ("partitions[0].extra", 1, "partitions[0].extra", "unknown field"),
    ("borders", "none", "borders", "must be an array"),
    ("borders[0].switch", "e-bd9", "borders[0].link.local", "not a port of the border switch 'e-bd9'"),
    ("borders[0].link.local", "e-bd1", "borders[0].link.local", "not SWITCH:PORT"),
    ("borders[0].link.remote", "w-bd1:600", "borders[0].link.remote", "not SWITCH:PORT"),
    ("borders[0].link.peer_domain", "east", "borders[0].link.peer_domain", "the publishing domain itself"),
    ("borders[0].latency_us.p50", -5, "borders[0].latency_us.p50", "negative latency"),
    ("borders[0].latency_us.p99", 100, "borders[0].latency_us.p99", "below p50"),
    ("borders[0].latency_us.p99", 1e12, "borders[0].latency_us.p99", "more than"),
    ("borders[0].latency_us.p50", "120", "borders[0].latency_us.p50", "must be a number"),
    ("borders[0].latency_us.source", "guess", "borders[0].latency_us.source", "not one of int, given"),
    ("borders[0].latency_us.samples", 0, "borders[0].latency_us.samples", "needs samples"),
    ("borders[0].latency_us", DELETE, "borders[0].latency_us", "missing"),
    ("borders[0].capacity_bps.rate", 0, "borders[0].capacity_bps.rate", "out of range"),
    ("borders[0].capacity_bps.load", -1, "borders[0].capacity_bps.load", "out of range"),
    ("borders[0].capacity_bps.available", 5, "borders[0].capacity_bps.available", "is not rate - load"),
    ("borders[0].health.up", "yes", "borders[0].health.up", "true or false"),
    ("borders[0].health.last_seen", DELETE, "borders[0].health.last_seen", "missing"),
    ("borders[0].health.last_seen", None, "borders[0].health.last_seen", "yet the border is up"),
    ("borders[0].health.last_seen", 1000.5, "borders[0].health.last_seen", "after the summary's generated_at"),
    ("borders[0].health.last_seen", -2, "borders[0].health.last_seen", "negative a time"),
    ("borders[0].health.colour", "red", "borders[0].health.colour", "unknown field"),
    ("extra", 1, "extra", "unknown field"),
]


@pytest.mark.parametrize("path,value,field,words", CASES, ids=[f"{c[0]}={c[1]!r}" for c in CASES])
def test_each_bad_field_is_refused_with_its_path_and_reason(east_doc, path, value, field, words):
    doc = east_doc()
    _set(doc, path, value)
    problems = _problems(doc)
    assert any(f == field and words in r for f, r in problems), problems


def test_a_border_link_given_twice_is_refused(east_doc):
    doc = east_doc()
    doc["borders"][1] = dict(doc["borders"][0])
    assert _problems(doc) == [("borders[1].link.local", "'e-bd1:2' is also borders[0]'s link")]


def test_every_problem_is_reported_at_once(east_doc):
    doc = east_doc()
    _set(doc, "domain.id", -1)
    _set(doc, "partitions[0].prefixes[0]", "300.0.0.0/8")
    _set(doc, "borders[1].latency_us.p50", -1)
    _set(doc, "borders[0].capacity_bps.available", 1)
    fields = [f for f, _ in _problems(doc)]
    assert fields == ["domain.id", "partitions[0].prefixes[0]", "borders[0].capacity_bps.available",
                      "borders[1].latency_us.p50"]


@pytest.mark.parametrize("version", [0, 2, "1", True, None])
def test_an_unknown_version_is_refused_and_nothing_else_read(east_doc, version):
    doc = east_doc()
    doc["version"] = version
    doc["serial"] = "not read"
    problems = _problems(doc)
    assert len(problems) == 1 and problems[0][0] == "version", problems
    assert "unknown version" in problems[0][1] or "null" in problems[0][1]


def test_a_missing_version_is_refused(east_doc):
    doc = east_doc()
    del doc["version"]
    assert _problems(doc) == [("version", "missing (required)")]


@pytest.mark.parametrize("text,words", [
    ("{", "not JSON"),
    ("[1, 2]", "must be an object"),
    ('{"version": NaN}', "NaN is not a number JSON allows"),
    (b"\xff\xfe\x00", "not JSON"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
])
def test_what_is_not_a_summary_object_is_refused(text, words):
    with pytest.raises(SummaryError) as caught:
        from_json(text, KNOWN)
    assert words in str(caught.value)


def test_too_many_entries_are_refused(east_doc):
    doc = east_doc()
    doc["partitions"][0]["prefixes"] = [f"10.{i // 256}.{i % 256}.0/24" for i in range(4097)]
    assert any(f == "partitions[0].prefixes" and "more than 4096" in r for f, r in _problems(doc))


def test_to_json_refuses_a_bad_local_summary_before_it_leaves(east):
    bad = dataclasses.replace(east, borders=(dataclasses.replace(
        east.borders[0], health=Health(True, 2000.0)),))
    with pytest.raises(SummaryError) as caught:
        to_json(bad, KNOWN)
    assert caught.value.problems[0][0] == "borders[0].health.last_seen"


def test_to_dict_matches_the_documented_example(east):
    doc = to_dict(east)
    assert doc["domain"] == {"id": 2, "name": "east"}
    assert doc["borders"][0]["link"] == {"local": "e-bd1:2", "remote": "w-bd1:2", "peer_domain": "west"}
    assert doc["borders"][0]["latency_us"] == {"p50": 120, "p99": 410, "samples": 532, "source": "int"}


def test_the_documented_example_is_a_valid_summary(east):
    """docs/federation-api.md's example is read as this module reads a push."""
    text = (Path(__file__).resolve().parents[2] / "docs/federation-api.md").read_text()
    example = text.split("```json\n", 1)[1].split("```", 1)[0]
    assert from_json(example, KNOWN) == east
