"""p4sim-diff finds and names a difference planted in a copy of a real recording: in
P4Info, in p4c's JSON (packets and counters), in BMv2's STF log, in p4c's verdict."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from diff_helpers import CORPUS, comparison, copy_recording, run_diff

TABLE_PROGRAM = "031_table_exact"  # one exact table: forward(port) / drop
COUNTER_PROGRAM = "041_counter"  # two indirect counters indexed by the ingress port


def _program(name: str) -> str:
    return str(CORPUS / f"{name}.p4")


def test_unaltered_recording_is_equal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = copy_recording(TABLE_PROGRAM, tmp_path)
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--recorded", str(recording))
    assert code == 0, report
    assert all(c["status"] == "equal" for c in report["programs"][0]["comparisons"])
    assert all(c["source"] == f"recorded {recording}" for c in report["programs"][0]["comparisons"])


def test_altered_p4info_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = copy_recording(TABLE_PROGRAM, tmp_path)
    p4info = recording / f"{TABLE_PROGRAM}.p4info.txtpb"
    text = p4info.read_text()
    text = text.replace("  size: 64\n", "  size: 999\n", 1)
    # the table's second action ref (drop) becomes @defaultonly
    text = re.sub(r"(action_refs \{\n    id: 17676690\n)", r'\1    annotations: "@defaultonly"\n', text, 1)
    p4info.write_text(text)
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--recorded", str(recording))
    found = comparison(report, "P4Info")
    assert code == 1 and found["status"] == "differ"
    assert "table IngressImpl.dmac: size: p4c 999 vs p4sim 64" in found["details"]
    assert 'table IngressImpl.dmac: action_refs[1].annotations: p4c ["@defaultonly"] vs p4sim []' \
        in found["details"]
    assert len(found["details"]) == 2


def test_altered_json_changes_packets_and_is_named(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    recording = copy_recording(TABLE_PROGRAM, tmp_path)
    path = recording / f"{TABLE_PROGRAM}.json"
    program = json.loads(path.read_text())
    (forward,) = [a for a in program["actions"] if a["name"] == "IngressImpl.forward"]
    forward["primitives"][0]["parameters"][1] = {"type": "hexstr", "value": "0x0007"}
    path.write_text(json.dumps(program))
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--recorded", str(recording))
    found = comparison(report, "p4c-JSON vs p4sim-JSON run")
    assert code == 1 and found["status"] == "differ"
    assert "port 2: p4c's JSON sent 0 packet(s) vs p4sim's 1" in found["details"]
    assert "port 7: p4c's JSON sent 2 packet(s) vs p4sim's 0" in found["details"]
    assert any(d.startswith("port 7 packet #0: p4c's JSON 000000000001") and d.endswith("vs p4sim's nothing")
               for d in found["details"])


def test_altered_json_changes_counters_and_is_named(capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    recording = copy_recording(COUNTER_PROGRAM, tmp_path)
    path = recording / f"{COUNTER_PROGRAM}.json"
    program = json.loads(path.read_text())
    counts = [p for a in program["actions"] for p in a["primitives"] if p["op"] == "count"
              and p["parameters"][0]["value"] == "IngressImpl.port_pkts"]
    counts[0]["parameters"][1] = {"type": "hexstr", "value": "0x0005"}  # every packet in cell 5
    path.write_text(json.dumps(program))
    code, report = run_diff(capsys, _program(COUNTER_PROGRAM), "--recorded", str(recording))
    found = comparison(report, "p4c-JSON vs p4sim-JSON run")
    assert code == 1 and found["status"] == "differ"
    cells = {d.split(":")[0]: d for d in found["details"]}
    assert set(cells) == {f"counter IngressImpl.port_pkts[{i}]" for i in (1, 3, 5)}
    assert cells["counter IngressImpl.port_pkts[5]"].startswith(
        "counter IngressImpl.port_pkts[5]: p4c's JSON {'packets': 3,")
    assert "vs p4sim's {'packets': 0, 'bytes': 0}" in cells["counter IngressImpl.port_pkts[5]"]


def test_altered_bmv2_log_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = copy_recording(TABLE_PROGRAM, tmp_path)
    (recording / "bmv2-stf.rc").write_text("1\n")
    (recording / "bmv2-stf.log").write_text("FAIL port 9: unexpected packet 00112233\nFAILED (1)\n")
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--recorded", str(recording))
    found = comparison(report, "STF vs BMv2")
    assert code == 1 and found["status"] == "differ"
    assert found["details"] == ["verdict: BMv2 FAIL, p4sim PASS",
                                "  only BMv2: port 9: unexpected packet 00112233"]


def test_same_failure_on_both_sides_is_equal(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = copy_recording(TABLE_PROGRAM, tmp_path)
    stf = tmp_path / f"{TABLE_PROGRAM}.stf"
    original = (CORPUS / f"{TABLE_PROGRAM}.stf").read_text()
    wrong = "expect 2 000000000001 000000000002 0800 A0A1A2A4"
    stf.write_text(original.replace("expect 2 000000000001 000000000002 0800 A0A1A2A3", wrong, 1))
    (recording / "bmv2-stf.rc").write_text("1\n")
    (recording / "bmv2-stf.log").write_text(
        "FAIL port 2: packet 0\n  expected 0000000000010000000000020800A0A1A2A4\n"
        "  got      0000000000010000000000020800A0A1A2A3\nFAILED (1)\n")
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--stf", str(stf), "--recorded", str(recording))
    found = comparison(report, "STF vs BMv2")
    assert found["status"] == "equal" and found["notes"] == ["both fail the same way (1 failure(s))"]
    assert code == 0

    # and a different failure on BMv2's side is a difference, with both sides named
    (recording / "bmv2-stf.log").write_text("FAIL port 3: expected packet 0 missing: 0000000000030000000000020800A0A1A2A3\n")
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--stf", str(stf), "--recorded", str(recording))
    found = comparison(report, "STF vs BMv2")
    assert code == 1 and found["details"] == [
        "verdict: BMv2 FAIL, p4sim FAIL",
        "  only BMv2: port 3: expected packet 0 missing: 0000000000030000000000020800A0A1A2A3",
        "  only p4sim: port 2: packet 0 expected 0000000000010000000000020800A0A1A2A4 "
        "got 0000000000010000000000020800A0A1A2A3"]


def test_unsupported_by_runner_is_not_comparable(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = copy_recording(COUNTER_PROGRAM, tmp_path)
    assert (recording / "bmv2-stf.rc").read_text().strip() == "3"
    code, report = run_diff(capsys, _program(COUNTER_PROGRAM), "--recorded", str(recording))
    found = comparison(report, "STF vs BMv2")
    assert found["status"] == "not-comparable"
    assert found["details"] == ["unsupported-by-runner: the recording's BMv2 runner could not run: "
                                "check_counter IngressImpl.port_pkts(1) packets == 2"]
    assert code == 0  # nothing compared differs


def test_p4c_verdict_and_warnings_are_compared(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = copy_recording(TABLE_PROGRAM, tmp_path)
    (recording / "p4c.rc").write_text("1\n")
    (recording / "p4c.stderr").write_text(
        "tests/corpus/031_table_exact.p4(40): [--Wwarn=unused] warning: 'x' is unused\n"
        "tests/corpus/031_table_exact.p4(48): error: something p4c dislikes\n")
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--recorded", str(recording))
    verdict = comparison(report, "accept/reject")
    assert code == 1 and verdict["details"] == [
        "verdict: p4c rejects (exit 1) vs p4sim accepts",
        "  p4c: tests/corpus/031_table_exact.p4(48): error: something p4c dislikes"]
    warnings = comparison(report, "warnings")
    assert warnings["details"][0] == "warnings: p4c 1 vs p4sim 0"
    assert comparison(report, "P4Info")["details"] == ["p4c rejects the program"]


BAD_PROGRAM = """#include <core.p4>
#include <v1model.p4>
struct h_t { }
struct m_t { }
parser P(packet_in p, out h_t h, inout m_t m, inout standard_metadata_t s) {
    state start { transition accept; }
}
control I(inout h_t h, inout m_t m, inout standard_metadata_t s) {
    apply { s.egress_spec = undeclared_name; }
}
control E(inout h_t h, inout m_t m, inout standard_metadata_t s) { apply { } }
control C(inout h_t h, inout m_t m) { apply { } }
control D(packet_out p, in h_t h) { apply { } }
V1Switch(P(), C(), I(), E(), C(), D()) main;
"""


@pytest.mark.parametrize("p4c_line, equal", [(9, True), (4, False)])
def test_error_location_is_compared(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    p4c_line: int, equal: bool) -> None:
    program = tmp_path / "bad.p4"
    program.write_text(BAD_PROGRAM)
    recording = tmp_path / "recorded"
    recording.mkdir()
    (recording / "p4c.rc").write_text("1\n")
    (recording / "p4c.stderr").write_text(f"{program}({p4c_line}): error: undeclared_name: declaration not found\n")
    code, report = run_diff(capsys, str(program), "--recorded", str(recording))
    verdict = comparison(report, "accept/reject")
    assert verdict["source"] == f"recorded {recording}"
    if equal:
        assert code == 0 and verdict["status"] == "equal", verdict
    else:
        assert code == 1 and verdict["details"][0] == \
            f"first error location: p4c {program}(4) vs p4sim {program}:9"
    assert comparison(report, "P4Info")["details"] == ["both reject the program"]


def test_unreadable_p4info_is_an_error_naming_the_file(capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
    recording = copy_recording(TABLE_PROGRAM, tmp_path)
    p4info = recording / f"{TABLE_PROGRAM}.p4info.txtpb"
    p4info.write_text("tables { preamble { id: nonsense } }\n")
    code, report = run_diff(capsys, _program(TABLE_PROGRAM), "--recorded", str(recording))
    found = comparison(report, "P4Info")
    assert code == 1 and found["status"] == "error"
    assert found["details"][0].startswith(f"{p4info}: not a P4Info text file: 1:")
