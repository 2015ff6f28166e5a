"""Features p4runtime-shell does not reach, through raw p4.v1 messages: idle-timeout
notifications, value sets, digest batching, direct counter entities, wildcard reads."""
import json
import queue

import grpc
import pytest
from google.rpc import code_pb2
from p4.v1 import p4runtime_pb2
from scapy.layers.l2 import Ether

from p4rt_harness import ids, json_path, load_p4info, pipeline_request, update, write_errors


def lpm_entry(n, prefix: bytes, plen: int, idle_ns: int = 0) -> p4runtime_pb2.TableEntry:
    entry = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.ipv4_lpm"],
                                     idle_timeout_ns=idle_ns)
    fm = entry.match.add(field_id=1)
    fm.lpm.value, fm.lpm.prefix_len = prefix, plen
    entry.action.action.action_id = n["IngressImpl.drop"]
    return entry


@pytest.fixture
def ageing(rig, client, tmp_path):
    """l3_lpm with idle timeout support on ipv4_lpm (a program variant)."""
    doc = json.loads(json_path("l3_lpm").read_text())
    for pipeline in doc["pipelines"]:
        for table in pipeline["tables"]:
            if table["name"] == "IngressImpl.ipv4_lpm":
                table["support_timeout"] = True
    p4info = load_p4info("l3_lpm")
    p4info.tables[0].idle_timeout_behavior = p4info.tables[0].NOTIFY_CONTROL
    client.stub.SetForwardingPipelineConfig(pipeline_request(
        p4info, json.dumps(doc).encode(), election_id=client.election_id))
    return client


def test_idle_entry_is_reported_to_the_primary(ageing):
    n = ids("l3_lpm")
    entry = lpm_entry(n, b"\x0a\x00\x00\x00", 8, idle_ns=100_000_000)
    entry.controller_metadata = 77
    ageing.write(update("INSERT", table_entry=entry))
    note = ageing.next_message("idle_timeout_notification", timeout=5)
    [reported] = note.idle_timeout_notification.table_entry
    assert reported.match == entry.match
    assert reported.idle_timeout_ns == 100_000_000 and reported.controller_metadata == 77
    with pytest.raises(queue.Empty):     # once per idle period, not on every sweep
        ageing.next_message("idle_timeout_notification", timeout=0.4)
    query = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.ipv4_lpm"])
    query.time_since_last_hit.SetInParent()
    [read] = ageing.read(p4runtime_pb2.Entity(table_entry=query))
    assert read.table_entry.time_since_last_hit.elapsed_ns >= 100_000_000
    assert read.table_entry.idle_timeout_ns == 100_000_000


def test_idle_timeout_on_a_table_without_support_is_invalid(client):
    client.set_pipeline("l3_lpm")
    with pytest.raises(grpc.RpcError) as exc:
        client.write(update("INSERT", table_entry=lpm_entry(
            ids("l3_lpm"), b"\x0a\x00\x00\x00", 8, idle_ns=1_000_000)))
    [err] = write_errors(exc.value)
    assert err.canonical_code == code_pb2.INVALID_ARGUMENT


def probe_frame(ether_type: int) -> bytes:
    return bytes(Ether(dst="00:00:00:00:00:01", src="00:00:00:00:00:02", type=ether_type)
                 / b"\x00\x00" / (b"\xee" * 40))


def test_value_set_members_steer_the_parser(rig, client):
    client.set_pipeline("stack_and_queues")
    n = ids("stack_and_queues")
    fwd = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.fwd"])
    fwd.match.add(field_id=1).exact.value = b"\x01"
    fwd.action.action.action_id = n["IngressImpl.forward"]
    fwd.action.action.params.add(param_id=1, value=b"\x02")
    hop = p4runtime_pb2.TableEntry(table_id=n["EgressImpl.hop_record"])
    hop.match.add(field_id=1).exact.value = b"\x01"
    hop.action.action.action_id = n["EgressImpl.push_hop"]
    hop.action.action.params.add(param_id=1, value=b"\x07")
    client.write(update("INSERT", table_entry=fwd), update("INSERT", table_entry=hop))
    frame = probe_frame(0x1234)
    [(_, plain)] = rig.send(1, frame)
    assert len(plain) == len(frame)               # 0x1234 is not a probe yet
    vset = p4runtime_pb2.ValueSetEntry(value_set_id=n["ParserImpl.probe_types"])
    vset.members.add().match.add(field_id=1).exact.value = b"\x12\x34"
    client.write(update("MODIFY", value_set_entry=vset))
    [(_, probed)] = rig.send(1, frame)
    assert len(probed) == len(frame) + 12         # one hop record pushed
    [read] = client.read(p4runtime_pb2.Entity(value_set_entry=p4runtime_pb2.ValueSetEntry(
        value_set_id=n["ParserImpl.probe_types"])))
    assert read.value_set_entry == vset
    too_many = p4runtime_pb2.ValueSetEntry(value_set_id=n["ParserImpl.probe_types"])
    for value in range(5):
        too_many.members.add().match.add(field_id=1).exact.value = bytes([value + 1])
    with pytest.raises(grpc.RpcError) as exc:
        client.write(update("MODIFY", value_set_entry=too_many))
    assert write_errors(exc.value)[0].canonical_code == code_pb2.RESOURCE_EXHAUSTED


def learn_frame(src_last: int) -> bytes:
    return bytes(Ether(dst="00:00:00:00:00:02", src=f"00:00:00:00:00:{src_last:02x}")
                 / (b"\x00" * 46))


def test_digests_are_batched_by_list_size(rig, client):
    client.set_pipeline("replication")
    entry = p4runtime_pb2.DigestEntry(digest_id=ids("replication")["learn_t"])
    entry.config.max_list_size = 2
    entry.config.max_timeout_ns = 5_000_000_000
    client.write(update("INSERT", digest_entry=entry))
    rig.send(1, learn_frame(0x11))
    rig.send(2, learn_frame(0x22))
    digest = client.next_message("digest").digest
    assert [d.struct.members[0].bitstring for d in digest.data] == [b"\x11", b"\x22"]


def test_digest_list_is_flushed_after_max_timeout(rig, client):
    client.set_pipeline("replication")
    entry = p4runtime_pb2.DigestEntry(digest_id=ids("replication")["learn_t"])
    entry.config.max_list_size = 100
    entry.config.max_timeout_ns = 50_000_000
    client.write(update("INSERT", digest_entry=entry))
    rig.send(1, learn_frame(0x33))
    digest = client.next_message("digest", timeout=5).digest
    assert len(digest.data) == 1


def test_direct_counter_entity_and_wildcard_reads(rig, client):
    client.set_pipeline("l3_lpm")
    n = ids("l3_lpm")
    entry = lpm_entry(n, b"\x0a\x00\x00\x00", 8)
    client.write(update("INSERT", table_entry=entry))
    direct = p4runtime_pb2.DirectCounterEntry(table_entry=entry)
    direct.data.packet_count, direct.data.byte_count = 5, 500
    client.write(update("MODIFY", direct_counter_entry=direct))
    [read] = client.read(p4runtime_pb2.Entity(
        direct_counter_entry=p4runtime_pb2.DirectCounterEntry(
            table_entry=p4runtime_pb2.TableEntry(table_id=n["IngressImpl.ipv4_lpm"]))))
    assert (read.direct_counter_entry.data.packet_count,
            read.direct_counter_entry.data.byte_count) == (5, 500)
    everything = client.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry()))
    assert [e.table_entry.match for e in everything] == [entry.match]
    with_counters = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.ipv4_lpm"])
    with_counters.counter_data.SetInParent()
    [read] = client.read(p4runtime_pb2.Entity(table_entry=with_counters))
    assert read.table_entry.counter_data.packet_count == 5
    assert not read.table_entry.HasField("meter_config")


@pytest.fixture
def metered(client, tmp_path):
    """multipath with a direct meter on IngressImpl.route (a program variant)."""
    doc = json.loads(json_path("multipath").read_text())
    doc["meter_arrays"].append({
        "name": "IngressImpl.route_meter", "id": 1, "is_direct": True,
        "binding": "IngressImpl.route", "rate_count": 2, "type": "bytes", "size": 1024,
        "result_target": ["scalars", "metadata_t.color"]})
    for pipeline in doc["pipelines"]:
        for table in pipeline["tables"]:
            if table["name"] == "IngressImpl.route":
                table["direct_meters"] = "IngressImpl.route_meter"
    p4info = load_p4info("multipath")
    n = ids("multipath")
    meter = p4info.direct_meters.add()
    meter.preamble.id, meter.preamble.name = 0x15000001, "IngressImpl.route_meter"
    meter.preamble.alias = "route_meter"
    meter.spec.unit = meter.spec.BYTES
    meter.direct_table_id = n["IngressImpl.route"]
    for table in p4info.tables:
        if table.preamble.name == "IngressImpl.route":
            table.direct_resource_ids.append(0x15000001)
    client.stub.SetForwardingPipelineConfig(pipeline_request(
        p4info, json.dumps(doc).encode(), election_id=client.election_id))
    return client


def route_entry() -> p4runtime_pb2.TableEntry:
    n = ids("multipath")
    entry = p4runtime_pb2.TableEntry(table_id=n["IngressImpl.route"])
    fm = entry.match.add(field_id=1)
    fm.lpm.value, fm.lpm.prefix_len = b"\x0a\x00\x00\x00", 8
    entry.action.action.action_id = n["IngressImpl.drop"]
    return entry


def test_direct_meter_config_through_table_and_meter_entities(metered):
    entry = route_entry()
    entry.meter_config.cir, entry.meter_config.cburst = 1000, 100
    entry.meter_config.pir, entry.meter_config.pburst = 2000, 200
    metered.write(update("INSERT", table_entry=entry))
    query = p4runtime_pb2.TableEntry(table_id=entry.table_id)
    query.meter_config.SetInParent()
    [read] = metered.read(p4runtime_pb2.Entity(table_entry=query))
    assert read.table_entry.meter_config == entry.meter_config

    direct = p4runtime_pb2.DirectMeterEntry(table_entry=route_entry())
    direct.table_entry.ClearField("action")
    direct.config.cir, direct.config.cburst, direct.config.pir = 10, 1, 20
    direct.config.pburst = 2
    metered.write(update("MODIFY", direct_meter_entry=direct))
    wildcard = p4runtime_pb2.DirectMeterEntry()
    wildcard.table_entry.table_id = entry.table_id
    [read] = metered.read(p4runtime_pb2.Entity(direct_meter_entry=wildcard))
    assert read.direct_meter_entry.config == direct.config

    metered.write(update("MODIFY", table_entry=route_entry()))   # no config: default
    [read] = metered.read(p4runtime_pb2.Entity(table_entry=query))
    assert not read.table_entry.HasField("meter_config")

    bad = p4runtime_pb2.DirectMeterEntry(table_entry=route_entry())
    bad.config.cir, bad.config.pir = 20, 10
    with pytest.raises(grpc.RpcError) as exc:
        metered.write(update("MODIFY", direct_meter_entry=bad))
    assert write_errors(exc.value)[0].canonical_code == code_pb2.INVALID_ARGUMENT


def test_meter_config_on_a_table_without_meter_is_invalid(client):
    client.set_pipeline("multipath")
    entry = route_entry()
    entry.meter_config.cir = entry.meter_config.pir = 5
    with pytest.raises(grpc.RpcError) as exc:
        client.write(update("INSERT", table_entry=entry))
    [err] = write_errors(exc.value)
    assert err.canonical_code == code_pb2.INVALID_ARGUMENT and "no direct meter" in err.message


def test_packet_io_over_raw_stream(rig, client):
    client.set_pipeline("replication")
    n = ids("replication")
    out = p4runtime_pb2.StreamMessageRequest()
    out.packet.payload = learn_frame(0x44)
    out.packet.metadata.add(metadata_id=1, value=b"\x01\x05")    # egress_port 261
    client.send_stream(out)
    assert rig.wait_for_outputs(1) == [(261, out.packet.payload)]
    bad = p4runtime_pb2.StreamMessageRequest()
    bad.packet.payload = b"\x00" * 60
    bad.packet.metadata.add(metadata_id=9, value=b"\x01")
    client.send_stream(bad)
    error = client.next_message("error").error
    assert error.canonical_code == code_pb2.INVALID_ARGUMENT
    assert "no metadata with ID 9" in error.message
    wide = p4runtime_pb2.StreamMessageRequest()
    wide.packet.payload = b"\x00" * 60
    wide.packet.metadata.add(metadata_id=1, value=b"\x02\x00")   # 512 > 9 bits
    client.send_stream(wide)
    assert client.next_message("error").error.canonical_code == code_pb2.OUT_OF_RANGE
    to_cpu = bytes(Ether(dst="00:00:00:00:00:09", src="00:00:00:00:00:55", type=0x0800)
                   / (b"\x00" * 46))
    rig.send(7, to_cpu)                # l2 miss: to the CPU port
    packet_in = client.next_message("packet").packet
    assert {m.metadata_id: m.value for m in packet_in.metadata} == {1: b"\x07", 2: b"\x00"}
    assert packet_in.payload == to_cpu
    assert n["packet_in"] != n["packet_out"]


def test_wildcard_counter_and_register_reads(client):
    client.set_pipeline("multipath")
    counters = client.read(p4runtime_pb2.Entity(counter_entry=p4runtime_pb2.CounterEntry()))
    assert len(counters) == 64
    assert all(not c.counter_entry.data.byte_count for c in counters)
    registers = client.read(p4runtime_pb2.Entity(
        register_entry=p4runtime_pb2.RegisterEntry()))
    assert [r.register_entry.data.bitstring for r in registers] == [b"\x00"] * 64
    meters = client.read(p4runtime_pb2.Entity(meter_entry=p4runtime_pb2.MeterEntry()))
    assert len(meters) == 16 and not any(m.meter_entry.HasField("config") for m in meters)
