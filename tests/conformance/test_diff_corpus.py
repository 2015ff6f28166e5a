"""p4sim-diff over the whole corpus with the in-repository recording: its figures are
checked against independent computations (protobuf equality of the P4Infos, p4c's exit
codes, the recorded BMv2 exit codes, p4sim's own STF verdicts), not against numbers
written down here."""
from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pytest
from google.protobuf import text_format
from p4.config.v1 import p4info_pb2

from diff_helpers import BIN, CORPUS, RECORDED, REPO
from p4sim.compiler.driver import compile_program
from p4sim.compiler.errors import CompileError
from p4sim.compiler.p4info import message
from p4sim.compiler.p4info.builder import build_p4info_message
from p4sim.conformance.p4info_diff import ENTITY_KINDS
from p4sim.stf.p4sim_target import P4simTarget
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import run_statements
from p4sim.stf.stf_parser import parse_stf_file

DIFF = BIN / "p4sim-diff"
BATCH_TIMEOUT_S = 300


@pytest.fixture(scope="module")
def batch() -> dict[str, Any]:
    """One run of the installed console script over the corpus (and the fabric), against
    the recording only ($P4C/$SWITCH naming p4sim's own tools turn live mode off)."""
    env = {**os.environ, "P4C": str(DIFF.parent / "p4sim-compile"),
           "SWITCH": str(DIFF.parent / "p4sim-switch")}
    result = subprocess.run([str(DIFF), "--corpus", str(CORPUS), "--recorded", str(RECORDED), "--json"],
                            capture_output=True, text=True, timeout=BATCH_TIMEOUT_S, check=False,
                            cwd=REPO, env=env)
    assert result.returncode in (0, 1), result.stderr
    report = json.loads(result.stdout)
    report["exit_code"] = result.returncode
    report["stderr"] = result.stderr
    return report


def _programs(batch: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in batch["programs"]}


def _status(program: dict[str, Any], aspect: str) -> str:
    statuses = {c["status"] for c in program["comparisons"] if c["aspect"] == aspect}
    compared = statuses - {"not-comparable"}
    if not compared:
        return "not-comparable"
    return "equal" if compared == {"equal"} else "differ"


def _recorded(name: str) -> bool:
    return (RECORDED / name / "p4c.rc").is_file()


def _canonical(p4info: p4info_pb2.P4Info) -> bytes:
    """The P4Info with every object list and action-ref list in a fixed order and an
    empty type_info dropped: what "semantically equal" means, computed another way."""
    for list_name in ENTITY_KINDS:
        entities = sorted(getattr(p4info, list_name), key=lambda e: e.preamble.name)
        p4info.ClearField(list_name)
        getattr(p4info, list_name).extend(entities)
    for table in p4info.tables:
        refs = sorted(table.action_refs, key=lambda r: r.id)
        table.ClearField("action_refs")
        table.action_refs.extend(refs)
    if p4info.type_info.ByteSize() == 0:
        p4info.ClearField("type_info")
    return p4info.SerializeToString(deterministic=True)


def test_every_program_has_a_row_and_progress_is_shown(batch: dict[str, Any]) -> None:
    assert any("is p4sim's own tool: using the recording" in s for s in batch["sources"])
    names = [p["name"] for p in batch["programs"]]
    assert names == sorted(p.stem for p in CORPUS.glob("*.p4")) + ["fabric"]
    assert batch["stderr"].count("\n") >= len(names), "one progress line per program on stderr"


def test_figures_count_the_rows(batch: dict[str, Any]) -> None:
    programs = _programs(batch).values()
    for figure in batch["figures"]:
        statuses = [_status(p, figure["aspect"]) for p in programs]
        assert figure["equal"] == statuses.count("equal"), figure["label"]
        assert figure["compared"] == statuses.count("equal") + statuses.count("differ"), figure["label"]
    assert batch["exit_code"] == (0 if all(p["equal"] for p in programs) else 1)


def test_accept_reject_figure_matches_p4c_exit_codes(batch: dict[str, Any]) -> None:
    for name, program in _programs(batch).items():
        if not _recorded(name):
            assert _status(program, "accept/reject") == "not-comparable", name
            continue
        p4c_accepts = (RECORDED / name / "p4c.rc").read_text().strip() == "0"
        try:
            compile_program(program["program"])
            p4sim_accepts = True
        except CompileError:
            p4sim_accepts = False
        expected = "equal" if p4c_accepts == p4sim_accepts else "differ"
        assert _status(program, "accept/reject") == expected, name


def test_p4info_figure_matches_protobuf_equality(batch: dict[str, Any]) -> None:
    checked = 0
    for name, program in _programs(batch).items():
        if not _recorded(name):
            continue
        theirs = text_format.Parse((RECORDED / name / f"{name}.p4info.txtpb").read_text(),
                                   p4info_pb2.P4Info())
        result = compile_program(program["program"])
        ours = text_format.Parse(message.to_text(build_p4info_message(result.control_plane)),
                                 p4info_pb2.P4Info())
        expected = "equal" if _canonical(theirs) == _canonical(ours) else "differ"
        assert _status(program, "P4Info") == expected, f"{name}: {program['comparisons']}"
        checked += 1
    assert checked >= 61  # 60 recorded corpus programs and the fabric


def test_bmv2_figure_matches_recorded_verdicts(batch: dict[str, Any]) -> None:
    for name, program in _programs(batch).items():
        rc_file = RECORDED / name / "bmv2-stf.rc"
        stf = CORPUS / f"{name}.stf"
        status = _status(program, "STF vs BMv2")
        if not rc_file.is_file() or not stf.is_file():
            assert status == "not-comparable", name
            continue
        rc = int(rc_file.read_text())
        if rc == 3:
            (verdict,) = [c for c in program["comparisons"] if c["aspect"] == "STF vs BMv2"]
            assert status == "not-comparable" and "unsupported-by-runner" in verdict["details"][0], name
            continue
        json_program = compile_program(str(CORPUS / f"{name}.p4")).bmv2_json
        info = ProgramInfo(json_program)
        target = P4simTarget(json_program, info)
        try:
            p4sim_passes = run_statements(info, parse_stf_file(str(stf)), target).passed
        finally:
            target.close()
        if rc == 0:
            assert status == ("equal" if p4sim_passes else "differ"), name
        elif p4sim_passes:
            assert status == "differ", name


def test_runs_are_compared_for_every_recorded_program_with_an_stf(batch: dict[str, Any]) -> None:
    for name, program in _programs(batch).items():
        compared = _status(program, "p4c-JSON vs p4sim-JSON run") != "not-comparable"
        assert compared == (_recorded(name) and (CORPUS / f"{name}.stf").is_file()), name
