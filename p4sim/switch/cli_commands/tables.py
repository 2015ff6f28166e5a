"""Table commands: table_add, table_set_default, table_delete, table_modify,
table_num_entries, table_clear, table_dump, table_indirect_add(_with_group),
show_tables, show_actions, table_info."""
from __future__ import annotations

from p4sim.switch import table_commands
from p4sim.switch.cli_commands import formatting
from p4sim.switch.cli_commands.errors import CliError
from p4sim.switch.cli_commands.program_info import TableInfo
from p4sim.switch.cli_commands.session import Command, Session, at_least, exactly, integer
from p4sim.switch.runtime_api import KeyField, MatchParam


def _keys(table: TableInfo, texts: list[str], typed: str) -> list[MatchParam]:
    if len(texts) != len(table.keys):
        names = ", ".join(name for name, _k, _w in table.keys)
        raise CliError(f"Error: Table {typed} needs {len(table.keys)} key fields",
                       f"table {table.name} has {len(table.keys)} key field(s) ({names}), "
                       f"got {len(texts)}")
    try:
        return [table_commands.parse_key(text, KeyField(*key)) for text, key in zip(texts, table.keys)]
    except table_commands.CommandError as exc:
        raise CliError(f"Invalid match key: {exc}", str(exc)) from None


def _action_data(s: Session, action: str, texts: list[str]) -> list[int]:
    params = s.info.actions.get(action, [])
    if len(texts) != len(params):
        raise CliError(f"Error: Action {action} needs {len(params)} parameters",
                       f"action {action} takes {len(params)} parameter(s) "
                       f"({', '.join(f'{p}({w})' for p, w in params)}), got {len(texts)}")
    try:
        return [table_commands.parse_value(text, width, f"parameter {name}")
                for text, (name, width) in zip(texts, params)]
    except table_commands.CommandError as exc:
        raise CliError(f"Invalid runtime data: {exc}", str(exc)) from None


def _data_echo(s: Session, action: str, values: list[int]) -> str:
    params = s.info.actions.get(action, [])
    return "\t".join(formatting.colon_hex(v, w) for v, (_p, w) in zip(values, params))


def _split_priority(table: TableInfo, args: list[str], usage: str) -> tuple[list[str], str | None]:
    if not table.needs_priority:
        return args, None
    try:
        int(args[-1], 0) if args else int("")
    except ValueError:
        raise CliError("Error: Table is ternary, but could not extract a valid priority "
                       "from args", f"table {table.name} needs an integer priority after "
                       f"the action parameters; usage: {usage}") from None
    return args[:-1], args[-1]


TABLE_ADD = "table_add <table name> <action name> <match fields> => <action parameters> [priority]"


def table_add(s: Session, args: list[str]) -> None:
    at_least(args, 3, TABLE_ADD)
    table = s.info.table(args[0])
    action = s.info.action_of(table.actions, args[1], args[0])
    rest, priority = _split_priority(table, args[2:], TABLE_ADD)
    cut = rest.index("=>") if "=>" in rest else len(rest)
    key_texts, data_texts = rest[:cut], rest[cut + 1:]
    if len(key_texts) != len(table.keys):
        _keys(table, key_texts, args[0])         # raises with the count
    values = _action_data(s, action, data_texts)
    keys = _keys(table, key_texts, args[0])
    s.print("Adding entry to", table.match_type, "match table", args[0])
    s.print(formatting.labelled("match key:", "\t".join(
        formatting.key_echo(k, w) for k, (_n, _kind, w) in zip(keys, table.keys))))
    s.print(formatting.labelled("action:", args[1]))
    s.print(formatting.labelled("runtime data:", _data_echo(s, action, values)))
    handle = s.call("table_add", table=table.name, action=action, keys=key_texts,
                    args=data_texts + ([priority] if priority is not None else []))
    s.print("Entry has been added with handle", handle)


TABLE_SET_DEFAULT = "table_set_default <table name> <action name> <action parameters>"


def table_set_default(s: Session, args: list[str]) -> None:
    at_least(args, 2, TABLE_SET_DEFAULT)
    table = s.info.table(args[0])
    action = s.info.action_of(table.actions, args[1], args[0])
    values = _action_data(s, action, args[2:])
    s.print("Setting default action of", args[0])
    s.print(formatting.labelled("action:", args[1]))
    s.print(formatting.labelled("runtime data:", _data_echo(s, action, values)))
    s.call("table_set_default", table=table.name, action=action, args=args[2:])


def table_reset_default(s: Session, args: list[str]) -> None:
    exactly(args, 1, "table_reset_default <table name>")
    s.call("table_reset_default", table_name=s.info.table(args[0]).name)


TABLE_DELETE = "table_delete <table name> <entry handle>"


def table_delete(s: Session, args: list[str]) -> None:
    exactly(args, 2, TABLE_DELETE)
    table = s.info.table(args[0])
    handle = integer(args[1], "entry handle", TABLE_DELETE)
    s.print("Deleting entry", handle, "from", args[0])
    s.call("table_delete", table_name=table.name, handle=handle)


TABLE_MODIFY = "table_modify <table name> <action name> <entry handle> [action parameters]"


def table_modify(s: Session, args: list[str]) -> None:
    at_least(args, 3, TABLE_MODIFY)
    table = s.info.table(args[0])
    action = s.info.action_of(table.actions, args[1], args[0])
    handle = integer(args[2], "entry handle", TABLE_MODIFY)
    data = args[4:] if args[3:4] == ["=>"] else args[3:]
    _action_data(s, action, data)
    s.print("Modifying entry", handle, "for", table.match_type, "match table", args[0])
    s.call("table_modify", table_name=table.name, action=action, handle=handle, args=data)


def table_num_entries(s: Session, args: list[str]) -> None:
    exactly(args, 1, "table_num_entries <table name>")
    s.print(s.call("table_num_entries", table_name=s.info.table(args[0]).name))


def table_clear(s: Session, args: list[str]) -> None:
    exactly(args, 1, "table_clear <table name>")
    s.call("table_clear", table_name=s.info.table(args[0]).name)


def table_dump(s: Session, args: list[str]) -> None:
    exactly(args, 1, "table_dump <table name>")
    table = s.info.table(args[0])
    dump = s.call("table_dump", table_name=table.name)
    s.print("==========")
    s.print("TABLE ENTRIES")
    for entry in dump["entries"]:
        s.print("**********")
        for line in formatting.dump_entry(table, entry, s.info.actions):
            s.print(line)
    if "members" in dump:
        s.print("==========")
        s.print("MEMBERS")
        for member in dump["members"]:
            s.print("**********")
            s.print(f"Dumping member {member['handle']}")
            s.print(formatting.action_entry(member["action"], member["args"],
                                            s.info.actions.get(member["action"], [])))
        if table.type == "indirect_ws":
            s.print("==========")
            s.print("GROUPS")
            for group in dump["groups"]:
                s.print("**********")
                s.print(f"Dumping group {group['handle']}")
                s.print(f"Members: [{', '.join(str(m) for m in group['members'])}]")
    default = dump["default"]
    s.print("==========")
    s.print("Dumping default entry")
    s.print(formatting.action_entry(default["action"], default["args"],
                                    s.info.actions.get(default["action"] or "", [])))
    s.print("==========")


INDIRECT_ADD = "table_indirect_add <table name> <match fields> => <member handle> [priority]"


def _indirect_add(s: Session, args: list[str], with_group: bool) -> None:
    usage = INDIRECT_ADD.replace("member", "group") if with_group else INDIRECT_ADD
    at_least(args, 2, usage)
    table = s.info.table(args[0])
    if table.type == "simple" or (with_group and table.type != "indirect_ws"):
        raise CliError("Error: Cannot run this command on non-indirect table" +
                       (", or on indirect table with no selector" if with_group else ""))
    rest, priority = _split_priority(table, args[1:], usage)
    if "=>" not in rest or len(rest) != rest.index("=>") + 2:
        raise CliError("Error: Invalid arguments, could not find handle", f"usage: {usage}")
    cut = rest.index("=>")
    handle = integer(rest[cut + 1], "handle", usage)
    _keys(table, rest[:cut], args[0])
    s.print("Adding entry to indirect match table", table.name)
    entry = s.call("table_indirect_add", table=table.name, keys=rest[:cut],
                   args=[str(handle)] + ([priority] if priority is not None else []),
                   with_group=with_group)
    s.print("Entry has been added with handle", entry)


def table_indirect_add(s: Session, args: list[str]) -> None:
    _indirect_add(s, args, with_group=False)


def table_indirect_add_with_group(s: Session, args: list[str]) -> None:
    _indirect_add(s, args, with_group=True)


def show_tables(s: Session, args: list[str]) -> None:
    exactly(args, 0, "show_tables")
    for name in sorted(s.info.tables):
        s.print(formatting.table_row(s.info.tables[name]))


def show_actions(s: Session, args: list[str]) -> None:
    exactly(args, 0, "show_actions")
    for name in sorted(s.info.actions):
        s.print(formatting.action_row(name, s.info.actions[name]))


def table_info(s: Session, args: list[str]) -> None:
    exactly(args, 1, "table_info <table name>")
    table = s.info.table(args[0])
    s.print(formatting.table_row(table))
    s.print("*" * 80)
    for name in sorted(table.actions):
        s.print(formatting.action_row(name, s.info.actions.get(name, [])))


COMMANDS = {
    "table_add": Command(table_add, TABLE_ADD),
    "table_set_default": Command(table_set_default, TABLE_SET_DEFAULT),
    "table_reset_default": Command(table_reset_default, "table_reset_default <table name>"),
    "table_delete": Command(table_delete, TABLE_DELETE),
    "table_modify": Command(table_modify, TABLE_MODIFY),
    "table_num_entries": Command(table_num_entries, "table_num_entries <table name>"),
    "table_clear": Command(table_clear, "table_clear <table name>"),
    "table_dump": Command(table_dump, "table_dump <table name>"),
    "table_info": Command(table_info, "table_info <table name>"),
    "table_indirect_add": Command(table_indirect_add, INDIRECT_ADD),
    "table_indirect_add_with_group": Command(table_indirect_add_with_group,
                                             INDIRECT_ADD.replace("member", "group")),
    "show_tables": Command(show_tables, "show_tables"),
    "show_actions": Command(show_actions, "show_actions"),
}
