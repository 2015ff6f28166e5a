"""The installed p4sim distribution's version, as every p4sim command reports it."""
from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version


def package_version() -> str:
    """"unknown" when p4sim runs from a tree that was never installed."""
    try:
        return version("p4sim")
    except PackageNotFoundError:
        return "unknown"
