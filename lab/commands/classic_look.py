"""``python3 -m lab classic-look``: the built-in classic look on clients it was not taught, with figures.

Every labelled screenshot of the shipped clients drawn in the classic look (``fixtures/screens``:
minegauler, xdemineur, sgt-mines, react-minesweeper) is located and read as ``screenbot read`` would,
with that client's own skin hidden, so that only the other clients' pictures and the classic look can
read it; then ``--drawn`` boards drawn by code in the look at random cell sizes 10-60 px
(``screenbot.testing.classic_board``, half with no grid line), and as many again with bold numbers
(half of them fresh boards where a first click opened a single number). Each is right, refused (with the reason
counted), or wrong (read with no error but not the true board). Figures, not pass/fail: exit 1 only
when a board is read wrong.

Exit codes: 0 no board read wrong, 1 a board read wrong, 2 bad arguments.
"""

from __future__ import annotations

import argparse
import json
import random

from screenbot.commands.common import bounded_int

from . import SCREENS
from ..shot_tally import ShotTally
from screenbot.exit_codes import EXIT_FAILED, EXIT_OK

CLIENTS = {"mg-": "minegauler", "xd-": "xdemineur", "sm-": "sgt-mines", "rm-": "react-minesweeper"}


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "classic-look",
        help="read the labelled shots of classic-look clients with their own skin hidden, and drawn boards",
        description="Read every labelled screenshot of the clients drawn in the classic look with that client's "
        "own skin hidden, then boards drawn in the look at random sizes; print right / refused / wrong. "
        "Exit codes: 0 none wrong, 1 a board read wrong, 2 bad arguments.",
    )
    parser.add_argument("--drawn", type=bounded_int(0, 10_000), default=60, help="boards drawn in the look, and as many with bold numbers (default 60)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the drawn boards (default: drawn, printed)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2

    from screenbot.testing.classic_board import draw, random_game, single_number_game
    from screenbot.vision import load_skins

    all_skins = load_skins()
    wrong = 0
    for prefix, client in CLIENTS.items():
        skins = {name: skin for name, skin in all_skins.items() if name != client}
        tally = ShotTally()
        for meta_path in sorted(SCREENS.glob(prefix + "*.json")):
            if json.loads(meta_path.read_text(encoding="utf-8"))["lattice"]["skin"] != client:
                continue
            truth = meta_path.with_suffix(".txt").read_text(encoding="utf-8").split()
            tally.add(meta_path.stem, cv2.imread(str(meta_path.with_suffix(".png"))), truth, skins)
        wrong += tally.report(f"{client} shots, its skin hidden")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**6)
    rng = random.Random(seed)
    tally = ShotTally()
    for index in range(args.drawn):
        pitch, rows, cols = rng.randint(10, 60), rng.randint(6, 12), rng.randint(6, 14)
        lost, grid_line = rng.random() < 0.5, rng.random() < 0.5
        board = random_game(rng, rows, cols, lost=lost)
        image, _ = draw(board, pitch, grid_line=grid_line, mine_scale=rng.uniform(1.0, 1.35))
        tally.add(f"drawn {index}: {rows}x{cols} at {pitch} px{'' if grid_line else ', no grid line'}", image, board,
                  all_skins)
    wrong += tally.report(f"boards drawn in the look (seed {seed})")
    # Bold numbers, as a bold font draws them (minesweeper-for-web's fill most of their cell and its
    # rim), on the same kind of boards; half of them fresh boards where a first click opened a single
    # number, all the board's open rims then that number's.
    tally = ShotTally()
    for index in range(args.drawn):
        pitch, rows, cols = rng.randint(10, 60), rng.randint(6, 12), rng.randint(6, 14)
        lost, grid_line, scale = rng.random() < 0.5, rng.random() < 0.5, rng.uniform(1.3, 1.8)
        board = random_game(rng, rows, cols, lost=lost) if index % 2 else single_number_game(rng, rows, cols)
        image, _ = draw(board, pitch, grid_line=grid_line, number_scale=scale)
        tally.add(f"bold {index}: {rows}x{cols} at {pitch} px, numbers x{scale:.2f}{'' if grid_line else ', no grid line'}",
                  image, board, all_skins)
    wrong += tally.report(f"boards drawn with bold numbers (seed {seed})")
    return EXIT_FAILED if wrong else EXIT_OK

