"""What a fabric benchmark needs and what its figures depend on: root, namespaces and a
built pipeline; cores, load, Python and the switch program, printed beside the figures
(two shared cores: they fall as the load rises)."""
from __future__ import annotations

import os
import platform
from pathlib import Path

from lab.namespace import can_run


def machine_facts(switch_binary: str) -> str:
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return (f"machine: {os.cpu_count()} cores, load average {load}, {platform.machine()} "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
            f"switch {switch_binary}")


def fabric_bench_problem(name: str, p4info: Path) -> str | None:
    """Why a benchmark that launches a fabric cannot run here (None: it can)."""
    if not can_run():
        return f"{name}: needs root and `ip netns`"
    if not p4info.exists():
        return f"{p4info}: missing; run `make build`"
    return None
