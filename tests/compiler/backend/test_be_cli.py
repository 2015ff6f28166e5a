"""The p4sim-compile command line: outputs, exit codes, warnings."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from be_helpers import REFERENCE
from p4sim.compiler.cli import EXIT_OK, EXIT_USAGE, main


def test_writes_json_and_every_p4info_format(tmp_path: Path, capsys) -> None:
    out = tmp_path / "l3.json"
    infos = [tmp_path / "l3.p4info.txtpb", tmp_path / "l3.p4info.bin",
             tmp_path / "l3.p4info.json"]
    code = main(["--arch", "v1model", str(REFERENCE / "p4" / "l3_lpm.p4"), "-o", str(out),
                 "--p4runtime-files", ",".join(map(str, infos))])
    assert code == EXIT_OK, capsys.readouterr().err
    doc = json.loads(out.read_text())
    assert doc["__meta__"]["version"] == [2, 23]
    assert all(p.stat().st_size > 0 for p in infos)
    assert "IngressImpl.ipv4_lpm" in infos[0].read_text()


def test_usage_errors_exit_2(capsys) -> None:
    assert main([]) == EXIT_USAGE
    assert main(["--arch", "psa", "x.p4"]) == EXIT_USAGE
    assert "usage:" in capsys.readouterr().err


def test_defines_reach_the_program(tmp_path: Path) -> None:
    src = tmp_path / "d.p4"
    text = (REFERENCE / "p4" / "l3_lpm.p4").read_text().replace(
        "size = 1024;", "size = TABLE_SIZE;")
    src.write_text(text)
    out = tmp_path / "d.json"
    assert main([str(src), "-D", "TABLE_SIZE=77", "-o", str(out)]) == EXIT_OK
    tables = json.loads(out.read_text())["pipelines"][0]["tables"]
    assert [t["max_size"] for t in tables if t["name"] == "IngressImpl.ipv4_lpm"] == [77]


def test_console_script_runs(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "p4sim-compile"
    proc = subprocess.run([str(exe), str(REFERENCE / "p4" / "multipath.p4"), "-o",
                           str(tmp_path / "m.json")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "m.json").is_file()


def test_warnings_are_printed_and_can_be_disabled(tmp_path: Path, capsys) -> None:
    src = tmp_path / "w.p4"
    src.write_text((REFERENCE / "p4" / "l3_lpm.p4").read_text().replace(
        "default: accept;", "default: reject;"))
    assert main([str(src), "-o", str(tmp_path / "w.json")]) == EXIT_OK
    assert ": warning: " in capsys.readouterr().err
    assert main([str(src), "--Wdisable", "-o", str(tmp_path / "w.json")]) == EXIT_OK
    assert capsys.readouterr().err == ""


def test_unknown_p4info_extension_is_a_usage_error(tmp_path: Path, capsys) -> None:
    code = main([str(REFERENCE / "p4" / "l3_lpm.p4"), "-o", str(tmp_path / "x.json"),
                 "--p4runtime-files", str(tmp_path / "x.yaml")])
    assert code == EXIT_USAGE
    assert "x.yaml" in capsys.readouterr().err


def test_conflicting_ids_are_a_program_error(tmp_path: Path, capsys) -> None:
    src = tmp_path / "ids.p4"
    src.write_text((REFERENCE / "p4" / "l3_lpm.p4").read_text()
                   .replace("action drop()", "@id(0x01000001) action drop()")
                   .replace("action forward(", "@id(0x01000001) action forward("))
    code = main([str(src), "-o", str(tmp_path / "x.json"),
                 "--p4runtime-files", str(tmp_path / "x.txtpb")])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.startswith(f"{src}: error: ") and "Traceback" not in err
