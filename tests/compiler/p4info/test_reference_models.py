"""Hand-built models of the four reference programs give exactly p4c's P4Info."""
from __future__ import annotations

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from p4info_reference_models import REFERENCE_DIR, REFERENCE_MODELS
from p4sim.compiler.p4info import build_p4info
from p4sim.compiler.p4info.writer import to_text


def p4c_p4info(program: str) -> p4info_pb2.P4Info:
    path = REFERENCE_DIR / "p4c-out" / f"{program}.p4info.txtpb"
    return text_format.Parse(path.read_text(), p4info_pb2.P4Info())


@pytest.mark.parametrize("program", sorted(REFERENCE_MODELS))
def test_message_equals_p4c(program: str) -> None:
    ours = build_p4info(REFERENCE_MODELS[program]())
    expected = p4c_p4info(program)
    # Compare per section first so a failure names the section.
    for field in p4info_pb2.P4Info.DESCRIPTOR.fields:
        assert getattr(ours, field.name) == getattr(expected, field.name), field.name
    assert ours == expected


@pytest.mark.parametrize("program", sorted(REFERENCE_MODELS))
def test_text_output_equals_p4c_file(program: str) -> None:
    ours = to_text(build_p4info(REFERENCE_MODELS[program]())).decode()
    expected = (REFERENCE_DIR / "p4c-out" / f"{program}.p4info.txtpb").read_text()
    assert ours == expected
