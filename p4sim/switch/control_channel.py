"""A small local control channel: JSON lines over TCP on 127.0.0.1.

It stands where BMv2's Thrift server stands (same default port, 9090) for what
P4Runtime does not cover (queue depth and rate at run time, port listing, statistics)
and for simple_switch_CLI-style table, action profile, multicast and mirroring commands.
Protocol, one JSON object per line each way:
  request  {"cmd": "set_queue_rate", "args": {"pps": 100, "port": 1, "priority": null}}
  response {"ok": true, "result": ...}  or  {"ok": false, "error": "message"}
"""

from __future__ import annotations

import json
import logging
import socket
import socketserver
import threading
from typing import Any, Callable

from p4sim.switch import table_commands
from p4sim.switch.control_runtime import runtime_handlers
from p4sim.switch.pre import CloneSession, PreError
from p4sim.switch.pre_commands import MulticastNodes
from p4sim.switch.runtime_api import TableError
from p4sim.switch.traffic_manager import TrafficManagerError

log = logging.getLogger(__name__)

DEFAULT_PORT = 9090
MAX_LINE = 1 << 20


class ControlError(Exception):
    """A control request the switch refused, or a channel failure on the client side.

    `kind` says which part of the switch refused ("table" for the runtime objects,
    "pre" for multicast and mirroring, "queue", "request"), `code` the TableErrorCode
    name when there is one: what simple_switch_CLI's "Invalid table operation (CODE)"
    lines are made of.
    """

    def __init__(self, message: str, kind: str = "request", code: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.code = code


def _handlers(switch: Any) -> dict[str, Callable[..., Any]]:
    def set_queue_depth(depth: int, port: int | None = None,
                        priority: int | None = None) -> None:
        switch.set_queue_depth(_int(depth, "depth"), _opt_int(port, "port"),
                               _opt_int(priority, "priority"))

    def set_queue_rate(pps: float, port: int | None = None,
                       priority: int | None = None) -> None:
        if isinstance(pps, bool) or not isinstance(pps, (int, float)):
            raise ControlError(f"rate must be a number of packets per second, got {pps!r}")
        switch.set_queue_rate(pps, _opt_int(port, "port"), _opt_int(priority, "priority"))

    def show_ports() -> list[dict]:
        return [{"port": port, "iface": iface} for port, iface in sorted(switch.ports.items())]

    def stats() -> dict:
        result = switch.stats.as_dict()
        result["ports"] = {str(p): c for p, c in switch.port_counters().items()}
        return result

    def queue_config(port: int, priority: int = 0) -> dict:
        depth, rate = switch.queue_config(_int(port, "port"), _int(priority, "priority"))
        return {"depth": depth, "rate": rate}

    def runtime() -> Any:
        if switch.runtime is None:
            raise ControlError("no program loaded")
        return switch.runtime

    def table_add(table: str, action: str, keys: list[str], args: list[str]) -> int:
        return table_commands.table_add_request(runtime(), table, action, keys, args)

    def table_set_default(table: str, action: str, args: list[str]) -> None:
        table_commands.table_set_default(runtime(), table, action, args)

    def table_indirect_add(table: str, keys: list[str], args: list[str],
                           with_group: bool = False) -> int:
        return table_commands.table_indirect_add_request(runtime(), table, keys, args,
                                                         with_group)

    def act_prof_create_member(profile: str, action: str, args: list[str]) -> int:
        return table_commands.act_prof_create_member(runtime(), profile, action, args)

    def act_prof_create_group(profile: str) -> int:
        return table_commands.act_prof_create_group(runtime(), profile)

    def act_prof_add_member_to_group(profile: str, member: str, group: str) -> None:
        table_commands.act_prof_add_member_to_group(runtime(), profile, member, group)

    nodes = MulticastNodes(switch.pre)

    def mc_mgrp_create(group: int) -> None:
        nodes.create_group(_int(group, "group"))

    def mc_mgrp_destroy(group: int) -> None:
        nodes.destroy_group(_int(group, "group"))

    def mc_node_create(rid: int, ports: list[int]) -> int:
        return nodes.create_node(_int(rid, "rid"), [_int(p, "port") for p in ports])

    def mc_node_destroy(node: int) -> None:
        nodes.destroy_node(_int(node, "node"))

    def mc_node_update(node: int, ports: list[int]) -> None:
        nodes.update_node(_int(node, "node"), [_int(p, "port") for p in ports])

    def mc_node_associate(group: int, node: int) -> None:
        nodes.associate(_int(group, "group"), _int(node, "node"))

    def mc_node_dissociate(group: int, node: int) -> None:
        nodes.dissociate(_int(group, "group"), _int(node, "node"))

    def mirroring_add(session: int, port: int) -> None:
        switch.pre.set_clone_session(_int(session, "session"),
                                     CloneSession(port=_int(port, "port")))

    return {"set_queue_depth": set_queue_depth, "set_queue_rate": set_queue_rate,
            "show_ports": show_ports, "stats": stats, "queue_config": queue_config,
            "table_add": table_add, "table_set_default": table_set_default,
            "table_indirect_add": table_indirect_add,
            "act_prof_create_member": act_prof_create_member,
            "act_prof_create_group": act_prof_create_group,
            "act_prof_add_member_to_group": act_prof_add_member_to_group,
            "mc_mgrp_create": mc_mgrp_create, "mc_mgrp_destroy": mc_mgrp_destroy,
            "mc_node_create": mc_node_create, "mc_node_destroy": mc_node_destroy,
            "mc_node_update": mc_node_update,
            "mc_node_associate": mc_node_associate,
            "mc_node_dissociate": mc_node_dissociate,
            "mirroring_add": mirroring_add, "ping": lambda: "pong"}


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ControlError(f"{name} must be an integer, got {value!r}")
    return value


def _opt_int(value: Any, name: str) -> int | None:
    return None if value is None else _int(value, name)


class _Handler(socketserver.StreamRequestHandler):
    def handle(self) -> None:
        handlers = self.server.handlers  # type: ignore[attr-defined]
        while True:
            line = self.rfile.readline(MAX_LINE)
            if not line:
                return
            reply = _dispatch(handlers, line)
            self.wfile.write((json.dumps(reply) + "\n").encode())
            self.wfile.flush()


def _dispatch(handlers: dict[str, Callable[..., Any]], line: bytes) -> dict:
    try:
        request = json.loads(line)
        if not isinstance(request, dict) or not isinstance(request.get("cmd"), str):
            raise ControlError('a request is a JSON object {"cmd": NAME, "args": {...}}')
        handler = handlers.get(request["cmd"])
        if handler is None:
            raise ControlError(f"unknown command {request['cmd']!r}; "
                               f"known: {', '.join(sorted(handlers))}")
        args = request.get("args") or {}
        if not isinstance(args, dict):
            raise ControlError("args must be a JSON object")
        return {"ok": True, "result": handler(**args)}
    except TableError as exc:
        return {"ok": False, "error": str(exc), "kind": "table", "code": exc.code.name}
    except PreError as exc:
        return {"ok": False, "error": str(exc), "kind": "pre",
                "code": getattr(exc, "code", "ERROR")}
    except TrafficManagerError as exc:
        return {"ok": False, "error": str(exc), "kind": "queue"}
    except (ControlError, ValueError) as exc:
        return {"ok": False, "error": str(exc), "kind": "request"}
    except TypeError as exc:
        return {"ok": False, "error": f"bad arguments: {exc}", "kind": "request"}


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class ControlServer:
    """Serves the control channel of one switch on 127.0.0.1:port."""

    def __init__(self, switch: Any, port: int = DEFAULT_PORT, host: str = "127.0.0.1") -> None:
        try:
            self._server = _Server((host, port), _Handler)
        except OSError as exc:
            raise ControlError(f"cannot listen on {host}:{port} for the control channel: "
                               f"{exc.strerror} (each switch in a network namespace needs "
                               f"its own --thrift-port)") from exc
        self._server.handlers = {  # type: ignore[attr-defined]
            **_handlers(switch), **runtime_handlers(switch, lambda: self.port)}
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.1,),
                                        name="p4sim-control", daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join()
        self._server.server_close()


class ControlClient:
    """Client side of the channel (p4sim-cli, tests, tools)."""

    def __init__(self, port: int = DEFAULT_PORT, host: str = "127.0.0.1",
                 timeout: float = 5.0) -> None:
        try:
            self._sock = socket.create_connection((host, port), timeout=timeout)
        except OSError as exc:
            raise ControlError(f"cannot reach the switch control channel at {host}:{port}: "
                               f"{exc.strerror or exc}") from exc
        self._file = self._sock.makefile("rwb")

    @classmethod
    def from_socket(cls, sock: socket.socket) -> "ControlClient":
        """Use an already connected socket (e.g. one opened inside a network namespace)."""
        client = cls.__new__(cls)
        client._sock = sock
        client._file = sock.makefile("rwb")
        return client

    def call(self, cmd: str, **args: Any) -> Any:
        """Send one request; return its result or raise ControlError with the reason."""
        self._file.write((json.dumps({"cmd": cmd, "args": args}) + "\n").encode())
        self._file.flush()
        line = self._file.readline(MAX_LINE)
        if not line:
            raise ControlError("the switch closed the control channel")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise ControlError(reply.get("error", "unknown error"),
                               reply.get("kind", "request"), reply.get("code"))
        return reply.get("result")

    def close(self) -> None:
        self._file.close()
        self._sock.close()

    def __enter__(self) -> "ControlClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
