"""Grammar rules for statements: blocks, assignments, calls, if, switch, exit, return
and local declarations."""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.parser_expressions import ExpressionRules
from p4sim.compiler.tokens import IDENT, KEYWORD, PUNCT, Token

# Operators that take a compound-assignment form (``>>=`` is matched on its own).
_COMPOUND_OPS = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", "|+|", "|-|", "&&", "||")


class StatementRules(ExpressionRules):
    # BNF: block_statement : annotations '{' statement* '}'
    def _parse_block(self, annotations: ast.Annotations = ()) -> ast.BlockStatement:
        open_tok = self._expect("{", "to open a block")
        statements: list[ast.Statement] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_tok, "the block")
            statements.append(self._parse_statement())
        self._expect("}")
        return ast.BlockStatement(tuple(statements), annotations, span=open_tok.span)

    # BNF: statement : annotations block_statement | if_statement | switch_statement
    #                | EXIT ';' | RETURN [ expression ] ';' | ';'
    #                | constant_declaration | variable_declaration | instantiation
    #                | assignment_or_call
    def _parse_statement(self) -> ast.Statement:
        annotations = self._parse_annotations()
        tok = self._peek()
        if tok.is_punct("{"):
            return self._parse_block(annotations)
        if tok.is_keyword("if"):
            return self._parse_if_statement()
        if tok.is_keyword("switch"):
            return self._parse_switch_statement()
        if tok.is_keyword("exit"):
            self._advance()
            self._expect(";", "after 'exit'")
            return ast.ExitStatement(span=tok.span)
        if tok.is_keyword("return"):
            self._advance()
            value = None if self._at(";") else self._parse_expression()
            self._expect(";", "after the return statement")
            return ast.ReturnStatement(value, span=tok.span)
        if tok.is_punct(";"):
            self._advance()
            return ast.EmptyStatement(span=tok.span)
        # 'for', 'break' and 'continue' are recognised by text, like 'apply'
        if tok.kind == IDENT and tok.text == "for" and self._peek(1).is_punct("("):
            return self._parse_for_statement()
        if tok.kind == IDENT and tok.text in ("break", "continue") and \
                self._peek(1).is_punct(";"):
            self._advance()
            self._advance()
            if tok.text == "break":
                return ast.BreakStatement(span=tok.span)
            return ast.ContinueStatement(span=tok.span)
        if tok.is_keyword("const"):
            decl = self._parse_constant_declaration(annotations)
            return ast.DeclarationStatement(decl, span=decl.span)
        if self._at_local_declaration():
            local = self._parse_variable_or_instantiation(annotations)
            return ast.DeclarationStatement(local, span=local.span)
        return self._parse_assignment_or_call()

    def _at_local_declaration(self) -> bool:
        """A statement is a declaration when a type is followed by a name (``T x``,
        ``T<..> x``, ``H[N] x``, ``T(args) x``). Two names in a row count too (an unknown
        type, reported later by name resolution). A type name used as a variable
        (``counter = 1``) is not a declaration."""
        tok = self._peek()
        if tok.kind == IDENT and self._at_ident(1):
            return True
        if not self._at_type_start():
            return False
        return self._try(self._parse_declaration_lookahead) is not None

    def _parse_declaration_lookahead(self) -> bool:
        start = self._pos
        self._parse_type_ref()
        if self._at("("):  # an instantiation ``T(args) name;``
            self._parse_arguments()
        found = self._peek().kind in (IDENT, KEYWORD)  # a keyword here is a misused name
        self._pos = start
        if not found:
            raise self._error_here("not a declaration")
        return True

    # BNF: assignment_or_call : lvalue [ compound_op ] '=' expression ';'
    #                          | call_expression ';'
    #      compound_op : '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^' | '<<' | '>>'
    #                  | '|+|' | '|-|' | '&&' | '||'   (no space before the '=')
    def _parse_assignment_or_call(self) -> ast.Statement:
        start = self._peek()
        target = self._parse_postfix(self._parse_primary())
        op = self._accept_compound_op()
        if op is not None or self._accept("="):
            value = self._parse_expression()
            self._expect(";", "after the assignment")
            if op is not None:  # P4_16 1.2.5: ``a op= b`` is ``a = a op b``
                value = ast.Binary(op, target, value, span=target.span)
            return ast.Assignment(target, value, span=start.span)
        if isinstance(target, ast.MethodCall):
            self._expect(";", "after the call")
            return ast.MethodCallStatement(target, span=start.span)
        if isinstance(target, ast.ConstructorCall) and isinstance(target.type, ast.NamedType):
            # A call of a function whose name is also a type; let name resolution decide.
            self._expect(";", "after the call")
            callee = ast.Name(target.type.name, target.type.top_level, span=target.span)
            call = ast.MethodCall(callee, target.type.type_args, target.args, span=target.span)
            return ast.MethodCallStatement(call, span=start.span)
        raise self._error_here("expected '=' or a method call in statement")

    # BNF: for_statement : FOR '(' [ for_init { ',' for_init } ] ';' [ expression ] ';'
    #                      [ for_update { ',' for_update } ] ')' statement
    #      for_init : type IDENT '=' expression | lvalue '=' expression
    #      for_update : lvalue '=' expression | call_expression
    def _parse_for_statement(self) -> ast.Statement:
        for_tok = self._advance()
        self._expect("(", "after 'for'")
        init: list[ast.Statement] = []
        if not self._at(";"):
            init.append(self._parse_for_clause(allow_declaration=True))
            while self._accept(","):
                init.append(self._parse_for_clause(allow_declaration=True))
        self._expect(";", "after the initialization of the 'for' loop")
        cond = None if self._at(";") else self._parse_expression()
        self._expect(";", "after the condition of the 'for' loop")
        updates: list[ast.Statement] = []
        if not self._at(")"):
            updates.append(self._parse_for_clause(allow_declaration=False))
            while self._accept(","):
                updates.append(self._parse_for_clause(allow_declaration=False))
        self._expect(")", "to close the 'for' loop header")
        body = self._parse_statement()
        return ast.ForStatement(tuple(init), cond, tuple(updates), body, span=for_tok.span)

    def _accept_compound_op(self) -> str | None:
        """The operator of a compound assignment (``+=``, ``<<=``, ``|+|=``, ...) here,
        consumed with its '='; None (nothing consumed) otherwise. The lexer has no such
        tokens: ``>>=`` arrives as ``>`` ``>=``, the others as the operator and ``=``."""
        tok, nxt = self._peek(), self._peek(1)
        if tok.kind != PUNCT or nxt.kind != PUNCT or nxt.space_before:
            return None
        if tok.text == ">" and nxt.text == ">=":
            op = ">>"
        elif tok.text in _COMPOUND_OPS and nxt.text == "=":
            op = tok.text
        else:
            return None
        self._advance()
        self._advance()
        return op

    def _parse_for_clause(self, allow_declaration: bool) -> ast.Statement:
        start = self._peek()
        if allow_declaration and self._at_local_declaration():
            decl_type = self._parse_type_ref()
            name = self._expect_name("a loop variable name")
            init = None
            if self._accept("="):
                init = self._parse_expression()
            decl = ast.VariableDecl(name.text, decl_type, init, span=start.span)
            return ast.DeclarationStatement(decl, span=start.span)
        target = self._parse_postfix(self._parse_primary())
        op = self._accept_compound_op()
        if op is not None or self._accept("="):
            value = self._parse_expression()
            if op is not None:
                value = ast.Binary(op, target, value, span=target.span)
            return ast.Assignment(target, value, span=start.span)
        if isinstance(target, ast.MethodCall):
            return ast.MethodCallStatement(target, span=start.span)
        raise self._error_here("expected an assignment or a call in the 'for' loop header")

    # BNF: if_statement : IF '(' expression ')' statement [ ELSE statement ]
    def _parse_if_statement(self) -> ast.Statement:
        if_tok = self._advance()
        self._expect("(", "after 'if'")
        cond = self._parse_expression()
        self._expect(")", "to close the if condition")
        then = self._parse_statement()
        otherwise = None
        if self._accept("else"):
            otherwise = self._parse_statement()
        return ast.IfStatement(cond, then, otherwise, span=if_tok.span)

    # BNF: switch_statement : SWITCH '(' expression ')' '{' switch_case* '}'
    def _parse_switch_statement(self) -> ast.Statement:
        switch_tok = self._advance()
        self._expect("(", "after 'switch'")
        expr = self._parse_expression()
        self._expect(")", "to close the switch expression")
        open_brace = self._expect("{", "to open the switch body")
        cases: list[ast.SwitchCase] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, "the switch")
            cases.append(self._parse_switch_case())
        self._expect("}")
        return ast.SwitchStatement(expr, tuple(cases), span=switch_tok.span)

    # BNF: switch_case : switch_label ':' [ block_statement ]
    #      switch_label : DEFAULT | expression
    def _parse_switch_case(self) -> ast.SwitchCase:
        tok = self._peek()
        if tok.is_keyword("default"):
            self._advance()
            label: ast.Expression = ast.DefaultExpression(span=tok.span)
        else:
            label = self._parse_expression()
        self._expect(":", "after the switch label")
        body = self._parse_block() if self._at("{") else None
        return ast.SwitchCase(label, body, span=tok.span)

    # BNF: constant_declaration : annotations CONST type_ref IDENT '=' expression ';'
    def _parse_constant_declaration(self, annotations: ast.Annotations) -> ast.ConstantDecl:
        const_tok = self._expect("const")
        const_type = self._parse_type_ref()
        name = self._expect_name("a constant name")
        self._expect("=", "after the constant name")
        value = self._parse_expression()
        self._expect(";", "after the constant declaration")
        return ast.ConstantDecl(name.text, const_type, value, annotations=annotations, span=const_tok.span)

    # BNF: variable_declaration : annotations type_ref IDENT [ '=' expression ] ';'
    #      instantiation : annotations type_ref arguments IDENT [ '=' object_initializer ] ';'
    def _parse_variable_or_instantiation(self, annotations: ast.Annotations) -> ast.Declaration:
        start = self._peek()
        decl_type = self._parse_type_ref()
        if self._at("("):
            return self._parse_instantiation_rest(decl_type, annotations, start)
        name = self._expect_name("a variable name")
        init = None
        if self._accept("="):
            init = self._parse_expression()
        self._expect(";", "after the variable declaration")
        return ast.VariableDecl(name.text, decl_type, init, annotations=annotations, span=start.span)

    # BNF: instantiation_rest : arguments IDENT [ '=' object_initializer ] ';'
    def _parse_instantiation_rest(
        self, decl_type: ast.Type, annotations: ast.Annotations, start: Token
    ) -> ast.Instantiation:
        args = self._parse_arguments()
        name = self._expect_name("an instance name")
        initializer: tuple[ast.Declaration, ...] = ()
        if self._accept("="):
            initializer = self._parse_object_initializer()
        self._expect(";", "after the instantiation")
        return ast.Instantiation(name.text, decl_type, args, initializer, annotations=annotations, span=start.span)

    # BNF: object_initializer : '{' ( function_declaration | instantiation )* '}'
    def _parse_object_initializer(self) -> tuple[ast.Declaration, ...]:
        open_brace = self._expect("{", "to open the object initializer")
        decls: list[ast.Declaration] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, "the object initializer")
            annotations = self._parse_annotations()
            start = self._peek()
            decl_type = self._parse_type_ref()
            if self._at("("):
                decls.append(self._parse_instantiation_rest(decl_type, annotations, start))
            else:
                decls.append(self._parse_function_rest(decl_type, annotations, start))
        self._expect("}")
        return tuple(decls)

    # BNF: function_declaration : annotations type_ref IDENT [ type_params ] parameters block_statement
    def _parse_function_rest(
        self, return_type: ast.Type, annotations: ast.Annotations, start: Token
    ) -> ast.FunctionDecl:
        name = self._expect_name("a function name")
        type_params = self._parse_type_params()
        with self._type_scope([p.name for p in type_params]):
            params = self._parse_parameters()
            body = self._parse_block()
        return ast.FunctionDecl(
            name.text, return_type, params, body, type_params, annotations=annotations, span=start.span
        )

    # BNF: parameters : '(' [ parameter ( ',' parameter )* ] ')'
    def _parse_parameters(self) -> tuple[ast.Parameter, ...]:
        self._expect("(", "to open the parameter list")
        params = self._comma_list(self._parse_parameter, ")")
        self._expect(")", "to close the parameter list")
        return params

    # BNF: parameter : annotations [ IN | OUT | INOUT ] type_ref IDENT [ '=' expression ]
    def _parse_parameter(self) -> ast.Parameter:
        annotations = self._parse_annotations()
        start = self._peek()
        direction = ""
        if start.kind == "KEYWORD" and start.text in ("in", "out", "inout"):
            direction = self._advance().text
        param_type = self._parse_type_ref()
        name = self._peek()
        if name.kind != IDENT:
            raise self._error_here("expected a parameter name")
        self._advance()
        default = self._parse_expression() if self._accept("=") else None
        return ast.Parameter(name.text, param_type, direction, default, annotations, span=start.span)
