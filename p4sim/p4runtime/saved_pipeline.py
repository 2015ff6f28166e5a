"""The config VERIFY_AND_SAVE stored, and the Writes made to it until COMMIT.

P4Runtime 1.4 (SetForwardingPipelineConfigRequest.Action): after VERIFY_AND_SAVE "any
subsequent read/write requests must refer to fields in the new config", without
touching the forwarding state; COMMIT realizes the saved config and updates the
forwarding state "by replaying the write requests since the last config was saved".
So the saved config gets a pipeline of its own, not in the dataplane (its program, a
private replication engine): Writes apply to it at once, which gives them their real
per-update status, Reads see it, and the Writes that succeeded are replayed, in order,
onto the committed pipeline.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p4sim.p4runtime.dispatch import EntityHandlers
from p4sim.p4runtime.errors import P4RuntimeError
from p4sim.p4runtime.pipeline_config import VerifiedConfig
from p4sim.p4runtime.pipeline_state import PipelineState
from p4sim.switch.pre import PacketReplicationEngine


@dataclass
class SavedPipeline:
    verified: VerifiedConfig
    handlers: EntityHandlers
    writes: list[Any] = field(default_factory=list)   # updates that succeeded

    @classmethod
    def build(cls, verified: VerifiedConfig) -> "SavedPipeline":
        config = verified.config
        state = PipelineState(
            p4info=config.p4info, device_config=config.p4_device_config,
            cookie=config.cookie if config.HasField("cookie") else None,
            index=verified.index, runtime=verified.program.runtime)
        return cls(verified, EntityHandlers(state, PacketReplicationEngine()))

    def write(self, update: Any) -> P4RuntimeError | None:
        """Apply one update to the saved pipeline, remembering it if it succeeded."""
        error = self.handlers.write(update)
        if error is None:
            self.writes.append(update)
        return error
