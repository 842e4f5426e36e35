"""``screenbot bench``: win rate and speed of the solver on simulated games."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import re
import sys

from solver.bench import BenchConfig, BenchResult, run_benchmark
from solver.game import LEVELS, RULES, opening_room
from solver.guess import STRATEGIES, GuessConfig
from solver.native import compiled_modules
from solver.policy import PolicyConfig
from solver.shards import SHARD_SIZE

from ..bench.engines import LOCAL, Engine, open_engine
from ..exit_codes import EXIT_USAGE
from .common import MAX_SIDE, bounded_float, bounded_int, cell_argument, fail, worker_count

# Ten million expert games is about a CPU-week: more is a typo.
MAX_GAMES = 10_000_000


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="measure the solver's win rate and speed on simulated games",
        description="Play seeded simulated games with the shipped policy and report the win rate with a "
        "95% confidence interval (Wilson), CPU time per game, games per second per core, decision CPU time "
        "p50/p99 and guesses per game. The policy runs on work budgets only (no clock), so a seed gives the "
        "same games on any machine and under any load. Rules: safe = first click never a mine; opening = first click and its neighbours "
        "mine-free; none = mines placed before the first click. The games are cut into shards of fixed game ranges "
        "(--shard-size), played in this process, by --workers local processes or on a Dask cluster (--cluster); "
        "each shard, its wins and its fingerprint are the same wherever it is played. `screenbot bench-plot` "
        "draws --json reports against the published win rates. Exit codes: 0 ok, 1 the Dask cluster cannot be "
        "reached or its workers failed, 2 bad arguments (also --cluster without Dask distributed installed).",
    )
    parser.add_argument("--level", choices=[*LEVELS, "custom"], default="expert", help="board size (default expert 16x30/99)")
    parser.add_argument("--rows", type=bounded_int(1, MAX_SIDE), help="rows, with --level custom")
    parser.add_argument("--cols", type=bounded_int(1, MAX_SIDE), help="columns, with --level custom")
    parser.add_argument("--mines", type=int, help="mines, with --level custom")
    parser.add_argument("--rules", choices=RULES, default="safe", help="first-click rule (default safe)")
    parser.add_argument("--first", type=cell_argument, default=(0, 0), metavar="ROW,COL", help="first click, 0-based (default 0,0)")
    parser.add_argument("--games", type=bounded_int(1, MAX_GAMES), default=1000, help="games to play (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run; game k uses seed*1000003+k (default 1)")
    parser.add_argument(
        "--workers",
        type=worker_count,
        help="worker processes on this machine, at most one per core (default 1: this process); with "
        "--cluster local, the local Dask cluster's",
    )
    parser.add_argument(
        "--cluster",
        type=cluster_address,
        metavar="local|ADDRESS",
        help="play the shards on Dask distributed (the [cluster] extra): 'local' starts a cluster of --workers "
        "processes on this machine; an address such as tcp://10.0.0.5:8786 uses a running scheduler, whose "
        "workers need the same screenbot-minesweeper installed",
    )
    parser.add_argument(
        "--shard-size",
        type=bounded_int(1, MAX_GAMES),
        default=SHARD_SIZE,
        metavar="N",
        help=f"games per shard, the unit of work and of the report's per-shard results (default {SHARD_SIZE})",
    )
    parser.add_argument(
        "--guess",
        choices=STRATEGIES,
        default=GuessConfig().strategy,
        help="guessing strategy, to compare them on the same games (default %(default)s)",
    )
    parser.add_argument(
        "--progress-weight",
        type=bounded_float(0, 10, example="0.2"),
        default=GuessConfig().progress_weight,
        metavar="W",
        help="how much the lookahead's score rises with the chance that a guess gives a free next move, "
        "from 0 to 10 (0: survival of two moves alone; default %(default)s)",
    )
    parser.add_argument(
        "--guess-option",
        type=guess_option,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set one more knob of the guessing policy, to compare policies on the same games (repeatable): "
        + "; ".join(f"{name} ({what}, default {getattr(GuessConfig(), name)})" for name, (_, what) in GUESS_OPTIONS.items()),
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object, with per-shard results, instead of text")
    parser.set_defaults(run=run)


def _yes_no(text: str) -> bool:
    if text.lower() in ("1", "true", "yes", "on"):
        return True
    if text.lower() in ("0", "false", "no", "off"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


# The guessing policy's knobs that --guess-option sets (solver/guess.py, GuessConfig, says what each
# does), with their parsers; the strategy and the progress weight have flags of their own.
GUESS_OPTIONS = {
    "blend": (bounded_float(0, 1, example="0.2"), "0 to 1: the next guess's safety blended with the second best's"),
    "dead_last": (_yes_no, "true/false: cells that can show one number only are guessed last"),
    "owed_credit": (bounded_float(0, 10, example="0.9"), "0 to 10: how much of the risk of ending in a 50/50 is credited back"),
    "pseudo_fifty": (_yes_no, "true/false: cells nearly sure to end in a 50/50 if mines join the candidates"),
    "fifty_fifty": (_yes_no, "true/false: a forced 50/50 is guessed at once"),
    "endgame": (_yes_no, "true/false: the exhaustive endgame search"),
    "endgame_limit": (bounded_int(0, 100_000), "placements at most for the endgame search"),
    "endgame_work": (bounded_int(0, 100_000_000), "the endgame search's work budget"),
    "tolerance": (bounded_float(0, 10, example="0.1"), "how far above the safest a candidate may be, relative"),
    "max_candidates": (bounded_int(1, 1000), "candidates the lookahead scores at most"),
    "node_budget": (bounded_int(1, 100_000_000), "the lookahead's search nodes"),
}


def guess_option(text: str) -> tuple[str, object]:
    """An argparse type: NAME=VALUE for one of ``GUESS_OPTIONS``."""
    name, equals, value = text.partition("=")
    if not equals or name not in GUESS_OPTIONS:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE with NAME one of {', '.join(GUESS_OPTIONS)}, got {text!r}")
    parse, _ = GUESS_OPTIONS[name]
    try:
        return name, parse(value)
    except argparse.ArgumentTypeError as exc:
        raise argparse.ArgumentTypeError(f"{name}: {exc}") from None


# A Dask scheduler address: scheme://host[:port] (the port defaults to 8786).
_ADDRESS = re.compile(r"(tcp|tls|ws|wss)://[^\s/]+")


def cluster_address(text: str) -> str:
    """An argparse type: ``local`` or a Dask scheduler address."""
    if text == LOCAL or _ADDRESS.fullmatch(text):
        return text
    raise argparse.ArgumentTypeError(f"expected 'local' or a scheduler address such as tcp://10.0.0.5:8786, got {text!r}")


def run(args: argparse.Namespace) -> int:
    if args.level == "custom":
        if args.rows is None or args.cols is None or args.mines is None:
            return fail("--level custom needs --rows, --cols and --mines", EXIT_USAGE)
        rows, cols, mines = args.rows, args.cols, args.mines
    else:
        if any(v is not None for v in (args.rows, args.cols, args.mines)):
            return fail("--rows/--cols/--mines go with --level custom", EXIT_USAGE)
        level = LEVELS[args.level]
        rows, cols, mines = level.rows, level.cols, level.mines
    if not 0 <= mines < rows * cols:
        return fail(f"a {rows}x{cols} board cannot hold {mines} mines", EXIT_USAGE)
    if not (args.first[0] < rows and args.first[1] < cols):
        return fail(f"first click {args.first} is off the {rows}x{cols} board", EXIT_USAGE)
    crowded = _too_crowded_to_open(rows, cols, mines, args.rules, args.first)
    if crowded:
        return fail(crowded, EXIT_USAGE)
    if args.cluster not in (None, LOCAL) and args.workers is not None:
        return fail("--workers goes with no --cluster or with --cluster local: a scheduler's workers are its own", EXIT_USAGE)
    workers = args.workers or 1
    # No clock in the policy: work budgets alone bound it, so a seed gives the same games under any load.
    guess = GuessConfig(strategy=args.guess, progress_weight=args.progress_weight, **dict(args.guess_option))
    policy = PolicyConfig(guess=guess, time_limit=None)
    config = BenchConfig(rows, cols, mines, args.rules, args.first, args.games, args.seed, policy)
    show_progress = sys.stderr.isatty()
    with open_engine(workers, args.cluster) as engine:
        result, wall = run_benchmark(
            config, args.shard_size, engine.executor, engine.slots, _progress_bar(args.games) if show_progress else None
        )
    if show_progress:
        print(file=sys.stderr)
    report = summary(result, wall, engine, args.shard_size)
    if args.json:
        print(json.dumps(report))
    else:
        low, high = report["ci95"]
        print(
            f"{rows}x{cols}/{mines} rules={args.rules} first={args.first[0]},{args.first[1]} "
            f"guess={args.guess} progress-weight={args.progress_weight:g}"
            f"{''.join(f' {name}={value}' for name, value in args.guess_option)} games={result.games} seed={args.seed}\n"
            f"win rate {100 * result.win_rate:.2f}% (95% CI {100 * low:.2f}-{100 * high:.2f}%)\n"
            f"{report['cpu_ms_per_game']:.1f} ms CPU per game ({_core(report)}), {report['games_per_second']:.1f} games/s per core, "
            f"{report['wall_games_per_second']:.1f} games/s "
            f"wall with {engine.slots} worker(s){' on Dask at ' + engine.address if engine.address else ''}\n"
            f"decision p50 {report['decision_ms_p50']:.2f} ms, p99 {report['decision_ms_p99']:.2f} ms, "
            f"max {report['decision_ms_max']:.1f} ms; {report['guesses_per_game']:.2f} guesses per game; "
            f"{result.approximate} decision(s) on an approximate analysis\n"
            f"{_slowest_line(result)}"
            f"{len(result.shards)} shard(s) of up to {args.shard_size} games, fingerprint {result.fingerprint}"
        )
    return 0


def _too_crowded_to_open(rows: int, cols: int, mines: int, rules: str, first: tuple[int, int]) -> str | None:
    """Why ``opening`` cannot be played on this board, or None. The simulator then plays ``safe``
    (as a client must), but a benchmark asked for ``opening`` would report a rule it did not play."""
    room = opening_room(rows, cols, first[0] * cols + first[1])
    if rules != "opening" or mines <= room:
        return None
    return (
        f"--rules opening keeps the first click {first[0]},{first[1]} and its {rows * cols - 1 - room} neighbours free "
        f"of mines: a {rows}x{cols} board then has room for {room} mines, not {mines} (use --rules safe or fewer mines)"
    )


def _core(report: dict) -> str:
    return "compiled solver core" if report["solver_compiled"] else "solver core as plain Python: slower"


def _slowest_line(result: BenchResult) -> str:
    slowest = result.slowest
    if slowest is None:
        return ""
    return f"slowest decision {1000 * slowest.seconds:.1f} ms: game {slowest.game}, step {slowest.step} (its board: --json)\n"


def summary(result: BenchResult, wall: float, engine: Engine, shard_size: int) -> dict:
    config = result.config
    low, high = result.ci95
    return {
        "games": result.games,
        "wins": result.wins,
        "win_rate": result.win_rate,
        "ci95": [low, high],
        # Per core: games divided by the CPU time spent playing them, whatever the number of workers.
        "games_per_second": result.games / result.seconds if result.seconds else 0.0,
        "cpu_ms_per_game": 1000 * result.seconds / result.games if result.games else 0.0,
        "wall_games_per_second": result.games / wall if wall else 0.0,
        "workers": engine.slots,
        "engine": engine.name,
        "cluster": engine.address,
        "decision_ms_p50": result.percentile_ms(0.50),
        "decision_ms_p99": result.percentile_ms(0.99),
        "decision_ms_max": result.percentile_ms(1.0),
        # Where the slowest decision was taken (game index, step, board): `screenbot solve` takes the board.
        "slowest_decision": result.slowest.to_json() if result.slowest else None,
        "guesses_per_game": result.guesses / result.games if result.games else 0.0,
        "approximate_decisions": result.approximate,
        "guess": config.policy.guess.strategy,
        "progress_weight": config.policy.guess.progress_weight,
        # Every knob of the guessing policy that played (solver/guess.py, GuessConfig).
        "guess_config": dataclasses.asdict(config.policy.guess),
        "rules": config.rules,
        "first": list(config.first),
        "rows": config.rows,
        "cols": config.cols,
        "mines": config.mines,
        "seed": config.seed,
        "cpu_count": os.cpu_count(),
        # The solver modules compiled at install (solver/native.py), in this process.
        "solver_compiled": compiled_modules(),
        "shard_size": shard_size,
        "fingerprint": result.fingerprint,
        "shards": [
            {
                "index": s.shard.index,
                "start": s.shard.start,
                "stop": s.shard.stop,
                "games": s.games,
                "wins": s.wins,
                "cpu_seconds": s.seconds,
                "fingerprint": s.fingerprint,
            }
            for s in result.shards
        ],
    }


def _progress_bar(total: int):
    def show(played: int, won: int) -> None:
        width = 30
        filled = width * played // total
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {played}/{total} games, win rate {100 * won / played:.1f}%",
            end="",
            file=sys.stderr,
            flush=True,
        )

    return show
