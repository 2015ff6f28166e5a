"""Grammar rules for expressions, with P4_16's operator precedence (which differs from
C: ``&``, ``^`` and ``|`` bind tighter than comparisons), plus arguments, annotations and
the keyset expressions of ``select`` and ``const entries``."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError, SourceSpan
from p4sim.compiler.parser_types import TYPE_KEYWORDS, TypeRules
from p4sim.compiler.preprocessor import raw_text
from p4sim.compiler.tokens import IDENT, INTEGER, KEYWORD, PUNCT, STRING, IntValue, Token

# Binary operators by precedence level, loosest first.
BINARY_LEVELS: tuple[tuple[str, ...], ...] = (
    ("||",),
    ("&&",),
    ("==", "!="),
    ("<", ">", "<=", ">="),
    ("|",),
    ("^",),
    ("&",),
    ("<<", ">>"),
    ("++", "+", "-", "|+|", "|-|"),
    ("*", "/", "%"),
)
PRECEDENCE = {op: level for level, ops in enumerate(BINARY_LEVELS) for op in ops}


class ExpressionRules(TypeRules):
    # BNF: expression : binary_expression [ '?' expression ':' expression ]
    def _parse_expression(self) -> ast.Expression:
        cond = self._parse_binary(0)
        if not self._at("?"):
            return cond
        self._advance()
        then = self._parse_expression()
        self._expect(":", "in conditional expression")
        otherwise = self._parse_expression()
        return ast.Ternary(cond, then, otherwise, span=cond.span)

    # BNF: binary_expression : prefix_expression ( binary_op prefix_expression )*
    #   (precedence climbing over BINARY_LEVELS; every level is left associative)
    def _parse_binary(self, min_level: int) -> ast.Expression:
        left = self._parse_prefix()
        while True:
            op = self._binary_op_here()
            if op is None or PRECEDENCE[op] < min_level:
                return left
            self._advance()
            if op == ">>":
                self._advance()
            right = self._parse_binary(PRECEDENCE[op] + 1)
            left = ast.Binary(op, left, right, span=left.span)

    def _binary_op_here(self) -> str | None:
        tok = self._peek()
        if tok.kind != PUNCT or tok.text not in PRECEDENCE:
            return None
        if tok.text == ">" and self._at_shift_right():
            return ">>"
        if tok.text == "+" and self._at_plus_slice():
            return None  # ``e[lo +: width]``: the slice's operator, not an addition
        return tok.text

    def _at_plus_slice(self) -> bool:
        return self._at("+") and self._at(":", 1) and not self._peek(1).space_before

    # BNF: prefix_expression : ( '!' | '~' | '-' | '+' ) prefix_expression
    #                        | '(' type_ref ')' prefix_expression
    #                        | postfix_expression
    def _parse_prefix(self) -> ast.Expression:
        tok = self._peek()
        if tok.kind == PUNCT and tok.text in ("!", "~", "-", "+"):
            self._advance()
            return ast.Unary(tok.text, self._parse_prefix(), span=tok.span)
        if tok.is_punct("("):
            cast_type = self._try(self._parse_cast_prefix)
            if cast_type is not None:
                operand = self._parse_prefix()
                if isinstance(operand, ast.StructExpression) and operand.type is None:
                    return ast.StructExpression(cast_type, operand.fields, operand.rest,
                                                span=tok.span)
                if isinstance(operand, ast.InvalidHeader) and operand.type is None:
                    return ast.InvalidHeader(cast_type, span=tok.span)
                return ast.Cast(cast_type, operand, span=tok.span)
        return self._parse_postfix(self._parse_primary())

    def _parse_cast_prefix(self) -> ast.Type:
        """``( type_ref )`` where a cast is meant: a type keyword, or a known type name
        that is the whole content of the parentheses (``(E.A)`` stays an expression)."""
        self._expect("(")
        tok = self._peek()
        if tok.kind == KEYWORD and tok.text == "error" and not self._at(")", 1):
            raise self._error_here("not a cast")
        if not self._at_type_start():
            raise self._error_here("not a cast")
        cast_type = self._parse_type_ref()
        self._expect(")")
        nxt = self._peek()
        if nxt.kind == PUNCT and nxt.text not in ("(", "{", "!", "~", "-", "+", "."):
            raise self._error_here("not a cast")
        if nxt.kind == "EOF":
            raise self._error_here("not a cast")
        return cast_type

    # BNF: postfix_expression : primary ( '.' member | '[' expression [ ':' expression ] ']'
    #                                   | [ type_args ] '(' arguments ')' )*
    def _parse_postfix(self, expr: ast.Expression) -> ast.Expression:
        while True:
            if self._at("."):
                self._advance()
                member = self._peek()
                if member.kind not in (IDENT, KEYWORD):
                    raise self._error_here("expected a member name after '.'")
                self._advance()
                expr = ast.Member(expr, member.text, span=expr.span)
            elif self._at("["):
                self._advance()
                index = self._parse_expression()
                if self._at_plus_slice():
                    # ``e[lo +: w]`` is ``e[lo + w - 1 : lo]`` (P4_16 bit slices)
                    self._advance()
                    self._advance()
                    width = self._parse_expression()
                    self._expect("]", "to close the bit slice")
                    one = ast.IntLiteral(1, span=width.span)
                    high = ast.Binary("+", index, ast.Binary("-", width, one, span=width.span),
                                      span=index.span)
                    expr = ast.Slice(expr, high, index, span=expr.span)
                elif self._accept(":"):
                    low = self._parse_expression()
                    self._expect("]", "to close the bit slice")
                    expr = ast.Slice(expr, index, low, span=expr.span)
                else:
                    self._expect("]", "to close the index")
                    expr = ast.ArrayIndex(expr, index, span=expr.span)
            elif self._at("("):
                args = self._parse_arguments()
                expr = ast.MethodCall(expr, (), args, span=expr.span)
            elif self._at("<") and isinstance(expr, (ast.Name, ast.Member)):
                type_args = self._try(self._parse_call_type_args)
                if type_args is None:
                    return expr
                args = self._parse_arguments()
                expr = ast.MethodCall(expr, type_args, args, span=expr.span)
            else:
                return expr

    def _parse_call_type_args(self) -> tuple[ast.Type, ...]:
        """Type arguments of a call: only when every argument is a known type (or ``_``)
        and ``<...>`` is followed by ``(``, so ``f(a < b, c > (d))`` stays two comparisons."""
        depth = 0
        for offset in range(len(self._tokens) - self._pos):
            tok = self._peek(offset)
            if tok.kind == PUNCT and tok.text in (";", "{", "}"):
                raise self._error_here("not a generic call")
            if tok.is_punct("<"):
                depth += 1
            elif tok.is_punct(">"):
                depth -= 1
                if depth == 0:
                    break
            if depth == 1 and (tok.is_punct("<") or tok.is_punct(",")):
                if not (self._at_type_start(offset + 1) or self._peek(offset + 1).text == "_"):
                    raise self._error_here("not a generic call")
        type_args = self._parse_type_args()
        if not self._at("("):
            raise self._error_here("not a generic call")
        return type_args

    # BNF: primary : INTEGER | TRUE | FALSE | STRING | '_' | DEFAULT
    #              | [ '.' ] IDENT | type_name [ type_args ] '(' arguments ')'
    #              | type_keyword_type | '(' expression ')'
    #              | '{' [ expression_list | named_field_list ] '}'
    def _parse_primary(self) -> ast.Expression:
        tok = self._peek()
        span = tok.span
        if tok.kind == INTEGER:
            self._advance()
            value: IntValue = tok.value  # type: ignore[assignment]
            return ast.IntLiteral(value.value, value.width, value.signed, tok.text, span=span)
        if tok.kind == STRING:
            self._advance()
            return ast.StringLiteral(str(tok.value), span=span)
        if tok.kind == KEYWORD:
            if tok.text in ("true", "false"):
                self._advance()
                return ast.BoolLiteral(tok.text == "true", span=span)
            if tok.text == "default":
                self._advance()
                return ast.DefaultExpression(span=span)
            if tok.text in TYPE_KEYWORDS:
                return ast.TypeNameExpression(self._parse_non_stack_type(), span=span)
            raise CompileError(span, f"expected an expression, found keyword '{tok.text}'")
        if tok.is_punct("("):
            self._advance()
            inner = self._parse_expression()
            self._expect(")", "to close the parenthesized expression")
            return inner
        if tok.is_punct("{"):
            return self._parse_initializer_list()
        if tok.is_punct(".") and self._peek(1).kind == IDENT:
            self._advance()
            return self._parse_name_or_constructor(top_level=True)
        if tok.kind == IDENT:
            if tok.text == "_":
                self._advance()
                return ast.DontCare(span=span)
            return self._parse_name_or_constructor(top_level=False)
        raise self._error_here("expected an expression")

    def _parse_name_or_constructor(self, top_level: bool) -> ast.Expression:
        tok = self._advance()
        if self._is_type_name(tok.text):
            if self._at("("):
                named = ast.NamedType(tok.text, (), top_level, span=tok.span)
                return ast.ConstructorCall(named, self._parse_arguments(), span=tok.span)
            if self._at("<"):
                type_args = self._try(self._parse_call_type_args)
                if type_args is not None:
                    named = ast.NamedType(tok.text, type_args, top_level, span=tok.span)
                    return ast.ConstructorCall(named, self._parse_arguments(), span=tok.span)
        return ast.Name(tok.text, top_level, span=tok.span)

    # BNF: initializer_list : '{' '}' | '{' expression ( ',' expression )* [ ',' ] '}'
    #                       | '{' IDENT '=' expression ( ',' IDENT '=' expression )*
    #                             [ ',' '...' ] [ ',' ] '}'
    #                       | '{' '...' '}' | '{' '#' '}'
    def _parse_initializer_list(self) -> ast.Expression:
        open_tok = self._expect("{")
        if self._at("#") and self._at("}", 1):
            self._advance()
            self._advance()
            return ast.InvalidHeader(None, span=open_tok.span)
        if self._accept_dots():
            self._expect("}", "after '...'")
            return ast.StructExpression(None, (), True, span=open_tok.span)
        if self._at_ident() and self._at("=", 1):
            fields: list[ast.NamedField] = []
            rest = False
            while not self._at("}"):
                if self._accept_dots():
                    rest = True
                    break
                name = self._expect_name("a field name")
                self._expect("=", "after the field name")
                fields.append(ast.NamedField(name.text, self._parse_expression(), span=name.span))
                if not self._accept(","):
                    break
            self._expect("}", "to close the struct initializer")
            return ast.StructExpression(None, tuple(fields), rest, span=open_tok.span)
        elements: list[ast.Expression] = []
        while not self._at("}"):
            elements.append(self._parse_expression())
            if not self._accept(","):
                break
        self._expect("}", "to close the list")
        return ast.ListExpression(tuple(elements), span=open_tok.span)

    def _accept_dots(self) -> bool:
        """Consume ``...`` (lexed as ``..`` and an adjacent ``.``) when it is here."""
        if self._at("..") and self._at(".", 1) and not self._peek(1).space_before:
            self._advance()
            self._advance()
            return True
        return False

    # BNF: arguments : '(' [ argument ( ',' argument )* ] ')'
    def _parse_arguments(self) -> tuple[ast.Argument, ...]:
        self._expect("(")
        args = self._comma_list(self._parse_argument, ")")
        self._expect(")", "to close the argument list")
        return args

    # BNF: argument : expression | IDENT '=' expression | '_'
    def _parse_argument(self) -> ast.Argument:
        tok = self._peek()
        if tok.kind == IDENT and self._at("=", 1):
            self._advance()
            self._advance()
            return ast.Argument(self._parse_expression(), tok.text, span=tok.span)
        return ast.Argument(self._parse_expression(), span=tok.span)

    # BNF: expression_list : [ expression ( ',' expression )* ]
    def _parse_expression_list(self, closing: str) -> tuple[ast.Expression, ...]:
        return self._comma_list(self._parse_expression, closing)

    # ------------------------------------------------------------------ keysets

    # BNF: keyset : '(' simple_keyset ( ',' simple_keyset )* ')' | simple_keyset
    def _parse_keyset(self) -> tuple[ast.Expression, ...]:
        """A select case label or table entry key; several elements for a tuple."""
        if self._at("("):
            elements = self._try(self._parse_keyset_tuple)
            if elements is not None:
                return elements
        return (self._parse_simple_keyset(),)

    # BNF: keyset_tuple : '(' simple_keyset ( ',' simple_keyset )* ')'   (followed by ':')
    def _parse_keyset_tuple(self) -> tuple[ast.Expression, ...]:
        self._expect("(")
        elements = [self._parse_simple_keyset()]
        while self._accept(","):
            elements.append(self._parse_simple_keyset())
        self._expect(")")
        if not self._at(":"):
            raise self._error_here("expected ':' after the keyset")
        return tuple(elements)

    # BNF: simple_keyset : DEFAULT | '_' | expression [ ( '&&&' | '..' ) expression ]
    def _parse_simple_keyset(self) -> ast.Expression:
        tok = self._peek()
        if tok.is_keyword("default"):
            self._advance()
            return ast.DefaultExpression(span=tok.span)
        if tok.kind == IDENT and tok.text == "_" and (self._at(",", 1) or self._at(")", 1) or self._at(":", 1)):
            self._advance()
            return ast.DontCare(span=tok.span)
        value = self._parse_expression()
        for op in ("&&&", ".."):
            if self._accept(op):
                return ast.Binary(op, value, self._parse_expression(), span=value.span)
        return value

    # ------------------------------------------------------------------ annotations

    # BNF: annotations : annotation*
    def _parse_annotations(self) -> tuple[ast.Annotation, ...]:
        result: list[ast.Annotation] = []
        while self._at("@"):
            result.append(self._parse_annotation())
        return tuple(result)

    # BNF: annotation : '@' name [ '(' raw_tokens ')' | '[' raw_tokens ']' ]
    def _parse_annotation(self) -> ast.Annotation:
        at_tok = self._expect("@")
        name_tok = self._peek()
        if name_tok.kind not in (IDENT, KEYWORD) or name_tok.space_before:
            raise self._error_here("expected an annotation name after '@'")
        self._advance()
        if name_tok.text == "pragma":
            return self._parse_pragma_rest(at_tok, name_tok)
        if not (self._at("(") or self._at("[")) or self._peek().space_before and self._at("["):
            return ast.Annotation(name_tok.text, span=at_tok.span)
        closing = ")" if self._at("(") else "]"
        opening = self._advance().text
        start = self._pos
        depth = 0
        while True:
            tok = self._peek()
            if tok.kind == "EOF":
                raise CompileError(at_tok.span, f"unterminated body of annotation '@{name_tok.text}'")
            if tok.kind == PUNCT and tok.text in ("(", "[", "{"):
                depth += 1
            elif tok.kind == PUNCT and tok.text in (")", "]", "}"):
                if depth == 0:
                    if tok.text != closing:
                        raise CompileError(tok.span, f"unbalanced '{tok.text}' in annotation '@{name_tok.text}'")
                    break
                depth -= 1
            self._advance()
        end = self._pos
        body = raw_text(self._tokens[start:end])
        self._pos = start
        if opening == "[":
            annotation = self._parse_structured_body(name_tok.text, body, at_tok.span)
            self._pos = end + 1
            return annotation
        args = self._try(self._parse_annotation_args, closing)
        self._pos = end + 1
        return ast.Annotation(name_tok.text, tuple(args or ()), body, span=at_tok.span)

    # BNF: structured_body : [ expression_list | kv_pair ( ',' kv_pair )* ]
    #      kv_pair : IDENT '=' expression
    def _parse_structured_body(self, name: str, body: str, span: SourceSpan
                               ) -> ast.Annotation:
        """A structured annotation's body must parse, unlike an unstructured one's."""
        if self._peek().kind in (IDENT, KEYWORD) and self._peek(1).text == "=":
            pairs = self._comma_list(self._parse_annotation_pair, "]")
            keys = [k for k, _ in pairs]
            for key in keys:
                if keys.count(key) > 1:
                    raise CompileError(span, f"structured annotation '@{name}' has the "
                                       f"key '{key}' more than once")
            self._expect("]")
            return ast.Annotation(name, (), body, True, pairs, span=span)
        args = self._parse_expression_list("]")
        self._expect("]")
        return ast.Annotation(name, args, body, True, span=span)

    def _parse_annotation_pair(self) -> tuple[str, ast.Expression]:
        key = self._advance().text
        self._expect("=")
        return key, self._parse_expression()

    def _parse_annotation_args(self, closing: str) -> tuple[ast.Expression, ...]:
        items = self._parse_expression_list(closing)
        if not self._at(closing):
            raise self._error_here("not an expression list")
        return items

    # BNF: pragma : '@' PRAGMA raw_tokens_to_end_of_line
    def _parse_pragma_rest(self, at_tok: Token, name_tok: Token) -> ast.Annotation:
        """``@pragma`` takes the rest of its source line as an unparsed body."""
        start = self._pos
        while not self._at_eof():
            tok = self._peek()
            if tok.span.file != name_tok.span.file or tok.span.line != name_tok.span.line:
                break
            self._advance()
        body = raw_text(self._tokens[start:self._pos])
        return ast.Annotation("pragma", (), body, span=at_tok.span)
