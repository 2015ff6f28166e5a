"""Bad input of any shape ends in a CompileError, never in another Python exception."""
import random
from pathlib import Path

import pytest

from p4sim.compiler.errors import CompileError
from p4sim.compiler.frontend import parse_text

# Without its #include lines the program stays syntactically complete and parses fast.
SOURCE = (Path(__file__).resolve().parent / "programs" / "constructs.p4").read_text().replace(
    "#include", "// #include"
)
FRAGMENTS = [
    "(", ")", "{", "}", "<", ">", ">>", ";", ",", "#", "#if", "#define X(", "@", '"', "/*",
    "\\", "..", "&&&", "bit<", "select", "[", "]", ":", "=", ".", "_", "0x", "8w",
    "\n#endif\n", "\n#else\n", "table", "state", "apply", "extern", "@pragma", "(bit<8>)",
]


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 4)):
        pos = rng.randrange(len(text))
        choice = rng.random()
        if choice < 0.4:
            text = text[:pos] + rng.choice(FRAGMENTS) + text[pos:]
        elif choice < 0.8:
            text = text[:pos] + text[pos + rng.randint(1, 20):]
        else:
            text = text[:pos]
    return text


@pytest.mark.parametrize("seed", range(3))
def test_mutated_programs_fail_only_with_compile_errors(seed: int) -> None:
    rng = random.Random(seed)
    outcomes = {"parsed": 0, "rejected": 0}
    for _ in range(100):
        try:
            parse_text(mutate(SOURCE, rng), "mutated.p4")
            outcomes["parsed"] += 1
        except CompileError as error:
            assert error.render().startswith("mutated.p4:") or error.render().startswith("<")
            outcomes["rejected"] += 1
    assert outcomes["rejected"] > 0


@pytest.mark.parametrize(
    "source, message",
    [
        ("const bit<8> X = " + "(" * 3000 + "1" + ")" * 3000 + ";", "nested too deeply"),
        ("control C() { apply " + "{" * 3000 + "}" * 3000 + "}", "nested too deeply"),
        ("".join(f"#define M{i} M{i + 1}\n" for i in range(3000)) + "M0", "macros nested too deeply"),
    ],
)
def test_extreme_nesting_is_a_located_error(source: str, message: str) -> None:
    with pytest.raises(CompileError, match=message):
        parse_text(source)
