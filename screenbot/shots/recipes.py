"""Named capture sessions on the real clients: which client, which size, how the game is played.

``RECIPES`` lists every session the fixture set and the templates are made from. Each recipe is
deterministic in what it does (seeded), though the clients place their mines at random, so a rerun
gives other boards with the same kinds of states. ``for_templates`` marks the sessions templates are
cut from; the others are held back to check that reading works on captures the templates never saw.
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field
from typing import Callable

from solver.board import parse_board

from ..capture import MssScreen
from ..desktop.clients import start_gnome_mines, start_react_minesweeper, start_xdemineur
from ..desktop.devtools import REACT_MINESWEEPER_STATE_JS, DevToolsPage, page_websocket_url, react_minesweeper_board_text
from .labels import Appearance, TruthCheckError
from .sessions import (
    LabelledShot,
    Session,
    click_at,
    gnome_mines_lattice,
    move_pointer,
    play_desktop_game,
    react_lattice,
    xdemineur_lattice,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Recipe:
    name: str
    client: str
    options: dict = field(default_factory=dict)
    for_templates: bool = False
    seed: int = 0


RECIPES: tuple[Recipe, ...] = (
    Recipe("gm-small-600", "gnome-mines", {"level": "small", "window_size": (600, 400)}, True, 1),
    Recipe("gm-medium-600", "gnome-mines", {"level": "medium", "window_size": (600, 400)}, True, 2),
    Recipe("gm-small-1000", "gnome-mines", {"level": "small", "window_size": (1000, 900)}, True, 3),
    Recipe("gm-medium-1000", "gnome-mines", {"level": "medium", "window_size": (1000, 900)}, True, 7),
    Recipe("gm-big-900", "gnome-mines", {"level": "big", "window_size": (900, 600)}, False, 4),
    Recipe("gm-custom-700", "gnome-mines", {"custom": (12, 9, 15), "window_size": (700, 500)}, False, 5),
    Recipe("gm-medium-800", "gnome-mines", {"level": "medium", "window_size": (800, 700)}, False, 6),
    Recipe("xd-16x16", "xdemineur", {"cols": 16, "rows": 16, "mines": 40}, True, 1),
    Recipe("xd-30x16", "xdemineur", {"cols": 30, "rows": 16, "mines": 99}, True, 2),
    Recipe("xd-20x12", "xdemineur", {"cols": 20, "rows": 12, "mines": 30}, False, 3),
    Recipe("xd-16x16b", "xdemineur", {"cols": 16, "rows": 16, "mines": 50}, False, 4),
    Recipe("rm-s1-10x10", "react-minesweeper", {"scale": 1.0, "rows": 10, "cols": 10, "chance": 15}, True, 1),
    Recipe("rm-s1.5-12x12", "react-minesweeper", {"scale": 1.5, "rows": 12, "cols": 12, "chance": 18}, True, 2),
    Recipe("rm-s2-8x8", "react-minesweeper", {"scale": 2.0, "rows": 8, "cols": 8, "chance": 20}, True, 3),
    Recipe("rm-s1.25-16x16", "react-minesweeper", {"scale": 1.25, "rows": 16, "cols": 16, "chance": 15}, False, 4),
    Recipe("rm-s1-16x30", "react-minesweeper", {"scale": 1.0, "rows": 16, "cols": 30, "chance": 20}, False, 5),
    Recipe("rm-s1.75-9x9", "react-minesweeper", {"scale": 1.75, "rows": 9, "cols": 9, "chance": 12}, False, 6),
)


def run_recipe(recipe: Recipe, screen: MssScreen, attempts: int = 4) -> list[LabelledShot]:
    """Run one session on its client (the current DISPLAY) and return its labelled shots.

    A desktop game whose rules check fails (e.g. a "?" placed on a mine draws differently) is
    discarded and replayed with the next seed, up to ``attempts`` times.
    """
    runner = {"gnome-mines": _gnome_mines, "xdemineur": _xdemineur, "react-minesweeper": _react}[recipe.client]
    last: Exception | None = None
    for attempt in range(attempts):
        try:
            return runner(recipe, screen, random.Random(recipe.seed * 100 + attempt))
        except TruthCheckError as exc:
            log.warning("%s: attempt %d discarded: %s", recipe.name, attempt + 1, exc)
            last = exc
    raise TruthCheckError(f"{recipe.name}: no game passed the rules check in {attempts} attempts ({last})")


def _gnome_mines(recipe: Recipe, screen: MssScreen, rng: random.Random) -> list[LabelledShot]:
    options = dict(recipe.options)
    if "custom" in options:
        cols, rows, _ = options["custom"]
    else:
        cols, rows = {"small": (8, 8), "medium": (16, 16), "big": (30, 16)}[options["level"]]
    with start_gnome_mines(**options) as client:
        session = Session(client, None, screen, exploded_red_fraction=0.04)  # type: ignore[arg-type]
        session.away()
        fresh = session.frame()
        session.lattice = gnome_mines_lattice(fresh, client, rows, cols)
        look = Appearance(session.cells(fresh)[0, 0])
        start = (min(3, rows // 2), min(3, cols // 2))
        shots = play_desktop_game(session, look, recipe.name, rng, start, flags=3, question=True, hover_shots=1,
                                  keep_every=2)
        fresh_board = parse_board("\n".join("#" * cols for _ in range(rows)))
        return [LabelledShot(client.client, f"{recipe.name}-fresh", fresh, session.lattice, fresh_board,
                             shots[0].window, ("fresh",)), *shots]


def _xdemineur(recipe: Recipe, screen: MssScreen, rng: random.Random) -> list[LabelledShot]:
    options = dict(recipe.options)
    with start_xdemineur(**options) as client:
        session = Session(client, xdemineur_lattice(client, options["rows"], options["cols"]), screen,
                          exploded_red_fraction=0.4)
        session.away()
        start = session.frame()
        cells = session.cells(start)
        # The game opened a region by itself; the covered picture is the one on most cells that
        # still changes when clicked (checked by the first random move's outcome below).
        flat = cells.reshape(-1, *cells.shape[2:])
        counts = [sum(1 for other in flat if _same(one, other)) for one in flat[:: max(1, len(flat) // 40)]]
        covered = flat[:: max(1, len(flat) // 40)][max(range(len(counts)), key=counts.__getitem__)]
        look = Appearance(covered)
        return play_desktop_game(session, look, recipe.name, rng, None, flags=3, question=True, hover_shots=1,
                                 keep_every=3)


def _same(a, b) -> bool:
    from .labels import same

    return same(a, b)


def _react(recipe: Recipe, screen: MssScreen, rng: random.Random) -> list[LabelledShot]:
    options = dict(recipe.options)
    rows, cols, chance = options.pop("rows"), options.pop("cols"), options.pop("chance")
    with start_react_minesweeper(scale=options["scale"], devtools=True) as client:
        with DevToolsPage(page_websocket_url(client.devtools_port, client.url)) as page:
            return _react_game(recipe, client, page, screen, rng, rows, cols, chance)


_SET_INPUT_JS = """
((id, value) => {
  const el = document.getElementById(id);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, String(value));
  el.dispatchEvent(new Event('input', {bubbles: true}));
})(%r, %d)
"""


def _react_game(recipe, client, page, screen, rng, rows, cols, chance) -> list[LabelledShot]:
    page.evaluate(_SET_INPUT_JS % ("bomb-chance", chance))
    page.evaluate(_SET_INPUT_JS % ("fields-horizontally", cols))
    page.evaluate(_SET_INPUT_JS % ("fields-vertically", rows))
    page.evaluate("document.querySelector('table.minesweeper').scrollIntoView({block: 'center'})")
    time.sleep(0.5)
    shots: list[LabelledShot] = []
    width, height = screen.size

    def state():
        return page.evaluate(REACT_MINESWEEPER_STATE_JS)

    def shoot(tag: str, name: str, hover: tuple[int, int] | None = None) -> None:
        frame0 = screen.grab()
        lattice = react_lattice(frame0, page, rows, cols)
        if hover is not None:
            move_pointer(*map(int, lattice.cell_center(*hover)))
            time.sleep(0.2)
        else:
            move_pointer(width - 1, height - 1)
            time.sleep(0.1)
        before = state()
        frame = screen.grab()
        after = state()
        if before != after:
            raise TruthCheckError(f"{recipe.name}-{name}: the page changed while the screenshot was taken")
        board = parse_board(react_minesweeper_board_text(after))
        shots.append(LabelledShot(client.client, f"{recipe.name}-{name}", frame, lattice, board,
                                  client.geometry().as_region(), (tag,)))

    def click(r: int, c: int, button: int = 1) -> None:
        lattice = react_lattice(screen.grab(), page, rows, cols)
        click_at(*lattice.cell_center(r, c), button=button)
        move_pointer(width - 1, height - 1)
        time.sleep(0.2)

    shoot("fresh", "fresh")
    board = state()["board"]
    safe = [(r, c) for r in range(rows) for c in range(cols) if not board[r][c]["b"]]
    mines = [(r, c) for r in range(rows) for c in range(cols) if board[r][c]["b"]]
    # Open zeros first (a larger opening), using the page's knowledge only to steer the game.
    zeros = [rc for rc in safe if board[rc[0]][rc[1]]["n"] == 0]
    for r, c in (zeros or safe)[:1] + rng.sample(safe, min(2, len(safe))):
        click(r, c)
    shoot("mid-game", "opened")
    for r, c in rng.sample(mines, min(3, len(mines))):
        click(r, c, button=3)
    covered_safe = [(r, c) for r, c in safe if not state()["board"][r][c]["r"]]
    for r, c in rng.sample(covered_safe, min(1, len(covered_safe))):
        click(r, c, button=3)  # a wrong flag: the client shows it like any other flag
    shoot("flagged", "flagged")
    hidden = [(r, c) for r in range(rows) for c in range(cols) if not state()["board"][r][c]["r"]]
    shoot("hover", "hover", hover=rng.choice(hidden))
    if recipe.seed % 2:
        for r, c in safe:
            if not state()["board"][r][c]["r"]:
                if state()["board"][r][c]["f"]:
                    click(r, c, button=3)
                click(r, c)
        if not state()["won"]:
            raise TruthCheckError(f"{recipe.name}: opening every safe cell did not win")
        shoot("won", "won")
    else:
        for r, c in rng.sample(safe, min(6, len(safe))):
            if not state()["board"][r][c]["r"] and not state()["board"][r][c]["f"]:
                click(r, c)
        shoot("mid-game", "more")
        flagged = {(r, c) for r, c in mines if state()["board"][r][c]["f"]}
        target = next((m for m in mines if m not in flagged), None)
        if target is None:
            raise TruthCheckError(f"{recipe.name}: every mine is flagged, cannot lose")
        click(*target)
        if not state()["lost"]:
            raise TruthCheckError(f"{recipe.name}: opening a mine did not lose")
        shoot("lost", "lost")
    return shots


RUNNERS: dict[str, Callable] = {"gnome-mines": _gnome_mines, "xdemineur": _xdemineur, "react-minesweeper": _react}
