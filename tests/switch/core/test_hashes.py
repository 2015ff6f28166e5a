"""Hash algorithms against published check values (input "123456789")."""
from __future__ import annotations

import random
from functools import reduce

import pytest

from p4sim.switch.hashes import CrcConfig, HashRegistry, csum16

CHECK = b"123456789"


@pytest.fixture
def hashes() -> HashRegistry:
    return HashRegistry(random.Random(1))


@pytest.mark.parametrize("algo,expected", [
    ("crc16", 0xBB3D),                 # CRC-16/ARC
    ("crc16_custom", 0xBB3D),          # defaults equal crc16
    ("crc32", 0xCBF43926),             # CRC-32/ISO-HDLC
    ("crc32_custom", 0xCBF43926),
    ("crcCCITT", 0x29B1),              # CRC-16/CCITT-FALSE
    ("crc8_custom", 0xF4),             # CRC-8/SMBUS
])
def test_crc_check_values(hashes: HashRegistry, algo: str, expected: int) -> None:
    assert hashes.get(algo)(CHECK) == expected


def reflected_crc_bitwise(data: bytes, poly: int, width: int) -> int:
    """Reflected CRC with zero init and zero xorout, one bit at a time."""
    rpoly = int(f"{poly:0{width}b}"[::-1], 2)
    crc = 0
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ rpoly if crc & 1 else crc >> 1
    return crc


def test_crc64_custom_defaults(hashes: HashRegistry) -> None:
    # bmv2's crc64_custom defaults: polynomial 0x1b, zero init and xor, reflected
    assert hashes.get("crc64_custom")(CHECK) == reflected_crc_bitwise(CHECK, 0x1B, 64)


def test_custom_crc_reconfigures(hashes: HashRegistry) -> None:
    crc = hashes.custom_crc("crc16_custom")
    crc.update_config(CrcConfig(0x1021, 0xFFFF, 0, False, False))
    assert hashes.get("crc16_custom")(CHECK) == 0x29B1
    assert hashes.get("crc16")(CHECK) == 0xBB3D


def test_csum16_of_an_ipv4_header() -> None:
    header = bytes.fromhex("450000240001000040110000C0A8010A0A010203")
    assert csum16(header) == 0xAD12
    assert csum16(b"") == 0xFFFF
    assert csum16(b"\xff\xff") == 0x0000
    assert csum16(b"\x01") == csum16(b"\x01\x00")


def test_identity_and_xor(hashes: HashRegistry) -> None:
    assert hashes.get("identity")(b"\x01\x02\x03") == 0x010203
    assert hashes.get("identity")(bytes(range(1, 11))) == 0x0102030405060708
    words = [0x3132, 0x3334, 0x3536, 0x3738, 0x3900]
    assert hashes.get("xor16")(CHECK) == reduce(lambda x, y: x ^ y, words)


def test_round_robin_and_unknown(hashes: HashRegistry) -> None:
    rr = hashes.get("round_robin")
    assert [rr(b"a"), rr(b"a"), rr(b"b")] == [0, 1, 2]
    rrc = hashes.get("round_robin_consistent")
    assert [rrc(b"a"), rrc(b"b"), rrc(b"a")] == [0, 1, 0]
    assert hashes.get("md5") is None
