"""P4Info generation: a program's ControlPlaneModel to ``p4.config.v1.P4Info`` whose
names, IDs and aliases equal the ones p4c computes.

The names below are loaded on first use: building and writing P4Info needs protobuf and
the P4Runtime protos, whose import is a large share of a compile's start-up, and the
compiler imports this package (for P4InfoError) even when no P4Info is asked for.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from p4sim.compiler.p4info.errors import P4InfoError

if TYPE_CHECKING:
    from p4sim.compiler.p4info.builder import build_p4info
    from p4sim.compiler.p4info.ids import IdPrefix, compute_ids, jenkins_one_at_a_time
    from p4sim.compiler.p4info.writer import write_p4info

__all__ = ["build_p4info", "write_p4info", "P4InfoError", "IdPrefix", "compute_ids",
           "jenkins_one_at_a_time"]

_HOME_MODULES = {
    "build_p4info": "builder",
    "write_p4info": "writer",
    "IdPrefix": "ids",
    "compute_ids": "ids",
    "jenkins_one_at_a_time": "ids",
}


def __getattr__(name: str) -> Any:
    try:
        module = _HOME_MODULES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    return getattr(importlib.import_module(f"{__name__}.{module}"), name)
