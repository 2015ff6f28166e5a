"""The installed p4sim distribution's version, as every p4sim command reports it."""
from __future__ import annotations


def package_version() -> str:
    """"unknown" when p4sim runs from a tree that was never installed.

    importlib.metadata is imported here, not at module level: it pulls in email,
    zipfile and pathlib machinery (~40 ms), which every compile would pay for a
    version string only --version prints."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("p4sim")
    except PackageNotFoundError:
        return "unknown"
