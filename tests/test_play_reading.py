"""Reading only the changed part of the board gives exactly what a full read gives."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from screenbot.play.reading import ChangedCellsReader
from screenbot.testing import FlatRenderer, FlatVision
from screenbot.geometry import Lattice
from screenbot.vision import load_skins, read_board
from solver.game import Game

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[1]


class CountingVision:
    """Real or fake vision, counting how many cells each read covered."""

    def __init__(self, read) -> None:
        self._read = read
        self.cells_read: list[int] = []

    def read(self, frame, lattice, needed=None):
        self.cells_read.append(lattice.rows * lattice.cols)
        return self._read(frame, lattice, needed)


def test_changed_cells_reads_equal_full_reads_through_simulated_games():
    renderer, vision = FlatRenderer(12), FlatVision(12)
    lattice = Lattice("flat", (5, 7), (12, 12), 16, 30)
    for seed in range(3):
        game = Game.new(16, 30, 99, rules="opening", seed=seed)
        counting = CountingVision(vision.read)
        reader = ChangedCellsReader(counting)
        rng = np.random.default_rng(seed)
        game.open(3, 3)
        while game.status == "playing":
            frame = np.zeros((16 * 12 + 14, 30 * 12 + 16, 3), np.uint8)
            for r, c, ch in game.board().cells():
                frame[7 + r * 12 : 19 + r * 12, 5 + c * 12 : 17 + c * 12] = renderer.cell(ch)
            assert reader.read(frame, lattice).board.grid == vision.read(frame, lattice).board.grid
            reader.accept()
            covered = [(r, c) for r, c, ch in game.board().cells() if ch == "#" and not game.is_mine(r, c)]
            r, c = covered[rng.integers(len(covered))]
            game.open(int(r), int(c))
            if rng.random() < 0.2:  # now and then a flag
                mines = [(r, c) for r, c, ch in game.board().cells() if ch == "#" and game.is_mine(r, c)]
                game.flag(*mines[rng.integers(len(mines))])
        # After the first full read, most reads covered a small part of the board.
        assert counting.cells_read[0] == 16 * 30
        assert np.median(counting.cells_read[1:]) < 16 * 30 / 4


def test_changed_cells_reads_equal_full_reads_on_a_real_recording():
    """Consecutive real gnome-mines frames of a recorded game, read with the real recognizer."""
    folder = ROOT / "fixtures" / "recordings" / "gnome-mines-play-small"
    steps = [json.loads(line) for line in (folder / "log.jsonl").read_text(encoding="utf-8").splitlines()]
    steps = [s for s in steps if s["type"] == "step"]
    skins = load_skins()
    lat = steps[0]["lattice"]
    lattice = Lattice.from_json(lat)
    counting = CountingVision(lambda frame, part, needed: read_board(frame, part, skins, needed=needed))
    reader = ChangedCellsReader(counting)
    frames = [cv2.imread(str(folder / s["frame"])) for s in steps]
    for frame in frames:
        full = read_board(frame, lattice, skins)
        got = reader.read(frame, lattice)
        reader.accept()
        assert got.board.grid == full.board.grid
        assert abs(got.min_confidence - full.min_confidence) < 1e-9
    assert min(counting.cells_read[1:]) < lattice.rows * lattice.cols  # some reads were partial
