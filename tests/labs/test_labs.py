"""The teaching labs: each solution passes all its packet tests, each exercise fails
at least one (so a student has something to do), both compile without warnings, and
the lab runner tells a student which test failed and what to try."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from p4sim.stf.cli import run_stf_test
from p4sim.stf.compile import compile_for_p4runtime, own_compiler

REPO = Path(__file__).resolve().parents[2]
LABS = REPO / "labs"
LAB_NAMES = sorted(p.parent.name for p in LABS.glob("*/solution.p4"))
RUNNER_TIMEOUT_S = 120


def _stf_files(lab: str) -> list[Path]:
    return sorted((LABS / lab / "tests").glob("*.stf"))


def _results(lab: str, program: str, workdir: Path) -> dict[str, bool]:
    """STF file name -> passed, for one program of a lab (compiled once)."""
    p4 = str(LABS / lab / program)
    compiled = compile_for_p4runtime(p4, own_compiler(), str(workdir))
    json_path = workdir / "program.json"
    json_path.write_text(compiled.json_text, encoding="utf-8")
    return {stf.name: run_stf_test(p4, str(stf), "p4sim", json_path=str(json_path)).passed
            for stf in _stf_files(lab)}


def _run_lab(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "labs.run_lab", *args], cwd=REPO, capture_output=True,
                          text=True, timeout=RUNNER_TIMEOUT_S, check=False)


def test_the_six_labs_exist() -> None:
    assert set(LAB_NAMES) == {"spraying", "ecn", "trimming", "partitions", "int", "credits"}


@pytest.mark.parametrize("lab", LAB_NAMES)
def test_solution_passes_every_packet_test(lab: str, tmp_path: Path) -> None:
    results = _results(lab, "solution.p4", tmp_path)
    assert len(results) >= 2
    assert [name for name, passed in results.items() if not passed] == []


@pytest.mark.parametrize("lab", LAB_NAMES)
def test_exercise_fails_at_least_one_packet_test(lab: str, tmp_path: Path) -> None:
    results = _results(lab, "exercise.p4", tmp_path)
    assert not all(results.values()), f"the exercise of {lab} already passes every test"


@pytest.mark.parametrize("program", ["exercise.p4", "solution.p4"])
@pytest.mark.parametrize("lab", LAB_NAMES)
def test_program_compiles_without_warnings(lab: str, program: str, tmp_path: Path) -> None:
    result = subprocess.run([*own_compiler(), "-o", str(tmp_path / "out.json"), str(LABS / lab / program)],
                            capture_output=True, text=True, timeout=RUNNER_TIMEOUT_S, check=False)
    assert result.returncode == 0, result.stderr
    assert (result.stderr + result.stdout).strip() == ""


def _objects(json_path: Path) -> set[str]:
    """Declared tables (CONTROL.NAME, not the compiler's tbl_*) and extern arrays of a BMv2 JSON."""
    program = json.loads(json_path.read_text(encoding="utf-8"))
    tables = {t["name"] for pipeline in program["pipelines"] for t in pipeline["tables"] if "." in t["name"]}
    arrays = {a["name"] for kind in ("register_arrays", "counter_arrays", "meter_arrays")
              for a in program.get(kind, [])}
    return tables | arrays


@pytest.mark.parametrize("lab", LAB_NAMES)
def test_exercise_uses_every_table_and_extern_of_the_solution(lab: str, tmp_path: Path) -> None:
    """Real p4c warns about (and drops) a table or extern instance a program never
    uses; p4sim-compile does not, so the exercise's TODOs must leave each one used."""
    found = {}
    for program in ("exercise.p4", "solution.p4"):
        out = tmp_path / f"{program}.json"
        subprocess.run([*own_compiler(), "-o", str(out), str(LABS / lab / program)], check=True,
                       capture_output=True, timeout=RUNNER_TIMEOUT_S)
        found[program] = _objects(out)
    assert found["solution.p4"] - found["exercise.p4"] == set()


@pytest.mark.parametrize("lab", LAB_NAMES)
def test_lab_has_teaching_material_and_hinted_tests(lab: str) -> None:
    folder = LABS / lab
    assert "](figure.png)" in (folder / "README.md").read_text(encoding="utf-8")
    assert (folder / "figure.png").read_bytes().startswith(b"\x89PNG")
    assert "TODO" in (folder / "exercise.p4").read_text(encoding="utf-8")
    assert "TODO" not in (folder / "solution.p4").read_text(encoding="utf-8")
    for stf in _stf_files(lab):
        text = stf.read_text(encoding="utf-8")
        assert "# test:" in text and "# hint:" in text, f"{stf.name} lacks a '# test:' or '# hint:' line"


def test_runner_names_the_failing_test_and_its_hint() -> None:
    result = _run_lab("ecn")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "FAIL  01_congested_ect_is_marked.stf" in result.stdout
    assert "hint: fill in TODO 1 in LabEgress" in result.stdout
    assert "PASS  02_not_ect_is_never_marked.stf" in result.stdout
    assert "3 of 4 tests passed on the exercise of lab ecn." in result.stdout


def test_runner_passes_a_solution() -> None:
    result = _run_lab("trimming", "--solution")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "4 of 4 tests passed on the solution of lab trimming." in result.stdout
    assert "FAIL" not in result.stdout


def test_runner_lists_the_labs_for_an_unknown_name() -> None:
    result = _run_lab("no-such-lab")
    assert result.returncode == 2
    assert "no lab called 'no-such-lab'" in result.stdout
    for lab in LAB_NAMES:
        assert lab in result.stdout


def test_runner_without_a_lab_lists_the_labs() -> None:
    result = _run_lab()
    assert result.returncode == 2
    assert "Which lab?" in result.stdout and "make lab LAB=NAME" in result.stdout
    for lab in LAB_NAMES:
        assert lab in result.stdout


def test_runner_reports_where_a_program_does_not_compile(tmp_path: Path) -> None:
    broken = tmp_path / "broken.p4"
    source = (LABS / "ecn" / "exercise.p4").read_text(encoding="utf-8")
    broken.write_text(source.replace("default_action = NoAction();", "default_action = NoAction()"),
                      encoding="utf-8")
    script = ("import sys; from labs.run_lab import compile_lab; from p4sim.stf.compile import CompileFailed\n"
              "try:\n    compile_lab(sys.argv[1], sys.argv[2])\nexcept CompileFailed as exc:\n"
              "    print(exc); sys.exit(1)\n")
    result = subprocess.run([sys.executable, "-c", script, str(broken), str(tmp_path)], cwd=REPO,
                            capture_output=True, text=True, timeout=RUNNER_TIMEOUT_S, check=False)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "broken.p4:" in result.stdout and "expected ';'" in result.stdout
