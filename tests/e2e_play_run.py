"""Child process of the end-to-end play tests: plays N games on a real client with real mss and pyautogui.

Run as ``python -m tests.e2e_play_run CONFIG_JSON`` in the environment of the desktop where the client
already runs (DISPLAY, or a Wayland session's buses). pyautogui binds to the display that is current
when it is first imported, so every test plays in a fresh process. The screen, the mouse and the
window come from the desktop the platform layer chooses (``window_system`` in the config, else auto);
``window`` None plays without following a window (the Wayland desktop knows none). Prints one JSON object: the game results, the loop's summary, and two
independent audits made outside the loop:
- every click, with the board rectangle the loop had located when it was made (``outside``: clicks
  that were not inside a cell of that board and were not the profile's restart control);
- every step that acted, re-checked: the board it acted on must admit a mine placement and follow from
  the previous board and actions (``unsafe``: steps that acted on anything else).
"""

from __future__ import annotations

import json
import logging
import sys

from screenbot.geometry import Rect
from screenbot.play import ObserverGroup, PlayConfig, Player
from screenbot.play.consistency import reading_problems
from screenbot.play.live import SkinVision, load_skins, measure_scale, profile_for
from screenbot.play.profile import usual_restarts
from screenbot.play.summary import summarize
from screenbot.platforms import open_desktop
from screenbot.vision.new_game_control import control_above
from solver.errors import InconsistentBoardError
from solver.probability import analyze


class AuditMouse:
    """Passes clicks to the real mouse and notes each with the board the player had located."""

    def __init__(self, mouse) -> None:
        self.mouse = mouse
        self.player: Player | None = None
        self.clicks: list[dict] = []

    def size(self):
        return self.mouse.size()

    def move(self, x, y):
        self.mouse.move(x, y)

    def press(self, *keys):
        self.mouse.press(*keys)

    def click(self, x, y, button="left", holding=()):
        located = self.player.located if self.player else None
        rect = located.geometry.inner_rect() if located else None
        scale = self.player.scale
        px, py = scale.to_pixels(x, y)
        on_board = bool(rect and rect.contains(px, py) and located.geometry.cell_at(px, py) is not None)
        control = False
        profile = self.player.profile
        # The profile's restart button (xdemineur's face), placed relative to the board, or under
        # "restart": "find" the usual restarts that click (a button seen above the board among them).
        restarts = [profile.restart]
        if not on_board and rect and profile.find_restart:
            seen = control_above(self.player.screen.grab(), located.geometry)
            restarts += [action for _, action in usual_restarts(None, seen)]
        if not on_board and rect:
            points = [action.click_point(located.geometry) for action in restarts if action.click is not None]
            control = any(abs(px - cx) <= 1 and abs(py - cy) <= 1 for cx, cy in points)
        self.clicks.append({"x": x, "y": y, "button": button, "on_board": on_board, "control": control,
                            "board": rect and rect.as_region()})
        self.mouse.click(x, y, button, holding)


class SafetyAudit:
    """Every step that acts must act on a board some mine placement fits, and that can follow the
    board before it by the player's own rules (``GameRules``: the client's flood, opens it may
    ignore): the same judgement play makes, so the audit and the product cannot drift apart."""

    def __init__(self, mines_for) -> None:
        self.mines_for = mines_for
        self.rules = None  # the player's GameRules, given once the Player is built
        self.previous = None
        self.previous_actions = ()
        self.acting_steps = 0
        self.unsafe: list[str] = []

    def on_step(self, frame, reading, decision, actions, timings):
        board = reading.board
        if actions:
            self.acting_steps += 1
            try:
                analyze(board.with_mines(self.mines_for(board)))
            except InconsistentBoardError as exc:
                self.unsafe.append(f"acted on a board no mine placement fits: {exc}")
            profile = self.rules.profile
            problems = reading_problems(self.previous, board, self.previous_actions, flood=profile.flood,
                                        allow_dropped=profile.drops_clicks)
            if problems and self.rules.some_clicks_ignored(self.previous, board, self.previous_actions):
                problems = []  # opens the client ignored: those cells read covered, less known, never wrong
            if problems:
                self.unsafe.append("acted on a board that contradicts the last one: " + "; ".join(problems))
        self.previous, self.previous_actions = board, tuple(actions)

    def on_game_end(self, result):
        self.previous, self.previous_actions = None, ()


class PageTruth:
    """For a browser client: the page's own verdict (via DevTools) at each game end. ``state_js`` gives
    ``{"won": bool, "lost": bool}`` on ``page`` (the file name in its address); react-minesweeper's by
    default."""

    def __init__(self, port: int, page: str = "index.html", state_js: str | None = None) -> None:
        from lab.shots.devtools import REACT_MINESWEEPER_STATE_JS, DevToolsPage, page_websocket_url

        self.page = DevToolsPage(page_websocket_url(port, page))
        self.state_js = state_js or REACT_MINESWEEPER_STATE_JS
        self.verdicts: list[str] = []

    def on_step(self, frame, reading, decision, actions, timings):
        return None

    def on_game_end(self, result):
        state = self.page.evaluate(self.state_js) or {}
        self.verdicts.append("won" if state.get("won") else "lost" if state.get("lost") else "playing")


class ClientStateTruth:
    """For minegauler: the client's own verdict at each game end, from the state file it writes
    (``screenbot.desktop.minegauler``), not from the screen."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.verdicts: list[str] = []

    def on_step(self, frame, reading, decision, actions, timings):
        return None

    def on_game_end(self, result):
        import time

        # The client writes its state every 20 ms: the board the loop saw end may be newer than the file.
        state = {}
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            try:
                state = json.loads(open(self.path, encoding="utf-8").read())
            except (OSError, ValueError):
                state = {}
            if state.get("state") in ("WON", "LOST"):
                break
            time.sleep(0.02)
        self.verdicts.append({"WON": "won", "LOST": "lost"}.get(state.get("state"), "playing"))


class WindowMover:
    """Drags the game window elsewhere once, after the ``after``-th step (the loop must follow it)."""

    def __init__(self, window: int, after: int, to: tuple[int, int]) -> None:
        self.window, self.after, self.to = window, after, to
        self.steps = 0
        self.moved = False

    def on_step(self, frame, reading, decision, actions, timings):
        import subprocess
        import time

        self.steps += 1
        if self.steps == self.after and not self.moved:
            subprocess.run(["xdotool", "windowmove", str(self.window), str(self.to[0]), str(self.to[1])], check=True)
            time.sleep(0.3)  # the window manager moves the frame asynchronously
            self.moved = True

    def on_game_end(self, result):
        return None


def main(argv: list[str]) -> int:
    options = json.loads(argv[0])
    # The loop's story on stderr: the test shows its end when play stops on an error.
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(relativeCreated)7.0f ms %(name)s: %(message)s")
    skins = load_skins()
    profile = profile_for(options["skin"])
    desktop = open_desktop(options.get("window_system"))
    with desktop.screen() as screen:
        mouse = AuditMouse(desktop.mouse())
        audit = SafetyAudit(lambda b: options.get("mines") if options.get("mines") is not None else profile.mine_total(b.rows, b.cols))
        window = desktop.follow(options["window"]) if options.get("window") is not None else None
        truth = (PageTruth(options["devtools_port"], options.get("page", "index.html"), options.get("state_js"))
                 if options.get("devtools_port") else None)
        client_truth = ClientStateTruth(options["state_file"]) if options.get("state_file") else None
        mover = None
        if options.get("move_window_after"):
            mover = WindowMover(options["window"], options["move_window_after"], tuple(options["move_to"]))
        vision = SkinVision(skins, options["skin"])
        if options.get("lattice"):  # measured by the client's start function (xbomb)
            from screenbot.given_lattice import GivenLatticeVision
            from screenbot.play.live import refined_lattice
            from screenbot.geometry import Lattice

            given = Lattice(options["skin"], *[tuple(v) if isinstance(v, list) else v for v in options["lattice"]])
            vision = GivenLatticeVision(vision, refined_lattice(screen.grab(), skins, given))
        observer = ObserverGroup(*[o for o in (audit, truth, client_truth, mover) if o is not None])
        player = Player(
            screen=screen,
            screen_rect=Rect(0, 0, *screen.size),
            mouse=mouse,
            vision=vision,
            profile=profile,
            config=PlayConfig(games=options["games"], flag_mines=options.get("flag_mines", False),
                              chord=options.get("chord", False), mines=options.get("mines"),
                              failure_dir=__import__("pathlib").Path(options["failure_dir"])),
            window=window,
            scale=measure_scale(screen, mouse),
            observer=observer,
        )
        mouse.player = player
        audit.rules = player.rules
        error = None
        try:
            player.play()
        except Exception as exc:  # reported to the test, which fails with the message
            error = f"{type(exc).__name__}: {exc}"
        summary = summarize(player.results, player.timings)
        print(json.dumps({
            "error": error,
            "outcomes": [r.outcome for r in player.results],
            "summary": summary.as_dict(),
            "clicks": len(mouse.clicks),
            "controls": sum(c["control"] for c in mouse.clicks),
            "outside": [c for c in mouse.clicks if not c["on_board"] and not c["control"]],
            "acting_steps": audit.acting_steps,
            "unsafe": audit.unsafe,
            "page_verdicts": truth.verdicts if truth else None,
            "client_verdicts": client_truth.verdicts if client_truth else None,
            "window_moved": mover.moved if mover else None,
        }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
