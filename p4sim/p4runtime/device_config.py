"""The two shapes of a BMv2 device config in SetForwardingPipelineConfig.

simple_switch_grpc takes `p4_device_config` either as the BMv2 JSON itself (what
p4runtime-shell and finsy send) or wrapped in PI's `p4.tmp.P4DeviceConfig` message
(`bool reassign = 1; Extras extras = 2; bytes device_data = 3;`, what the
p4lang/tutorials helper library sends); tests/real_toolchain/bmv2-facts.md records
both.  The p4runtime package ships no p4.tmp stubs, so the wrapper is read from the
wire format here.
"""
from __future__ import annotations

from p4sim.p4runtime import wire

DEVICE_DATA = 3       # P4DeviceConfig.device_data
REASSIGN = 1
EXTRAS = 2


def bmv2_json_bytes(data: bytes) -> bytes:
    """The BMv2 JSON bytes of a device config, unwrapping a P4DeviceConfig; bytes that
    are neither come back unchanged (the JSON check then says what is wrong)."""
    if data.lstrip()[:1] in (b"{", b""):
        return data
    try:
        fields = wire.message_fields(data)
    except wire.WireError:
        return data
    device_data = None
    for number, wire_type, value in fields:
        if number == DEVICE_DATA and wire_type == 2:
            assert isinstance(value, tuple)  # a length-delimited field's (start, end)
            device_data = data[value[0]:value[1]]
        elif not ((number == REASSIGN and wire_type == 0)
                  or (number == EXTRAS and wire_type == 2)):
            return data
    return data if device_data is None else device_data
