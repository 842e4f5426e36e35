"""The clients ``screenbot learn`` is tried on from zero labels, and how: one table for the end-to-end
tests (``tests/test_learn_e2e.py``) and for ``python3 -m lab learn-all``, so that both learn the same
clients the same way.

Each is learnt into a skin of its own name, which no shipped skin has: the shipped pictures of the
client play no part in what is learnt.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass


@dataclass(frozen=True)
class LearntClient:
    client: str  # the name ``screenbot.desktop.start_client`` knows, or the found client's name
    options: dict  # start options (level, size, style)
    games: int  # games learn plays
    learn_options: tuple[str, ...]  # what a user would add (a restart no search tries)
    restart: str  # the restart learn must find (its summary's words, or how they start)
    states: str  # states every run sees
    mine_total: dict | None  # the mine total learn must find, per board size; None: not shown
    wins_need_flags: bool  # whether the client's win needs every mine flagged
    labelled_skin: str | None = None  # the skin of its labelled shots in fixtures/screens, if any
    # "module:function" that starts a client found for the tests, which no shipped code names (so that
    # the classic look is tried on clients nobody tuned for); None: ``start_client`` starts it.
    starter: str | None = None

    @property
    def label(self) -> str:
        return self.client + (f"-{self.options['style']}" if "style" in self.options else "")

    def start(self):
        """The client started on the current display (a ``ClientWindow``, to use as a context manager)."""
        if self.starter is None:
            from screenbot.desktop import start_client

            return start_client(self.client, **self.options)
        module, function = self.starter.split(":")
        return getattr(importlib.import_module(module), function)(**self.options)


# winemine (Wine's Minesweeper, green tiles on black) on an expert board: a dense board shows the
# numbers up to 6 within a few games. minegauler in its Standard skin (the classic Windows look) at
# 24 px buttons on an intermediate board. xbomb at level 1 (8x8, 50 px cells with thin digits; a new
# game is its key s, which no usual restart tries, so it is given as a user would; so are sgt-mines'
# and KMines' Ctrl+N, a key the restart search never sends: it opens a window in many programs).
# xdemineur opens an area of each new game itself, and starts one when its face above the board is
# clicked. sgt-mines shows only the mine hit at a loss: its numbers are named by the one naming its
# boards fit, and its mine total stays unknown.
CLIENTS = (
    LearntClient("gnome-mines", {"level": "medium", "window_size": (600, 400)}, 6, ("--restart", "ctrl+r"),
                 "the given restart ctrl+r", "#012F*X", {"16x16": 40}, False, "gnome-mines"),
    LearntClient("winemine", {"level": "expert"}, 8, (), "F2", "#01234F*X", {"16x30": 99}, False),
    LearntClient("minegauler", {"level": "intermediate", "button_size": 24}, 6, (), "F2", "#0123F*X",
                 {"16x16": 40}, False, "minegauler"),
    # Its Textured style: covered cells a texture with no face, found as a repeated picture.
    LearntClient("minegauler", {"level": "intermediate", "button_size": 28, "style": "Textured"}, 6, (), "F2",
                 "#0123F*X", {"16x16": 40}, False),
    LearntClient("xbomb", {"level": 1}, 8, ("--restart", "s"), "the given restart s", "#0123F*", {"8x8": 10}, True),
    LearntClient("xdemineur", {}, 6, (), "a click", "#0123F*X", {"16x16": 40}, True,
                 "xdemineur"),
    LearntClient("sgt-mines", {"game_id": "16x16n40"}, 8, ("--restart", "ctrl+n"), "the given restart ctrl+n",
                 "#012FX", None, False, "sgt-mines"),
    # KMines draws its opened cells see-through over a picture, asks "Reset the game?" at a loss and
    # writes "You have lost." over the board for a few seconds.
    LearntClient("kmines", {"level": "easy"}, 6, ("--restart", "ctrl+n"), "the given restart ctrl+n", "#012F*X",
                 {"9x9": 10}, False),
    # react-minesweeper in Chromium: the classic look in a browser (raised covered cells, flat opened
    # ones a shade lighter), no safe first click, no mine total (each cell a mine by chance), a new
    # game by its face above the board: no key may be sent to a browser (Ctrl+R reloaded the page).
    LearntClient("react-minesweeper", {}, 6, (), "a click", "#012F*", None, False,
                 "react-minesweeper"),
    # Two clients in the classic look found on PyPI and npm, started by the tests' own starters:
    # pygame-minesweeper (16 px tiles, a new game by its face above the board) and minesweeper-for-web
    # in Chromium (40 px fields; it takes no right click, and flags by Ctrl+click, which learn finds).
    LearntClient("pygame-minesweeper", {"level": "intermediate"}, 6, (), "a click", "#0123F*X", {"16x16": 40},
                 False, starter="tests.pygame_minesweeper:start"),
    LearntClient("minesweeper-for-web", {"rows": 9, "columns": 9, "bombs": 10, "window_size": (1200, 1000)}, 6, (),
                 "a click", "#012F?*X", None, False, "classic",  # its shots: labelled as the classic look
                 starter="tests.minesweeper_for_web:start"),
)
