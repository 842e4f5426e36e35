"""The loop with the real vision: a simulated game drawn with a skin's own template images.

No display needed, yet the board is found and read by ``screenbot.vision`` exactly as on a real
client's screen, so this catches mismatches between the loop and the recognizer (lattices, regions,
margins, the board at other places on the screen) in the fast suite.
"""

from __future__ import annotations

from screenbot.play.live import SkinVision, load_skins, profile_for
from screenbot.play import PlayConfig, Player
from screenbot.play.observer import LOST, WON
from screenbot.testing import SimulatedClient, TemplateRenderer
from screenbot.vision.skins import TEMPLATES_DIR
from solver.board import neighbours
from solver.game import Game

import pytest

pytestmark = pytest.mark.integration

TEMPLATES = TEMPLATES_DIR


def _drawable_seed(rows, cols, mines, first, digits, games) -> int:
    """A seed whose next ``games`` games only ever show numbers the skin has pictures of (the capture
    run that made the templates may not have met every digit)."""
    for base in range(500):
        ok = True
        for seed in range(base, base + games):
            game = Game.new(rows, cols, mines, rules="safe", seed=seed)
            game.open(*first)
            for r in range(rows):
                for c in range(cols):
                    if not game.is_mine(r, c):
                        n = sum(game.is_mine(*p) for p in neighbours(rows, cols, r, c))
                        ok = ok and str(n) in digits
            if not ok:
                break
        if ok:
            return base
    raise AssertionError("no drawable game: the skin lacks too many number pictures")


def test_xdemineur_skin_simulated_game_read_by_the_real_vision(tmp_path):
    renderer = TemplateRenderer.from_skin(TEMPLATES / "xdemineur")
    rows, cols, mines, games = 9, 12, 12, 3
    seed = _drawable_seed(rows, cols, mines, (rows // 2, cols // 2), set(renderer.images), games)
    client = SimulatedClient(rows, cols, mines, renderer=renderer, seed=seed, preopen=True, wins_need_flags=True,
                             face=(0.0, -1.95), rules="safe", board_origin=(333, 217), margin=90, late_clicks=True)
    player = Player(
        screen=client, screen_rect=client.screen_rect, mouse=client, vision=SkinVision(load_skins(TEMPLATES), "xdemineur"),
        profile=profile_for("xdemineur"), config=PlayConfig(games=games, mines=mines, failure_dir=tmp_path),
        window=client, sleep=lambda s: None,
    )
    results = player.play()
    assert [r.outcome for r in results] and {r.outcome for r in results} <= {WON, LOST}
    assert len(results) == games
    assert client.outside_clicks == []
    assert sum(c.on_control for c in client.clicks) == games - 1  # restarts through the face
