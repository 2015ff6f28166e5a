"""The token cursor every part of the recursive-descent parser stands on: look-ahead,
expectation with located errors, backtracking, and the scoped set of type names the
grammar needs to tell declarations from expressions (``T x;`` versus ``f(x);``,
``(T) e`` versus ``(e)``)."""
from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator, Sequence, TypeVar

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.tokens import EOF, IDENT, KEYWORD, PUNCT, Token

T = TypeVar("T")


class ParserBase:
    def __init__(self, tokens: Sequence[Token]):
        self._tokens = list(tokens)
        last = self._tokens[-1].span if self._tokens else SourceSpan("<input>", 1, 1)
        self._eof = Token(EOF, "<end of input>", last)
        self._pos = 0
        self._type_scopes: list[set[str]] = [set()]

    # ------------------------------------------------------------------ looking

    def _peek(self, offset: int = 0) -> Token:
        index = self._pos + offset
        return self._tokens[index] if index < len(self._tokens) else self._eof

    def _at(self, text: str, offset: int = 0) -> bool:
        """True when the token at ``offset`` is the punctuator or keyword ``text``."""
        tok = self._peek(offset)
        return tok.kind in (PUNCT, KEYWORD) and tok.text == text

    def _at_word(self, text: str, offset: int = 0) -> bool:
        """True for an identifier with this text (soft keywords like ``apply``)."""
        tok = self._peek(offset)
        return tok.kind == IDENT and tok.text == text

    def _at_ident(self, offset: int = 0) -> bool:
        return self._peek(offset).kind == IDENT

    def _at_eof(self) -> bool:
        return self._pos >= len(self._tokens)

    def _at_shift_right(self) -> bool:
        """Two ``>`` with nothing between them are a right shift in expressions."""
        return self._at(">") and self._at(">", 1) and not self._peek(1).space_before

    # ------------------------------------------------------------------ consuming

    def _advance(self) -> Token:
        tok = self._peek()
        if tok.kind != EOF:
            self._pos += 1
        return tok

    def _accept(self, text: str) -> Token | None:
        if self._at(text):
            return self._advance()
        return None

    def _expect(self, text: str, context: str = "") -> Token:
        if self._at(text):
            return self._advance()
        message = f"expected '{text}'" + (f" {context}" if context else "")
        if text == ";" and self._pos > 0 and self._peek().span.line != self._tokens[self._pos - 1].span.line:
            # A forgotten ';' at the end of a line: point where it belongs, not at the next line.
            raise CompileError(self._span_after_previous(), message)
        raise self._error_here(message)

    def _expect_closing(self, text: str, opening: Token, what: str) -> Token:
        """Expect the bracket that closes ``opening``; the error notes where it opened."""
        if self._at(text):
            return self._advance()
        error = self._error_here(f"expected '{text}' to close {what}")
        raise CompileError(error.span, error.message, (f"{what} opened here: {opening.span}",))

    def _span_after_previous(self) -> SourceSpan:
        prev = self._tokens[self._pos - 1]
        return SourceSpan(prev.span.file, prev.span.line, prev.span.col + len(prev.text), prev.span.source_line)

    def _expect_name(self, what: str = "a name") -> Token:
        tok = self._peek()
        if tok.kind == IDENT:
            return self._advance()
        if tok.kind == KEYWORD:
            raise CompileError(tok.span, f"expected {what}, found keyword '{tok.text}'")
        raise self._error_here(f"expected {what}")

    def _error_here(self, message: str) -> CompileError:
        tok = self._peek()
        found = "end of input" if tok.kind == EOF else f"'{tok.text}'"
        span = tok.span
        if tok.kind == EOF and self._tokens:
            self._pos = len(self._tokens)
            span = self._span_after_previous()
        return CompileError(span, f"{message}, found {found}")

    def _comma_list(self, item: Callable[[], T], closing: str) -> tuple[T, ...]:
        """``[ item ( ',' item )* ]``: empty when the next token is ``closing`` (which
        the caller then expects)."""
        if self._at(closing):
            return ()
        items = [item()]
        while self._accept(","):
            items.append(item())
        return tuple(items)

    # ------------------------------------------------------------------ backtracking

    def _try(self, method: Callable[..., T], *args: object) -> T | None:
        """Run ``method``; on a syntax error rewind and return None. Used only where the
        grammar needs unbounded look-ahead (type arguments, casts, tuple keysets)."""
        saved_pos = self._pos
        saved_depth = len(self._type_scopes)
        try:
            return method(*args)
        except CompileError:
            self._pos = saved_pos
            del self._type_scopes[saved_depth:]
            return None

    # ------------------------------------------------------------------ type names

    def _declare_type(self, name: str) -> None:
        self._type_scopes[-1].add(name)

    def _is_type_name(self, name: str) -> bool:
        return any(name in scope for scope in self._type_scopes)

    @contextmanager
    def _type_scope(self, names: Sequence[str] = ()) -> Iterator[None]:
        self._type_scopes.append(set(names))
        try:
            yield
        finally:
            self._type_scopes.pop()
