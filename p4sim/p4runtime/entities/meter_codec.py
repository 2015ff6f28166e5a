"""MeterConfig messages <-> the switch's MeterConfig (both in units per second)."""
from __future__ import annotations

from p4.v1 import p4runtime_pb2

from p4sim.p4runtime.errors import invalid
from p4sim.switch.runtime_api import MeterConfig


def config_from_msg(msg: p4runtime_pb2.MeterConfig) -> MeterConfig:
    """Validated switch config of a client's MeterConfig."""
    for name in ("cir", "cburst", "pir", "pburst"):
        if getattr(msg, name) < 0:
            raise invalid(f"meter config {name} is negative ({getattr(msg, name)})")
    if msg.pir < msg.cir:
        raise invalid(f"meter config pir {msg.pir} is below cir {msg.cir}")
    return MeterConfig(cir=float(msg.cir), cburst=msg.cburst, pir=float(msg.pir),
                       pburst=msg.pburst)


def config_to_msg(config: MeterConfig) -> p4runtime_pb2.MeterConfig:
    return p4runtime_pb2.MeterConfig(cir=round(config.cir), cburst=config.cburst,
                                     pir=round(config.pir), pburst=config.pburst)
