"""One switch under control: its connection, what it holds, and keeping it that way.

Each agent runs its own thread and is the only writer to its switch. It connects with
backoff, pushes the pipeline (tagged with a cookie), and converges the switch to the
desired state the controller hands it. A health check reads the pipeline cookie: if
the switch stops answering, or answers without our cookie (it restarted), the agent
reconnects, pushes the pipeline again and re-installs every entity from its record.
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from typing import Callable

import grpc
from p4.config.v1 import p4info_pb2
from p4.v1 import p4runtime_pb2

from control.controller.state import Item, Key, entity_key, index_items, plan
from control.p4rt.client import SwitchConnection
from control.p4rt.entities import DELETE, INSERT, MODIFY
from control.p4rt.errors import P4RuntimeError, from_rpc_error
from control.topology import Switch

log = logging.getLogger(__name__)

# Errors that mean "the connection (or our primacy) is gone", not "this entity is bad".
_CONNECTION_CODES = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
                     grpc.StatusCode.CANCELLED, grpc.StatusCode.PERMISSION_DENIED,
                     grpc.StatusCode.FAILED_PRECONDITION}
_GET_COOKIE = p4runtime_pb2.GetForwardingPipelineConfigRequest.COOKIE_ONLY


def pipeline_cookie(p4info: p4info_pb2.P4Info, device_config: bytes) -> int:
    """A 64-bit tag of the pipeline: a switch that lost it (restart) no longer has it."""
    digest = hashlib.sha256(p4info.SerializeToString(deterministic=True) + device_config).digest()
    return int.from_bytes(digest[:8], "big")


class SwitchAgent:
    def __init__(self, switch: Switch, p4info: p4info_pb2.P4Info, device_config: bytes,
                 election_id: int = 1, health_interval: float = 0.2, connect_timeout: float = 2.0,
                 max_backoff: float = 0.5,
                 on_restore: Callable[[str, float], None] | None = None, role: str = ""):
        self.switch = switch
        # P4Runtime role name: a domain's controller names its domain's role, which a
        # switch bound with p4sim-switch --p4rt-allowed-roles requires ("" = default role).
        self.role = role
        self._p4info = p4info
        self._device_config = device_config
        self._cookie = pipeline_cookie(p4info, device_config)
        self._election_id = election_id
        self._health_interval = health_interval
        self._connect_timeout = connect_timeout
        self._max_backoff = max_backoff
        self._on_restore = on_restore
        self._cond = threading.Condition()
        self._desired: dict[Key, Item] = {}
        self._desired_gen = 0
        self._applied_gen = 0
        self._installed: dict[Key, Item] = {}
        self._resync = False      # the switch lost everything: converge even if nothing changed
        self._conn: SwitchConnection | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.restores = 0          # times the pipeline and entries were pushed again
        self.write_errors: list[str] = []
        self._ever_connected = False
        self._down_since: float | None = None

    # ------------------------------------------------------------------ public API
    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"agent-{self.switch.name}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread:
            self._thread.join(timeout=10)
        self._drop_connection()

    def set_desired(self, items: list[Item]) -> int:
        """Hand over the complete desired state; returns its generation number."""
        desired = index_items(items)
        with self._cond:
            self._desired = desired
            self._desired_gen += 1
            self._cond.notify_all()
            return self._desired_gen

    def wait_applied(self, generation: int, timeout: float) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self._applied_gen >= generation, timeout)

    @property
    def connected(self) -> bool:
        return self._conn is not None

    @property
    def lost(self) -> bool:
        """Connected once and not now (e.g. the switch process died): nothing it is
        sent can apply until it comes back."""
        return self._ever_connected and self._conn is None

    def installed(self) -> dict[Key, Item]:
        with self._cond:
            return dict(self._installed)

    # ------------------------------------------------------------------ the loop
    def _run(self) -> None:
        backoff = 0.05
        next_check = 0.0
        while not self._stop.is_set():
            if self._conn is None:
                if not self._try_connect():
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, self._max_backoff)
                    continue
                backoff = 0.05
            try:
                self._converge()
                if time.monotonic() >= next_check:
                    self._check_health()
                    next_check = time.monotonic() + self._health_interval
            except P4RuntimeError as exc:
                if exc.code in _CONNECTION_CODES:
                    log.warning("%s: connection lost (%s); reconnecting", self.switch.name, exc.code.name)
                    self._lose_connection()
                    continue
                raise
            with self._cond:
                self._cond.wait_for(lambda: self._stop.is_set() or self._desired_gen > self._applied_gen
                                    or self._resync,
                                    max(0.0, next_check - time.monotonic()))

    def _try_connect(self) -> bool:
        conn = SwitchConnection(self.switch.grpc, device_id=self.switch.device_id,
                                election_id=self._election_id, role=self.role)
        try:
            conn.connect(timeout=self._connect_timeout)
            same = self._read_cookie(conn) == self._cookie
            if not same:
                self._push_pipeline(conn)
        except (P4RuntimeError, grpc.FutureTimeoutError, TimeoutError) as exc:
            log.debug("%s: connect failed: %s", self.switch.name, exc)
            conn.close()
            return False
        with self._cond:
            if not same:
                restored = bool(self._installed) or self._ever_connected
                self._installed = {}  # a fresh pipeline holds nothing of ours
                if restored:
                    self.restores += 1
            self._conn = conn
            self._ever_connected = True
            self._resync = self._resync or not same
        if not same:
            log.info("%s: pipeline pushed (%s)", self.switch.name,
                     "restoring after restart" if self.restores else "first connection")
        return True

    def _push_pipeline(self, conn: SwitchConnection) -> None:
        request = p4runtime_pb2.SetForwardingPipelineConfigRequest(
            device_id=self.switch.device_id, election_id=p4runtime_pb2.Uint128(low=self._election_id),
            role=self.role, action=p4runtime_pb2.SetForwardingPipelineConfigRequest.VERIFY_AND_COMMIT)
        request.config.p4info.CopyFrom(self._p4info)
        request.config.p4_device_config = self._device_config
        request.config.cookie.cookie = self._cookie
        try:
            conn.stub.SetForwardingPipelineConfig(request, timeout=30)
        except grpc.RpcError as err:
            raise from_rpc_error("SetForwardingPipelineConfig", err) from None

    def _read_cookie(self, conn: SwitchConnection) -> int | None:
        request = p4runtime_pb2.GetForwardingPipelineConfigRequest(
            device_id=self.switch.device_id, response_type=_GET_COOKIE)
        try:
            response = conn.stub.GetForwardingPipelineConfig(request, timeout=self._connect_timeout)
        except grpc.RpcError as err:
            if err.code() == grpc.StatusCode.FAILED_PRECONDITION:
                return None  # no pipeline at all
            raise from_rpc_error("GetForwardingPipelineConfig", err) from None
        return response.config.cookie.cookie if response.config.HasField("cookie") else None

    def _connection(self, rpc: str) -> SwitchConnection:
        """The current connection; UNAVAILABLE (handled by _run as a lost connection)
        once it has been dropped, e.g. by stop() after its join timed out."""
        conn = self._conn
        if conn is None:
            raise P4RuntimeError(rpc, grpc.StatusCode.UNAVAILABLE, "not connected")
        return conn

    def _check_health(self) -> None:
        if self._read_cookie(self._connection("GetForwardingPipelineConfig")) != self._cookie:
            log.warning("%s: pipeline cookie gone (switch restarted?); restoring", self.switch.name)
            self._lose_connection()

    def _lose_connection(self) -> None:
        if self._down_since is None:
            self._down_since = time.monotonic()
        self._drop_connection()

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    # ------------------------------------------------------------------ convergence
    def _converge(self) -> None:
        with self._cond:
            if self._desired_gen == self._applied_gen and not self._resync:
                return
            generation, desired, installed = self._desired_gen, self._desired, dict(self._installed)
        for batch in plan(installed, desired):
            self._write(batch, installed, desired)
        with self._cond:
            self._installed = installed
            self._applied_gen = generation
            self._resync = False
            self._cond.notify_all()
        if self._down_since is not None:
            took = time.monotonic() - self._down_since
            self._down_since = None
            log.info("%s: restored %d entities in %.3f s", self.switch.name, len(installed), took)
            if self._on_restore:
                self._on_restore(self.switch.name, took)

    def _write(self, batch: list[p4runtime_pb2.Update], installed: dict[Key, Item],
               desired: dict[Key, Item]) -> None:
        """Write one batch; an INSERT that already exists (we restarted, the switch did
        not) becomes a MODIFY, a DELETE of something absent is done already."""
        failed: dict[int, str] = {}
        try:
            self._connection("Write").write(batch)
        except P4RuntimeError as exc:
            if exc.code in _CONNECTION_CODES and not exc.errors:
                raise
            failed = {i: code for i, code, _ in exc.errors}
            retry = [i for i, code in failed.items()
                     if code == "ALREADY_EXISTS" and batch[i].type == INSERT]
            if retry:
                try:
                    self._connection("Write").write([p4runtime_pb2.Update(type=MODIFY, entity=batch[i].entity) for i in retry])
                    for i in retry:
                        failed.pop(i)
                except P4RuntimeError as again:
                    if again.code in _CONNECTION_CODES and not again.errors:
                        raise
            for i, code in list(failed.items()):
                if code == "NOT_FOUND" and batch[i].type == DELETE:
                    failed.pop(i)
            for i, message in ((i, m) for i, c, m in exc.errors if i in failed):
                text = f"{self.switch.name}: update {i} failed: {failed[i]}: {message}"
                log.error(text)
                self.write_errors.append(text)
        for i, upd in enumerate(batch):
            if i in failed:
                continue
            key = entity_key(upd.entity)
            if upd.type == DELETE:
                installed.pop(key, None)
            else:
                installed[key] = desired[key]
