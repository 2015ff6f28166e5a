"""Live mode (a p4c-bm2-ss-compatible compiler run now, here p4sim-compile standing in
for the real one, since p4c cannot be installed here), where the toolchain comes from,
the text report, exit codes and usage errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from diff_helpers import BIN, CORPUS, RECORDED, comparison, copy_recording, run_diff
from p4sim.conformance.cli import main
from p4sim.stf.p4sim_target import P4simTarget
from p4sim.stf.program_info import ProgramInfo
from p4sim.stf.runner import run_statements
from p4sim.stf.stf_parser import parse_stf_file
from p4sim.compiler.driver import compile_program

PROGRAM = str(CORPUS / "031_table_exact.p4")


def test_live_compiler_is_compared_beside_the_recording(capsys: pytest.CaptureFixture[str]) -> None:
    compiler = str(BIN / "p4sim-compile")
    code, report = run_diff(capsys, PROGRAM, "--p4c", compiler)
    assert f"p4c: {compiler} (given on the command line)" in report["sources"]
    live = f"live {compiler}"
    for aspect in ("accept/reject", "warnings", "P4Info", "p4c-JSON vs p4sim-JSON run"):
        found = comparison(report, aspect, source_prefix=live)
        assert found["status"] == "equal", found  # p4sim against itself
        assert comparison(report, aspect)["status"] == "equal"  # and the recording still used
    verdict = comparison(report, "STF vs BMv2", source_prefix="live")
    assert verdict["status"] == "not-comparable" and "no live switch" in verdict["details"][0]
    assert comparison(report, "STF vs BMv2")["status"] == "equal"
    assert code == 0


def test_live_compiler_rejection_is_seen(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A program with no recording, which the live compiler (run as a process) rejects."""
    program = tmp_path / "uses_include.p4"
    program.write_text(Path(PROGRAM).read_text().replace(
        "#include <v1model.p4>", '#include <v1model.p4>\n#include "missing/extra.p4"'))
    no_recording = tmp_path / "recordings"
    no_recording.mkdir()
    code, report = run_diff(capsys, str(program), "--p4c", str(BIN / "p4sim-compile"),
                            "--recorded", str(no_recording))
    (found,) = [c for c in report["programs"][0]["comparisons"] if c["aspect"] == "accept/reject"]
    assert found["source"].startswith("live") and found["status"] == "equal"  # both reject
    assert comparison(report, "P4Info", source_prefix="live")["details"] == ["both reject the program"]
    assert report["programs"][0]["notes"] == [
        f"no recording of uses_include in {no_recording} (no uses_include/p4c.rc there; ask for one, "
        "or pass --recorded DIR): compared live only"]
    assert code == 0


@pytest.mark.parametrize("value, why", [("p4sim-compile", "is p4sim's own tool: using the recording"),
                                        ("no-such-compiler-here", "is not an executable: using the recording")])
def test_p4c_from_the_environment(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                  value: str, why: str) -> None:
    monkeypatch.setenv("P4C", str(BIN / value) if value.startswith("p4sim") else value)
    code, report = run_diff(capsys, PROGRAM)
    assert any(s.startswith("$P4C=") and s.endswith(why) for s in report["sources"]), report["sources"]
    assert all(c["source"].startswith("recorded") for c in report["programs"][0]["comparisons"])
    assert code == 0


def test_text_report_names_source_and_difference(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    recording = copy_recording("031_table_exact", tmp_path)
    p4info = recording / "031_table_exact.p4info.txtpb"
    p4info.write_text(p4info.read_text().replace('alias: "dmac"', 'alias: "dmac2"'))
    capsys.readouterr()
    assert main([PROGRAM, "--recorded", str(recording)]) == 1
    out = capsys.readouterr().out.splitlines()
    row = next(line for line in out if line.startswith("031_table_exact"))
    assert row.split() == ["031_table_exact", "equal", "equal", "DIFFER", "equal", "equal"]
    assert f"  P4Info [recorded {recording}]: differ" in out
    assert '    table IngressImpl.dmac: preamble.alias: p4c "dmac2" vs p4sim "dmac"' in out
    assert "programs whose P4Info equals p4c's: 0/1  (differ: 031_table_exact)" in out


def test_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main([]) == 2
    assert "give either PROGRAM.p4 or --corpus DIR" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.p4")]) == 2
    assert f"{tmp_path / 'missing.p4'}: no such program" in capsys.readouterr().err
    assert main([PROGRAM, "--stf", str(tmp_path / "missing.stf")]) == 2
    assert "missing.stf: no such file" in capsys.readouterr().err
    assert main(["--corpus", str(tmp_path)]) == 2
    assert "no .p4 files" in capsys.readouterr().err


def test_bad_stf_is_not_comparable_and_says_where(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    stf = tmp_path / "bad.stf"
    stf.write_text("packet 1 0011\nfrobnicate 3\n")
    code, report = run_diff(capsys, PROGRAM, "--stf", str(stf), "--recorded", str(RECORDED))
    found = comparison(report, "p4c-JSON vs p4sim-JSON run")
    assert found["status"] == "not-comparable"
    assert found["details"][0].startswith(f"the STF test cannot run: {stf}:2:")
    assert code == 0


def test_runner_observes_packets_and_counters() -> None:
    """run_statements(..., observe=True), which the harness builds on: packets out and
    every counter cell, agreeing with the STF file's own check_counter lines."""
    program = compile_program(str(CORPUS / "041_counter.p4")).bmv2_json
    info = ProgramInfo(program)
    target = P4simTarget(program, info)
    try:
        result = run_statements(info, parse_stf_file(str(CORPUS / "041_counter.stf")), target, observe=True)
    finally:
        target.close()
    assert result.passed, result.report
    observed = result.observed
    assert observed is not None and [port for port, _ in observed.outputs] == [2, 2, 2]
    assert observed.state["counter IngressImpl.port_pkts[1]"]["packets"] == 2
    assert observed.state["counter IngressImpl.port_traffic[1]"] == {"packets": 2, "bytes": 48}
    assert len([k for k in observed.state if k.startswith("counter IngressImpl.port_pkts[")]) == \
        info.counters["IngressImpl.port_pkts"].size


def test_live_switch_runs_the_stf(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--switch: the STF test runs on a simple_switch_grpc-compatible switch process
    (p4sim-switch standing in, over P4Runtime and veths in its own namespace) with the
    live compiler's JSON and P4Info; an expectation both get wrong fails the same way."""
    stf = tmp_path / "wrong.stf"
    stf.write_text((CORPUS / "031_table_exact.stf").read_text().replace(
        "expect 3 000000000003 000000000002 0800 A0A1A2A3", "expect 3 000000000003 000000000002 0800 A0A1A2FF"))
    switch = str(BIN / "p4sim-switch")
    code, report = run_diff(capsys, PROGRAM, "--stf", str(stf), "--p4c", str(BIN / "p4sim-compile"),
                            "--switch", switch)
    live = comparison(report, "STF vs BMv2", source_prefix=f"live {switch}")
    assert live["status"] == "equal" and live["notes"] == ["both fail the same way (1 failure(s))"], live
    recorded = comparison(report, "STF vs BMv2")  # BMv2 passed the real test, p4sim fails this one
    assert recorded["details"] == [
        "verdict: BMv2 PASS, p4sim FAIL",
        "  only p4sim: port 3: packet 0 expected 0000000000030000000000020800A0A1A2FF "
        "got 0000000000030000000000020800A0A1A2A3"]
    assert code == 1
