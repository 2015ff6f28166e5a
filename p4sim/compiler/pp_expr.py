"""Evaluating the integer expression of ``#if`` / ``#elif`` (C semantics, after macro
expansion and ``defined`` replacement; names left over count as 0)."""
from __future__ import annotations

from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.tokens import IDENT, INTEGER, KEYWORD, IntValue, Token

# Binary operators by precedence level, loosest first.
_LEVELS: tuple[tuple[str, ...], ...] = (
    ("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="),
    ("<<", ">>"), ("+", "-"), ("*", "/", "%"),
)


class _ConditionParser:
    def __init__(self, tokens: list[Token], span: SourceSpan):
        self._tokens = _join_shifts(tokens)
        self._pos = 0
        self._span = span

    def parse(self) -> int:
        value = self._ternary()
        if self._pos < len(self._tokens):
            tok = self._tokens[self._pos]
            raise CompileError(tok.span, f"unexpected '{tok.text}' in #if expression")
        return value

    def _peek(self) -> str | None:
        return self._tokens[self._pos].text if self._pos < len(self._tokens) else None

    def _take(self) -> Token:
        if self._pos >= len(self._tokens):
            raise CompileError(self._span, "unexpected end of #if expression")
        tok = self._tokens[self._pos]
        self._pos += 1
        return tok

    def _ternary(self) -> int:
        cond = self._binary(0)
        if self._peek() != "?":
            return cond
        self._take()
        then = self._ternary()
        if self._take().text != ":":
            raise CompileError(self._span, "expected ':' in #if expression")
        otherwise = self._ternary()
        return then if cond else otherwise

    def _binary(self, level: int) -> int:
        if level == len(_LEVELS):
            return self._unary()
        left = self._binary(level + 1)
        while self._peek() in _LEVELS[level]:
            op_tok = self._take()
            right = self._binary(level + 1)
            left = _apply(op_tok, left, right)
        return left

    def _unary(self) -> int:
        tok = self._take()
        if tok.text == "(":
            value = self._ternary()
            if self._take().text != ")":
                raise CompileError(tok.span, "missing ')' in #if expression")
            return value
        if tok.text == "!":
            return int(not self._unary())
        if tok.text == "~":
            return ~self._unary()
        if tok.text == "-":
            return -self._unary()
        if tok.text == "+":
            return self._unary()
        if tok.kind == INTEGER:
            assert isinstance(tok.value, IntValue)  # the lexer gives INTEGER tokens one
            return tok.value.value
        if tok.kind in (IDENT, KEYWORD):
            return 0
        raise CompileError(tok.span, f"unexpected '{tok.text}' in #if expression")


def _apply(op_tok: Token, left: int, right: int) -> int:
    op = op_tok.text
    if op in ("/", "%") and right == 0:
        raise CompileError(op_tok.span, "division by zero in #if expression")
    results = {
        "||": lambda: int(bool(left) or bool(right)),
        "&&": lambda: int(bool(left) and bool(right)),
        "|": lambda: left | right, "^": lambda: left ^ right, "&": lambda: left & right,
        "==": lambda: int(left == right), "!=": lambda: int(left != right),
        "<": lambda: int(left < right), ">": lambda: int(left > right),
        "<=": lambda: int(left <= right), ">=": lambda: int(left >= right),
        "<<": lambda: left << right, ">>": lambda: left >> right,
        "+": lambda: left + right, "-": lambda: left - right, "*": lambda: left * right,
        "/": lambda: int(left / right), "%": lambda: left - right * int(left / right),
    }
    return results[op]()


def _join_shifts(tokens: list[Token]) -> list[Token]:
    """The lexer emits ``>>`` as two ``>``; put adjacent pairs back together."""
    out: list[Token] = []
    for tok in tokens:
        if tok.is_punct(">") and not tok.space_before and out and out[-1].is_punct(">"):
            prev = out.pop()
            out.append(Token(prev.kind, ">>", prev.span))
        else:
            out.append(tok)
    return out


def evaluate_condition(tokens: list[Token], span: SourceSpan) -> int:
    return _ConditionParser(tokens, span).parse()
