"""The fabric controller: per-switch programming, agents, link repair, adaptive spraying."""
from control.controller.fabric import FabricController, RepairEvent

__all__ = ["FabricController", "RepairEvent"]
