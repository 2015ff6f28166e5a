"""BMv2 JSON as text: exactly what ``json.dumps(document, indent=2)`` writes, in a third
of the time.

The standard library drops to its pure-Python encoder as soon as ``indent`` is given,
and a BMv2 document is tens of thousands of small dicts and lists, so that encoder was
the slowest step of a compile. This writer handles only what the emitters produce
(dicts with string keys, lists, tuples, strings, ints, bools, None and finite floats)
and hands anything else back to the standard library, so the text is always the same.
"""
from __future__ import annotations

import json
import math
from typing import Any
from json.encoder import encode_basestring_ascii as _quote

_INDENT = "  "


class _Unsupported(Exception):
    """A value this writer does not handle; the caller falls back to ``json.dumps``."""


def dumps_indented(document: object) -> str:
    """``json.dumps(document, indent=2)``, computed faster."""
    parts: list[str] = []
    try:
        _write(document, "\n", parts)
    except _Unsupported:
        return json.dumps(document, indent=2)
    return "".join(parts)


def _write(value: Any, newline: str, out: list[str]) -> None:
    # ``type(x) is`` rather than isinstance: subclasses (bool is an int!) and exotic
    # types take the slow path, which is always right. ``value`` is Any: any JSON-like
    # value, told apart by ``kind`` (which mypy does not narrow on).
    kind = type(value)
    if kind is str:
        out.append(_quote(value))
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + _INDENT
        separator = "{" + inner
        for key, item in value.items():
            if type(key) is not str:
                raise _Unsupported
            out.append(separator)
            out.append(_quote(key))
            out.append(": ")
            _write(item, inner, out)
            separator = "," + inner
        out.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + _INDENT
        separator = "[" + inner
        for item in value:
            out.append(separator)
            _write(item, inner, out)
            separator = "," + inner
        out.append(newline + "]")
    elif kind is int:
        out.append(int.__repr__(value))
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif value is None:
        out.append("null")
    elif kind is float and math.isfinite(value):
        out.append(float.__repr__(value))
    else:
        raise _Unsupported
