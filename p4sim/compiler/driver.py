"""The compiler pipeline: parse, analyse and lower, emit BMv2 JSON and P4Info."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from p4sim.compiler.bmv2.json_text import dumps_indented
from p4sim.compiler.control_plane import ControlPlaneModel
from p4sim.compiler.errors import CompileWarning


@dataclass
class CompileResult:
    bmv2_json: dict
    control_plane: ControlPlaneModel
    warnings: list[CompileWarning] = field(default_factory=list)

    def json_text(self) -> str:
        return dumps_indented(self.bmv2_json) + "\n"


def compile_program(path: str, include_dirs: Sequence[str] = (),
                    defines: Mapping[str, str] | None = None) -> CompileResult:
    """Compile one v1model program; raises CompileError for a bad program."""
    from p4sim.compiler.bmv2.program import to_json
    from p4sim.compiler.frontend import parse_program
    from p4sim.compiler.lower.program import lower_program
    program = parse_program(path, include_dirs, defines)
    lowering = lower_program(program, path)
    return CompileResult(to_json(lowering.program), lowering.cp, lowering.warnings)


def write_outputs(result: CompileResult, json_path: str | None,
                  p4info_paths: Sequence[str] = ()) -> None:
    """Write the BMv2 JSON (to ``json_path``) and P4Info files (format by extension)."""
    if json_path:
        with open(json_path, "w", encoding="utf-8") as out:
            out.write(result.json_text())
    if p4info_paths:
        from p4sim.compiler.p4info import write_p4info
        write_p4info(result.control_plane, list(p4info_paths))
