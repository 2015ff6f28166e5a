"""Grammar rules for types: base types, named and specialized types, tuples, header
stacks, type parameters and type arguments."""
from __future__ import annotations

from typing import TYPE_CHECKING

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.parser_base import ParserBase
from p4sim.compiler.tokens import IDENT, INTEGER, KEYWORD

# Keywords that begin a type.
TYPE_KEYWORDS = frozenset({"bit", "int", "varbit", "bool", "string", "void", "error", "match_kind", "tuple"})


class TypeRules(ParserBase):
    """Mixin: needs ``_parse_expression`` from the expression rules."""

    if TYPE_CHECKING:  # defined by ExpressionRules, a subclass of this one
        def _parse_expression(self) -> ast.Expression: ...
        def _parse_primary(self) -> ast.Expression: ...

    def _at_type_start(self, offset: int = 0) -> bool:
        """Whether a type can begin here, judging by the first token(s)."""
        tok = self._peek(offset)
        if tok.kind == KEYWORD:
            return tok.text in TYPE_KEYWORDS
        if tok.kind == IDENT:
            return self._is_type_name(tok.text)
        if tok.is_punct(".") and self._peek(offset + 1).kind == IDENT:
            return self._is_type_name(self._peek(offset + 1).text)
        return False

    # BNF: type_ref : non_stack_type ( '[' expression ']' )*
    def _parse_type_ref(self) -> ast.Type:
        result = self._parse_non_stack_type()
        while self._at("["):
            open_tok = self._advance()
            size = self._parse_expression()
            self._expect("]", "after header stack size")
            result = ast.StackType(result, size, span=open_tok.span)
        return result

    # BNF: non_stack_type : base_type | tuple_type | type_name [ type_args ]
    def _parse_non_stack_type(self) -> ast.Type:
        tok = self._peek()
        if tok.kind == KEYWORD and tok.text == "tuple":
            return self._parse_tuple_type()
        if tok.kind == KEYWORD and tok.text in TYPE_KEYWORDS:
            return self._parse_base_type()
        if tok.kind == IDENT or (tok.is_punct(".") and self._peek(1).kind == IDENT):
            return self._parse_named_type()
        raise self._error_here("expected a type")

    # BNF: base_type : BOOL | STRING | VOID | ERROR | MATCH_KIND | INT
    #                | BIT [ '<' width '>' ] | INT '<' width '>' | VARBIT '<' width '>'
    def _parse_base_type(self) -> ast.Type:
        tok = self._advance()
        span = tok.span
        simple = {
            "bool": ast.BoolType, "string": ast.StringType, "void": ast.VoidType,
            "error": ast.ErrorType, "match_kind": ast.MatchKindType,
        }
        if tok.text in simple:
            return simple[tok.text](span=span)
        if tok.text == "int" and not self._at("<"):
            return ast.IntType(span=span)
        if tok.text == "bit" and not self._at("<"):
            return ast.BitType(ast.IntLiteral(1, text="1", span=span), span=span)
        self._expect("<", f"after '{tok.text}'")
        width = self._parse_width()
        self._expect(">", f"to close the width of '{tok.text}'")
        if tok.text == "varbit":
            return ast.VarbitType(width, span=span)
        return ast.BitType(width, signed=tok.text == "int", span=span)

    # BNF: width : INTEGER | '(' expression ')'
    def _parse_width(self) -> ast.Expression:
        tok = self._peek()
        if tok.kind == INTEGER:
            return self._parse_primary()
        if tok.kind == IDENT:
            # p4c rejects it too; say how to write it instead of a bare "expected".
            raise CompileError(
                tok.span, f"a width that is not an integer literal must be parenthesized: ({tok.text})"
            )
        if tok.is_punct("("):
            self._advance()
            width = self._parse_expression()
            self._expect(")", "to close the width expression")
            return width
        raise self._error_here("expected a width (an integer literal or '(expression)')")

    # BNF: tuple_type : TUPLE '<' [ type_arg ( ',' type_arg )* ] '>'
    def _parse_tuple_type(self) -> ast.Type:
        tok = self._advance()
        return ast.TupleType(self._parse_type_args(), span=tok.span)

    # BNF: type_name : [ '.' ] IDENT [ type_args ]
    def _parse_named_type(self) -> ast.Type:
        first = self._peek()
        top_level = self._accept(".") is not None
        name = self._expect_name("a type name")
        type_args: tuple[ast.Type, ...] = ()
        if self._at("<"):
            type_args = self._parse_type_args()
        return ast.NamedType(name.text, type_args, top_level, span=first.span)

    # BNF: type_args : '<' [ type_arg ( ',' type_arg )* ] '>'
    def _parse_type_args(self) -> tuple[ast.Type, ...]:
        self._expect("<", "to open type arguments")
        args = self._comma_list(self._parse_type_arg, ">")
        self._expect(">", "to close type arguments")
        return args

    # BNF: type_arg : '_' | type_ref
    def _parse_type_arg(self) -> ast.Type:
        tok = self._peek()
        if tok.kind == IDENT and tok.text == "_":
            self._advance()
            return ast.DontCareType(span=tok.span)
        return self._parse_type_ref()

    # BNF: type_params : '<' IDENT ( ',' IDENT )* '>'
    def _parse_type_params(self) -> tuple[ast.TypeParameter, ...]:
        if not self._at("<"):
            return ()
        self._advance()
        params = [self._parse_type_param()]
        while self._accept(","):
            params.append(self._parse_type_param())
        self._expect(">", "to close type parameters")
        return tuple(params)

    # BNF: type_param : IDENT
    def _parse_type_param(self) -> ast.TypeParameter:
        tok = self._expect_name("a type parameter name")
        return ast.TypeParameter(tok.text, span=tok.span)
