"""write_p4info: one build, several files, format by extension."""
from __future__ import annotations

from pathlib import Path

import pytest
from google.protobuf import json_format, text_format
from p4.config.v1 import p4info_pb2

from p4info_reference_models import multipath
from p4sim.compiler.p4info import P4InfoError, build_p4info, write_p4info


def test_every_format_round_trips(tmp_path: Path) -> None:
    paths = {ext: tmp_path / f"prog.p4info.{ext}" for ext in ("txtpb", "txt", "bin", "json")}
    write_p4info(multipath(), [str(p) for p in paths.values()])
    expected = build_p4info(multipath())
    assert text_format.Parse(paths["txtpb"].read_text(), p4info_pb2.P4Info()) == expected
    assert text_format.Parse(paths["txt"].read_text(), p4info_pb2.P4Info()) == expected
    assert p4info_pb2.P4Info.FromString(paths["bin"].read_bytes()) == expected
    assert json_format.Parse(paths["json"].read_text(), p4info_pb2.P4Info()) == expected


def test_unknown_extension_writes_nothing(tmp_path: Path) -> None:
    good = tmp_path / "a.txtpb"
    with pytest.raises(P4InfoError, match=r"b\.yaml: cannot tell the P4Info format from the "
                                          r"extension '\.yaml'"):
        write_p4info(multipath(), [str(good), str(tmp_path / "b.yaml")])
    assert not good.exists()


def test_unwritable_path_is_a_clear_error(tmp_path: Path) -> None:
    target = tmp_path / "missing-dir" / "p.bin"
    with pytest.raises(P4InfoError, match="missing-dir/p.bin: cannot write P4Info"):
        write_p4info(multipath(), [str(target)])
