"""The solver core compiled by mypyc at install (setup.py, solver/native.py) plays exactly as its source.

Compiled, the same source can still behave differently: mypyc checks declared types at run time (a
tuple where a list is declared is a TypeError) and keeps some ints native. So games drawn at random
on every run (seed printed; replay with SCREENBOT_RANDOM_SEED=<seed>) are played twice, by this
installation (compiled where it could be) and by the plain source (a copy of solver/*.py with no
compiled files), and every decision's moves and every probability must be the same, to the bit.

CI sets SCREENBOT_REQUIRE_COMPILED=1: there the core must be compiled, so that the comparison means
something and the benchmark figures are those of the compiled core.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver.native import COMPILED, compiled_modules, stale_modules

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration

# Plays the games and prints every decision: its moves and every cell's probability (repr of floats).
TRACE = r"""
import sys
from dataclasses import replace
from solver import decide, analyze, format_board
from solver.game import Game, PLAYING
from solver.policy import FLAG, PolicyConfig
from solver.native import COMPILED, compiled_modules
import importlib
for name in COMPILED:
    importlib.import_module("solver." + name)

seed, games = int(sys.argv[1]), int(sys.argv[2])
print("compiled:", compiled_modules())
levels = [(9, 9, 10), (16, 16, 40), (16, 30, 99)]
for index in range(games):
    rows, cols, mines = levels[index % 3]
    rules = ("safe", "opening")[index // 3 % 2]
    game = Game(rows, cols, mines, rules=rules, seed=seed * 1000 + index)
    policy = PolicyConfig(time_limit=None, first_click=(rows // 2, cols // 2))
    while game.status == PLAYING:
        board = game.board()
        chances = analyze(board).probabilities
        decision = decide(board, policy)
        print(index, [(m.action, m.row, m.col, repr(m.probability)) for m in decision.moves],
              [repr(p) for row in chances for p in row])
        for move in decision.moves:
            if game.status != PLAYING:
                break
            (game.flag if move.action == FLAG else game.open)(move.row, move.col)
    print(index, "end", game.status)
"""

GAMES = 30


def _trace(seed: int, where: Path, path: Path | None) -> list[str]:
    """The trace's lines, run in ``where`` (not the checkout, whose solver/ ``-c`` would import first),
    with ``path`` before the installed package when given."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-c", TRACE, str(seed), str(GAMES)], capture_output=True, text=True,
                          env=env, cwd=where, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_compiled_core_plays_exactly_as_its_source(tmp_path):
    plain = tmp_path / "plain" / "solver"
    plain.mkdir(parents=True)
    for source in Path(solver.__file__).parent.glob("*.py"):
        shutil.copy(source, plain / source.name)
    installed = _trace(SEED, tmp_path, None)
    source = _trace(SEED, tmp_path, plain.parent)
    print(f"\n{REPLAY}: installed {installed[0]}, source {source[0]}, {len(installed)} lines")
    assert source[0] == "compiled: []", "the plain source's run imported compiled modules"
    assert sum(line.endswith(("won", "lost")) for line in installed) == GAMES
    for line_installed, line_source in zip(installed[1:], source[1:]):
        assert line_installed == line_source, REPLAY
    assert len(installed) == len(source), REPLAY


def test_the_core_is_compiled_where_required():
    for name in COMPILED:
        importlib.import_module(f"solver.{name}")
    if os.environ.get("SCREENBOT_REQUIRE_COMPILED"):
        assert compiled_modules() == list(COMPILED), "install with a C compiler (build-essential, python3-dev)"
    assert stale_modules() == []


def test_an_edited_source_is_refused_while_its_compiled_copy_is_older(tmp_path):
    from solver import native

    folder = tmp_path / "solver"
    folder.mkdir()
    (folder / "grid.py").write_text("X = 1\n", encoding="utf-8")
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    (folder / f"grid{suffix}").write_bytes(b"")
    (folder / native.RECORD).write_text('{"grid": "%s"}' % native.source_hash(folder / "grid.py"), encoding="utf-8")
    assert native.stale_modules(folder) == []
    (folder / "grid.py").write_text("X = 2\n", encoding="utf-8")
    assert native.stale_modules(folder) == ["grid"]
    (folder / native.RECORD).unlink()
    assert native.stale_modules(folder) == ["grid"]
    with pytest.raises(ImportError, match="pip install -e"):
        native.refuse_stale(folder)
