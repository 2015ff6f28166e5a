"""The INT sinks' report mode, from the policy's ``int.report_mode``.

fabric.p4 suppresses reports by default (p4src/include/control/int_report_filter.p4):
a sink reports a flow's first packet on each hop set and every change of the hop-latency
or queue bucket of any of the flow's first four hops (its own, and three upstream read
from the INT stack where the instruction bitmap puts them), so a queue building on a
spine is reported as well as one at the sink; the steps apply to every hop. The mode
is the default action of one keyless table, so the controller sets it over P4Runtime
like any table (registers would not do: simple_switch_grpc's P4Runtime serves none).
``every_packet`` is the old per-packet reporting.
"""
from __future__ import annotations

from typing import Mapping

REPORT_MODE_TABLE = "FabricEgress.int_egress.int_sink.report_filter.report_mode"
_CHANGES = "FabricEgress.int_egress.int_sink.report_filter.report_changes"
_EVERY_PACKET = "FabricEgress.int_egress.int_sink.report_filter.report_every_packet"
# As REPORT_LATENCY_STEP / REPORT_QUEUE_STEP in p4src/include/define.p4: the first bucket
# edges (us, packets), each next one four times further.
LATENCY_STEP_US = 4096
QUEUE_STEP_PACKETS = 4
REPORT_MODES = ("changes", "every_packet")


def report_mode_action(mode: str) -> tuple[str, Mapping[str, int]]:
    """(action, parameters) of REPORT_MODE_TABLE's default action for a policy mode."""
    if mode == "changes":
        return _CHANGES, {"latency_step": LATENCY_STEP_US, "queue_step": QUEUE_STEP_PACKETS}
    if mode == "every_packet":
        return _EVERY_PACKET, {}
    raise ValueError(f"INT report mode {mode!r} is not one of {', '.join(REPORT_MODES)}")


__all__ = ["LATENCY_STEP_US", "QUEUE_STEP_PACKETS", "REPORT_MODES", "REPORT_MODE_TABLE",
           "report_mode_action"]
