"""Numbers and key values as STF writes them.

STF numbers may carry don't-care digits: ``0x0a**`` or ``0b1*0``. For a ternary key
the written digits form the mask (``0x**01`` matches only the low byte, and digits not
written at all are don't-care, as p4c's runner does); for an lpm key the count of
non-``*`` digits is the prefix length. p4sim also accepts BMv2 CLI forms
``VALUE&&&MASK`` and ``LOW->HIGH``, which real p4c STF files never contain.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_RADIX_BITS = {"x": 4, "b": 1, "o": 3}
_DIGITS = {4: "0123456789abcdef", 1: "01", 3: "01234567"}


@dataclass(frozen=True)
class WildNumber:
    """A number whose digits may be ``*``; ``mask`` has 1s under written digits."""

    value: int
    mask: int
    written_bits: int  # bits covered by written digits ('*' included); 0 for decimal
    wildcard_digits: int
    is_decimal: bool

    @property
    def care_bits(self) -> int:
        """Bits under non-``*`` digits (the lpm prefix length of an unslashed value)."""
        return bin(self.mask).count("1")


@dataclass(frozen=True)
class PlainValue:
    """A single number, possibly with ``*`` digits."""

    number: WildNumber


@dataclass(frozen=True)
class PrefixValue:
    """``VALUE/PREFIX_LEN``."""

    value: int
    prefix_len: int


@dataclass(frozen=True)
class MaskedValue:
    """``VALUE&&&MASK``."""

    value: int
    mask: int


@dataclass(frozen=True)
class RangeValue:
    """``LOW->HIGH``."""

    low: int
    high: int


KeyValue = PlainValue | PrefixValue | MaskedValue | RangeValue

_PREFIXED = re.compile(r"0([xXbBoO])([0-9a-fA-F*]+)\Z")
_DECIMAL = re.compile(r"[0-9]+\Z")


def parse_number(text: str) -> WildNumber:
    """Parse ``0x..``, ``0b..``, ``0o..`` (``*`` digits allowed) or decimal."""
    match = _PREFIXED.match(text)
    if match:
        bits = _RADIX_BITS[match.group(1).lower()]
        digits = match.group(2).lower()
        allowed = _DIGITS[bits] + "*"
        bad = [d for d in digits if d not in allowed]
        if bad:
            raise ValueError(f"'{bad[0]}' is not a digit of {text!r}")
        value = mask = 0
        for digit in digits:
            value <<= bits
            mask <<= bits
            if digit != "*":
                value |= int(digit, 16)
                mask |= (1 << bits) - 1
        return WildNumber(value, mask, bits * len(digits), digits.count("*"), False)
    if _DECIMAL.match(text):
        value = int(text)
        return WildNumber(value, 0, 0, 0, True)  # all bits care: see is_decimal
    raise ValueError(f"{text!r} is not a number (use decimal, 0x.., 0b.. or 0o..)")


def parse_int(text: str) -> int:
    """A number without don't-care digits."""
    number = parse_number(text)
    if number.wildcard_digits:
        raise ValueError(f"{text!r}: '*' digits are not allowed here")
    return number.value


def parse_key_value(text: str) -> KeyValue:
    """Split a key value into its STF (or BMv2 CLI) form."""
    if "&&&" in text:
        value, _, mask = text.partition("&&&")
        return MaskedValue(parse_int(value), parse_int(mask))
    if "->" in text:
        low, _, high = text.partition("->")
        return RangeValue(parse_int(low), parse_int(high))
    if "/" in text:
        value, _, prefix = text.partition("/")
        number = parse_number(value)
        return PrefixValue(number.value, parse_int(prefix))
    return PlainValue(parse_number(text))
