"""The compiler pipeline: parse, check, run the mid end, lower, emit BMv2 JSON and P4Info."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from p4sim.compiler.bmv2.json_text import dumps_indented
from p4sim.compiler.control_plane import ControlPlaneModel
from p4sim.compiler.errors import CompileError, CompileWarning

if TYPE_CHECKING:  # the stages themselves are imported when first used (start-up time)
    from p4sim.compiler import ast


@dataclass
class CompileResult:
    bmv2_json: dict
    control_plane: ControlPlaneModel
    warnings: list[CompileWarning] = field(default_factory=list)

    def json_text(self) -> str:
        return dumps_indented(self.bmv2_json) + "\n"


def compile_program(path: str, include_dirs: Sequence[str] = (),
                    defines: Mapping[str, str] | None = None,
                    preprocess: bool = True) -> CompileResult:
    """Compile one v1model program; raises CompileError for a bad program.
    ``preprocess=False`` (p4c's --nocpp) takes the file as already preprocessed."""
    from p4sim.compiler.bmv2.program import to_json
    from p4sim.compiler.lower.program import lower_program
    from p4sim.compiler.midend.pipeline import run_midend
    from p4sim.compiler.semantic.architecture import lowering_stops_at_main
    from p4sim.compiler.semantic.checker import check_every_body
    from p4sim.compiler.semantic.readonly import check_readonly_parameters
    program = parse_source(path, include_dirs, defines, preprocess)
    warnings = check_program(program)
    if lowering_stops_at_main(program):
        # lowering refuses a missing or foreign main before reading any body; p4c-bm2-ss
        # checks every body first
        check_every_body(program)
    try:
        lowering = lower_program(run_midend(program), path)
    except CompileError:
        raise
    except Exception:
        # lowering met something it was never meant to see: if the program is wrong,
        # the checker's located error is the one to give, not an internal error
        check_readonly_parameters(program)
        check_every_body(program)
        raise
    # after lowering, as p4c reports the errors of reachable code first; on the program
    # as written, since they cover the code nothing instantiates
    check_readonly_parameters(program)
    check_every_body(program)
    return CompileResult(to_json(lowering.program), lowering.cp,
                         warnings + lowering.warnings)


def check_program(program: ast.Program) -> list[CompileWarning]:
    """The checks and warnings that need the program as written, before the mid end
    rewrites it: raises CompileError for the first problem, returns the warnings."""
    from p4sim.compiler.semantic.declaration_order import check_declaration_order
    from p4sim.compiler.semantic.deprecated import deprecated_warnings
    from p4sim.compiler.semantic.structure import check_structure
    from p4sim.compiler.semantic.unused import unused_warnings
    check_structure(program)  # duplicates and misplaced statements, used or not
    check_declaration_order(program)  # as p4c resolves names: before any other check
    # p4c's type checker warns of deprecated uses before its front end's unused pass
    return deprecated_warnings(program) + unused_warnings(program)


def parse_source(path: str, include_dirs: Sequence[str] = (),
                 defines: Mapping[str, str] | None = None,
                 preprocess: bool = True) -> Any:
    """The program's AST (``ast.Program``), preprocessed or (--nocpp) not."""
    from p4sim.compiler.frontend import parse_program
    if preprocess:
        return parse_program(path, include_dirs, defines)
    from p4sim.compiler.errors import SourceSpan
    from p4sim.compiler.lexer import tokenize
    from p4sim.compiler.parser import parse_tokens
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise CompileError(SourceSpan(path, 0, 0), f"cannot read '{path}': {exc.strerror}") from None
    return parse_tokens(tokenize(text, path))


def preprocess_source(path: str, include_dirs: Sequence[str] = (),
                      defines: Mapping[str, str] | None = None) -> tuple[str, list[str]]:
    """p4c's -E and -M: the preprocessed program as text, and every file it read
    (the program first, then its includes in the order they were opened)."""
    from p4sim.compiler.errors import SourceSpan
    from p4sim.compiler.frontend import BUNDLED_INCLUDE_DIR
    from p4sim.compiler.preprocessor import Preprocessor
    files: list[str] = []

    def read(name: str) -> str:
        text = Path(name).read_text(encoding="utf-8")
        if name not in files:
            files.append(name)
        return text

    pre = Preprocessor(include_dirs=(*include_dirs, BUNDLED_INCLUDE_DIR), read_file=read)
    for name, value in (defines or {}).items():
        pre.define_from_command_line(name, value)
    try:
        tokens = pre.process_file(path)
    except OSError as exc:
        raise CompileError(SourceSpan(path, 0, 0), f"cannot read '{path}': {exc.strerror}") from None
    parts: list[str] = []
    for tok in tokens:
        if not tok.text:
            continue
        if tok.at_line_start and parts:
            parts.append("\n")
        elif tok.space_before and parts:
            parts.append(" ")
        parts.append(tok.text)
    return "".join(parts) + "\n", files


def write_p4info_as(result: CompileResult, path: str, fmt: str) -> None:
    """The deprecated ``--p4runtime-file PATH --p4runtime-format binary|json|text``:
    one P4Info file in the named format, whatever PATH's extension."""
    import os
    from p4sim.compiler.p4info import write_p4info
    extension = {"binary": ".bin", "json": ".json", "text": ".txt"}[fmt]
    staging = f"{path}.p4sim-tmp{extension}"
    try:
        write_p4info(result.control_plane, [staging])
        os.replace(staging, path)
    finally:
        if os.path.exists(staging):
            os.unlink(staging)


def write_outputs(result: CompileResult, json_path: str | None,
                  p4info_paths: Sequence[str] = ()) -> None:
    """Write the BMv2 JSON (to ``json_path``) and P4Info files (format by extension);
    nothing when the P4Info asked for cannot be built (see ControlPlaneModel.refusals)."""
    if p4info_paths and result.control_plane.refusals:
        raise result.control_plane.refusals[0]
    if json_path:
        with open(json_path, "w", encoding="utf-8") as out:
            out.write(result.json_text())
    if p4info_paths:
        from p4sim.compiler.p4info import write_p4info
        write_p4info(result.control_plane, list(p4info_paths))
