"""`p4.tmp.p4config_pb2`: PI's P4DeviceConfig (declared in p4sim.p4runtime.pi_device_config)."""
from p4sim.p4runtime.pi_device_config import P4DeviceConfig

__all__ = ["P4DeviceConfig"]
