"""P4Info's pkg_info from the main instantiation, as p4c fills it: the keys of every
@pkginfo annotation (name, version, organization, contact, url, and arch, which the
compiler normally sets and a program overrides only with a warning), the other
annotations, and @brief/@description as documentation."""
from __future__ import annotations

import re

from p4sim.compiler import ast
from p4sim.compiler.control_plane import PackageInfo
from p4sim.compiler.errors import CompileError
from p4sim.compiler.lower.context import Lowering
from p4sim.compiler.lower.naming import cp_extras

STRING_KEYS = ("name", "version", "organization", "contact", "url")

_PAIR = re.compile(r'\s*([A-Za-z_]\w*)\s*=\s*("(?:[^"\\]|\\.)*"|[^,]*?)\s*(?:,|$)')


def package_info(lw: Lowering, main: ast.Instantiation) -> PackageInfo:
    fields: dict[str, str] = {}
    for annot in main.annotations:
        if annot.name != "pkginfo":
            continue
        for key, value in _pairs(annot):
            if key == "arch":
                lw.warn(annot.span, f"The '{key}' field in PkgInfo should be set by the "
                        "compiler, not by the user")
            elif key not in STRING_KEYS:
                lw.warn(annot.span, f"Unknown key name '{key}' in @pkginfo annotation")
                continue
            if not (len(value) >= 2 and value[0] == value[-1] == '"'):
                raise CompileError(annot.span, f"Value for '{key}' key in @pkginfo "
                                   "annotation is not a string")
            if key in fields:
                raise CompileError(annot.span, f"duplicate key '{key}' in @pkginfo")
            fields[key] = _unescape(value[1:-1])
    others = tuple(a for a in main.annotations if a.name != "pkginfo")
    return PackageInfo("main", tuple(fields.items()), **cp_extras(others))


def _pairs(annot: ast.Annotation) -> list[tuple[str, str]]:
    body = (annot.body or "").strip()
    pairs: list[tuple[str, str]] = []
    position = 0
    while position < len(body):
        match = _PAIR.match(body, position)
        if match is None or match.end() == position:
            raise CompileError(annot.span, "@pkginfo takes key = \"value\" pairs, not "
                               f"'{body[position:]}'")
        pairs.append((match.group(1), match.group(2)))
        position = match.end()
    return pairs


def _unescape(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text)
