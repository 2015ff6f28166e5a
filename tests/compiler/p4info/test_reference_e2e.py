"""The real ``p4sim-compile`` on the four reference programs: P4Info names, IDs and
aliases equal what p4c 1.2.4.8 emitted (reference/p4c-out). Fails until the compiler
back end produces P4Info."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from p4info_reference_models import REFERENCE_DIR

PROGRAMS = ("l3_lpm", "multipath", "replication", "stack_and_queues")
SECTIONS = ("tables", "actions", "action_profiles", "counters", "direct_counters", "meters",
            "direct_meters", "controller_packet_metadata", "value_sets", "registers", "digests")


def compiler() -> Path:
    return Path(sys.executable).parent / "p4sim-compile"


def compile_p4info(program: str, out_dir: Path) -> p4info_pb2.P4Info:
    p4info_path = out_dir / f"{program}.p4info.txtpb"
    result = subprocess.run(
        [str(compiler()), "--arch", "v1model", "-o", str(out_dir / f"{program}.json"),
         "--p4runtime-files", str(p4info_path), str(REFERENCE_DIR / "p4" / f"{program}.p4")],
        capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, f"p4sim-compile failed on {program}:\n{result.stderr}"
    return text_format.Parse(p4info_path.read_text(), p4info_pb2.P4Info())


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, p4info_pb2.P4Info | str]:
    """Each program compiled once; a failure is kept as its message so each test that
    needs the program reports it."""
    out_dir = tmp_path_factory.mktemp("e2e")
    results: dict[str, p4info_pb2.P4Info | str] = {}
    for program in PROGRAMS:
        try:
            results[program] = compile_p4info(program, out_dir)
        except (AssertionError, OSError, subprocess.TimeoutExpired,
                text_format.ParseError) as error:
            results[program] = f"{type(error).__name__}: {error}"
    return results


def expected(program: str) -> p4info_pb2.P4Info:
    path = REFERENCE_DIR / "p4c-out" / f"{program}.p4info.txtpb"
    return text_format.Parse(path.read_text(), p4info_pb2.P4Info())


def ours(compiled: dict[str, p4info_pb2.P4Info | str], program: str) -> p4info_pb2.P4Info:
    result = compiled[program]
    if isinstance(result, str):
        pytest.fail(result)
    return result


def preamble_index(info: p4info_pb2.P4Info, section: str) -> dict[str, tuple[int, str]]:
    return {obj.preamble.name: (obj.preamble.id, obj.preamble.alias)
            for obj in getattr(info, section)}


@pytest.mark.parametrize("section", SECTIONS)
@pytest.mark.parametrize("program", PROGRAMS)
def test_names_ids_aliases(compiled: dict[str, p4info_pb2.P4Info | str], program: str,
                           section: str) -> None:
    assert preamble_index(ours(compiled, program), section) == \
        preamble_index(expected(program), section)


def by_id(info: p4info_pb2.P4Info) -> p4info_pb2.P4Info:
    """The message with each section ordered by ID, so only content is compared."""
    normal = p4info_pb2.P4Info()
    normal.CopyFrom(info)
    for section in SECTIONS:
        items = sorted(getattr(info, section), key=lambda o: o.preamble.id)
        field = getattr(normal, section)
        del field[:]
        field.extend(items)
    return normal


@pytest.mark.parametrize("program", PROGRAMS)
def test_whole_p4info_content(compiled: dict[str, p4info_pb2.P4Info | str],
                              program: str) -> None:
    got, want = by_id(ours(compiled, program)), by_id(expected(program))
    for section in SECTIONS:
        assert [text_format.MessageToString(o) for o in getattr(got, section)] == \
            [text_format.MessageToString(o) for o in getattr(want, section)], section
    for section in ("pkg_info", "type_info"):
        assert text_format.MessageToString(getattr(got, section)) == \
            text_format.MessageToString(getattr(want, section)), section
