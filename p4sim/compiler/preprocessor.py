"""The C-style preprocessor P4 programs rely on, working on tokens so that every token
keeps the file and line it was written in (errors then point into included files).

Supported: ``#include <..>`` / ``"..."``, object- and function-like ``#define`` (with
``#`` stringizing and ``##`` pasting), ``#undef``, ``#if`` / ``#ifdef`` / ``#ifndef`` /
``#elif`` / ``#else`` / ``#endif`` with integer expressions and ``defined``, ``#error``,
``#warning``, ``#pragma once``; ``#line`` and other ``#pragma`` lines are ignored.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.lexer import parse_int_literal, stray_token_error, tokenize
from p4sim.compiler.pp_expr import evaluate_condition
from p4sim.compiler.tokens import IDENT, INTEGER, KEYWORD, OTHER, PUNCT, STRING, Token

_MAX_INCLUDE_DEPTH = 64
_COMMAND_LINE = SourceSpan("<command line>", 1, 1)


@dataclass(frozen=True)
class Macro:
    name: str
    body: tuple[Token, ...]
    params: tuple[str, ...] | None = None  # None for an object-like macro
    variadic: bool = False


@dataclass
class _Conditional:
    """One open ``#if`` group: whether the current branch is live, whether any branch
    was taken already, and whether ``#else`` has been seen."""

    span: SourceSpan
    active: bool
    taken: bool
    parent_active: bool
    seen_else: bool = False


# What p4c-bm2-ss defines before reading a program (its backend's -D__TARGET_BMV2__ and
# the front end's version macros), so '#ifdef __p4c__' picks the same branch with us.
PREDEFINED_MACROS = {
    "__TARGET_BMV2__": "1", "__p4c__": "1", "__p4c_major__": "1", "__p4c_minor__": "2",
    "__p4c_patchlevel__": "4", "__p4c_version__": '"1.2.4.8"',
}


@dataclass
class Preprocessor:
    """Expands one translation unit. Create one per compilation (it holds the macro
    table and the set of files included once)."""

    include_dirs: Sequence[str] = ()
    read_file: Callable[[str], str] = field(default=lambda p: Path(p).read_text(encoding="utf-8"))
    macros: dict[str, Macro] = field(default_factory=dict)
    _once: set[str] = field(default_factory=set)
    _token_cache: dict[str, list[Token]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, value in PREDEFINED_MACROS.items():
            if name not in self.macros:
                self.define_from_command_line(name, value)

    def define_from_command_line(self, name: str, value: str = "1") -> None:
        body = tuple(t.relocated(_COMMAND_LINE) for t in tokenize(value, "<command line>"))
        self.macros[name] = Macro(name, body)

    def process_file(self, path: str) -> list[Token]:
        return self.process_text(self.read_file(path), path)

    def process_text(self, text: str, filename: str) -> list[Token]:
        try:
            tokens = self._process(text, filename, depth=0)
        except RecursionError:
            raise CompileError(SourceSpan(filename, 1, 1), "macros nested too deeply to expand") from None
        for token in tokens:
            if token.kind == OTHER:
                raise stray_token_error(token)
        return tokens

    # ------------------------------------------------------------------ directives

    def _tokens_of(self, text: str, filename: str) -> list[Token]:
        """Tokens of a file; a file included many times (behind guards) is lexed once."""
        key = f"{filename}\0{len(text)}\0{hash(text)}"
        if key not in self._token_cache:
            self._token_cache[key] = tokenize(text, filename, lenient=True)
        return self._token_cache[key]

    def _process(self, text: str, filename: str, depth: int) -> list[Token]:
        tokens = self._tokens_of(text, filename)
        out: list[Token] = []
        conditionals: list[_Conditional] = []
        pending: list[Token] = []  # non-directive tokens awaiting macro expansion
        live = True
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.at_line_start and tok.text == "#" and tok.kind == PUNCT:
                end = i + 1
                while end < len(tokens) and not tokens[end].at_line_start:
                    end += 1
                out.extend(self._expand(pending))
                pending = []
                out.extend(self._directive(tok, tokens[i + 1:end], filename, depth, conditionals, live))
                live = all(c.active for c in conditionals)
                i = end
                continue
            if live:
                pending.append(tok)
            i += 1
        out.extend(self._expand(pending))
        if conditionals:
            raise CompileError(conditionals[-1].span, "unterminated conditional directive")
        return out

    def _directive(
        self, hash_tok: Token, line: list[Token], filename: str, depth: int,
        conditionals: list[_Conditional], live: bool,
    ) -> list[Token]:
        if not line:
            return []  # the null directive
        name_tok, args = line[0], line[1:]
        name = name_tok.text
        if name in ("if", "ifdef", "ifndef"):
            condition = live and self._condition(name, name_tok, args)
            conditionals.append(_Conditional(name_tok.span, condition, condition, live))
            return []
        if name in ("elif", "else", "endif"):
            if not conditionals:
                raise CompileError(name_tok.span, f"#{name} without #if")
            group = conditionals[-1]
            if name == "endif":
                conditionals.pop()
            elif group.seen_else:
                raise CompileError(name_tok.span, f"#{name} after #else")
            elif name == "else":
                group.seen_else = True
                group.active = group.parent_active and not group.taken
                group.taken = True
            else:
                take = group.parent_active and not group.taken and self._condition("if", name_tok, args)
                group.active = take
                group.taken = group.taken or take
            return []
        if not live:
            return []
        if name == "define":
            self._define(name_tok, args)
        elif name == "undef":
            self.macros.pop(self._macro_name(name_tok, args), None)
        elif name == "include":
            return self._include(name_tok, args, filename, depth)
        elif name == "error":
            raise CompileError(name_tok.span, "#error " + raw_text(args))
        elif name == "pragma":
            if args and args[0].text == "once":
                self._once.add(str(Path(filename).resolve()))
        elif name in ("warning", "line"):
            pass
        else:
            raise CompileError(name_tok.span, f"unknown preprocessor directive '#{name}'")
        return []

    def _macro_name(self, directive: Token, args: list[Token]) -> str:
        if not args or args[0].kind not in (IDENT, KEYWORD):
            raise CompileError(directive.span, f"#{directive.text} needs a macro name")
        return args[0].text

    def _define(self, directive: Token, args: list[Token]) -> None:
        name = self._macro_name(directive, args)
        rest = args[1:]
        if rest and rest[0].is_punct("(") and not rest[0].space_before:
            params: list[str] = []
            variadic = False
            j = 1
            while True:
                if j >= len(rest):
                    raise CompileError(args[0].span, f"unterminated parameter list of macro '{name}'")
                tok = rest[j]
                if tok.is_punct(")"):
                    j += 1
                    break
                if tok.is_punct("..") and j + 1 < len(rest) and rest[j + 1].is_punct("."):
                    variadic = True
                    j += 2
                    continue
                if tok.kind in (IDENT, KEYWORD):
                    params.append(tok.text)
                elif not tok.is_punct(","):
                    raise CompileError(tok.span, f"unexpected '{tok.text}' in macro parameter list")
                j += 1
            self.macros[name] = Macro(name, tuple(rest[j:]), tuple(params), variadic)
        else:
            self.macros[name] = Macro(name, tuple(rest))

    def _condition(self, kind: str, directive: Token, args: list[Token]) -> bool:
        if kind in ("ifdef", "ifndef"):
            defined = self._macro_name(directive, args) in self.macros
            return defined if kind == "ifdef" else not defined
        if not args:
            raise CompileError(directive.span, f"#{directive.text} with no expression")
        replaced = self._replace_defined(args)
        expanded = self._expand(replaced)
        return evaluate_condition(expanded, directive.span) != 0

    def _replace_defined(self, args: list[Token]) -> list[Token]:
        out: list[Token] = []
        i = 0
        while i < len(args):
            tok = args[i]
            if tok.kind == IDENT and tok.text == "defined":
                if i + 1 < len(args) and args[i + 1].is_punct("("):
                    if i + 3 >= len(args) or not args[i + 3].is_punct(")"):
                        raise CompileError(tok.span, "malformed 'defined(NAME)'")
                    name_tok, i = args[i + 2], i + 4
                elif i + 1 < len(args):
                    name_tok, i = args[i + 1], i + 2
                else:
                    raise CompileError(tok.span, "'defined' needs a macro name")
                value = "1" if name_tok.text in self.macros else "0"
                out.append(Token(INTEGER, value, tok.span, parse_int_literal(value, tok.span)))
                continue
            out.append(tok)
            i += 1
        return out

    def _include(self, directive: Token, args: list[Token], filename: str, depth: int) -> list[Token]:
        if depth >= _MAX_INCLUDE_DEPTH:
            raise CompileError(directive.span, "#include nested too deeply (recursive include?)")
        if args and args[0].kind == STRING:
            target, quoted = str(args[0].value), True
        elif args and args[0].is_punct("<"):
            closing = next((k for k, t in enumerate(args) if t.is_punct(">")), None)
            if closing is None:
                raise CompileError(directive.span, "missing '>' in #include")
            target, quoted = raw_text(args[1:closing], spaced=False), False
        else:
            raise CompileError(directive.span, '#include expects "FILE" or <FILE>')
        path = self._find_include(target, quoted, filename)
        if path is None:
            raise CompileError(directive.span, f"cannot find include file '{target}'")
        key = str(Path(path).resolve())
        if key in self._once:
            return []
        try:
            text = self.read_file(path)
        except OSError as exc:
            raise CompileError(directive.span, f"cannot read include file '{target}': {exc.strerror}") from None
        try:
            return self._process(text, path, depth + 1)
        except CompileError as exc:
            note = f"in file included from {directive.span}"
            raise CompileError(exc.span, exc.message, exc.notes + (note,)) from None

    def _find_include(self, target: str, quoted: bool, including_file: str) -> str | None:
        candidates: list[Path] = []
        if quoted:
            candidates.append(Path(including_file).parent / target)
        candidates.extend(Path(d) / target for d in self.include_dirs)
        for candidate in candidates:
            if candidate.is_file():
                return str(candidate)
        return None

    # ------------------------------------------------------------------ macro expansion

    def _expand(self, tokens: list[Token], hidden: frozenset[str] = frozenset()) -> list[Token]:
        """Macro-expand ``tokens``; ``hidden`` names are being expanded already (a macro
        never expands inside its own expansion)."""
        out: list[Token] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.kind == IDENT and tok.text in ("__LINE__", "__FILE__") and tok.text not in self.macros:
                out.append(_builtin_macro(tok))
                i += 1
                continue
            macro = self.macros.get(tok.text) if tok.kind in (IDENT, KEYWORD) else None
            if macro is None or tok.text in hidden:
                out.append(tok)
                i += 1
                continue
            if macro.params is None:
                body = [t.relocated(tok.span) for t in macro.body]
                out.extend(_spaced_like(tok, self._expand(body, hidden | {macro.name})))
                i += 1
                continue
            if i + 1 >= len(tokens) or not tokens[i + 1].is_punct("("):
                out.append(tok)  # a function-like macro name without arguments
                i += 1
                continue
            args, i = self._collect_args(tokens, i + 1, macro, tok)
            body = self._substitute(macro, args, tok, hidden)
            out.extend(_spaced_like(tok, self._expand(body, hidden | {macro.name})))
        return out

    def _collect_args(
        self, tokens: list[Token], open_index: int, macro: Macro, call: Token
    ) -> tuple[list[list[Token]], int]:
        args: list[list[Token]] = [[]]
        depth = 0
        i = open_index + 1
        while i < len(tokens):
            tok = tokens[i]
            if tok.is_punct("(") or tok.is_punct("{") or tok.is_punct("["):
                depth += 1
            elif tok.is_punct(")") and depth == 0:
                break
            elif tok.is_punct(")") or tok.is_punct("}") or tok.is_punct("]"):
                depth -= 1
            elif tok.is_punct(",") and depth == 0 and not (
                macro.variadic and len(args) > len(macro.params or ())
            ):
                args.append([])
                i += 1
                continue
            args[-1].append(tok)
            i += 1
        else:
            raise CompileError(call.span, f"unterminated argument list of macro '{macro.name}'")
        params = macro.params or ()
        if args == [[]] and not params:
            args = []
        expected = len(params) + (1 if macro.variadic else 0)
        if len(args) != expected and not (macro.variadic and len(args) == len(params)):
            raise CompileError(
                call.span, f"macro '{macro.name}' expects {expected} argument(s), got {len(args)}"
            )
        return args, i + 1

    def _substitute(
        self, macro: Macro, args: list[list[Token]], call: Token, hidden: frozenset[str]
    ) -> list[Token]:
        names = list(macro.params or ())
        if macro.variadic:
            names.append("__VA_ARGS__")
        bound = dict(zip(names, args))
        if macro.variadic and "__VA_ARGS__" not in bound:
            bound["__VA_ARGS__"] = []
        body = list(macro.body)
        out: list[Token] = []
        j = 0
        while j < len(body):
            tok = body[j]
            if tok.is_punct("#") and j + 1 < len(body) and body[j + 1].text in bound:
                text = raw_text(bound[body[j + 1].text])
                escaped = text.replace("\\", "\\\\").replace('"', '\\"')
                out.append(Token(STRING, f'"{escaped}"', call.span, text))
                j += 2
                continue
            if tok.is_punct("#") and j + 1 < len(body) and body[j + 1].is_punct("#"):
                j = self._paste(body, j, out, bound, call)
                continue
            if tok.text in bound and tok.kind in (IDENT, KEYWORD):
                pasted_next = j + 2 < len(body) and body[j + 1].is_punct("#") and body[j + 2].is_punct("#")
                arg = bound[tok.text]
                replacement = arg if pasted_next else self._expand(arg, hidden)
                out.extend(t.relocated(call.span) for t in replacement)
            else:
                out.append(tok.relocated(call.span))
            j += 1
        return out

    def _paste(self, body: list[Token], j: int, out: list[Token], bound: dict, call: Token) -> int:
        """Handle ``a ## b`` at body[j] == '#': glue the last output token to the next."""
        if not out or j + 2 >= len(body):
            raise CompileError(call.span, "'##' cannot appear at either end of a macro body")
        right = body[j + 2]
        right_tokens = bound.get(right.text, [right]) if right.kind in (IDENT, KEYWORD) else [right]
        left = out.pop()
        glued = left.text + (right_tokens[0].text if right_tokens else "")
        new_tokens = tokenize(glued, call.span.file, lenient=True)
        if len(new_tokens) == 1 or not right_tokens:
            out.extend(t.relocated(call.span) for t in new_tokens[:1])
        else:
            # Not one token: cpp in assembler mode (as p4c runs it) keeps both, side by
            # side with no space between (``bit<16> ## v4`` is ``bit<16>v4``).
            out.append(left)
            out.append(right_tokens[0].relocated(call.span)._replace(space_before=False))
        out.extend(t.relocated(call.span) for t in right_tokens[1:])
        return j + 3


def _builtin_macro(tok: Token) -> Token:
    """``__LINE__`` / ``__FILE__``: the line and file where they are used."""
    if tok.text == "__LINE__":
        text = str(tok.span.line)
        return Token(INTEGER, text, tok.span, parse_int_literal(text, tok.span), False, tok.space_before)
    escaped = tok.span.file.replace("\\", "\\\\").replace('"', '\\"')
    return Token(STRING, f'"{escaped}"', tok.span, tok.span.file, False, tok.space_before)


def _spaced_like(use: Token, expansion: list[Token]) -> list[Token]:
    """The first token of an expansion takes the spacing of the macro use it replaces."""
    if not expansion:
        return expansion
    first = expansion[0]._replace(space_before=use.space_before, at_line_start=False)
    return [first, *expansion[1:]]


def raw_text(tokens: Sequence[Token], spaced: bool = True) -> str:
    """Re-create source text from tokens (single spaces where there was whitespace)."""
    parts: list[str] = []
    for index, tok in enumerate(tokens):
        if spaced and index and tok.space_before:
            parts.append(" ")
        parts.append(tok.text)
    return "".join(parts)


def preprocess_file(
    path: str, include_dirs: Sequence[str] = (), defines: Mapping[str, str] | None = None
) -> list[Token]:
    pre = Preprocessor(include_dirs=tuple(include_dirs))
    for name, value in (defines or {}).items():
        pre.define_from_command_line(name, value)
    return pre.process_file(path)


def preprocess_text(
    text: str, filename: str = "<input>", include_dirs: Sequence[str] = (),
    defines: Mapping[str, str] | None = None,
) -> list[Token]:
    pre = Preprocessor(include_dirs=tuple(include_dirs))
    for name, value in (defines or {}).items():
        pre.define_from_command_line(name, value)
    return pre.process_text(text, filename)


