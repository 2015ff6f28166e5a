"""Error types of the switch core.

LoadError is raised while turning BMv2 JSON into closures; PipelineFault is raised
inside a pipeline and caught at the pipeline boundary, so that a bad packet never
takes the switch down.
"""
from __future__ import annotations

import json
from typing import Any


def quote_fragment(fragment: Any, limit: int = 300) -> str:
    """Render a JSON fragment compactly for an error message, cut at `limit` chars."""
    try:
        text = json.dumps(fragment, separators=(",", ":"), sort_keys=True)
    except (TypeError, ValueError):
        text = repr(fragment)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


class LoadError(Exception):
    """A BMv2 JSON document that cannot be loaded; the message quotes the bad part."""

    def __init__(self, where: str, cause: str, fragment: Any = None) -> None:
        self.where = where
        self.cause = cause
        self.fragment = fragment
        message = f"{where}: {cause}"
        if fragment is not None:
            message += f"\n  in: {quote_fragment(fragment)}"
        super().__init__(message)


class PipelineFault(Exception):
    """A runtime error in a pipeline (failed assert, index out of range)."""


class ParserFault(Exception):
    """Raised inside the parser to stop it with a P4 error code."""

    def __init__(self, code: int, reason: str = "") -> None:
        super().__init__(reason or f"parser error {code}")
        self.code = code


class ExitPipeline(Exception):
    """Raised by the `exit` primitive: ends the current pipeline at once."""
