"""The device config arrives bare or wrapped in PI's p4.tmp.P4DeviceConfig
(bmv2-facts.md); both give the same BMv2 JSON, anything else is left for the JSON check
to refuse."""
import pytest

from p4sim.p4runtime.device_config import bmv2_json_bytes
from p4sim.p4runtime.errors import P4RuntimeError
from p4sim.p4runtime.pipeline_config import parse_device_config

JSON = b'{"header_types": [], "pipelines": []}' + b" " * 200   # a 2-byte length


def wrapped(data: bytes, reassign: bool = True, extras: bytes = b"") -> bytes:
    length = len(data)
    varint = bytes([length & 0x7F | 0x80, length >> 7]) if length >= 0x80 else bytes([length])
    out = b"\x08\x01" if reassign else b""
    if extras:
        out += b"\x12" + bytes([len(extras)]) + extras
    return out + b"\x1a" + varint + data


@pytest.mark.parametrize("config", [JSON, b"  \n" + JSON, wrapped(JSON),
                                    wrapped(JSON, reassign=False),
                                    wrapped(JSON, extras=b"\x0a\x00")])
def test_bare_and_wrapped_configs_give_the_json(config):
    assert bmv2_json_bytes(config).strip() == JSON.strip()


@pytest.mark.parametrize("config", [b"\x1a\x05abc", b"\x28\x01" + wrapped(JSON)[2:], b"\xff"])
def test_other_bytes_are_refused_as_not_json(config):
    with pytest.raises(P4RuntimeError, match="not BMv2 JSON"):
        parse_device_config(bmv2_json_bytes(config))
