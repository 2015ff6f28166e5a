"""SetForwardingPipelineConfig refuses what is invalid and keeps what is valid.

Each malformed config below was once accepted (or answered UNKNOWN, or left the switch
unusable); now each is INVALID_ARGUMENT naming the object, and the running pipeline
keeps forwarding.  Real p4c outputs (tests/real_toolchain) supply the programs.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Callable

import grpc
import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from p4rt_harness import SetPipeline as SetAction
from p4rt_harness import (RawClient, Rig, json_text, load_p4info, pipeline_request, update,
                          write_errors)

PROJECT = Path(__file__).resolve().parents[1] / "real_toolchain" / "project"
FRAME = bytes.fromhex("000000000001000000000002" "88b5" "00000000" "00000000" "0080"
                      "0000" "a0a1a2a3")


def corpus(name: str) -> tuple[dict, p4info_pb2.P4Info]:
    folder = PROJECT / name
    return (json.loads((folder / f"{name}.json").read_text()),
            text_format.Parse((folder / f"{name}.p4info.txtpb").read_text(),
                              p4info_pb2.P4Info()))


def push(client: RawClient, doc: dict | bytes, p4info: p4info_pb2.P4Info,
         action: int = SetAction.VERIFY_AND_COMMIT) -> None:
    device_config = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    client.stub.SetForwardingPipelineConfig(pipeline_request(
        p4info, device_config, action=action, election_id=client.election_id or 0))


def _tables(doc: dict) -> list[dict]:
    return [t for p in doc["pipelines"] for t in p["tables"]]


def _table(p4info: p4info_pb2.P4Info, name: str) -> p4info_pb2.Table:
    return next(t for t in p4info.tables if t.preamble.name == name)


def _json_mutations() -> dict[str, Callable[[dict], bytes]]:
    def edit(fn: Callable[[dict], None]) -> Callable[[dict], bytes]:
        def apply(doc: dict) -> bytes:
            doc = copy.deepcopy(doc)
            fn(doc)
            return json.dumps(doc).encode()
        return apply

    def raw(fn: Callable[[str], str]) -> Callable[[dict], bytes]:
        return lambda doc: fn(json.dumps(doc)).encode()
    return {
        "no parser": edit(lambda d: d.update(parsers=[])),
        "no deparser": edit(lambda d: d.update(deparsers=[])),
        "no egress pipeline": edit(lambda d: d.update(pipelines=d["pipelines"][:1])),
        "negative table max_size": edit(lambda d: _tables(d)[0].update(max_size=-5)),
        "string table max_size": edit(lambda d: _tables(d)[0].update(max_size="64")),
        "NaN max_size": raw(lambda t: t.replace('"max_size": 3', '"max_size": NaN', 1)),
        "Infinity": raw(lambda t: t.replace('"max_size": 3', '"max_size": Infinity', 1)),
        "100k-deep JSON": raw(lambda t: t[:-1] + ', "x": ' + "[" * 100_000
                              + "]" * 100_000 + "}"),
        "duplicate table": edit(lambda d: d["pipelines"][0]["tables"].append(
            copy.deepcopy(_tables(d)[0]))),
        "duplicate header type": edit(lambda d: d["header_types"].append(
            copy.deepcopy(d["header_types"][-1]))),
        "huge counter array": edit(lambda d: d["counter_arrays"].append(
            {"name": "big", "id": 9, "size": 1 << 40, "is_direct": False})),
        "huge field width": edit(lambda d: d["header_types"][-1]["fields"].append(
            ["wide", 1 << 30, False])),
    }


@pytest.mark.parametrize("mutation", sorted(_json_mutations()))
def test_malformed_json_is_refused_and_the_pipeline_stays(rig, client, mutation):
    doc, p4info = corpus("034_table_range_const")
    push(client, doc, p4info)
    before = rig.send(0, FRAME)
    assert before and before[0][0] == 2     # 0x0080: the first const entry, port 2
    with pytest.raises(grpc.RpcError) as exc:
        push(client, _json_mutations()[mutation](doc), p4info)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT, exc.value.details()
    assert rig.send(0, FRAME) == before


def _p4info_mutations() -> dict[str, Callable[[p4info_pb2.P4Info], str]]:
    """P4Info edits of multipath (tables, a selector, a counter); each returns a word
    the error message must contain."""
    def dup_table_id(p: p4info_pb2.P4Info) -> str:
        p.tables[1].preamble.id = p.tables[0].preamble.id
        return "also used"

    def table_id_zero(p: p4info_pb2.P4Info) -> str:
        p.tables[0].preamble.id = 0
        return "ID 0"

    def match_type_99(p: p4info_pb2.P4Info) -> str:
        p.tables[0].match_fields[0].match_type = 99
        return "match_type 99"

    def param_width_0(p: p4info_pb2.P4Info) -> str:
        next(a for a in p.actions if a.params).params[0].bitwidth = 0
        return "bitwidth 0"

    def counter_size_0(p: p4info_pb2.P4Info) -> str:
        p.counters[0].size = 0
        return "size 0"

    def profile_unknown_table(p: p4info_pb2.P4Info) -> str:
        p.action_profiles[0].table_ids.append(0x02FFFFFF)
        return "not a P4Info table"

    def unknown_implementation(p: p4info_pb2.P4Info) -> str:
        next(t for t in p.tables if t.implementation_id).implementation_id = 0x11ABCDEF
        return "implementation_id"

    def wrong_prefix(p: p4info_pb2.P4Info) -> str:
        p.actions[0].preamble.id = 0x05000001
        return "prefix"

    def size_mismatch(p: p4info_pb2.P4Info) -> str:
        p.counters[0].size += 1
        return "the size"

    def param_width_mismatch(p: p4info_pb2.P4Info) -> str:
        next(a for a in p.actions if a.params).params[0].bitwidth += 1
        return "width"

    def unknown_action_ref(p: p4info_pb2.P4Info) -> str:
        p.tables[0].action_refs.add(id=0x01ABCDEF)
        return "not a P4Info action"

    def duplicate_field_id(p: p4info_pb2.P4Info) -> str:
        t = next(t for t in p.tables if len(t.match_fields) > 1)
        t.match_fields[1].id = t.match_fields[0].id
        return "used twice"

    def counter_unit_99(p: p4info_pb2.P4Info) -> str:
        p.counters[0].spec.unit = 99
        return "unit 99"

    return {f.__name__: f for f in (
        dup_table_id, table_id_zero, match_type_99, param_width_0, counter_size_0,
        profile_unknown_table, unknown_implementation, wrong_prefix, size_mismatch,
        param_width_mismatch, unknown_action_ref, duplicate_field_id, counter_unit_99)}


@pytest.mark.parametrize("mutation", sorted(_p4info_mutations()))
def test_malformed_p4info_is_refused_naming_the_object(client, mutation):
    doc = json_text("multipath")
    push(client, doc, load_p4info("multipath"))
    p4info = load_p4info("multipath")
    expected = _p4info_mutations()[mutation](p4info)
    with pytest.raises(grpc.RpcError) as exc:
        push(client, doc, p4info)
    assert exc.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert expected in exc.value.details()
    assert "P4Info" in exc.value.details()


def test_every_recorded_p4c_output_is_accepted(client):
    """Nothing valid is lost: real p4c's JSON and P4Info for every corpus program."""
    folders = sorted(p for p in PROJECT.iterdir() if p.is_dir())
    assert len(folders) > 50
    for folder in folders:
        doc, p4info = corpus(folder.name)
        push(client, doc, p4info, action=SetAction.VERIFY)


def test_const_entries_beyond_the_declared_size_load(rig, client):
    """BMv2 sizes a table to hold its const entries; so does the switch."""
    doc, p4info = corpus("034_table_range_const")
    table = next(t for t in _tables(doc) if t["name"] == "IngressImpl.by_range")
    assert len(table["entries"]) == 3
    table["max_size"] = 1
    push(client, doc, p4info)
    assert rig.switch.runtime.tables["IngressImpl.by_range"].size == 3
    entries = client.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
        table_id=_table(p4info, "IngressImpl.by_range").preamble.id)))
    assert len(entries) == 3 and all(e.table_entry.is_const for e in entries)
    assert rig.send(0, FRAME)[0][0] == 2


def _frame_b1(b1: int) -> bytes:
    return bytes.fromhex("000000000001000000000002" "88b5" "00000000" "00000000" "0000"
                         f"{b1:02x}00" "a0a1a2a3")


def test_direct_counter_reads_follow_the_counter_unit(rig, client):
    """042's direct counter counts PACKETS: both read paths give packets only."""
    doc, p4info = corpus("042_direct_counter")
    push(client, doc, p4info)
    table = _table(p4info, "IngressImpl.t")
    entry = p4runtime_pb2.TableEntry(table_id=table.preamble.id)
    entry.match.add(field_id=1).exact.value = b"\x01"
    entry.action.action.action_id = table.action_refs[0].id
    entry.action.action.params.add(param_id=1, value=b"\x02")
    client.write(update("INSERT", table_entry=entry))
    for _ in range(2):
        assert rig.send(0, _frame_b1(1))[0][0] == 2
    query = p4runtime_pb2.TableEntry(table_id=table.preamble.id)
    query.counter_data.SetInParent()
    [read] = client.read(p4runtime_pb2.Entity(table_entry=query))
    assert read.table_entry.counter_data == p4runtime_pb2.CounterData(packet_count=2)
    direct = p4runtime_pb2.DirectCounterEntry()
    direct.table_entry.CopyFrom(entry)
    direct.table_entry.ClearField("action")
    [by_entry] = client.read(p4runtime_pb2.Entity(direct_counter_entry=direct))
    assert by_entry.direct_counter_entry.data == p4runtime_pb2.CounterData(packet_count=2)
    wildcard = p4runtime_pb2.DirectCounterEntry()
    wildcard.table_entry.table_id = table.preamble.id
    [all_entries] = client.read(p4runtime_pb2.Entity(direct_counter_entry=wildcard))
    assert all_entries.direct_counter_entry.data == \
        p4runtime_pb2.CounterData(packet_count=2)
    [every_table] = client.read(p4runtime_pb2.Entity(
        direct_counter_entry=p4runtime_pb2.DirectCounterEntry()))
    assert every_table.direct_counter_entry.data == \
        p4runtime_pb2.CounterData(packet_count=2)


def test_a_unit_of_bytes_reports_bytes_only(rig, client):
    doc, p4info = corpus("042_direct_counter")
    p4info.direct_counters[0].spec.unit = p4info_pb2.CounterSpec.BYTES
    push(client, doc, p4info)
    table = _table(p4info, "IngressImpl.t")
    entry = p4runtime_pb2.TableEntry(table_id=table.preamble.id)
    entry.match.add(field_id=1).exact.value = b"\x01"
    entry.action.action.action_id = table.action_refs[0].id
    entry.action.action.params.add(param_id=1, value=b"\x02")
    client.write(update("INSERT", table_entry=entry))
    rig.send(0, _frame_b1(1))
    query = p4runtime_pb2.TableEntry(table_id=table.preamble.id)
    query.counter_data.SetInParent()
    [read] = client.read(p4runtime_pb2.Entity(table_entry=query))
    assert read.table_entry.counter_data == \
        p4runtime_pb2.CounterData(byte_count=len(_frame_b1(1)))


def _value_set(members: list[bytes]) -> p4runtime_pb2.Update:
    p4info = load_p4info("stack_and_queues")
    vs = p4runtime_pb2.ValueSetEntry(value_set_id=p4info.value_sets[0].preamble.id)
    for value in members:
        vs.members.add().match.add(field_id=1).exact.value = value
    return update("MODIFY", value_set_entry=vs)


def test_value_set_with_duplicate_members_is_already_exists(client):
    client.set_pipeline("stack_and_queues")
    client.write(_value_set([b"\x12\x34"]))
    with pytest.raises(grpc.RpcError) as exc:
        client.write(_value_set([b"\x88\xb5", b"\x88\xb5"]))
    [error] = write_errors(exc.value)
    assert error.canonical_code == grpc.StatusCode.ALREADY_EXISTS.value[0]
    [read] = client.read(p4runtime_pb2.Entity(value_set_entry=p4runtime_pb2.ValueSetEntry(
        value_set_id=load_p4info("stack_and_queues").value_sets[0].preamble.id)))
    assert [m.match[0].exact.value for m in read.value_set_entry.members] == [b"\x12\x34"]


def test_negative_index_is_invalid_argument_and_past_the_end_out_of_range(client):
    client.set_pipeline("multipath")
    p4info = load_p4info("multipath")
    counter = p4info.counters[0]
    for index, code in ((-1, grpc.StatusCode.INVALID_ARGUMENT),
                        (counter.size, grpc.StatusCode.OUT_OF_RANGE)):
        entry = p4runtime_pb2.CounterEntry(counter_id=counter.preamble.id)
        entry.index.index = index
        entry.data.packet_count = 1
        with pytest.raises(grpc.RpcError) as exc:
            client.write(update("MODIFY", counter_entry=entry))
        assert [e.canonical_code for e in write_errors(exc.value)] == [code.value[0]]


def test_a_refused_push_is_logged_with_its_reason(client, caplog):
    """The switch's log says why a push failed, for users whose client drops the status
    (issue 11: a PTF setup that kept its stream open and hung the next test)."""
    doc, p4info = corpus("034_table_range_const")
    broken = copy.deepcopy(doc)
    broken["parsers"] = []
    with caplog.at_level("WARNING", logger="p4sim.p4runtime.server"):
        with pytest.raises(grpc.RpcError) as exc:
            push(client, broken, p4info)
    logged = [r.getMessage() for r in caplog.records
              if "SetForwardingPipelineConfig refused" in r.getMessage()]
    assert len(logged) == 1
    assert "INVALID_ARGUMENT" in logged[0] and exc.value.details() in logged[0]
