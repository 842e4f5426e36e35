"""Every text file the code reads or writes says its encoding. Without it Python uses the platform's:
UTF-8 on Linux, cp1252 on a Windows machine in Western Europe, so a skin, a profile or a recording
written on one could not be read on the other, and a board file with a non-ASCII name in it failed
on Windows. (Python's own check, ``-X warn_default_encoding``, only sees the lines a run reaches.)"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("screenbot", "solver", "lab", "tests")


def _mode(node: ast.Call) -> str | None:
    """The mode given to a builtin ``open`` call (None when not a constant or not given)."""
    given = [k.value for k in node.keywords if k.arg == "mode"] or node.args[1:2]
    return given[0].value if given and isinstance(given[0], ast.Constant) else None


def text_io_without_encoding(source: str) -> list[int]:
    """Lines of ``source`` that open, read or write text with no ``encoding=``: ``open`` in a text
    mode, ``Path.read_text`` and ``Path.write_text``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or any(k.arg == "encoding" for k in node.keywords):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("read_text", "write_text"):
            lines.append(node.lineno)
        elif isinstance(func, ast.Name) and func.id == "open" and "b" not in (_mode(node) or ""):
            lines.append(node.lineno)
    return lines


def test_the_check_finds_text_io_without_an_encoding():
    source = 'open(p)\nopen(p, "w")\nopen(p, "rb")\np.read_text()\np.write_text(t)\nopen(p, encoding="utf-8")\n'
    assert text_io_without_encoding(source) == [1, 2, 4, 5]


def test_every_text_file_is_read_and_written_with_its_encoding():
    found = []
    for folder in CHECKED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for line in text_io_without_encoding(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, "text read or written without encoding=:\n" + "\n".join(found)
