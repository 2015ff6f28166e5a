"""Compile a program with p4sim in-process, keeping everything p4sim-compile would print
or write (verdict, messages, JSON, P4Info), for comparison with p4c's."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from p4sim.compiler.errors import CompileError


@dataclass
class P4simBuild:
    accepted: bool
    errors: list[str] = field(default_factory=list)  # rendered, as p4sim-compile prints them
    error_location: tuple[str, int] | None = None  # (file, line) of the first error
    warnings: list[str] = field(default_factory=list)
    bmv2_json: dict[str, Any] | None = None
    p4info_text: str | None = None


def build(p4_path: str, include_dirs: list[str] | None = None) -> P4simBuild:
    """What ``p4sim-compile -o X.json --p4runtime-files X.p4info.txtpb`` produces."""
    from p4sim.compiler.driver import compile_program
    from p4sim.compiler.p4info import message
    from p4sim.compiler.p4info.builder import build_p4info_message
    from p4sim.compiler.p4info.errors import P4InfoError
    try:
        result = compile_program(p4_path, include_dirs or [])
        p4info = message.to_text(build_p4info_message(result.control_plane))
    except CompileError as error:
        return P4simBuild(False, [error.render()], (error.span.file, error.span.line))
    except P4InfoError as error:
        return P4simBuild(False, [f"{p4_path}: error: {error}"])
    except Exception as error:  # noqa: BLE001 - a crash is p4sim's verdict on the program
        return P4simBuild(False, [f"internal compiler error: {type(error).__name__}: {error}"])
    return P4simBuild(True, [], None, [w.render() for w in result.warnings], result.bmv2_json, p4info)
