"""p4sim-compile accepts every option of p4c-bm2-ss's recorded --help (and p4c's
``--p4v``), and acts on those it can: -E, -M and friends, -U, --Wdisable/--Werror,
--p4runtime-file/--p4runtime-format, --nocpp, --pp, --version.

The flags are read from tests/real_toolchain/toolchain/p4c-bm2-ss.help.txt.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from google.protobuf import json_format, text_format
from p4.config.v1 import p4info_pb2

from p4sim.compiler.cli import main

HELP = Path(__file__).resolve().parents[1] / "real_toolchain" / "toolchain" / "p4c-bm2-ss.help.txt"
PROGRAM = Path(__file__).resolve().parent / "golden" / "programs" / "g01_l2_exact.p4"
COMPILE = str(Path(sys.executable).with_name("p4sim-compile"))
EXITING = {"--help", "--version"}


@dataclass(frozen=True)
class HelpFlag:
    name: str
    value: str          # "none", "required" or "optional" (--Wdisable[=diagnostic])
    placeholder: str    # "path", "{p4-14|p4-16}", ...


_OPTION = re.compile(r"^(-[\w-]+)(\[=[^\]]*\])?(?: (\S+))?\s{2,}\S")


def help_flags(text: str) -> list[HelpFlag]:
    """Every option of p4c's help text: NAME[ ARG][=OPT]  description."""
    flags = []
    for line in text.splitlines():
        match = _OPTION.match(line)
        if match:
            name, optional, placeholder = match.groups()
            value = "optional" if optional else "required" if placeholder else "none"
            flags.append(HelpFlag(name, value, placeholder or ""))
    return flags


P4C_FLAGS = help_flags(HELP.read_text())


def sample_value(flag: HelpFlag, tmp: Path) -> str:
    files = {"-I": str(tmp), "-D": "X=1", "-U": "X", "-MF": str(tmp / "deps.d"),
             "--std": "p4-16", "--maxErrorCount": "3", "-T": "frontend.cpp:1",
             "--dump": str(tmp / "dump"), "--toJSON": str(tmp / "ir.json"),
             "--fromJSON": str(tmp / "ir.json"), "--pp": str(tmp / "pp.p4"),
             "--p4runtime-file": str(tmp / "p4info.bin"),
             "--p4runtime-entries-file": str(tmp / "entries.bin"),
             "--p4runtime-files": str(tmp / "p4info.txtpb"),
             "--p4runtime-entries-files": str(tmp / "entries.txtpb"),
             "--target": "bmv2", "--arch": "v1model", "-o": str(tmp / "out.json")}
    if flag.name in files:
        return files[flag.name]
    choices = re.fullmatch(r"\{([^}]*)\}", flag.placeholder)
    if choices:
        return re.split(r"[|,]", choices.group(1))[0]
    return "1"


def flag_words(flag: HelpFlag, tmp: Path, bare: bool = False) -> list[str]:
    if flag.value == "none" or (flag.value == "optional" and bare):
        return [flag.name]
    if flag.value == "optional":
        return [f"{flag.name}=unused"]
    return [flag.name, sample_value(flag, tmp)]


def test_the_help_file_yields_every_flag():
    names = [f.name for f in P4C_FLAGS]
    assert len(names) == len(set(names)) == 47, names
    assert {"-E", "-M", "-MD", "-MF", "-U", "-O", "--emit-externs", "--p4runtime-format",
            "--listMidendPasses"} <= set(names)
    assert {f.name for f in P4C_FLAGS if f.value == "optional"} == {
        "--disable-annotations", "--Wdisable", "--Winfo", "--Wwarn", "--Werror"}


@pytest.mark.parametrize("flag", [f for f in P4C_FLAGS if f.name not in EXITING],
                         ids=lambda f: f.name)
def test_every_flag_of_p4c_bm2_ss_is_accepted(flag, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    program = PROGRAM
    if flag.name == "--nocpp":   # an already preprocessed program
        assert main(["-E", str(PROGRAM)]) == 0
        program = tmp_path / "pre.p4"
        program.write_text(capsys.readouterr().out)
    for bare in (False, True) if flag.value == "optional" else (False,):
        status = main([*flag_words(flag, tmp_path, bare), str(program)])
        err = capsys.readouterr().err
        assert status == 0, err
        assert ": error:" not in err, err


def test_help_and_version_exit_0():
    done = subprocess.run([COMPILE, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "--p4runtime-files" in done.stdout
    for flag in P4C_FLAGS:
        if flag.name != "-O":   # -O[LEVEL] is in the epilog
            assert re.search(rf"(^|\s){re.escape(flag.name)}[\s=\[]", done.stdout), flag.name
    done = subprocess.run([COMPILE, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert re.fullmatch(r"p4sim-compile\nVersion \d+\.\d+\.\d+ .*\n", done.stdout), done.stdout


def test_p4v_16_compiles_and_p4_14_is_refused(tmp_path, capsys):
    out = tmp_path / "out.json"
    assert main(["--p4v", "16", "-o", str(out), str(PROGRAM)]) == 0
    assert json.loads(out.read_text())["__meta__"]["version"][0] == 2
    assert main(["--p4v", "14", str(PROGRAM)]) == 2
    assert main(["--std", "p4-14", str(PROGRAM)]) == 2
    assert "P4_14" in capsys.readouterr().err


def test_no_effect_options_are_noted_once_each(tmp_path, capsys):
    argv = ["-O2", "--emit-externs", "-v", "-v", "-v", "--Winfo=foo", "--top4", "X",
            "-o", str(tmp_path / "o.json"), str(PROGRAM)]
    assert main(argv) == 0
    err = capsys.readouterr().err
    for flag in ("-O", "--emit-externs", "-v", "--Winfo=foo", "--top4"):
        assert err.count(f"note: {flag} has no effect") == 1, (flag, err)


def test_preprocess_only_prints_the_program(tmp_path, capsys):
    source = tmp_path / "m.p4"
    source.write_text('#include "v.p4"\n#define W 8\nconst bit<W> A = VAL;\n'
                      '#ifdef GONE\nconst bit<8> B = 2;\n#endif\n')
    (tmp_path / "v.p4").write_text("#define VAL 3\n")
    assert main(["-E", "-DGONE", "-UGONE", str(source)]) == 0
    out = capsys.readouterr().out
    assert out == "const bit<8> A = 3;\n", out


def test_dependency_rules(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["-M", str(PROGRAM)]) == 0
    rule = capsys.readouterr().out
    target, deps = rule.split(":", 1)
    assert target == "g01_l2_exact.o"
    assert deps.split()[0] == str(PROGRAM) and deps.split()[1].endswith("core.p4")
    assert main(["-M", "-MP", "-MQ", "a$b", "-MF", "deps.d", str(PROGRAM)]) == 0
    text = (tmp_path / "deps.d").read_text()
    assert text.startswith("a$$b: ") and re.search(r"\n\S*v1model\.p4:\n", text), text
    assert main(["-MD", "-o", "prog.json", str(PROGRAM)]) == 0  # compiles too
    assert (tmp_path / "prog.json").exists()
    assert (tmp_path / "prog.d").read_text().startswith("g01_l2_exact.o: ")


def _warning_program(tmp_path: Path) -> Path:
    source = tmp_path / "warn.p4"
    text = PROGRAM.read_text().replace("size = 256;", "size = 256;\n    bogus_property = 1;")
    assert text != PROGRAM.read_text()
    source.write_text(text)
    return source


def test_wdisable_and_werror_act_on_warnings(tmp_path, capsys):
    source = _warning_program(tmp_path)
    out = tmp_path / "out.json"
    assert main(["-o", str(out), str(source)]) == 0
    assert ": warning: unknown table property" in capsys.readouterr().err
    assert main(["--Wdisable", "-o", str(out), str(source)]) == 0
    assert capsys.readouterr().err == ""
    out.unlink()
    assert main(["--Werror", "-o", str(out), str(source)]) == 1
    assert ": error: unknown table property" in capsys.readouterr().err
    assert not out.exists()
    assert main(["--Werror", str(PROGRAM), "-o", str(out)]) == 0   # no warnings: fine


@pytest.mark.parametrize("fmt", ["binary", "json", "text"])
def test_deprecated_p4runtime_file_and_format(tmp_path, fmt):
    path = tmp_path / "p4info.out"
    argv = ["--p4runtime-file", str(path), "-o", str(tmp_path / "o.json"), str(PROGRAM)]
    if fmt != "binary":
        argv[2:2] = ["--p4runtime-format", fmt]
    assert main(argv) == 0
    info = p4info_pb2.P4Info()
    if fmt == "binary":
        info.ParseFromString(path.read_bytes())
    elif fmt == "json":
        json_format.Parse(path.read_text(), info)
    else:
        text_format.Parse(path.read_text(), info)
    assert [t.preamble.name for t in info.tables] == ["IngressImpl.dmac"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.json", "p4info.out"]


def test_nocpp_and_pp(tmp_path, capsys):
    assert main(["--pp", str(tmp_path / "pp.p4"), "-o", str(tmp_path / "a.json"),
                 str(PROGRAM)]) == 0
    pretty = (tmp_path / "pp.p4").read_text()
    assert "table dmac" in pretty and "#include" not in pretty
    assert main(["--nocpp", str(PROGRAM)]) == 1   # its #include is not preprocessed
    assert "error" in capsys.readouterr().err
