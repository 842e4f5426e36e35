"""The solver must stay pure: it runs without a screen and without the screen-side libraries."""

import ast
from pathlib import Path

import solver

import pytest

pytestmark = pytest.mark.unit

FORBIDDEN = {"cv2", "mss", "pyautogui", "screenbot", "Xlib", "numpy"}


def test_solver_imports_nothing_from_the_screen_side():
    for path in Path(solver.__file__).parent.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] not in FORBIDDEN, f"{path.name} imports {name}"
