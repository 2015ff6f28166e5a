"""The control-plane model we build gives the same P4Info as p4c for the reference
programs (same objects, names, IDs, match fields and params; order aside)."""
from __future__ import annotations

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from be_helpers import REFERENCE, REFERENCE_PROGRAMS, compile_file
from p4sim.compiler.p4info import build_p4info

SECTIONS = ("tables", "actions", "action_profiles", "counters", "direct_counters", "meters",
            "direct_meters", "registers", "digests", "controller_packet_metadata",
            "value_sets")


def _sorted(info: p4info_pb2.P4Info, section: str) -> list[str]:
    return sorted(text_format.MessageToString(m) for m in getattr(info, section))


@pytest.mark.parametrize("name", REFERENCE_PROGRAMS)
def test_p4info_equals_p4c(name):
    ours = build_p4info(compile_file(REFERENCE / "p4" / f"{name}.p4").control_plane)
    theirs = text_format.Parse((REFERENCE / "p4c-out" / f"{name}.p4info.txtpb").read_text(),
                               p4info_pb2.P4Info())
    for section in SECTIONS:
        assert _sorted(ours, section) == _sorted(theirs, section), section
    assert ours.pkg_info.arch == "v1model"


@pytest.mark.parametrize("name", REFERENCE_PROGRAMS)
def test_p4info_text_is_byte_identical_to_p4c(name, tmp_path):
    from p4sim.compiler.driver import write_outputs
    out = tmp_path / "out.p4info.txtpb"
    write_outputs(compile_file(REFERENCE / "p4" / f"{name}.p4"), None, [str(out)])
    assert out.read_text() == (REFERENCE / "p4c-out" / f"{name}.p4info.txtpb").read_text()
