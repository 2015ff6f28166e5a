"""The units an inter-domain link's latency and rate are written in, read exactly.

A border link's distance is given as text with a unit ("5ms", "250us", "100mbit"), so a
file says what it means and a bare number (seconds? milliseconds?) is refused. Values
become whole microseconds and whole bits per second, which tc takes without rounding.
Rate prefixes are decimal, as tc's ("1kbit" = 1000 bit/s).
"""
from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

_NUMBER = r"(\d+(?:\.\d+)?)"
_DURATION = re.compile(rf"^{_NUMBER}(us|ms|s)$")
_RATE = re.compile(rf"^{_NUMBER}(bit|kbit|mbit|gbit|tbit)$")
_DURATION_US = {"us": 1, "ms": 1000, "s": 1_000_000}
_RATE_BPS = {"bit": 1, "kbit": 10**3, "mbit": 10**6, "gbit": 10**9, "tbit": 10**12}
MAX_LATENCY_US = 10_000_000          # 10 s one way: beyond any real distance
MAX_RATE_BPS = 10**12                # 1 tbit/s
DURATION_UNITS = "us, ms or s"
RATE_UNITS = "bit, kbit, mbit, gbit or tbit"


def parse_latency(text: object) -> int:
    """A positive one-way latency such as "5ms" or "0.25ms", in whole microseconds;
    ValueError saying why otherwise."""
    value = _scaled(text, _DURATION, _DURATION_US, f"a duration with a unit ({DURATION_UNITS}), e.g. '5ms'")
    if value > MAX_LATENCY_US:
        raise ValueError(f"{text!r} is more than {MAX_LATENCY_US // 1_000_000} s")
    return value


def parse_rate(text: object) -> int:
    """A positive rate such as "100mbit", in whole bits per second; ValueError otherwise."""
    value = _scaled(text, _RATE, _RATE_BPS, f"a rate with a unit ({RATE_UNITS}), e.g. '100mbit'")
    if value > MAX_RATE_BPS:
        raise ValueError(f"{text!r} is more than 1tbit")
    return value


def format_latency(microseconds: int) -> str:
    """The shortest text parse_latency reads back as ``microseconds``."""
    for unit in ("s", "ms"):
        if microseconds % _DURATION_US[unit] == 0:
            return f"{microseconds // _DURATION_US[unit]}{unit}"
    return f"{microseconds}us"


def format_rate(bits_per_second: int) -> str:
    """The shortest text parse_rate reads back as ``bits_per_second``."""
    for unit in ("tbit", "gbit", "mbit", "kbit"):
        if bits_per_second % _RATE_BPS[unit] == 0:
            return f"{bits_per_second // _RATE_BPS[unit]}{unit}"
    return f"{bits_per_second}bit"


def _scaled(text: object, pattern: re.Pattern[str], scale: dict[str, int], what: str) -> int:
    if not isinstance(text, str):
        raise ValueError(f"must be {what} in quotes, not {text!r}")
    match = pattern.match(text.strip().lower())
    if match is None:
        raise ValueError(f"{text!r} is not {what}")
    try:
        exact = Decimal(match.group(1)) * scale[match.group(2)]
    except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
        raise ValueError(f"{text!r} is not {what}") from None
    if exact <= 0:
        raise ValueError(f"{text!r} must be more than zero")
    if exact != exact.to_integral_value():
        smallest = min(scale, key=lambda unit: scale[unit])
        raise ValueError(f"{text!r} is not a whole number of {smallest}")
    return int(exact)
