"""When p4c warns that an inlined function's return value "may be uninitialized".

p4c's front end rewrites a function's ``return e`` into an assignment to a hidden
return variable plus a "has returned" flag, puts the statements after a statement that
can return under ``if (!flag)``, and reads the variable at the end. Its def-use check
then follows every branch, guards included, without knowing the flag: when a path
through the rewritten body skips every assignment to the variable it warns, once for
each inlined copy of the function, and it does so twice (two def-use passes run after
function inlining). The value is always set at run time; the warning is a false alarm
p4sim repeats so that its warnings match p4c's (recorded: corpus 024's ``max16``,
``if (x > y) { return x; } return y;``, called twice through ``max3``: four warnings).
"""
from __future__ import annotations

from p4sim.compiler import ast
from p4sim.compiler.semantic.returns import returns

# p4c's two def-use passes after function inlining each report the same variable
REPORTS_PER_COPY = 2


def return_value_looks_unset(decl: ast.FunctionDecl) -> bool:
    """True when p4c's flag-blind def-use analysis of ``decl``'s rewritten body finds a
    path to the end on which no ``return`` assigned the return value."""
    return not _assigned(decl.body, False)


def _assigned(s: ast.Statement | None, before: bool) -> bool:
    """Whether the return value is set on every path through ``s`` (set on entry:
    ``before``), following both sides of every branch."""
    if s is None:
        return before
    if isinstance(s, ast.ReturnStatement):
        return True
    if isinstance(s, ast.BlockStatement):
        state = before
        for inner in s.statements:
            state = _assigned(inner, state)
            if returns(inner, every=False):
                break  # the rest runs under the flag's guard, which may be skipped
        return state
    if isinstance(s, ast.IfStatement):
        return _assigned(s.then, before) and _assigned(s.otherwise, before)
    if isinstance(s, ast.SwitchStatement):
        has_default = any(isinstance(c.label, ast.DefaultExpression) for c in s.cases)
        bodies = [c.body for c in s.cases if c.body is not None]
        return all(_assigned(b, before) for b in bodies) and (has_default or before)
    return before
