"""minesweeper-for-web (npm; ``tests/minesweeper_for_web.py``), a browser client in the classic look that
no skin was taught on, read as ``screenbot read`` reads a screenshot: with every shipped skin, no
``learn``, no skin named.

Its grey raised cells fit react-minesweeper's pictures roughly (0.76) and its colours not at all: read
as react-minesweeper, the board was refused for its colours ("differ from the skin's by about 4
levels"). Each run draws a device scale (0.67-1.25: a desktop's scaling or a page zoom) and a board
size, and plays one game on it by the page's own truth: the fresh board, the board after a few opens,
with flags (Ctrl+click, the client's way), and the lost board.
Every screenshot must read exactly or be refused with a reason, never wrong; the fresh board and at
least half of the others must read. The seed is printed (replay: SCREENBOT_RANDOM_SEED=<seed>).
"""

from __future__ import annotations

import random
import time

import pytest

from .seeds import REPLAY, SEED

pytestmark = pytest.mark.e2e


def test_a_classic_web_component_found_on_npm_is_read_with_no_skin_of_its_own(tmp_path):
    import contextlib
    import io

    import cv2

    from lab.shots.devtools import DevToolsPage, page_websocket_url
    from lab.shots.sessions import click_at, move_pointer, page_on_screen
    from screenbot.capture import MssScreen
    from screenbot.commands.screenshot import read_screenshot
    from screenbot.desktop import VirtualDisplay
    from screenbot.vision import load_skins

    from .minesweeper_for_web import BOARD_JS, FIELDS_JS, MINES_JS, WINDOW, drawn_scale_and_size, start

    rng = random.Random(f"{SEED}-minesweeper-for-web")
    scale, rows, cols = drawn_scale_and_size(rng, 16, 24)
    bombs = max(2, round(rows * cols * rng.uniform(0.1, 0.18)))
    print(f"minesweeper-for-web {rows}x{cols} with {bombs} mines at device scale {scale}, {REPLAY}")
    skins = load_skins()
    verdicts: dict[str, str] = {}
    with VirtualDisplay(), start(rows, cols, bombs, window_size=WINDOW, scale=scale) as client, MssScreen() as screen:
        page = DevToolsPage(page_websocket_url(client.devtools_port, "classic.html"))
        time.sleep(1.0)
        fields = page.evaluate(FIELDS_JS)
        left = min(f[2] for f in fields)
        top = min(f[3] for f in fields)
        right = max(f[2] + f[4] for f in fields)
        bottom = max(f[3] + f[5] for f in fields)
        dx, dy = page_on_screen(screen.grab(), page, (left, top, right, bottom))
        centre = {(r, c): (x + w / 2 + dx, y + h / 2 + dy) for r, c, x, y, w, h in fields}

        def shot(name: str) -> None:
            move_pointer(5, 5)  # off the board: the component draws a hovered field otherwise
            time.sleep(0.4)
            truth = page.evaluate(BOARD_JS)
            frame = screen.grab()
            path = tmp_path / f"{name}.png"  # kept with its truth, to look at when a reading fails
            cv2.imwrite(str(path), frame)
            path.with_suffix(".txt").write_text("\n".join(truth) + "\n", encoding="utf-8")
            said = io.StringIO()
            with contextlib.redirect_stderr(said):
                reading = read_screenshot(path, frame, skins, "auto")
            if isinstance(reading, int):
                verdicts[name] = f"refused (exit {reading}): {said.getvalue().strip()}"
            elif list(reading.board.grid) == truth:
                verdicts[name] = f"right, as {reading.lattice.skin}"
            else:
                verdicts[name] = f"WRONG as {reading.lattice.skin}: read {reading.board.grid}, truth {truth}"

        shot("fresh")
        # Opens: safe cells by the page's own state (it places its mines with the board, and a first
        # click may hit one) until a few are open.
        for _ in range(4):
            board = page.evaluate(BOARD_JS)
            if any(ch == "X" for row in board for ch in row):
                break
            mines = set(map(tuple, page.evaluate(MINES_JS)))
            covered = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] == "#" and (r, c) not in mines]
            if not covered:
                break
            click_at(*centre[rng.choice(covered)])
            time.sleep(0.3)
            if "first" not in verdicts:
                shot("first")  # a single number, or an opening: the page has no first-click rule
        if not any(ch == "X" for row in page.evaluate(BOARD_JS) for ch in row):
            shot("opened")
            mines = [tuple(m) for m in page.evaluate(MINES_JS)]
            board = page.evaluate(BOARD_JS)
            hidden = [(r, c) for r in range(rows) for c in range(cols) if board[r][c] == "#"]
            flagged = rng.sample([m for m in mines if m in hidden], min(3, len(mines) - 1))
            wrong = rng.sample([h for h in hidden if h not in mines], min(1, len([h for h in hidden if h not in mines])))
            for cell in flagged + wrong:
                click_at(*centre[cell], holding="Control_L")
                time.sleep(0.2)
            shot("flags")
            left_over = [m for m in mines if m not in flagged]
            click_at(*centre[rng.choice(left_over)])
            time.sleep(0.5)
        shot("lost")
    print(verdicts)
    wrong = {name: v for name, v in verdicts.items() if v.startswith("WRONG")}
    assert not wrong, f"{REPLAY}: {wrong}"
    # The board after its first click: a bold number filling its cell's rim, alone on the board, was
    # refused for its colour (play stopped on it); an opening is read as the others are.
    assert verdicts["fresh"].startswith("right") and verdicts["first"].startswith("right"), verdicts
    read = sum(v.startswith("right") for v in verdicts.values())
    assert read * 2 >= len(verdicts), f"{REPLAY}: only {read} of {len(verdicts)} read: {verdicts}"


def test_minesweeper_for_web_is_played_untaught_and_its_page_agrees(tmp_path):
    """The same page played as ``screenbot play --client classic`` plays it, at a board size drawn at
    random: the built-in classic look finds the board, a new game is started by the usual ways (the
    face above the board; no key, it is a browser), and each game's verdict is the page's own (its
    state through DevTools, not the screen). The bot never flags here (the page flags only by
    Ctrl+click): its wins are the page's, shown by the flags the page puts on every mine."""
    from screenbot.desktop import VirtualDisplay

    from .minesweeper_for_web import STATE_JS, WINDOW, drawn_scale_and_size, start
    from .test_e2e_play import check, play_in_child

    rng = random.Random(f"{SEED}-minesweeper-for-web-play")
    scale, rows, cols = drawn_scale_and_size(rng, 14, 20)
    bombs = max(2, round(rows * cols * rng.uniform(0.08, 0.14)))
    print(f"minesweeper-for-web {rows}x{cols} with {bombs} mines at device scale {scale}, {REPLAY}")
    games = 3
    with VirtualDisplay(), start(rows, cols, bombs, window_size=WINDOW, scale=scale) as client:
        report = play_in_child(client, "classic", games, tmp_path, located=True, devtools_port=client.devtools_port,
                               page="classic.html", state_js=STATE_JS)
    check(report, games)
    assert report["page_verdicts"] == report["outcomes"]
    assert sum(report["summary"]["wins_shown"].values()) == report["summary"]["wins"]


def test_the_browsers_tooltip_over_the_board_is_refused_by_name(tmp_path):
    """The pointer resting on the page's face button shows the browser's tooltip ("New game") over
    the board's top row: `read` refuses that screenshot (exit 5) and names the cells under the
    tooltip as covered by something drawn over them, never a board with exit 0."""
    import contextlib
    import io

    import cv2
    import numpy as np

    from lab.shots.devtools import DevToolsPage, page_websocket_url
    from lab.shots.sessions import move_pointer, page_on_screen
    from screenbot.capture import MssScreen
    from screenbot.commands.screenshot import read_screenshot
    from screenbot.desktop import VirtualDisplay
    from screenbot.vision import load_skins

    from .minesweeper_for_web import FIELDS_JS, start

    rng = random.Random(f"{SEED}-minesweeper-for-web-tooltip")
    rows, cols = rng.randint(8, 12), rng.randint(9, 16)
    skins = load_skins()
    with VirtualDisplay(), start(rows, cols, 10, window_size=(1200, 1000)) as client, MssScreen() as screen:
        page = DevToolsPage(page_websocket_url(client.devtools_port, "classic.html"))
        time.sleep(1.0)
        fields = page.evaluate(FIELDS_JS)
        box = (min(f[2] for f in fields), min(f[3] for f in fields),
               max(f[2] + f[4] for f in fields), max(f[3] + f[5] for f in fields))
        dx, dy = page_on_screen(screen.grab(), page, box)
        face = page.evaluate("(() => { const r = document.getElementById('face').getBoundingClientRect();"
                             " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        left, top, right, bottom = (round(v) for v in (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy))
        move_pointer(5, 5)
        time.sleep(0.5)
        clear = screen.grab()
        # On the lower half of the face (40 px tall): the tooltip shows below the pointer, over the board.
        move_pointer(face[0] + dx + rng.uniform(-8, 8), face[1] + dy + rng.uniform(8, 14))
        time.sleep(2.0)  # the tooltip shows after the pointer rests a moment
        frame = screen.grab()
        over = np.abs(frame[top:bottom, left:right].astype(int) - clear[top:bottom, left:right]).max(axis=2) > 0
        assert over.any(), f"{REPLAY}: no tooltip over the board ({rows}x{cols}) to read past"
        path = tmp_path / "tooltip.png"
        cv2.imwrite(str(path), frame)
        said = io.StringIO()
        with contextlib.redirect_stderr(said):
            reading = read_screenshot(path, frame, skins, "auto")
    assert reading == 5, f"{REPLAY}: read with the tooltip over the board: {getattr(reading, 'board', reading)}"
    assert "something is drawn over them (a tooltip" in said.getvalue(), said.getvalue()
    assert "cells (0," in said.getvalue(), said.getvalue()  # the top row, where the tooltip is


def test_minesweeper_for_web_is_learnt_with_its_ctrl_click_flags_and_played_flagging(tmp_path):
    """learn from zero labels on a client that takes no right click: it finds the page's own flag click
    (Ctrl+click), learns the flag and "?" from it, and writes it into the profile; play with that skin
    then flags mines the same way (--flag-mines), each flag read back as a flag, and finishes every
    game."""
    import json
    import os
    import subprocess
    import sys

    from screenbot.desktop import VirtualDisplay

    from .minesweeper_for_web import start

    rng = random.Random(f"{SEED}-minesweeper-for-web-learn")
    rows, cols = rng.randint(8, 10), rng.randint(8, 12)
    print(f"minesweeper-for-web {rows}x{cols} with 10 mines, {REPLAY}")
    skins = tmp_path / "skins"

    def screenbot(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "screenbot", *args], env=dict(os.environ, **(env or {})),
                              capture_output=True, text=True, timeout=600)

    with VirtualDisplay(), start(rows, cols, 10, window_size=(1200, 1000)):
        time.sleep(1.0)
        learnt = screenbot("learn", "web", "--templates", str(skins), "--games", "6", "--json", "--seed", str(SEED))
        assert learnt.returncode == 0, learnt.stderr[-3000:]
        summary = json.loads(learnt.stdout.strip().splitlines()[-1])
        print(json.dumps({k: summary[k] for k in ("seconds", "games_asked", "games", "games_named", "states", "flag_click",
                                                  "restart", "win_shown", "mine_total", "games_not_used")}))
        assert summary["flag_click"] == "Ctrl+click" and {"F", "?"} <= set(summary["states"]), summary
        assert not any(check["verdict"].startswith("WRONG") for check in summary["checks"])
        profile = json.loads((skins / "web" / "profile.json").read_text(encoding="utf-8"))
        assert profile["play"]["flag_keys"] == ["ctrl"]
        # A number learn did not see stops play (a documented limit: the summary lists it, and the remedy
        # is `learn --extend`). Six games on this board showed no 3 in 1 CI run (seed 957114), and play
        # met one: taken here as a user would, until the 3s that five games on such a board show are learnt.
        states = set(summary["states"])
        for _ in range(2):
            if "3" in states:
                break
            extended = screenbot("learn", "web", "--templates", str(skins), "--games", "4", "--json", "--extend")
            assert extended.returncode == 0, extended.stderr[-3000:]
            states |= set(json.loads(extended.stdout.strip().splitlines()[-1])["states"])
            print("extended: states", "".join(sorted(states)))
        played = screenbot("play", "--client", "web", "--games", "5", "--flag-mines", "--json",
                           env={"SCREENBOT_TEMPLATES": str(skins)})
    assert played.returncode == 0, played.stderr[-3000:]
    result = json.loads(played.stdout.strip().splitlines()[-1])
    print(json.dumps(result))
    assert result["games"] == 5 and result["wins"] + result["losses"] == 5
