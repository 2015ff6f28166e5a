"""Hash algorithms with bmv2's exact parameters, over a byte string.

Each program gets its own instances (custom CRCs are reconfigurable at run time and
round-robin hashes keep a counter), so nothing here is module-level state.
"""
from __future__ import annotations

import random
import threading
import zlib
from dataclasses import dataclass
from typing import Callable

HashFn = Callable[[bytes], int]


def _reflect(value: int, nbits: int) -> int:
    out = 0
    for _ in range(nbits):
        out = (out << 1) | (value & 1)
        value >>= 1
    return out


@dataclass(frozen=True)
class CrcConfig:
    polynomial: int
    initial_remainder: int
    final_xor_value: int
    data_reflected: bool
    remainder_reflected: bool


class Crc:
    """Table-driven CRC of any width >= 8, reconfigurable (bmv2's crcN_custom)."""

    def __init__(self, width: int, config: CrcConfig) -> None:
        self.width = width
        self._mask = (1 << width) - 1
        self._lock = threading.Lock()
        self._reflect8 = [_reflect(b, 8) for b in range(256)]
        self.update_config(config)

    def update_config(self, config: CrcConfig) -> None:
        width, top = self.width, 1 << (self.width - 1)
        table = []
        for dividend in range(256):
            rem = dividend << (width - 8)
            for _ in range(8):
                rem = ((rem << 1) ^ config.polynomial) if rem & top else (rem << 1)
                rem &= self._mask
            table.append(rem)
        # Reflected data and remainder (crc16, crc32...): the LSB-first form of the
        # same CRC needs no per-byte reflection; it gives bit for bit the same value.
        reflected = None
        if config.data_reflected and config.remainder_reflected:
            reflected = ([_reflect(table[_reflect(b, 8)], width) for b in range(256)],
                         _reflect(config.initial_remainder, width), config.final_xor_value)
        with self._lock:
            self.config = config
            self._table = table
            self._reflected = reflected

    def __call__(self, data: bytes) -> int:
        reflected = self._reflected      # one read: consistent with a concurrent update
        if reflected is not None:
            lsb_table, rem, final_xor = reflected
            for byte in data:
                rem = lsb_table[(rem ^ byte) & 0xFF] ^ (rem >> 8)
            return rem ^ final_xor
        cfg, table, mask = self.config, self._table, self._mask
        shift = self.width - 8
        rem = cfg.initial_remainder
        if cfg.data_reflected:
            refl = self._reflect8
            for byte in data:
                rem = table[(refl[byte] ^ (rem >> shift)) & 0xFF] ^ ((rem << 8) & mask)
        else:
            for byte in data:
                rem = table[(byte ^ (rem >> shift)) & 0xFF] ^ ((rem << 8) & mask)
        if cfg.remainder_reflected:
            rem = _reflect(rem, self.width)
        return rem ^ cfg.final_xor_value


CRC8_DEFAULT = CrcConfig(0x07, 0x00, 0x00, False, False)
CRC16_DEFAULT = CrcConfig(0x8005, 0x0000, 0x0000, True, True)
CRC32_DEFAULT = CrcConfig(0x04C11DB7, 0xFFFFFFFF, 0xFFFFFFFF, True, True)
CRC64_DEFAULT = CrcConfig(0x1B, 0, 0, True, True)
CCITT = CrcConfig(0x1021, 0xFFFF, 0x0000, False, False)


def csum16_of_int(value: int, nbits: int) -> int:
    """Internet checksum of a bit string given as an int: since 2**16 == 1 (mod 0xFFFF),
    the ones' complement sum of the 16-bit words is the number itself mod 0xFFFF."""
    n = value << (-nbits % 16)
    folded = 0 if n == 0 else (n - 1) % 0xFFFF + 1
    return (~folded) & 0xFFFF


def csum16(data: bytes) -> int:
    """Internet checksum (ones' complement of the ones' complement sum)."""
    return csum16_of_int(int.from_bytes(data, "big"), len(data) * 8)


def identity(data: bytes) -> int:
    """The first (up to) 8 bytes as a big-endian integer."""
    return int.from_bytes(data[:8], "big")


def _xor(nbytes: int) -> HashFn:
    def xor_hash(data: bytes) -> int:
        out = 0
        for i in range(0, len(data), nbytes):
            chunk = data[i:i + nbytes]
            out ^= int.from_bytes(chunk.ljust(nbytes, b"\x00"), "big")
        return out
    return xor_hash


class RoundRobin:
    def __init__(self, consistent: bool) -> None:
        self._consistent = consistent
        self._next = 0
        self._seen: dict[bytes, int] = {}
        self._lock = threading.Lock()

    def __call__(self, data: bytes) -> int:
        with self._lock:
            if self._consistent:
                if data not in self._seen:
                    self._seen[data] = self._next
                    self._next += 1
                return self._seen[data]
            value = self._next
            self._next += 1
            return value


class HashRegistry:
    """The hash functions of one program, created on first use by name."""

    SUPPORTED = ("crc16", "crc32", "crcCCITT", "csum16", "cksum16", "identity", "xor16",
                 "xor32", "crc8_custom", "crc16_custom", "crc32_custom", "crc64_custom",
                 "round_robin", "round_robin_consistent", "random")

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._fns: dict[str, HashFn] = {}

    def get(self, name: str) -> HashFn | None:
        if name not in self._fns:
            fn = self._make(name)
            if fn is None:
                return None
            self._fns[name] = fn
        return self._fns[name]

    def custom_crc(self, name: str) -> Crc | None:
        fn = self.get(name)
        return fn if isinstance(fn, Crc) and name.endswith("_custom") else None

    def _make(self, name: str) -> HashFn | None:
        if name == "crc16":
            return Crc(16, CRC16_DEFAULT)
        if name == "crc32":
            return lambda data: zlib.crc32(data) & 0xFFFFFFFF
        if name == "crcCCITT":
            return Crc(16, CCITT)
        if name in ("csum16", "cksum16"):
            return csum16
        if name == "identity":
            return identity
        if name == "xor16":
            return _xor(2)
        if name == "xor32":
            return _xor(4)
        if name == "crc8_custom":
            return Crc(8, CRC8_DEFAULT)
        if name == "crc16_custom":
            return Crc(16, CRC16_DEFAULT)
        if name == "crc32_custom":
            return Crc(32, CRC32_DEFAULT)
        if name == "crc64_custom":
            return Crc(64, CRC64_DEFAULT)
        if name == "round_robin":
            return RoundRobin(consistent=False)
        if name == "round_robin_consistent":
            return RoundRobin(consistent=True)
        if name == "random":
            rng = self._rng
            return lambda data: rng.getrandbits(64)
        return None
