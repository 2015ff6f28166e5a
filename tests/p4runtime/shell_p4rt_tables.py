"""p4runtime-shell's scripting API against the running switch: table entries of every
match kind, default actions and direct counters, with forwarding checked by packets."""
import json

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from p4rt_harness import json_path, load_p4info, p4info_path


def ipv4_frame(dst: str, ttl: int = 64) -> bytes:
    return bytes(Ether(dst="00:00:00:00:00:01", src="00:00:00:00:00:02")
                 / IP(src="192.168.1.10", dst=dst, ttl=ttl) / UDP(sport=1234, dport=80)
                 / b"payload")


def test_lpm_entry_forwards_counts_and_reads_back(rig, shell):
    sh = shell(str(p4info_path("l3_lpm")), str(json_path("l3_lpm")))
    te = sh.TableEntry("IngressImpl.ipv4_lpm")(action="IngressImpl.forward")
    te.match["dst_addr"] = "10.1.0.0/16"
    te.action["port"] = "3"
    te.action["dst_mac"] = "00:00:00:00:0e:0f"
    te.action["src_mac"] = "00:00:00:00:0c:0d"
    te.insert()

    out = rig.send(1, ipv4_frame("10.1.2.3"))
    assert [port for port, _ in out] == [3]
    pkt = Ether(out[0][1])
    assert pkt.dst == "00:00:00:00:0e:0f" and pkt[IP].ttl == 63
    assert rig.send(1, ipv4_frame("10.2.0.1")) == []   # miss: default drop

    entries = list(sh.TableEntry("IngressImpl.ipv4_lpm").read())
    assert len(entries) == 1
    assert entries[0].match["dst_addr"].lpm.prefix_len == 16
    assert entries[0].action["port"].value == b"\x03"   # canonical on read

    counter = sh.DirectCounterEntry("IngressImpl.route_counter")
    counter.table_entry.match["dst_addr"] = "10.1.0.0/16"
    data = next(counter.read()).data
    assert data.packet_count == 1 and data.byte_count == len(ipv4_frame("10.1.2.3"))

    te.action["port"] = "4"
    te.modify()
    assert [port for port, _ in rig.send(1, ipv4_frame("10.1.9.9"))] == [4]
    te.delete()
    assert list(sh.TableEntry("IngressImpl.ipv4_lpm").read()) == []
    assert rig.send(1, ipv4_frame("10.1.9.9")) == []


def test_default_action_can_be_changed_and_reset(rig, shell):
    sh = shell(str(p4info_path("l3_lpm")), str(json_path("l3_lpm")))
    default = sh.TableEntry("IngressImpl.ipv4_lpm")(action="IngressImpl.forward")
    default.is_default = True
    default.action["port"] = "7"
    default.action["dst_mac"] = "0"
    default.action["src_mac"] = "0"
    default.modify()
    assert [port for port, _ in rig.send(1, ipv4_frame("172.16.0.1"))] == [7]
    query = sh.TableEntry("IngressImpl.ipv4_lpm")
    query.is_default = True
    read = next(query.read())
    assert read.action["port"].value == b"\x07"
    reset = sh.TableEntry("IngressImpl.ipv4_lpm")
    reset.is_default = True
    reset.modify()
    assert rig.send(1, ipv4_frame("172.16.0.1")) == []


def test_exact_entry_on_a_9_bit_port_key(rig, shell):
    sh = shell(str(p4info_path("stack_and_queues")), str(json_path("stack_and_queues")))
    te = sh.TableEntry("IngressImpl.fwd")(action="IngressImpl.forward")
    te.match["std_meta.ingress_port"] = "5"
    te.action["port"] = "6"
    te.insert()
    frame = bytes(Ether(dst="00:00:00:00:00:01", src="00:00:00:00:00:02", type=0x0800)
                  / (b"x" * 20))
    assert [port for port, _ in rig.send(5, frame)] == [6]
    assert rig.send(4, frame) == []


@pytest.fixture
def writable_classifier(tmp_path):
    """multipath with its const classifier made writable: the one table of the
    reference programs with ternary, range and optional keys."""
    doc = json.loads(json_path("multipath").read_text())
    for pipeline in doc["pipelines"]:
        for table in pipeline["tables"]:
            if table["name"] == "IngressImpl.classifier":
                table.pop("entries", None)
                table["max_size"] = 64
    p4info = load_p4info("multipath")
    for table in p4info.tables:
        if table.preamble.name == "IngressImpl.classifier":
            table.is_const_table = False
            table.has_initial_entries = False
            table.size = 64   # the P4Info and the JSON must agree on the size
    json_file = tmp_path / "multipath_rw.json"
    json_file.write_text(json.dumps(doc))
    p4info_file = tmp_path / "multipath_rw.p4info.txtpb"
    p4info_file.write_text(str(p4info))
    return str(p4info_file), str(json_file)


def test_ternary_range_optional_entries_with_priorities(shell, writable_classifier):
    sh = shell(*writable_classifier)
    low = sh.TableEntry("IngressImpl.classifier")(action="IngressImpl.classify")
    low.match["diffserv"] = "0x00&&&0xfc"
    low.match["udp_dport"] = "4790..4799"
    low.match["protocol"] = "17"
    low.priority = 10
    low.action["klass"] = "1"
    low.insert()
    high = sh.TableEntry("IngressImpl.classifier")(action="IngressImpl.classify")
    high.match["udp_dport"] = "100..200"
    high.priority = 20
    high.action["klass"] = "2"
    high.insert()
    read = {e.priority: e for e in sh.TableEntry("IngressImpl.classifier").read()}
    assert set(read) == {10, 20}
    assert read[10].match["diffserv"].ternary.mask == b"\xfc"
    assert read[10].match["udp_dport"].range.high == (4799).to_bytes(2, "big")
    assert read[10].match["protocol"].optional.value == b"\x11"
    # Don't-care fields are omitted on read, as they must be on write.
    assert [m.field_id for m in read[20].msg().match] == [2]
    # Same key, another priority: a different entry.
    again = sh.TableEntry("IngressImpl.classifier")(action="IngressImpl.classify")
    again.match["udp_dport"] = "100..200"
    again.priority = 30
    again.action["klass"] = "3"
    again.insert()
    assert len(list(sh.TableEntry("IngressImpl.classifier").read())) == 3
    high.delete()
    assert {e.priority for e in sh.TableEntry("IngressImpl.classifier").read()} == {10, 30}


def test_const_table_is_readable_with_spec_priorities(shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    entries = list(sh.TableEntry("IngressImpl.classifier").read())
    by_priority = {e.priority: e for e in entries}
    assert set(by_priority) == {1, 2}
    first = by_priority[2].msg()      # declared first: highest priority
    assert first.action.action.params[0].value == b"\x01"
    assert {m.field_id for m in first.match} == {1, 2, 3}
    assert list(by_priority[1].msg().match) == []   # (_, _, _): all don't care
