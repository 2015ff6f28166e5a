"""The real toolchain's outputs for one program, as recorded in a directory shaped like
``tests/real_toolchain/project/<name>/`` (or produced live, in the same shape).

Files: ``p4c.rc``, ``p4c.stderr``, ``<name>.json``, ``<name>.p4info.txtpb`` and, when the
program has an STF test, ``bmv2-stf.rc`` (0 pass, 1 fail, 3 unsupported by the
recording's runner) and ``bmv2-stf.log``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p4sim.reference import reference_dir

BMV2_PASS, BMV2_FAIL, BMV2_UNSUPPORTED = 0, 1, 3


class RecordingError(Exception):
    """A recording that is missing or unreadable (the message names the file)."""


@dataclass(frozen=True)
class Recording:
    name: str
    directory: Path
    source: str  # "recorded <dir>" or "live <tool>", for the report

    def _file(self, filename: str) -> Path:
        return self.directory / filename

    def _text(self, filename: str) -> str | None:
        try:
            return self._file(filename).read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise RecordingError(f"{self._file(filename)}: cannot read: {exc.strerror}") from None

    def _rc(self, filename: str) -> int | None:
        text = self._text(filename)
        if text is None:
            return None
        try:
            return int(text.strip())
        except ValueError:
            raise RecordingError(f"{self._file(filename)}: not an exit code: {text.strip()!r}") from None

    @property
    def p4c_rc(self) -> int:
        rc = self._rc("p4c.rc")
        if rc is None:
            raise RecordingError(f"{self._file('p4c.rc')}: missing (is {self.directory} a recording "
                                 "of p4c for this program?)")
        return rc

    @property
    def p4c_stderr(self) -> str:
        return self._text("p4c.stderr") or ""

    @property
    def json_path(self) -> Path:
        return self._file(f"{self.name}.json")

    @property
    def p4info_path(self) -> Path:
        return self._file(f"{self.name}.p4info.txtpb")

    def bmv2_json(self) -> dict[str, Any] | None:
        """p4c's BMv2 JSON, None when p4c wrote none."""
        text = self._text(self.json_path.name)
        if text is None:
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordingError(f"{self.json_path}:{exc.lineno}:{exc.colno}: not valid JSON: "
                                 f"{exc.msg}") from None

    def p4info_text(self) -> str | None:
        return self._text(self.p4info_path.name)

    @property
    def bmv2_stf_rc(self) -> int | None:
        """BMv2's STF verdict, None when nothing was recorded for an STF test."""
        return self._rc("bmv2-stf.rc")

    @property
    def bmv2_stf_log(self) -> str:
        return self._text("bmv2-stf.log") or ""


def default_recordings() -> Path:
    """The recording of the corpus and fabric kept in the repository."""
    return reference_dir() / "project"


def find_recording(name: str, recorded: Path | None) -> Recording:
    """``recorded/<name>/`` (a project folder), or ``recorded`` itself when it is the
    program's own recording; the repository's recording when ``recorded`` is None."""
    root = recorded if recorded is not None else default_recordings()
    for candidate in (root / name, root):
        if (candidate / "p4c.rc").is_file():
            return Recording(name, candidate, f"recorded {candidate}")
    raise RecordingError(f"no recording of {name} in {root} (no {name}/p4c.rc there; ask for "
                         "one, or pass --recorded DIR)")
