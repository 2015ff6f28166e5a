"""Program-wide lowering state: the IR being built, name allocation, object registries."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from p4sim.compiler import ast
from p4sim.compiler.control_plane import ControlPlaneModel
from p4sim.compiler.errors import CompileWarning, SourceSpan
from p4sim.compiler.lower import ir
from p4sim.compiler.lower.layout import Layout
from p4sim.compiler.lower.naming import fresh_name
from p4sim.compiler.lower.storage import HeaderRef, StructRef
from p4sim.compiler.semantic.scope import GlobalInfo
from p4sim.compiler.semantic.types import TupleT


@dataclass
class ExternObj:
    """An instantiated extern (counter, register, action_selector...)."""

    name: str  # fully qualified
    kind: str  # extern type name
    decl: ast.Node
    type_args: tuple = ()
    ir: Any = None
    info: dict = field(default_factory=dict)


@dataclass
class ControlInstance:
    """A control instantiated inside another control: applied by inlining."""

    name: str  # fully qualified prefix for its objects
    decl: ast.ControlDecl
    decl_scope: Any
    ctor_args: tuple = ()
    args_scope: Any = None  # where ctor_args are evaluated (the instantiating scope)


@dataclass
class PacketRef:
    """The ``packet_in`` / ``packet_out`` parameter."""

    kind: str


@dataclass
class TableObj:
    name: str
    decl: ast.TableDecl
    scope: Any
    lowered: Any = None  # TableIR once applied


@dataclass
class ValueSetObj:
    name: str
    ir: ir.ParseVsetIR
    element_type: Any


class Counter:
    def __init__(self, start: int = 0):
        self.value = start

    def next(self) -> int:
        v = self.value
        self.value += 1
        return v


class Lowering:
    """Everything shared while lowering one program."""

    # The V1Switch blocks' headers, metadata and standard_metadata arguments: set by
    # program._allocate before any block is lowered.
    hdr_ref: StructRef
    meta_ref: StructRef
    std_ref: StructRef

    def __init__(self, info: GlobalInfo, program_file: str):
        self.info = info
        self.program = ir.ProgramIR(os.path.basename(program_file))
        self.layout = Layout(self.program)
        self.warnings: list[CompileWarning] = []
        self.prog_base = os.path.splitext(os.path.basename(program_file))[0]
        self.action_ids = Counter()
        self.table_ids = Counter()
        self.node_ids = Counter()
        self.cond_ids = Counter()
        self.state_ids = Counter()
        self.profile_ids = Counter()
        self.calc_names: set[str] = set()
        self.synthetic_names: set[str] = set()
        self.table_names: set[str] = set()
        self.std_meta: HeaderRef | None = None
        self.field_list_by_index: dict[int, ir.FieldListIR] = {}
        self.empty_field_list: ir.FieldListIR | None = None
        self.learn_lists: dict[str, ir.FieldListIR] = {}
        # each distinct tuple type a digest carries, and its digest's name (digest_N)
        self.tuple_digests: dict[TupleT, str] = {}
        # one object per table name: a control instance applied twice shares its tables
        self.tables_by_name: dict[str, TableObj] = {}
        # instance name -> (its declaration, its binding): a control instance applied
        # more than once (``C2(c1)`` and ``C3(c1)``) shares its externs, as in p4c
        self.instances_by_name: dict[str, tuple[Any, Any]] = {}
        self.cp = ControlPlaneModel()
        self.cp_actions: dict[str, Any] = {}
        self.action_depth = 0  # >0 while lowering an action body (a call there is nested)
        self.direct_meter_targets: dict[str, list[str]] = {}
        self.current_pipeline: ir.PipelineIR | None = None
        self.extern_objects: dict[str, ExternObj] = {}
        self.decl_order: dict[int, int] = {}
        self.parent_order: dict[int, int] = {}
        self.cp_order: dict[tuple[str, str], tuple[float, str]] = {}

    # ------------------------------------------------------------------ P4Info order
    def index_declarations(self, program: ast.Program) -> None:
        """Number declarations in source order (locals after their control), so the
        P4Info lists objects in declaration order as p4c does."""
        counter = 0
        for decl in program.declarations:
            self.decl_order[id(decl)] = counter
            counter += 1
            for local in getattr(decl, "locals", ()):
                self.decl_order[id(local)] = counter
                self.parent_order[id(local)] = self.decl_order[id(decl)]
                counter += 1

    def remember_order(self, kind: str, name: str, decl: ast.Node,
                       position: float | None = None) -> None:
        if position is None:
            position = self.decl_order.get(id(decl), 1 << 30)
        self.cp_order.setdefault((kind, name), (position, name))

    def localized_position(self, table_decl: ast.Node, action_decl: ast.Node | None = None
                           ) -> float | None:
        """Where p4c lists a global action (NoAction) used by this table: p4c copies
        global actions into the using control, ahead of its own locals, in their
        global declaration order."""
        parent = self.parent_order.get(id(table_decl))
        return None if parent is None else self._localized(parent, action_decl)

    def position_in_control(self, control_decl: ast.Node, action_decl: ast.Node
                            ) -> float | None:
        """As localized_position, for a global action called directly in a control."""
        parent = self.decl_order.get(id(control_decl))
        return None if parent is None else self._localized(parent, action_decl)

    def _localized(self, parent: int, action_decl: ast.Node | None) -> float:
        global_order = self.decl_order.get(id(action_decl), 0) if action_decl else 0
        return parent + 0.5 + global_order * 1e-7

    def sort_control_plane(self) -> None:
        cp = self.cp
        kinds: tuple[tuple[str, list[Any]], ...] = (  # lists of different *Info classes
            ("table", cp.tables), ("action", cp.actions),
            ("profile", cp.action_profiles), ("counter", cp.counters),
            ("meter", cp.meters), ("register", cp.registers),
            ("value_set", cp.value_sets))
        for kind, items in kinds:
            def position(item: Any, k: str = kind) -> tuple[float, str]:
                return self.cp_order.get((k, item.name), (1 << 30, item.name))
            items.sort(key=position)

    def warn(self, span: SourceSpan | None, message: str) -> None:
        self.warnings.append(CompileWarning(span, message))

    def new_action(self, name: str, runtime_data: list[tuple[str, int]],
                   primitives: list[dict], source_info: dict | None = None) -> ir.ActionIR:
        action = ir.ActionIR(name, self.action_ids.next(), runtime_data, primitives,
                             source_info)
        self.program.actions.append(action)
        return action

    def synthetic_name(self, base: str) -> str:
        return fresh_name(self.synthetic_names, base)

    def table_name(self, base: str) -> str:
        return fresh_name(self.table_names, base)

    def calc_name(self, base: str) -> str:
        return fresh_name(self.calc_names, base)

    def node_name(self) -> str:
        return f"node_{self.node_ids.next() + 2}"
