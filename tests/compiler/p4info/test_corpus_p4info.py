"""P4Info that p4sim-compile writes for every program of the project (p4src, corpus,
reference programs) is self-consistent and loads into p4runtime-shell: each ID has
its kind's prefix and is unique, every cross-reference resolves, the text, binary and
JSON files hold the same message."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import json_format, text_format
from p4.config.v1 import p4info_pb2
from p4runtime_sh.context import Context, P4Type

from p4info_reference_models import REFERENCE_DIR

REPO = Path(__file__).resolve().parents[3]
PROGRAMS = sorted((REPO / "p4src").glob("*.p4")) + sorted((REPO / "tests" / "corpus").glob("*.p4")) \
    + sorted((REFERENCE_DIR / "p4").glob("*.p4"))

SECTION_PREFIX = {
    "tables": 0x02, "actions": 0x01, "action_profiles": 0x11, "counters": 0x12,
    "direct_counters": 0x13, "meters": 0x14, "direct_meters": 0x15,
    "controller_packet_metadata": 0x04, "value_sets": 0x03, "registers": 0x16,
    "digests": 0x17,
}


def compile_all_formats(program: Path, out: Path) -> list[p4info_pb2.P4Info]:
    files = [out / "p.p4info.txtpb", out / "p.p4info.bin", out / "p.p4info.json"]
    result = subprocess.run(
        [str(Path(sys.executable).parent / "p4sim-compile"), "-o", str(out / "p.json"),
         "--p4runtime-files", ",".join(str(f) for f in files), str(program)],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, f"p4sim-compile failed:\n{result.stderr}"
    return [text_format.Parse(files[0].read_text(), p4info_pb2.P4Info()),
            p4info_pb2.P4Info.FromString(files[1].read_bytes()),
            json_format.Parse(files[2].read_text(), p4info_pb2.P4Info())]


def problems(info: p4info_pb2.P4Info) -> list[str]:
    """Every inconsistency found, as readable lines (empty when the P4Info is sound)."""
    found: list[str] = []
    ids: dict[int, str] = {}
    by_section: dict[str, set[int]] = {}
    for section, prefix in SECTION_PREFIX.items():
        by_section[section] = set()
        for obj in getattr(info, section):
            pre = obj.preamble
            if pre.id >> 24 != prefix:
                found.append(f"{section} {pre.name}: id 0x{pre.id:08x} lacks prefix 0x{prefix:02x}")
            if pre.id in ids:
                found.append(f"{section} {pre.name}: id 0x{pre.id:08x} also used by {ids[pre.id]}")
            ids[pre.id] = pre.name
            by_section[section].add(pre.id)
            if not pre.alias or not pre.name.endswith(pre.alias):
                found.append(f"{section} {pre.name}: alias '{pre.alias}' is not a suffix")

    def need(section: str, ref: int, what: str) -> None:
        if ref not in by_section[section]:
            found.append(f"{what} refers to 0x{ref:08x}, not one of the {section}")

    for t in info.tables:
        where = f"table {t.preamble.name}"
        for ref in t.action_refs:
            need("actions", ref.id, f"{where} action_ref")
        if t.const_default_action_id:
            need("actions", t.const_default_action_id, f"{where} const_default_action_id")
        if t.implementation_id:
            need("action_profiles", t.implementation_id, f"{where} implementation_id")
        for ref in t.direct_resource_ids:
            if ref not in by_section["direct_counters"] | by_section["direct_meters"]:
                found.append(f"{where} direct resource 0x{ref:08x} is not a direct counter/meter")
        if len({f.id for f in t.match_fields}) != len(t.match_fields):
            found.append(f"{where}: repeated match field ids")
    for a in info.actions:
        if len({p.id for p in a.params}) != len(a.params):
            found.append(f"action {a.preamble.name}: repeated param ids")
    for p in info.action_profiles:
        for ref in p.table_ids:
            need("tables", ref, f"action profile {p.preamble.name}")
    for d in list(info.direct_counters) + list(info.direct_meters):
        need("tables", d.direct_table_id, f"direct resource {d.preamble.name}")
    for d in info.digests:
        if d.type_spec.HasField("struct") and d.type_spec.struct.name not in info.type_info.structs:
            found.append(f"digest {d.preamble.name}: struct {d.type_spec.struct.name} not in type_info")
    return found


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_p4info_is_sound_and_loads_in_p4runtime_shell(program: Path, tmp_path: Path) -> None:
    text, binary, as_json = compile_all_formats(program, tmp_path)
    assert binary == text and as_json == text, "the three formats disagree"
    assert text.pkg_info.arch == "v1model"
    assert problems(text) == []
    context = Context()
    context.set_p4info(text)
    for obj_type in P4Type:
        for obj in getattr(text, obj_type.p4info_name):
            assert context.get_obj_id(obj_type, obj.preamble.name) == obj.preamble.id


def test_problems_are_found() -> None:
    """The checker itself catches a dangling reference and a wrong prefix."""
    info = p4info_pb2.P4Info()
    table = info.tables.add()
    table.preamble.id, table.preamble.name, table.preamble.alias = 0x01000001, "I.t", "t"
    table.action_refs.add().id = 0x01000002
    assert problems(info) == [
        "tables I.t: id 0x01000001 lacks prefix 0x02",
        "table I.t action_ref refers to 0x01000002, not one of the actions",
    ]
