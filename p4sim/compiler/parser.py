"""The P4_16 parser: a hand-written recursive-descent parser, one ``_parse_x`` method per
grammar rule with the rule as a ``# BNF:`` comment above it.

Rules are split by topic over mixins (parser_types, parser_expressions,
parser_statements); this module holds declarations, parsers, controls and tables, and
the entry point ``Parser(tokens).parse_program()``.
"""
from __future__ import annotations

from typing import Any, Sequence

from p4sim.compiler import ast
from p4sim.compiler.errors import CompileError
from p4sim.compiler.parser_statements import StatementRules
from p4sim.compiler.tokens import IDENT, KEYWORD, Token


class Parser(StatementRules):
    """Parses one preprocessed token stream. Not reusable: create one per program."""

    def __init__(self, tokens: Sequence[Token]):
        super().__init__(tokens)

    def nesting_error(self) -> CompileError:
        return CompileError(self._peek().span, "expressions or blocks nested too deeply to compile")

    # BNF: program : declaration* EOF
    def parse_program(self) -> ast.Program:
        first = self._peek()
        declarations: list[ast.Node] = []
        while not self._at_eof():
            decl = self._parse_declaration()
            if decl is not None:
                declarations.append(decl)
        return ast.Program(tuple(declarations), span=first.span)

    # BNF: declaration : ';' | annotations ( constant_declaration | extern_declaration
    #                  | action_declaration | parser_declaration | control_declaration
    #                  | package_declaration | struct_like_declaration | enum_declaration
    #                  | error_declaration | match_kind_declaration | typedef_declaration
    #                  | function_declaration | instantiation )
    def _parse_declaration(self) -> ast.Node | None:
        if self._accept(";"):
            return None
        annotations = self._parse_annotations()
        tok = self._peek()
        if tok.kind == KEYWORD:
            handlers = {
                "const": self._parse_constant_declaration,
                "extern": self._parse_extern_declaration,
                "action": self._parse_action_declaration,
                "parser": self._parse_parser_declaration,
                "control": self._parse_control_declaration,
                "package": self._parse_package_declaration,
                "header": self._parse_struct_like_declaration,
                "header_union": self._parse_struct_like_declaration,
                "struct": self._parse_struct_like_declaration,
                "enum": self._parse_enum_declaration,
                "typedef": self._parse_typedef_declaration,
            }
            if tok.text in handlers:
                return handlers[tok.text](annotations)
            if tok.text in ("error", "match_kind") and self._at("{", 1):
                return self._parse_member_list_declaration()
        if tok.kind == IDENT and tok.text == "type" and (
            self._at_type_start(1) or (self._at_ident(1) and self._at_ident(2))
        ):
            return self._parse_typedef_declaration(annotations)
        if tok.is_keyword("value_set"):
            return self._parse_value_set_declaration(annotations)
        if not (tok.kind == IDENT or tok.is_punct(".") or self._at_type_start()):
            raise self._error_here("expected a declaration")
        if tok.text == "function" and not self._is_type_name("function") and self._at_type_start(1):
            raise CompileError(
                tok.span,
                "P4_16 has no 'function' keyword; declare a function as "
                "'ReturnType name(parameters) { ... }'",
            )
        start = tok
        decl_type = self._parse_type_ref()
        if self._at("("):
            return self._parse_instantiation_rest(decl_type, annotations, start)
        return self._parse_function_rest(decl_type, annotations, start)

    # BNF: typedef_declaration : annotations ( TYPEDEF | TYPE ) type_ref IDENT ';'
    def _parse_typedef_declaration(self, annotations: ast.Annotations) -> ast.TypedefDecl:
        keyword = self._advance()
        target = self._parse_type_ref()
        name = self._expect_name("a type name")
        self._expect(";", "after the type definition")
        self._declare_type(name.text)
        return ast.TypedefDecl(
            name.text, target, keyword.text == "type", annotations=annotations, span=keyword.span
        )

    # BNF: error_declaration : ERROR '{' IDENT ( ',' IDENT )* '}'
    #      match_kind_declaration : MATCH_KIND '{' IDENT ( ',' IDENT )* '}'
    def _parse_member_list_declaration(self) -> ast.Node:
        keyword = self._advance()
        self._expect("{")
        names = [self._expect_name("a member name").text]
        while self._accept(","):
            if self._at("}"):
                break
            names.append(self._expect_name("a member name").text)
        self._expect("}", f"to close the {keyword.text} declaration")
        self._accept(";")
        if keyword.text == "error":
            return ast.ErrorDecl(tuple(names), span=keyword.span)
        return ast.MatchKindDecl(tuple(names), span=keyword.span)

    # BNF: struct_like_declaration : annotations ( HEADER | HEADER_UNION | STRUCT ) IDENT
    #                                [ type_params ] '{' struct_field* '}'
    def _parse_struct_like_declaration(self, annotations: ast.Annotations) -> ast.Declaration:
        keyword = self._advance()
        name = self._expect_name(f"a {keyword.text} name")
        self._declare_type(name.text)
        type_params = self._parse_type_params()
        with self._type_scope([p.name for p in type_params]):
            open_brace = self._expect("{", f"to open the {keyword.text} body")
            fields: list[ast.StructField] = []
            while not self._at("}"):
                if self._at_eof():
                    self._expect_closing("}", open_brace, f"{keyword.text} '{name.text}'")
                fields.append(self._parse_struct_field())
            self._expect("}")
        node_type = {"header": ast.HeaderDecl, "header_union": ast.HeaderUnionDecl, "struct": ast.StructDecl}
        return node_type[keyword.text](
            name.text, tuple(fields), type_params, annotations=annotations, span=keyword.span
        )

    # BNF: struct_field : annotations type_ref IDENT ';'
    def _parse_struct_field(self) -> ast.StructField:
        annotations = self._parse_annotations()
        start = self._peek()
        field_type = self._parse_type_ref()
        name = self._expect_name("a field name")
        self._expect(";", "after the field")
        return ast.StructField(name.text, field_type, annotations, span=start.span)

    # BNF: enum_declaration : annotations ENUM [ type_ref ] IDENT '{' enum_member
    #                         ( ',' enum_member )* [ ',' ] '}'
    #      enum_member : IDENT [ '=' expression ]
    def _parse_enum_declaration(self, annotations: ast.Annotations) -> ast.EnumDecl:
        keyword = self._advance()
        underlying = None
        if not (self._at_ident() and self._at("{", 1)):
            underlying = self._parse_type_ref()
        name = self._expect_name("an enum name")
        self._declare_type(name.text)
        self._expect("{", "to open the enum body")
        members: list[ast.EnumMember] = []
        while not self._at("}"):
            member = self._expect_name("an enum member name")
            value = self._parse_expression() if self._accept("=") else None
            members.append(ast.EnumMember(member.text, value, span=member.span))
            if not self._accept(","):
                break
        self._expect("}", "to close the enum")
        return ast.EnumDecl(name.text, tuple(members), underlying, annotations=annotations, span=keyword.span)

    # BNF: extern_declaration : annotations EXTERN IDENT [ type_params ] '{' method_prototype* '}'
    #                         | annotations EXTERN function_prototype ';'
    #                         | annotations EXTERN IDENT ';'
    def _parse_extern_declaration(self, annotations: ast.Annotations) -> ast.Declaration:
        extern_tok = self._advance()
        if self._at_ident() and self._at(";", 1):  # a forward declaration of an extern type
            name = self._advance()
            self._advance()
            self._declare_type(name.text)
            return ast.ExternDecl(name.text, (), (), annotations=annotations, span=extern_tok.span)
        if self._at_ident() and (self._at("{", 1) or self._at("<", 1)):
            header = self._try(self._parse_extern_object_header)
            if header is not None:
                name, type_params = header
                return self._parse_extern_object_body(name, type_params, annotations, extern_tok)
        start = self._peek()
        return_type = self._parse_type_ref()
        name = self._expect_name("an extern function name")
        type_params = self._parse_type_params()
        with self._type_scope([p.name for p in type_params]):
            params = self._parse_parameters()
        self._expect(";", "after the extern function declaration")
        return ast.ExternFunctionDecl(
            name.text, return_type, params, type_params, annotations=annotations, span=start.span
        )

    def _parse_extern_object_header(self) -> tuple[Token, tuple[ast.TypeParameter, ...]]:
        name = self._expect_name("an extern name")
        type_params = self._parse_type_params()
        if not self._at("{"):
            raise self._error_here("not an extern object")
        return name, type_params

    # BNF: extern_object_body : '{' method_prototype* '}'
    def _parse_extern_object_body(
        self, name: Token, type_params: tuple[ast.TypeParameter, ...],
        annotations: ast.Annotations, extern_tok: Token,
    ) -> ast.ExternDecl:
        self._declare_type(name.text)
        methods: list[ast.MethodPrototype] = []
        with self._type_scope([p.name for p in type_params]):
            open_brace = self._expect("{")
            while not self._at("}"):
                if self._at_eof():
                    self._expect_closing("}", open_brace, f"extern '{name.text}'")
                methods.append(self._parse_method_prototype(name.text))
            self._expect("}")
        return ast.ExternDecl(name.text, type_params, tuple(methods), annotations=annotations, span=extern_tok.span)

    # BNF: method_prototype : annotations IDENT parameters ';'   (constructor)
    #                       | annotations [ ABSTRACT ] type_ref IDENT [ type_params ] parameters ';'
    def _parse_method_prototype(self, extern_name: str) -> ast.MethodPrototype:
        annotations = self._parse_annotations()
        start = self._peek()
        if start.kind == IDENT and start.text == extern_name and self._at("(", 1):
            self._advance()
            params = self._parse_parameters()
            self._expect(";", "after the constructor")
            return ast.MethodPrototype(start.text, None, params, (), annotations, span=start.span)
        is_abstract = self._accept("abstract") is not None
        return_type = self._parse_type_ref()
        name = self._peek()
        if name.kind not in (IDENT, KEYWORD):
            raise self._error_here("expected a method name")
        self._advance()
        type_params = self._parse_type_params()
        with self._type_scope([p.name for p in type_params]):
            params = self._parse_parameters()
        self._expect(";", "after the method prototype")
        return ast.MethodPrototype(
            name.text, return_type, params, type_params, annotations, is_abstract, span=start.span
        )

    # BNF: action_declaration : annotations ACTION IDENT parameters block_statement
    def _parse_action_declaration(self, annotations: ast.Annotations) -> ast.ActionDecl:
        action_tok = self._advance()
        name = self._expect_name("an action name")
        params = self._parse_parameters()
        body = self._parse_block()
        return ast.ActionDecl(name.text, params, body, annotations=annotations, span=action_tok.span)

    # BNF: package_declaration : annotations PACKAGE IDENT [ type_params ] parameters ';'
    def _parse_package_declaration(self, annotations: ast.Annotations) -> ast.PackageDecl:
        package_tok = self._advance()
        name = self._expect_name("a package name")
        self._declare_type(name.text)
        type_params = self._parse_type_params()
        with self._type_scope([p.name for p in type_params]):
            params = self._parse_parameters()
        self._expect(";", "after the package declaration")
        return ast.PackageDecl(name.text, params, type_params, annotations=annotations, span=package_tok.span)

    # BNF: parser_declaration : annotations PARSER IDENT [ type_params ] parameters
    #                           ( ';' | [ parameters ] '{' parser_local* parser_state* '}' )
    def _parse_parser_declaration(self, annotations: ast.Annotations) -> ast.ParserDecl:
        parser_tok = self._advance()
        name = self._expect_name("a parser name")
        self._declare_type(name.text)
        type_params = self._parse_type_params()
        with self._type_scope([p.name for p in type_params]):
            params = self._parse_parameters()
            if self._accept(";"):
                return ast.ParserDecl(
                    name.text, params, (), type_params, is_type_decl=True,
                    annotations=annotations, span=parser_tok.span,
                )
            ctor_params = self._parse_parameters() if self._at("(") else ()
            open_brace = self._expect("{", "to open the parser body")
            local_decls: list[ast.Declaration] = []
            states: list[ast.ParserState] = []
            while not self._at("}"):
                if self._at_eof():
                    self._expect_closing("}", open_brace, f"parser '{name.text}'")
                member_annotations = self._parse_annotations()
                if self._at_word("state") and self._at_ident(1):
                    states.append(self._parse_parser_state(member_annotations))
                elif states:
                    raise self._error_here("expected 'state'")
                else:
                    local_decls.append(self._parse_local_declaration(member_annotations))
            self._expect("}")
        return ast.ParserDecl(
            name.text, params, ctor_params, type_params, tuple(local_decls), tuple(states),
            annotations=annotations, span=parser_tok.span,
        )

    # BNF: parser_state : annotations STATE IDENT '{' statement* [ transition ] '}'
    def _parse_parser_state(self, annotations: ast.Annotations) -> ast.ParserState:
        state_tok = self._advance()
        name = self._expect_name("a state name")
        open_brace = self._expect("{", "to open the state body")
        statements: list[ast.Statement] = []
        transition: ast.Expression | None = None
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, f"state '{name.text}'")
            if self._at("transition"):
                transition = self._parse_transition()
                if not self._at("}"):
                    raise self._error_here("expected '}' after the transition (it must be last in a state)")
                break
            statements.append(self._parse_statement())
        self._expect("}")
        return ast.ParserState(
            name.text, tuple(statements), transition, annotations=annotations, span=state_tok.span
        )

    # BNF: transition : TRANSITION ( IDENT ';' | select_expression [ ';' ] )
    def _parse_transition(self) -> ast.Expression:
        self._expect("transition")
        if self._at("select"):
            select = self._parse_select_expression()
            self._accept(";")
            return select
        name = self._expect_name("a state name or 'select'")
        self._expect(";", "after the transition")
        return ast.Name(name.text, span=name.span)

    # BNF: select_expression : SELECT '(' expression_list ')' '{' select_case* '}'
    def _parse_select_expression(self) -> ast.SelectExpression:
        select_tok = self._advance()
        self._expect("(", "after 'select'")
        exprs = self._parse_expression_list(")")
        self._expect(")", "to close the select expression list")
        open_brace = self._expect("{", "to open the select cases")
        cases: list[ast.SelectCase] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, "the select cases")
            cases.append(self._parse_select_case())
        self._expect("}")
        return ast.SelectExpression(exprs, tuple(cases), span=select_tok.span)

    # BNF: select_case : annotations keyset ':' IDENT ';'
    def _parse_select_case(self) -> ast.SelectCase:
        self._parse_annotations()
        start = self._peek()
        elements = self._parse_keyset()
        keyset = elements[0] if len(elements) == 1 else ast.ListExpression(elements, span=start.span)
        self._expect(":", "after the select keyset")
        state = self._expect_name("a next state name")
        self._expect(";", "after the select case")
        return ast.SelectCase(keyset, state.text, span=start.span)

    # BNF: control_declaration : annotations CONTROL IDENT [ type_params ] parameters
    #                            ( ';' | [ parameters ] '{' control_local* APPLY block_statement '}' )
    def _parse_control_declaration(self, annotations: ast.Annotations) -> ast.ControlDecl:
        control_tok = self._advance()
        name = self._expect_name("a control name")
        self._declare_type(name.text)
        type_params = self._parse_type_params()
        with self._type_scope([p.name for p in type_params]):
            params = self._parse_parameters()
            if self._accept(";"):
                return ast.ControlDecl(
                    name.text, params, (), type_params, is_type_decl=True,
                    annotations=annotations, span=control_tok.span,
                )
            ctor_params = self._parse_parameters() if self._at("(") else ()
            open_brace = self._expect("{", "to open the control body")
            local_decls: list[ast.Declaration] = []
            apply_block: ast.BlockStatement | None = None
            while not self._at("}"):
                if self._at_eof():
                    self._expect_closing("}", open_brace, f"control '{name.text}'")
                member_annotations = self._parse_annotations()
                if self._at_word("apply") and self._at("{", 1):
                    if apply_block is not None:
                        raise self._error_here(f"control '{name.text}' has a second apply block")
                    self._advance()
                    apply_block = self._parse_block(member_annotations)
                else:
                    local_decls.append(self._parse_local_declaration(member_annotations))
            if apply_block is None:
                raise self._error_here(f"expected an 'apply' block in control '{name.text}'")
            self._expect("}")
        return ast.ControlDecl(
            name.text, params, ctor_params, type_params, tuple(local_decls), apply_block,
            annotations=annotations, span=control_tok.span,
        )

    # BNF: local_declaration : constant_declaration | action_declaration | table_declaration
    #                        | value_set_declaration | variable_declaration | instantiation
    def _parse_local_declaration(self, annotations: ast.Annotations) -> ast.Declaration:
        tok = self._peek()
        if tok.is_keyword("const"):
            return self._parse_constant_declaration(annotations)
        if tok.is_keyword("action"):
            return self._parse_action_declaration(annotations)
        if tok.is_keyword("table"):
            return self._parse_table_declaration(annotations)
        if tok.is_keyword("value_set"):
            return self._parse_value_set_declaration(annotations)
        if self._at_type_start() or tok.kind == IDENT:
            return self._parse_variable_or_instantiation(annotations)
        raise self._error_here("expected a declaration")

    # BNF: value_set_declaration : annotations VALUE_SET '<' type_arg '>' '(' expression ')' IDENT ';'
    def _parse_value_set_declaration(self, annotations: ast.Annotations) -> ast.ValueSetDecl:
        keyword = self._advance()
        self._expect("<", "after 'value_set'")
        element_type = self._parse_type_arg()
        self._expect(">", "to close the value_set element type")
        self._expect("(", "before the value_set size")
        size = self._parse_expression()
        self._expect(")", "after the value_set size")
        name = self._expect_name("a value_set name")
        self._expect(";", "after the value_set declaration")
        return ast.ValueSetDecl(name.text, element_type, size, annotations=annotations, span=keyword.span)

    # BNF: table_declaration : annotations TABLE IDENT '{' table_property* '}'
    def _parse_table_declaration(self, annotations: ast.Annotations) -> ast.TableDecl:
        table_tok = self._advance()
        name = self._expect_name("a table name")
        open_brace = self._expect("{", "to open the table body")
        properties: list[ast.TableProperty] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, f"table '{name.text}'")
            properties.append(self._parse_table_property())
        self._expect("}")
        return ast.TableDecl(name.text, tuple(properties), annotations=annotations, span=table_tok.span)

    # BNF: table_property : annotations [ CONST ] ( KEY '=' '{' key_element* '}'
    #                     | ACTIONS '=' '{' ( annotations action_ref ';' )* '}'
    #                     | ENTRIES '=' '{' table_entry* '}'
    #                     | DEFAULT_ACTION '=' action_ref ';'
    #                     | IDENT '=' expression ';' )
    def _parse_table_property(self) -> ast.TableProperty:
        annotations = self._parse_annotations()
        start = self._peek()
        is_const = self._accept("const") is not None
        name_tok = self._peek()
        if name_tok.kind not in (IDENT, KEYWORD):
            raise self._error_here("expected a table property name")
        self._advance()
        prop = name_tok.text
        self._expect("=", f"after table property '{prop}'")
        common: dict[str, Any] = dict(is_const=is_const, annotations=annotations, span=start.span)
        if prop == "key":
            return ast.TableProperty(prop, key=self._parse_key_elements(), **common)
        if prop == "actions":
            return ast.TableProperty(prop, actions=self._parse_action_list(), **common)
        if prop == "entries":
            return ast.TableProperty(prop, entries=self._parse_table_entries(), **common)
        if prop == "default_action":
            action = self._parse_action_ref(annotations=())
            self._expect(";", "after the default action")
            return ast.TableProperty(prop, action=action, **common)
        value = self._parse_expression()
        self._expect(";", f"after table property '{prop}'")
        return ast.TableProperty(prop, value=value, **common)

    # BNF: key_element : expression ':' IDENT annotations ';'
    def _parse_key_elements(self) -> tuple[ast.KeyElement, ...]:
        open_brace = self._expect("{", "to open the key")
        elements: list[ast.KeyElement] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, "the key")
            start = self._peek()
            expr = self._parse_expression()
            self._expect(":", "between the key expression and its match kind")
            match_kind = self._expect_name("a match kind")
            key_annotations = self._parse_annotations()
            self._expect(";", "after the key element")
            elements.append(ast.KeyElement(expr, match_kind.text, key_annotations, span=start.span))
        self._expect("}")
        return tuple(elements)

    # BNF: action_list : '{' ( annotations action_ref ';' )* '}'
    def _parse_action_list(self) -> tuple[ast.ActionRef, ...]:
        open_brace = self._expect("{", "to open the action list")
        refs: list[ast.ActionRef] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, "the action list")
            refs.append(self._parse_action_ref(self._parse_annotations()))
            self._expect(";", "after the action name")
        self._expect("}")
        return tuple(refs)

    # BNF: action_ref : annotations [ '.' ] IDENT [ arguments ]
    def _parse_action_ref(self, annotations: ast.Annotations) -> ast.ActionRef:
        start = self._peek()
        prefix = "." if self._accept(".") else ""
        name = self._expect_name("an action name")
        if self._at("("):
            args = self._parse_arguments()
            return ast.ActionRef(prefix + name.text, args, annotations, True, span=start.span)
        return ast.ActionRef(prefix + name.text, (), annotations, span=start.span)

    # BNF: table_entries : '{' table_entry* '}'
    def _parse_table_entries(self) -> tuple[ast.TableEntry, ...]:
        open_brace = self._expect("{", "to open the entries")
        entries: list[ast.TableEntry] = []
        while not self._at("}"):
            if self._at_eof():
                self._expect_closing("}", open_brace, "the entries")
            entries.append(self._parse_table_entry())
        self._expect("}")
        return tuple(entries)

    # BNF: table_entry : annotations [ CONST ] [ PRIORITY '=' expression ':' ]
    #                    keyset ':' action_ref annotations ';'
    def _parse_table_entry(self) -> ast.TableEntry:
        annotations = self._parse_annotations()
        start = self._peek()
        is_const = self._accept("const") is not None
        priority = None
        if self._at_word("priority") and self._at("=", 1):
            self._advance()
            self._advance()
            priority = self._parse_expression()
            self._expect(":", "after the entry priority")
        keyset = self._parse_keyset()
        self._expect(":", "between the entry keyset and its action")
        action = self._parse_action_ref(())
        trailing = self._parse_annotations()
        self._expect(";", "after the table entry")
        return ast.TableEntry(keyset, action, priority, is_const, annotations + trailing, span=start.span)


def parse_tokens(tokens: Sequence[Token]) -> ast.Program:
    """Parse a preprocessed token stream into a Program."""
    parser = Parser(tokens)
    try:
        return parser.parse_program()
    except RecursionError:
        raise parser.nesting_error() from None


__all__ = ["Parser", "parse_tokens"]
