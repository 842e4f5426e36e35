"""Minesweeper boards in the classic look as hobby web clones build it: a CSS grid of boxes, covered cells
raised by a CSS border (``outset``, or light and dark sides given one by one, 2-3 px), opened cells flat
with a one-pixel line on some of their sides, numbers as text in the standard colours, flags, mines as text or emoji,
a wrong flag as the mine crossed out in red, the whole board in a sunken frame on the window's grey. No client's
pictures: the page is drawn by Chromium from a look drawn at random (``look``), and screenshotted by
headless Chromium (``screenshot``). What the page shows is the truth: the hit mine on red, and ``MINES`` says which mine marks the classic look is meant to read
(its spiked star) and which it must refuse rather than misread (an asterisk, a bomb emoji).
"""

from __future__ import annotations

import functools
import html
import random
import shutil
import subprocess
from pathlib import Path

from screenbot.desktop.browser import _chromium_binary
from screenbot.testing.classic_board import DARK, FACE, LIGHT, NUMBER_BGR


def _css(bgr: tuple[int, int, int]) -> str:
    """A BGR colour of the look (``testing.classic_board``) as CSS writes it."""
    return "#{2:02x}{1:02x}{0:02x}".format(*bgr)


NUMBER_COLOURS = {number: _css(bgr) for number, bgr in NUMBER_BGR.items()}
FLAGS = ("\U0001F6A9", "\u2691", "F")  # the flag emoji, a black flag character drawn red, a red F
# Mine marks, and whether the classic look reads them as a mine: a spiked star is the look's mine; an
# asterisk and a bomb emoji are not, and take the shape of a 7 or the colour of an 8.
MINES = {"\u2739": True, "*": False, "\U0001F4A3": False}
WRONG_FLAG = "\u2715"  # drawn red over the mine mark: the look's wrong flag, a mine crossed out


@functools.lru_cache(maxsize=None)
def drawable(mark: str) -> bool:
    """Whether a font here has ``mark`` (Chromium draws a box for a character no font has, which no
    client shows): the emoji come from a colour emoji font (Debian's fonts-noto-color-emoji)."""
    if len(mark) == 1 and ord(mark) < 0x2000:
        return True
    if shutil.which("fc-list") is None:
        return False
    found = subprocess.run(["fc-list", f":charset={ord(mark):x}"], capture_output=True, text=True)
    return found.returncode == 0 and bool(found.stdout.strip())


def look(rng: random.Random) -> dict:
    """A look drawn at random: cell size, bevel, how opened cells are outlined, font weight, marks (of
    those a font here has)."""
    size = rng.randint(16, 40)
    return {
        "size": size,
        "bevel": rng.choice([2, 3]) if size >= 20 else 2,
        "outset": rng.random() < 0.5,  # ``border-style: outset``, else the four sides' colours given
        "opened_border": rng.choice(["1px 0 0 1px", "0 1px 1px 0", "1px", "0.5px"]),
        "bold": rng.random() < 0.5,
        "flag": rng.choice([mark for mark in FLAGS if drawable(mark)]),
        "mine": rng.choice([mark for mark in MINES if drawable(mark)]),
    }


def page(board: list[str], drawn: dict) -> str:
    """The HTML of ``board`` (a board text: ``#``, ``0``-``8``, ``F``, ``*``, ``X``, ``W``) in the look ``drawn``."""
    size, bevel = drawn["size"], drawn["bevel"]
    face, light, dark = _css(FACE), _css(LIGHT), _css(DARK)
    raised = (f"border: {bevel}px outset {light};" if drawn["outset"] else
              f"border-style: solid; border-width: {bevel}px; border-color: {light} {dark} {dark} {light};")
    cells = []
    for line in board:
        for ch in line:
            if ch == "#":
                cells.append('<div class="c"></div>')
            elif ch == "F":
                cells.append(f'<div class="c" style="color:#ff0000">{html.escape(drawn["flag"])}</div>')
            elif ch in "*X":
                red = ' style="background:#ff0000"' if ch == "X" else ""
                cells.append(f'<div class="o"{red}>{html.escape(drawn["mine"])}</div>')
            elif ch == "W":
                cells.append(f'<div class="o">{html.escape(drawn["mine"])}<span class="x">{WRONG_FLAG}</span></div>')
            else:
                text = "" if ch == "0" else ch
                cells.append(f'<div class="o" style="color:{NUMBER_COLOURS.get(ch, "#000000")}">{text}</div>')
    return f"""<!doctype html><html><head><meta charset="utf-8"><style>
body {{ background: {face}; margin: 0; font-family: sans-serif; }}
.frame {{ position: absolute; left: 30px; top: 30px; border: 3px solid; border-color: {dark} {light} {light} {dark}; }}
.board {{ display: grid; grid-template-columns: repeat({len(board[0])}, {size}px); grid-auto-rows: {size}px; }}
.board div {{ box-sizing: border-box; display: flex; align-items: center; justify-content: center;
  font-weight: {"bold" if drawn["bold"] else "normal"}; font-size: {int(size * 0.7)}px; background: {face}; color: #000000; }}
.c {{ {raised} }}
.o {{ border-style: solid; border-color: {dark}; border-width: {drawn["opened_border"]}; position: relative; }}
.x {{ position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; color: #ff0000; }}
</style></head><body><div class="frame"><div class="board">{"".join(cells)}</div></div></body></html>"""


def screenshot(board: list[str], drawn: dict, png: Path) -> None:
    """``board`` in the look ``drawn``, drawn by headless Chromium into ``png`` (the page and 30 px of the
    window's grey round the board's frame on each side)."""
    source = png.with_suffix(".html")
    source.write_text(page(board, drawn), encoding="utf-8")
    width = 60 + 6 + len(board[0]) * drawn["size"]
    height = 60 + 6 + len(board) * drawn["size"]
    subprocess.run([_chromium_binary("chromium"), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size={width},{height}", f"--screenshot={png}", source.resolve().as_uri()],
                   capture_output=True, timeout=120, check=True)
