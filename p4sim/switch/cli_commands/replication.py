"""Multicast and mirroring commands: mc_mgrp_create/destroy, mc_node_create/destroy,
mc_node_associate/dissociate, mirroring_add, mirroring_add_mc, mirroring_delete.
simple_switch_CLI drives a SimplePreLAG, so node creation echoes a lag map too."""
from __future__ import annotations

from p4sim.switch.cli_commands.errors import CliError, usage_error
from p4sim.switch.cli_commands.session import Command, Session, at_least, exactly, integer

NODE_CREATE = "mc_node_create <rid> <space-separated port list> [ | <space-separated lag list> ]"


def port_map(ports: list[int]) -> str:
    """The port bitmap simple_switch_CLI echoes: port 0 is the rightmost digit."""
    if not ports:
        return ""
    bits = ["0"] * (max(ports) + 1)
    for port in ports:
        bits[port] = "1"
    return "".join(reversed(bits))


def mc_mgrp_create(s: Session, args: list[str]) -> None:
    exactly(args, 1, "mc_mgrp_create <group id>")
    group = integer(args[0], "multicast group id", "mc_mgrp_create <group id>")
    s.print("Creating multicast group", group)
    s.call("mc_mgrp_create", group=group)


def mc_mgrp_destroy(s: Session, args: list[str]) -> None:
    exactly(args, 1, "mc_mgrp_destroy <group id>")
    group = integer(args[0], "multicast group id", "mc_mgrp_destroy <group id>")
    s.print("Destroying multicast group", group)
    s.call("mc_mgrp_destroy", group=group)


def _ports(words: list[str], usage: str) -> list[int]:
    """The port list of mc_node_create / mc_node_update (LAG lists refused)."""
    cut = words.index("|") if "|" in words else len(words)
    ports: list[int] = []
    for word in words[:cut]:
        if not word.isdigit():
            raise usage_error(f"'{word}' is not a valid port number", usage)
        if int(word) in ports:
            raise usage_error(f"Found duplicate port number '{word}'", usage)
        ports.append(int(word))
    if words[cut + 1:]:
        raise CliError("Error: p4sim's PRE has no LAGs", "LAG lists are not supported")
    return ports


def mc_node_create(s: Session, args: list[str]) -> None:
    at_least(args, 1, NODE_CREATE)
    rid = integer(args[0], "rid", NODE_CREATE)
    ports = _ports(args[1:], NODE_CREATE)
    s.print("Creating node with rid", rid, ", port map", port_map(ports), "and lag map", "")
    handle = s.call("mc_node_create", rid=rid, ports=ports)
    s.print("node was created with handle", handle)


NODE_UPDATE = ("mc_node_update <node handle> <space-separated port list> "
               "[ | <space-separated lag list> ]")


def mc_node_update(s: Session, args: list[str]) -> None:
    at_least(args, 1, NODE_UPDATE)
    node = integer(args[0], "node handle", NODE_UPDATE)
    ports = _ports(args[1:], NODE_UPDATE)
    s.print("Updating node", node, "with port map", port_map(ports), "and lag map", "")
    s.call("mc_node_update", node=node, ports=ports)


def _group_node(args: list[str], usage: str) -> tuple[int, int]:
    exactly(args, 2, usage)
    return integer(args[0], "multicast group id", usage), integer(args[1], "node handle", usage)


ASSOCIATE = "mc_node_associate <group handle> <node handle>"
DISSOCIATE = "mc_node_dissociate <group handle> <node handle>"


def mc_node_associate(s: Session, args: list[str]) -> None:
    group, node = _group_node(args, ASSOCIATE)
    s.print("Associating node", node, "to multicast group", group)
    s.call("mc_node_associate", group=group, node=node)


def mc_node_dissociate(s: Session, args: list[str]) -> None:
    group, node = _group_node(args, DISSOCIATE)
    s.print("Dissociating node", node, "from multicast group", group)
    s.call("mc_node_dissociate", group=group, node=node)


def mc_node_destroy(s: Session, args: list[str]) -> None:
    exactly(args, 1, "mc_node_destroy <node handle>")
    node = integer(args[0], "node handle", "mc_node_destroy <node handle>")
    s.print("Destroying node", node)
    s.call("mc_node_destroy", node=node)


MIRRORING_ADD = "mirroring_add <mirror_id> <egress_port>"


def mirroring_add(s: Session, args: list[str]) -> None:
    exactly(args, 2, MIRRORING_ADD)
    s.call("mirroring_add", session=integer(args[0], "mirror_id", MIRRORING_ADD),
           port=integer(args[1], "egress_port", MIRRORING_ADD))


COMMANDS = {
    "mc_mgrp_create": Command(mc_mgrp_create, "mc_mgrp_create <group id>"),
    "mc_mgrp_destroy": Command(mc_mgrp_destroy, "mc_mgrp_destroy <group id>"),
    "mc_node_create": Command(mc_node_create, NODE_CREATE),
    "mc_node_destroy": Command(mc_node_destroy, "mc_node_destroy <node handle>"),
    "mc_node_update": Command(mc_node_update, NODE_UPDATE),
    "mc_node_associate": Command(mc_node_associate, ASSOCIATE),
    "mc_node_dissociate": Command(mc_node_dissociate, DISSOCIATE),
    "mirroring_add": Command(mirroring_add, MIRRORING_ADD),
}
