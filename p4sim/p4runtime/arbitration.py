"""Client arbitration: one primary per (device, role), chosen by election ID.

Follows the specification's "Rules for Handling MasterArbitrationUpdate Messages" and
"Client Arbitration Notifications": the controller whose election ID is at least the
highest ever seen becomes primary; everybody of that role hears about every change
(OK for the primary, ALREADY_EXISTS for backups, NOT_FOUND for backups when there is
no primary); the election ID in a notification is the highest one seen.  The server
keeps a single device, so the device check lives in the server.

A switch may be bound to its domain's roles (`RoleBinding`, p4sim-switch's
`--p4rt-allowed-roles`): a controller naming any other role, or none (the default role,
full pipeline access), is then refused with PERMISSION_DENIED, at arbitration (the stream
ends) and on every Write and SetForwardingPipelineConfig.  Reads stay open, as the
specification lets any controller read.  This keeps out a misconfigured controller of
another domain, not an attacker: role names are not authenticated (docs/sovereignty.md).
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable

from google.rpc import code_pb2
from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.errors import Code, P4RuntimeError

log = logging.getLogger(__name__)


def election_int(uint128: p4runtime_pb2.Uint128) -> int:
    """A 128-bit election ID as one Python int."""
    return (uint128.high << 64) | uint128.low


@dataclass(eq=False)
class Session:
    """One StreamChannel: where to send its messages and what it claimed."""
    send: Callable[[p4runtime_pb2.StreamMessageResponse], None]
    device_id: int = 0
    role: str = ""
    election_id: int | None = None
    joined: bool = False
    peer: str = ""     # the client's address as gRPC gives it (for refusal logs)


def _role_text(role: str) -> str:
    return f"role '{role}'" if role else "the default role (no role name, full access)"


class RoleBinding:
    """The role names a switch accepts controllers for (its domain's); None: any role.

    The specification leaves what a role may do to role configs agreed out of band;
    a binding only says which roles exist on this switch, so a controller of another
    domain cannot become primary here, whatever its election ID.
    """

    def __init__(self, allowed: Iterable[str] | None = None):
        if allowed is None:
            self.allowed: frozenset[str] | None = None
            return
        names = frozenset(allowed)
        if not names or any(not isinstance(n, str) or not n.strip() for n in names):
            raise ValueError("a role binding needs one or more non-empty role names, "
                             f"got {sorted(names)!r}")
        self.allowed = names

    @property
    def bound(self) -> bool:
        return self.allowed is not None

    def describe(self) -> str:
        """'role 'a'' or 'roles 'a', 'b'' (for messages)."""
        assert self.allowed is not None
        names = ", ".join(f"'{n}'" for n in sorted(self.allowed))
        return f"role{'s' if len(self.allowed) > 1 else ''} {names}"

    def check(self, role: str) -> None:
        """PERMISSION_DENIED naming both roles unless `role` may control this switch.

        PERMISSION_DENIED, not INVALID_ARGUMENT: the request is well formed (the same
        one succeeds on the other domain's switches); the caller is not allowed here.
        The spec keeps INVALID_ARGUMENT for a role.config that breaks the agreed scheme.
        """
        if self.allowed is None or role in self.allowed:
            return
        bound = self.describe()
        if not role:
            raise P4RuntimeError(
                Code.PERMISSION_DENIED,
                f"{_role_text(role)} is refused: this switch is bound to {bound} "
                "(--p4rt-allowed-roles); connect with that role name")
        raise P4RuntimeError(
            Code.PERMISSION_DENIED,
            f"{_role_text(role)} may not control this switch: it is bound to {bound} "
            "(--p4rt-allowed-roles); a controller of another domain must not program it")


@dataclass
class _RoleState:
    sessions: list[Session] = field(default_factory=list)
    primary: Session | None = None
    highest: int | None = None
    role_config: object | None = None


class Arbitrator:
    """Primary/backup bookkeeping for every role of one device."""

    def __init__(self, device_id: int, binding: RoleBinding | None = None):
        self.device_id = device_id
        self.binding = binding if binding is not None else RoleBinding()
        self._roles: dict[str, _RoleState] = {}
        self._lock = threading.Lock()

    def update(self, session: Session, msg: p4runtime_pb2.MasterArbitrationUpdate) -> None:
        """Apply an arbitration message; raises P4RuntimeError to end the stream."""
        role = msg.role.name if msg.HasField("role") else ""
        election = election_int(msg.election_id) if msg.HasField("election_id") else None
        with self._lock:
            if not session.joined:
                if msg.device_id != self.device_id:
                    raise P4RuntimeError(
                        Code.NOT_FOUND, f"no device with ID {msg.device_id} "
                                        f"(this switch is device {self.device_id})")
                try:
                    self.binding.check(role)
                except P4RuntimeError as exc:
                    log.warning("P4Runtime arbitration refused (peer %s): %s",
                                session.peer or "unknown", exc.message)
                    raise
                state = self._roles.setdefault(role, _RoleState())
                self._check_unique(state, session, election)
                session.device_id, session.role = msg.device_id, role
                session.election_id, session.joined = election, True
                state.sessions.append(session)
            else:
                if msg.device_id != session.device_id:
                    raise P4RuntimeError(Code.FAILED_PRECONDITION,
                                         "the device ID of a stream cannot change")
                if role != session.role:
                    raise P4RuntimeError(Code.FAILED_PRECONDITION,
                                         "the role of a stream cannot change; "
                                         "open a new stream")
                state = self._roles[role]
                self._check_unique(state, session, election)
                session.election_id = election
            self._elect(state, session, msg.role.config if msg.role.HasField("config")
                        else None)

    @staticmethod
    def _check_unique(state: _RoleState, session: Session, election: int | None) -> None:
        if election is None:
            return
        for other in state.sessions:
            if other is not session and other.election_id == election:
                raise P4RuntimeError(
                    Code.INVALID_ARGUMENT,
                    f"election ID {election} is already used by another controller")

    def _elect(self, state: _RoleState, session: Session, role_config) -> None:
        election = session.election_id
        if election is not None and (state.highest is None or election >= state.highest):
            state.primary = session
            state.highest = election
            state.role_config = role_config
            self._notify(state, state.sessions)
            return
        was_primary = state.primary is session
        if was_primary:
            state.primary = None
            self._notify(state, state.sessions)
        else:
            self._notify(state, [session])

    def remove(self, session: Session) -> None:
        """Forget a closed stream; if it was primary, tell the others."""
        with self._lock:
            if not session.joined:
                return
            state = self._roles.get(session.role)
            if state is None or session not in state.sessions:
                return
            state.sessions.remove(session)
            if state.primary is session:
                state.primary = None
                self._notify(state, state.sessions)

    def _notify(self, state: _RoleState, recipients: list[Session]) -> None:
        for target in recipients:
            resp = p4runtime_pb2.StreamMessageResponse()
            arb = resp.arbitration
            arb.device_id = self.device_id
            if target.role:
                arb.role.name = target.role
            if state.role_config is not None:
                arb.role.config.CopyFrom(state.role_config)
            if state.highest is not None:
                arb.election_id.high = state.highest >> 64
                arb.election_id.low = state.highest & ((1 << 64) - 1)
            if state.primary is target:
                arb.status.code = code_pb2.OK
                arb.status.message = "primary"
            elif state.primary is not None:
                arb.status.code = code_pb2.ALREADY_EXISTS
                arb.status.message = "a primary controller exists; this one is a backup"
            else:
                arb.status.code = code_pb2.NOT_FOUND
                arb.status.message = "there is no primary controller"
            target.send(resp)

    def check_primary(self, role: str, election: p4runtime_pb2.Uint128 | None) -> None:
        """PERMISSION_DENIED unless the (role, election ID) is the current primary of a
        role this switch accepts."""
        self.binding.check(role)
        with self._lock:
            state = self._roles.get(role)
            primary = state.primary if state else None
            if primary is None:
                raise P4RuntimeError(Code.PERMISSION_DENIED,
                                     f"no primary controller for role '{role}'; "
                                     "open a StreamChannel and win arbitration first")
            if election is None or election_int(election) != primary.election_id:
                raise P4RuntimeError(
                    Code.PERMISSION_DENIED,
                    f"only the primary controller (election ID {primary.election_id}) "
                    "may write")

    def primaries(self) -> list[Session]:
        """The primary session of every role (where packet-ins and digests go)."""
        with self._lock:
            return [s.primary for s in self._roles.values() if s.primary is not None]

    def all_sessions(self) -> list[Session]:
        with self._lock:
            return [s for state in self._roles.values() for s in state.sessions]
