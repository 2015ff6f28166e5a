"""Where the labs are and what their packet tests say about themselves.

A lab is a folder of this package holding ``exercise.p4``, ``solution.p4`` and
``tests/*.stf``. Each STF file is one test; its ``# test:`` comment says what it
checks and its ``# hint:`` comments tell a student what to do when it fails.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

LABS_DIR = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ("exercise.p4", "solution.p4")


@dataclass(frozen=True)
class LabTest:
    """One packet test of a lab: its STF file, title and hint."""

    path: str
    title: str
    hint: str

    @property
    def name(self) -> str:
        return os.path.basename(self.path)


@dataclass(frozen=True)
class Lab:
    name: str
    directory: str

    def program(self, solution: bool) -> str:
        return os.path.join(self.directory, PROGRAMS[1] if solution else PROGRAMS[0])

    def tests(self) -> list[LabTest]:
        folder = os.path.join(self.directory, "tests")
        names = sorted(n for n in os.listdir(folder) if n.endswith(".stf")) if os.path.isdir(folder) else []
        return [read_test(os.path.join(folder, n)) for n in names]


class UnknownLab(Exception):
    """A lab name that is not a folder of labs/; the message lists the labs."""


def lab_names() -> list[str]:
    """Every folder of labs/ that holds both programs, sorted."""
    return sorted(n for n in os.listdir(LABS_DIR)
                  if all(os.path.isfile(os.path.join(LABS_DIR, n, p)) for p in PROGRAMS))


def find_lab(name: str) -> Lab:
    """The lab called ``name``; UnknownLab (listing the labs) if there is none."""
    names = lab_names()
    if name not in names:
        raise UnknownLab(f"no lab called {name!r}; the labs are: {', '.join(names)} "
                         "(run one with: make lab LAB=NAME)")
    return Lab(name, os.path.join(LABS_DIR, name))


def read_test(path: str) -> LabTest:
    """Title and hint of an STF file, from its ``# test:`` and ``# hint:`` comments."""
    title: list[str] = []
    hint: list[str] = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            text = line.strip()
            for tag, parts in (("# test:", title), ("# hint:", hint)):
                if text.startswith(tag):
                    parts.append(text[len(tag):].strip())
    stem = os.path.splitext(os.path.basename(path))[0]
    return LabTest(path, " ".join(title) or stem.replace("_", " "),
                   " ".join(hint) or "compare the packets printed above with the expected ones")
