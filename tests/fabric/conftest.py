"""The fabric compiled once per session by the Makefile's compiler ($P4C), for the tests
that run it in an in-process switch behind a real P4Runtime server."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.fabric.test_fabric_compiles import FABRIC, compiler_command


@pytest.fixture(scope="session")
def build(tmp_path_factory) -> tuple[Path, Path]:
    """(BMv2 JSON, P4Info) of p4src/fabric.p4."""
    out = tmp_path_factory.mktemp("fabric")
    json_path, p4info_path = out / "fabric.json", out / "fabric.p4info.txtpb"
    proc = subprocess.run(
        [*compiler_command(), "--arch", "v1model", "-o", str(json_path),
         "--p4runtime-files", str(p4info_path), str(FABRIC)],
        capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json_path, p4info_path
