"""What a benchmark's figures depend on, printed beside them: cores, load, Python, the
switch program (two shared cores: the figures fall as the load rises)."""
from __future__ import annotations

import os
import platform


def machine_facts(switch_binary: str) -> str:
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    return (f"machine: {os.cpu_count()} cores, load average {load}, {platform.machine()} "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
            f"switch {switch_binary}")
