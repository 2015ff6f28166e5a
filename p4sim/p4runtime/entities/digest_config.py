"""DigestEntry: which digests are streamed to the controller, and how they are batched."""
from __future__ import annotations

from typing import Iterator

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.errors import Code, P4RuntimeError, invalid, not_found

Update = p4runtime_pb2.Update


class DigestConfigs:
    def __init__(self, state):
        self.state = state

    def write(self, kind: int, msg: p4runtime_pb2.DigestEntry) -> None:
        info = self.state.index.lookup("digests", msg.digest_id)
        name = info.preamble.name
        configs = self.state.digest_configs
        if kind == Update.INSERT:
            if msg.digest_id in configs:
                raise P4RuntimeError(Code.ALREADY_EXISTS,
                                     f"digest '{name}' is already configured")
        elif kind in (Update.MODIFY, Update.DELETE):
            if msg.digest_id not in configs:
                raise not_found(f"digest '{name}' is not configured")
            if kind == Update.DELETE:
                del configs[msg.digest_id]
                return
        else:
            raise invalid(f"unknown update type {kind}")
        if not msg.HasField("config"):
            raise invalid(f"digest '{name}' needs a config")
        config = msg.config
        if config.max_timeout_ns < 0 or config.max_list_size < 0 \
                or config.ack_timeout_ns < 0:
            raise invalid(f"digest '{name}' config has a negative value")
        configs[msg.digest_id] = p4runtime_pb2.DigestEntry.Config()
        configs[msg.digest_id].CopyFrom(config)

    def read(self, query: p4runtime_pb2.DigestEntry) -> Iterator[p4runtime_pb2.DigestEntry]:
        if query.digest_id:
            self.state.index.lookup("digests", query.digest_id)
            if query.digest_id not in self.state.digest_configs:
                raise not_found(f"digest {query.digest_id:#x} is not configured")
        for digest_id, config in sorted(self.state.digest_configs.items()):
            if query.digest_id and digest_id != query.digest_id:
                continue
            yield p4runtime_pb2.DigestEntry(digest_id=digest_id, config=config)
