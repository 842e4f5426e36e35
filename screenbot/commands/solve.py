"""``screenbot solve``: probabilities and the chosen move for a board file."""

from __future__ import annotations

import argparse
import json

from solver.board import Board, parse_board
from solver.errors import BoardFormatError, InconsistentBoardError
from solver.policy import PolicyConfig, decide

from ..exit_codes import EXIT_IMPOSSIBLE, EXIT_USAGE
from .common import MAX_SIDE, fail


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="print mine probabilities and the chosen move for a board file",
        description="Read a board in the text format ('#' covered, 'F' flag, '0'-'8' numbers, optional "
        "first line 'mines: N') and print the exact mine probability of every covered cell and the move "
        "the bot would make. A board too big to enumerate within the work budget (or the --time-limit) gets an "
        "approximate answer, marked as such. Exit codes: 0 ok (also when there is no move left: the answer "
        "says so), 2 malformed, unreadable or too big input or bad arguments, 6 impossible board.",
    )
    parser.add_argument("file", help="board file, or - for standard input")
    parser.add_argument("--mines", type=int, help="total mines (overrides the file's 'mines:' line)")
    parser.add_argument("--density", type=float, help="per-cell mine chance when the total is unknown (default: estimated)")
    parser.add_argument(
        "--time-limit",
        type=float,
        metavar="SECONDS",
        help="answer within this wall-clock time, approximately if need be, as live play does (default: "
        "no clock, work budgets only, so the answer is the same on any machine)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..inputs import read_text

    try:
        board = parse_board(read_text(args.file, what="board text"))
    except InputError as exc:
        return fail(str(exc), EXIT_USAGE)
    except BoardFormatError as exc:
        return fail(f"{args.file}: {exc}", EXIT_USAGE)
    if board.rows > MAX_SIDE or board.cols > MAX_SIDE:
        return fail(f"{args.file}: a {board.rows}x{board.cols} board; at most {MAX_SIDE}x{MAX_SIDE} is taken", EXIT_USAGE)
    if args.mines is not None:
        if args.mines < 0:
            return fail("--mines must not be negative", EXIT_USAGE)
        try:
            board = parse_board(f"mines: {args.mines}\n" + "\n".join(board.grid))
        except BoardFormatError as exc:
            return fail(f"--mines {args.mines}: {exc}", EXIT_USAGE)
    if args.density is not None and not 0 < args.density < 1:
        return fail("--density must be between 0 and 1", EXIT_USAGE)
    if args.time_limit is not None and not args.time_limit > 0:
        return fail("--time-limit must be a positive number of seconds", EXIT_USAGE)
    try:
        decision = decide(board, PolicyConfig(density=args.density, full_analysis=True, time_limit=args.time_limit))
    except InconsistentBoardError as exc:
        return fail(f"impossible board: {exc}", EXIT_IMPOSSIBLE)
    analysis = decision.analysis
    # No move: nothing is covered (the game is over) or every covered cell is a certain mine.
    move = decision.moves[0] if decision.moves else None
    if args.json:
        print(
            json.dumps(
                {
                    "rows": board.rows,
                    "cols": board.cols,
                    "mines": board.mines,
                    "probabilities": [list(row) for row in analysis.probabilities],
                    "safe": sorted([r, c] for r, c in analysis.safe),
                    "mines_known": sorted([r, c] for r, c in analysis.mines),
                    "move": None
                    if move is None
                    else {"action": move.action, "row": move.row, "col": move.col, "probability": move.probability},
                    "exact": analysis.exact,
                    # True when any part of the answer is approximate: an approximated component
                    # (then "exact" is false too) or a guess search cut short by --time-limit.
                    "approximate": decision.approximate,
                    "density": analysis.density,
                }
            )
        )
    else:
        print(render(board, analysis.probabilities))
        print(_describe(move, analysis))
        print(f"safe: {len(analysis.safe)} cells, certain mines: {len(analysis.mines)}")
        if decision.approximate:
            print(
                "approximate: the board is too big to solve exactly within the work budget or time limit; "
                "cells called certain are certain, the other figures are estimates"
            )
    return 0


def _describe(move, analysis) -> str:
    if move is None:
        if analysis.mines:
            return "move: none (every covered cell is a certain mine: flag them)"
        return "move: none (no covered cell left)"
    verb = "open" if move.action == "open" else "flag"
    certainty = "certainly safe" if move.probability == 0 else f"{100 * move.probability:.1f}% mine"
    return f"move: {verb} row {move.row}, col {move.col} ({certainty})"


def render(board: Board, probabilities) -> str:
    """The board with each covered cell replaced by its mine chance in percent."""
    lines = []
    for r, row in enumerate(board.grid):
        cells = []
        for c, ch in enumerate(row):
            p = probabilities[r][c]
            cells.append(f"{ch:>4}" if p is None else f"{round(100 * p):>3}%")
        lines.append(" ".join(cells))
    return "\n".join(lines)
