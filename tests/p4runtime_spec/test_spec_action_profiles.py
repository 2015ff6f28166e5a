"""Action profiles and selectors (spec sections "ActionProfileMember",
"ActionProfileGroup", "Action Selector" and one-shot programming)."""
import grpc
from p4.v1 import p4runtime_pb2

from entries import action, entry, exact
from spec_client import update, write_codes

OK = 0
NOT_FOUND = grpc.StatusCode.NOT_FOUND.value[0]
ALREADY_EXISTS = grpc.StatusCode.ALREADY_EXISTS.value[0]
INVALID_ARGUMENT = grpc.StatusCode.INVALID_ARGUMENT.value[0]
FAILED_PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION.value[0]
SRC = "hdr.ethernet.src_addr"


def member(program, profile: str, member_id: int, act):
    return p4runtime_pb2.ActionProfileMember(
        action_profile_id=program.id_of(profile), member_id=member_id, action=act)


def group(program, profile: str, group_id: int, members: list[tuple[int, int]],
          max_size: int = 0):
    g = p4runtime_pb2.ActionProfileGroup(action_profile_id=program.id_of(profile),
                                         group_id=group_id, max_size=max_size)
    for member_id, weight in members:
        g.members.add(member_id=member_id, weight=weight)
    return g


PROFILE = "t_profile_implementation"
SELECTOR = "t_selector_implementation"


def test_members_read_back_and_are_referenced_by_entries(client, program):
    m1 = member(program, PROFILE, 1, action(program, "rewrite_src", b"\x0a"))
    m2 = member(program, PROFILE, 2, action(program, "NoAction"))
    client.write(update("INSERT", action_profile_member=m1),
                 update("INSERT", action_profile_member=m2))
    query = p4runtime_pb2.Entity(action_profile_member=p4runtime_pb2.ActionProfileMember(
        action_profile_id=program.id_of(PROFILE)))
    got = sorted((e.action_profile_member.member_id,
                  e.action_profile_member.action.action_id) for e in client.read(query))
    assert got == [(1, program.id_of("rewrite_src")), (2, program.id_of("NoAction"))]
    te = entry(program, "t_profile", {SRC: exact(b"\x01")})
    te.action.action_profile_member_id = 1
    missing = entry(program, "t_profile", {SRC: exact(b"\x02")})
    missing.action.action_profile_member_id = 99
    direct = entry(program, "t_profile", {SRC: exact(b"\x03")},
                   action(program, "rewrite_src", b"\x0b"))
    assert write_codes(client, update("INSERT", table_entry=te),
                       update("INSERT", table_entry=missing),
                       update("INSERT", table_entry=direct)) == \
        [OK, NOT_FOUND, INVALID_ARGUMENT]
    [read] = client.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
        table_id=program.id_of("t_profile"))))
    assert read.table_entry.action.action_profile_member_id == 1
    # A member in use cannot go; once the entry is gone it can.
    codes = write_codes(client, update("DELETE", action_profile_member=m1))
    assert codes[0] != OK
    client.write(update("DELETE", table_entry=te))
    client.write(update("DELETE", action_profile_member=m1))


def test_member_insert_twice_and_modify_of_a_missing_member(client, program):
    m = member(program, PROFILE, 5, action(program, "NoAction"))
    other = member(program, PROFILE, 6, action(program, "NoAction"))
    wrong_action = member(program, PROFILE, 7, action(program, "set_port", b"\x01"))
    assert write_codes(client, update("INSERT", action_profile_member=m),
                       update("INSERT", action_profile_member=m),
                       update("MODIFY", action_profile_member=other),
                       update("INSERT", action_profile_member=wrong_action)) == \
        [OK, ALREADY_EXISTS, NOT_FOUND, INVALID_ARGUMENT]


def test_selector_groups_with_weights(client, program):
    for member_id, port in ((1, b"\x01"), (2, b"\x02")):
        client.write(update("INSERT", action_profile_member=member(
            program, SELECTOR, member_id, action(program, "set_port", port))))
    client.write(update("INSERT", action_profile_group=group(
        program, SELECTOR, 10, [(1, 3), (2, 1)], max_size=8)))
    query = p4runtime_pb2.Entity(action_profile_group=p4runtime_pb2.ActionProfileGroup(
        action_profile_id=program.id_of(SELECTOR)))
    [got] = client.read(query)
    assert got.action_profile_group.group_id == 10
    assert sorted((m.member_id, m.weight) for m in got.action_profile_group.members) == \
        [(1, 3), (2, 1)]
    client.write(update("MODIFY", action_profile_group=group(program, SELECTOR, 10,
                                                            [(2, 1)], max_size=8)))
    [got] = client.read(query)
    assert [(m.member_id, m.weight) for m in got.action_profile_group.members] == [(2, 1)]
    te = entry(program, "t_selector", {"hdr.ipv4.dst_addr": exact(b"\x0a\x00\x00\x01")})
    te.action.action_profile_group_id = 10
    client.write(update("INSERT", table_entry=te))
    [read] = client.read(p4runtime_pb2.Entity(table_entry=p4runtime_pb2.TableEntry(
        table_id=program.id_of("t_selector"))))
    assert read.table_entry.action.action_profile_group_id == 10
    # A group naming an unknown member, a second group with the same ID, a group in use.
    codes = write_codes(client,
                        update("INSERT", action_profile_group=group(program, SELECTOR, 11,
                                                                    [(42, 1)])),
                        update("INSERT", action_profile_group=group(program, SELECTOR, 10,
                                                                    [(1, 1)])),
                        update("DELETE", action_profile_group=group(program, SELECTOR, 10, [])))
    assert codes[0] == NOT_FOUND and codes[1] == ALREADY_EXISTS and codes[2] != OK


def test_groups_need_a_selector(client, program):
    client.write(update("INSERT", action_profile_member=member(
        program, PROFILE, 1, action(program, "NoAction"))))
    codes = write_codes(client, update("INSERT", action_profile_group=group(
        program, PROFILE, 1, [(1, 1)])))
    assert codes[0] in (INVALID_ARGUMENT, FAILED_PRECONDITION), codes
