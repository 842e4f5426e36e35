"""A client nobody taught, in a look of its own: never read wrong, and refused in words that say so.

py-sweeper (a pygame clone found on GitHub) draws covered cells flat grey in a black grid, opened cells
white, every number black: neither the classic look nor any taught client's. Its flat grey cells fit
some taught clients' covered cells roughly (kmines', xbomb's: 0.74), so the board was taken for theirs
and then refused for a cell or colour those clients do not draw, in words that named the wrong client
and the wrong remedy ("skin 'kmines' has no picture of 5, 7, 8 ... add a screenshot"). Kept: two of
its boards (``fixtures/screens-untaught/pysweeper-*``, the window as the screen showed it). A board
with a cell open shows two faces, and is now read as a look told by its faces; a fresh one is refused.
And boards drawn in that look at random cell sizes and games on every run (seed printed; replay:
SCREENBOT_RANDOM_SEED=<seed>): each is read right or refused, never read wrong, and a refusal that
names a taught client names the client nobody taught first.
"""

from __future__ import annotations

import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from screenbot.cli import main
from screenbot.testing.classic_board import random_game, single_number_game

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.integration

UNTAUGHT = Path(__file__).resolve().parents[1] / "fixtures" / "screens-untaught"
print(f"\ntests/test_untaught_client.py: {REPLAY}")

GREY, LINE, OPEN, INK = (192, 192, 192), (0, 0, 0), (255, 255, 255), (0, 0, 0)
WINDOW = (240, 240, 240)


def _read(path: Path, crops: Path, capsys) -> tuple[int, str, str]:
    code = main(["read", str(path), "--crops", str(crops)])
    out, err = capsys.readouterr()
    return code, out, err


def _refused_as_untaught(code: int, err: str) -> None:
    assert code in (4, 5), err
    assert "nobody taught" in err, err
    if "only roughly" in err:
        # Taken for a taught client's board: the client nobody taught is named, with how to teach it,
        # before that client's own remedies.
        assert "screenbot learn" in err, err
        assert " if it is " not in err or err.index("nobody taught") < err.index(" if it is "), err


def test_a_real_client_nobody_taught_is_refused_as_one_on_a_fresh_board(tmp_path, capsys):
    """A fresh board of flat cells of one colour is nothing a look read from its structure tells apart
    from any grid (a table, a calendar): refused."""
    code, out, err = _read(UNTAUGHT / "pysweeper-fresh.png", tmp_path, capsys)
    _refused_as_untaught(code, err)
    assert not out


def test_a_real_client_nobody_taught_is_read_once_its_board_shows_two_faces(tmp_path, capsys):
    """Once a cell is open, its covered cells (grey) and opened ones (white) show two faces, and the
    rules say which is which (``vision.classic._read_by_faces``): the board with a single 2 open, refused
    before as a client nobody taught, is read exactly, its 2 by its shape."""
    code, out, err = _read(UNTAUGHT / "pysweeper-one-2.png", tmp_path, capsys)
    assert code == 0, err
    assert out.split() == (UNTAUGHT / "pysweeper-one-2.txt").read_text(encoding="utf-8").split()


def draw_flat(board: list[str], pitch: int, margin: int = 40) -> np.ndarray:
    """``board`` in py-sweeper's look: covered cells flat grey, opened cells white, a one-pixel black
    grid, every number, flag and mine black (a flag a black "F", a mine a disc)."""
    rows, cols = len(board), len(board[0])
    image = np.full((rows * pitch + 2 * margin, cols * pitch + 2 * margin, 3), WINDOW, dtype=np.uint8)
    for r, line in enumerate(board):
        for c, ch in enumerate(line):
            top, left = margin + r * pitch, margin + c * pitch
            box = image[top : top + pitch + 1, left : left + pitch + 1]
            box[:] = LINE
            box[1:-1, 1:-1] = GREY if ch in "#F?" else OPEN
            middle = pitch / 2
            if ch in "12345678F?":
                scale = pitch / 40
                (w, h), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_SIMPLEX, scale, max(1, pitch // 14))
                cv2.putText(box, ch, (round(middle - w / 2), round(middle + h / 2)), cv2.FONT_HERSHEY_SIMPLEX,
                            scale, INK, max(1, pitch // 14), cv2.LINE_AA)
            elif ch in "*XW":
                cv2.circle(box, (round(middle), round(middle)), max(2, pitch // 4), INK, -1, cv2.LINE_AA)
    return image


@pytest.mark.parametrize("case", range(6))
def test_boards_drawn_in_a_look_nobody_taught_are_never_read_wrong(case, tmp_path, capsys):
    rng = random.Random(SEED * 10 + case)
    pitch, rows, cols = rng.randint(14, 48), rng.randint(8, 12), rng.randint(8, 14)
    kind = rng.choice(["fresh", "one number", "game"])
    if kind == "fresh":
        board = ["#" * cols] * rows
    elif kind == "one number":
        board = single_number_game(rng, rows, cols)
    else:
        board = random_game(rng, rows, cols, lost=False)
    path = tmp_path / "board.png"
    cv2.imwrite(str(path), draw_flat(board, pitch))
    code, out, err = _read(path, tmp_path, capsys)
    where = f"seed {SEED}, case {case}: {kind} {rows}x{cols} at {pitch} px"
    if code == 0:
        assert out.split() == board, f"{where}: read wrong with exit 0:\n{out}"
    else:
        _refused_as_untaught(code, f"{where}: {err}")




@pytest.mark.parametrize("refused_for", ["round it", "size", "its cells"])
def test_a_board_refused_for_what_lies_round_it_is_not_told_to_change_its_client_s_look(refused_for, monkeypatch):
    """A board its skin's pictures fit just under certain (gnome-mines in its own tiles at 0.90), refused
    because its window cuts it: the refusal holds in any look, and the remedy for gnome-mines' other tile
    themes would send the player the wrong way. That it may be a client nobody taught still holds (the
    pictures of the wrong client can make a whole board look cut); a board refused for its cells alone
    gets both."""
    from screenbot.errors import BoardNotFoundError
    from screenbot.vision import locate
    from screenbot.vision.skins import load_skins

    where = {"round it": {"round_it": True}, "size": {"short": True}, "its cells": {}}[refused_for]
    found = locate.Found(grid=None, lattice=None, confidence=locate.CERTAIN - 0.001, refusal="cut", skin="gnome-mines",
                         **where)
    monkeypatch.setattr(locate, "locate_boards", lambda *args, **kw: [found])
    monkeypatch.setattr(locate.Found, "describe", lambda self: "board")
    with pytest.raises(BoardNotFoundError) as refused:
        locate.locate_found(np.zeros((100, 100, 3), np.uint8), load_skins())
    said = str(refused.value)
    assert "only roughly" in said and "nobody taught" in said, said
    assert ("gsettings reset org.gnome.Mines theme" in said) is (refused_for == "its cells"), said
