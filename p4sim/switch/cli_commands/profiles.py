"""Action profile commands: act_prof_create_member, act_prof_create_group,
act_prof_add_member_to_group, act_prof_remove_member_from_group,
act_prof_delete_member, act_prof_delete_group."""
from __future__ import annotations

from p4sim.switch import table_commands
from p4sim.switch.cli_commands.errors import CliError
from p4sim.switch.cli_commands.session import Command, Session, at_least, exactly, integer

CREATE_MEMBER = "act_prof_create_member <action profile name> <action_name> [action parameters]"


def _profile(s: Session, name: str, need_selector: bool = False) -> dict:
    profile = s.info.profiles[s.info.lookup("action profile", name)]
    if need_selector and not profile["with_selection"]:
        raise CliError("Error: Cannot run this command on an action profile without selector")
    return profile


def act_prof_create_member(s: Session, args: list[str]) -> None:
    at_least(args, 2, CREATE_MEMBER)
    profile = _profile(s, args[0])
    matches = [a for a in profile["actions"] if a == args[1] or a.endswith("." + args[1])]
    if len(matches) != 1:
        raise CliError(f"Error: Action profile '{args[0]}' has no action '{args[1]}'",
                       f"{profile['name']} has actions {', '.join(profile['actions'])}")
    params = s.info.actions.get(matches[0], [])
    if len(args) - 2 != len(params):
        raise CliError(f"Error: Action {matches[0]} needs {len(params)} parameters")
    try:
        for text, (name, width) in zip(args[2:], params):
            table_commands.parse_value(text, width, f"parameter {name}")
    except table_commands.CommandError as exc:
        raise CliError(f"Invalid runtime data: {exc}") from None
    handle = s.call("act_prof_create_member", profile=profile["name"], action=matches[0],
                    args=args[2:])
    s.print("Member has been created with handle", handle)


def act_prof_create_group(s: Session, args: list[str]) -> None:
    exactly(args, 1, "act_prof_create_group <action profile name>")
    profile = _profile(s, args[0], need_selector=True)
    handle = s.call("act_prof_create_group", profile=profile["name"])
    s.print("Group has been created with handle", handle)


def _member_group(s: Session, args: list[str], usage: str) -> tuple[str, int, int]:
    exactly(args, 3, usage)
    profile = _profile(s, args[0], need_selector=True)
    return (profile["name"], integer(args[1], "member handle", usage),
            integer(args[2], "group handle", usage))


ADD_TO_GROUP = ("act_prof_add_member_to_group <action profile name> <member handle> "
                "<group handle>")
REMOVE_FROM_GROUP = ("act_prof_remove_member_from_group <action profile name> "
                     "<member handle> <group handle>")


def act_prof_add_member_to_group(s: Session, args: list[str]) -> None:
    profile, member, group = _member_group(s, args, ADD_TO_GROUP)
    s.call("act_prof_add_member_to_group", profile=profile, member=str(member), group=str(group))


def act_prof_remove_member_from_group(s: Session, args: list[str]) -> None:
    profile, member, group = _member_group(s, args, REMOVE_FROM_GROUP)
    s.call("act_prof_remove_member_from_group", profile_name=profile, member=member,
           group=group)


def act_prof_delete_member(s: Session, args: list[str]) -> None:
    usage = "act_prof_delete_member <action profile name> <member handle>"
    exactly(args, 2, usage)
    s.call("act_prof_delete_member", profile_name=_profile(s, args[0])["name"],
           member=integer(args[1], "member handle", usage))


def act_prof_delete_group(s: Session, args: list[str]) -> None:
    usage = "act_prof_delete_group <action profile name> <group handle>"
    exactly(args, 2, usage)
    s.call("act_prof_delete_group", profile_name=_profile(s, args[0], True)["name"],
           group=integer(args[1], "group handle", usage))


COMMANDS = {
    "act_prof_create_member": Command(act_prof_create_member, CREATE_MEMBER),
    "act_prof_create_group": Command(act_prof_create_group,
                                     "act_prof_create_group <action profile name>"),
    "act_prof_add_member_to_group": Command(act_prof_add_member_to_group, ADD_TO_GROUP),
    "act_prof_remove_member_from_group": Command(act_prof_remove_member_from_group,
                                                 REMOVE_FROM_GROUP),
    "act_prof_delete_member": Command(act_prof_delete_member,
                                      "act_prof_delete_member <action profile name> "
                                      "<member handle>"),
    "act_prof_delete_group": Command(act_prof_delete_group,
                                     "act_prof_delete_group <action profile name> "
                                     "<group handle>"),
}
