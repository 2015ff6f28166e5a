"""Selector group member weights are realised as BMv2's P4Runtime server (PI) does it:
a member of weight w is w switch members (the copies made in member-ID order when a
group first needs them, deleted newest first when none does), so the selector's
hash % slots sees the same slot order on both targets. Reads still show one member
with its weight."""
import grpc
import pytest
from google.rpc import code_pb2
from p4.v1 import p4runtime_pb2

from p4rt_harness import ids, update, write_errors

PROFILE = "IngressImpl.spray_selector"


@pytest.fixture
def multipath(client):
    client.set_pipeline("multipath")
    return ids("multipath")


def member(n, member_id: int, port: int) -> p4runtime_pb2.ActionProfileMember:
    msg = p4runtime_pb2.ActionProfileMember(action_profile_id=n[PROFILE], member_id=member_id)
    msg.action.action_id = n["IngressImpl.set_member"]
    msg.action.params.add(param_id=1, value=bytes([0, port]))
    msg.action.params.add(param_id=2, value=bytes([port]))
    return msg


def group(n, weights: dict[int, int], max_size: int = 0) -> p4runtime_pb2.ActionProfileGroup:
    msg = p4runtime_pb2.ActionProfileGroup(action_profile_id=n[PROFILE], group_id=100,
                                           max_size=max_size)
    for member_id, weight in weights.items():
        msg.members.add(member_id=member_id, weight=weight)
    return msg


def slot_ports(rig) -> list[int]:
    """Ports of the switch group's members in selection order (handle order)."""
    selector = rig.switch.runtime.action_profiles[PROFILE]
    [view] = selector.groups()
    return [selector.get_member(h).args[0] for h in sorted(view.members)]


def test_weight_copies_follow_every_existing_member(rig, client, multipath):
    n = multipath
    client.write(update("INSERT", action_profile_member=member(n, 1, 2)),
                 update("INSERT", action_profile_member=member(n, 2, 3)))
    client.write(update("INSERT", action_profile_group=group(n, {1: 3, 2: 1})))
    assert slot_ports(rig) == [2, 3, 2, 2]      # handles 0, 1, then member 1's copies
    [read] = client.read(p4runtime_pb2.Entity(action_profile_group=group(n, {})))
    assert {(m.member_id, m.weight) for m in read.action_profile_group.members} == {(1, 3), (2, 1)}
    members = client.read(p4runtime_pb2.Entity(action_profile_member=p4runtime_pb2.ActionProfileMember(
        action_profile_id=n[PROFILE])))
    assert sorted(e.action_profile_member.member_id for e in members) == [1, 2]

    # New copies are made before unneeded ones go: member 2's copy takes handle 4.
    client.write(update("MODIFY", action_profile_group=group(n, {1: 1, 2: 2})))
    assert slot_ports(rig) == [2, 3, 3]
    selector = rig.switch.runtime.action_profiles[PROFILE]
    assert sorted(m.handle for m in selector.members()) == [0, 1, 4]

    # A member modify reaches its copies too.
    client.write(update("MODIFY", action_profile_member=member(n, 2, 5)))
    assert slot_ports(rig) == [2, 5, 5]

    client.write(update("DELETE", action_profile_group=group(n, {})))
    assert sorted(m.handle for m in selector.members()) == [0, 1]
    client.write(update("DELETE", action_profile_member=member(n, 1, 2)),
                 update("DELETE", action_profile_member=member(n, 2, 5)))
    assert selector.members() == []


def test_weights_count_against_the_group_size(rig, client, multipath):
    n = multipath
    client.write(update("INSERT", action_profile_member=member(n, 1, 2)))
    with pytest.raises(grpc.RpcError) as exc:
        client.write(update("INSERT", action_profile_group=group(n, {1: 3}, max_size=2)))
    [error] = write_errors(exc.value)
    assert error.canonical_code == code_pb2.RESOURCE_EXHAUSTED
    assert "weights add up to 3" in error.message
    selector = rig.switch.runtime.action_profiles[PROFILE]
    assert [m.handle for m in selector.members()] == [0]   # no copy left behind


def test_a_member_in_a_weighted_group_cannot_be_deleted(client, multipath):
    n = multipath
    client.write(update("INSERT", action_profile_member=member(n, 1, 2)))
    client.write(update("INSERT", action_profile_group=group(n, {1: 2})))
    with pytest.raises(grpc.RpcError) as exc:
        client.write(update("DELETE", action_profile_member=member(n, 1, 2)))
    [error] = write_errors(exc.value)
    assert error.canonical_code != code_pb2.OK
    [read] = client.read(p4runtime_pb2.Entity(action_profile_group=group(n, {})))
    assert [(m.member_id, m.weight) for m in read.action_profile_group.members] == [(1, 2)]
