"""p4runtime-shell: action profile members and weighted selector groups, indirect
counters and meters (multipath); registers through raw p4.v1 messages (p4runtime-shell
0.0.6 has no register API)."""
import pytest
from p4.v1 import p4data_pb2, p4runtime_pb2
from p4runtime_sh.p4runtime import P4RuntimeWriteException
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from p4rt_harness import RawClient, ids, json_path, p4info_path, update


def flow(sport: int) -> bytes:
    return bytes(Ether(dst="00:00:00:00:00:01", src="00:00:00:00:00:02")
                 / IP(src="192.168.1.10", dst="10.0.0.1") / UDP(sport=sport, dport=80)
                 / b"spray")


def program_group(sh):
    for member_id, port in ((1, 2), (2, 3)):
        member = sh.ActionProfileMember("IngressImpl.spray_selector")(
            member_id=member_id, action="IngressImpl.set_member")
        member.action["port"] = str(port)
        member.action["member_index"] = str(member_id - 1)
        member.insert()
    group = sh.ActionProfileGroup("IngressImpl.spray_selector")(group_id=100)
    group.add(member_id=1, weight=1).add(member_id=2, weight=3)
    group.insert()
    members = sh.TableEntry("IngressImpl.members")
    members.match["hdr.ipv4.dst_addr"] = "10.0.0.1"
    members.group_id = 100
    members.insert()
    route = sh.TableEntry("IngressImpl.route")(action="IngressImpl.to_group")
    route.match["hdr.ipv4.dst_addr"] = "10.0.0.0/8"
    route.action["group_index"] = "5"
    route.insert()
    return group


def test_selector_group_sprays_and_counters_count(rig, shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    program_group(sh)
    ports = []
    for sport in range(1000, 1040):
        ports += [port for port, _ in rig.send(1, flow(sport))]
    assert len(ports) == 40 and set(ports) == {2, 3}

    counts = {c.index: c.data.packet_count
              for c in sh.CounterEntry("IngressImpl.member_pkts").read()}
    assert len(counts) == 64
    assert counts[0] == ports.count(2) and counts[1] == ports.count(3)

    read = next(sh.ActionProfileGroup("IngressImpl.spray_selector").read())
    assert {(m.member_id, m.weight) for m in read.msg().members} == {(1, 1), (2, 3)}
    members = {m.member_id: m for m in sh.ActionProfileMember(
        "IngressImpl.spray_selector").read()}
    assert members[2].action["port"].value == b"\x03"

    reset = sh.CounterEntry("IngressImpl.member_pkts")
    reset.index = 0
    reset.packet_count = 0
    reset.modify()
    reset_read = sh.CounterEntry("IngressImpl.member_pkts")
    reset_read.index = 0
    assert next(reset_read.read()).data.packet_count == 0


def test_group_membership_change_moves_traffic(rig, shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    group = program_group(sh)
    group.clear()
    group.add(member_id=2, weight=1)
    group.modify()
    ports = {port for sport in range(2000, 2010) for port, _ in rig.send(1, flow(sport))}
    assert ports == {3}


def test_member_in_use_cannot_be_deleted(shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    program_group(sh)
    member = sh.ActionProfileMember("IngressImpl.spray_selector")(member_id=1)
    with pytest.raises(P4RuntimeWriteException) as exc:
        member.delete()
    assert "FAILED_PRECONDITION" in str(exc.value) and "member 1" in str(exc.value)
    assert len(list(sh.ActionProfileMember("IngressImpl.spray_selector").read())) == 2


def test_meter_config_round_trip(shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    meter = sh.MeterEntry("IngressImpl.class_meter")
    meter.index = 3
    meter.cir, meter.cburst, meter.pir, meter.pburst = 100, 10, 200, 20
    meter.modify()
    query = sh.MeterEntry("IngressImpl.class_meter")
    query.index = 3
    config = next(query.read()).config
    assert (config.cir, config.cburst, config.pir, config.pburst) == (100, 10, 200, 20)
    query.index = 4
    assert not next(query.read()).msg().HasField("config")


def test_meter_marks_red_and_drops(rig, shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    program_group(sh)
    meter = sh.MeterEntry("IngressImpl.class_meter")
    meter.index = 0          # classify(0) for any packet that is not to port 479x
    meter.cir, meter.cburst, meter.pir, meter.pburst = 1, 1, 1, 1
    meter.modify()
    delivered = sum(len(rig.send(1, flow(sport))) for sport in range(3000, 3010))
    assert delivered < 10


def test_registers_read_write(rig, shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    program_group(sh)
    raw = RawClient(rig.address, election_id=None)   # a reader needs no arbitration
    n = ids("multipath")
    reg = p4runtime_pb2.RegisterEntry(register_id=n["IngressImpl.group_seq"])
    reg.index.index = 5
    for sport in range(10):
        rig.send(1, flow(sport))
    [entity] = raw.read(p4runtime_pb2.Entity(register_entry=reg))
    assert entity.register_entry.data.bitstring == b"\x0a"
    all_cells = raw.read(p4runtime_pb2.Entity(register_entry=p4runtime_pb2.RegisterEntry(
        register_id=n["IngressImpl.group_seq"])))
    assert len(all_cells) == 64
    raw.close()
    writer = RawClient(rig.address, election_id=2)
    writer.arbitrate()
    reg.data.CopyFrom(p4data_pb2.P4Data(bitstring=b"\x01\x00"))
    writer.write(update("MODIFY", register_entry=reg))
    rig.send(1, flow(1))
    [entity] = writer.read(p4runtime_pb2.Entity(register_entry=reg))
    assert entity.register_entry.data.bitstring == b"\x01\x01"
    writer.close()


def test_one_shot_action_set(rig, shell):
    sh = shell(str(p4info_path("multipath")), str(json_path("multipath")))
    route = sh.TableEntry("IngressImpl.route")(action="IngressImpl.to_group")
    route.match["hdr.ipv4.dst_addr"] = "10.0.0.0/8"
    route.action["group_index"] = "1"
    route.insert()
    actions = []
    for port in (2, 3):
        action = sh.Action("IngressImpl.set_member")
        action["port"] = str(port)
        action["member_index"] = str(port)
        actions.append(action)
    entry = sh.TableEntry("IngressImpl.members")
    entry.match["hdr.ipv4.dst_addr"] = "10.0.0.1"
    entry.oneshot = sh.Oneshot("IngressImpl.members").add(actions[0], weight=1) \
        .add(actions[1], weight=2)
    entry.insert()
    ports = {port for sport in range(40) for port, _ in rig.send(1, flow(sport))}
    assert ports == {2, 3}
    [read] = list(sh.TableEntry("IngressImpl.members").read())
    action_set = read.msg().action.action_profile_action_set
    assert [a.weight for a in action_set.action_profile_actions] == [1, 2]
    # The members and group behind it are the server's, not the client's.
    assert list(sh.ActionProfileMember("IngressImpl.spray_selector").read()) == []
    selector = rig.switch.runtime.action_profiles["IngressImpl.spray_selector"]
    # One switch member per unit of weight, as BMv2's server makes them (1 + 2).
    assert [m.args for m in selector.members()] == [[2, 2], [3, 3], [3, 3]]
    entry.delete()
    assert selector.members() == [] and selector.groups() == []
