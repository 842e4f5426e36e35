"""``screenbot bench-plot``: bench reports drawn against the published win rates."""

from __future__ import annotations

import argparse

from ..exit_codes import EXIT_USAGE
from .common import fail, output_png


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "bench-plot",
        help="draw `bench --json` reports against the published win rates (PNG)",
        description="Draw the win rate of each `screenbot bench --json` report with its 95% confidence "
        "interval (Wilson) beside the published figures of other solvers for the same board, rules and first "
        "click (PSEQ, PSEQ-D256, D. Hill's solvers, minesolve): one panel per board, rules and first click, "
        "so one report per level and rule set gives the whole picture. Needs matplotlib (the [plot] extra). "
        "Exit codes: 0 ok, 2 bad arguments, a file that is not a bench report, an output that cannot be "
        "written, or matplotlib not installed.",
    )
    parser.add_argument("reports", nargs="+", metavar="REPORT", help="files written by `screenbot bench --json` (- for standard input)")
    parser.add_argument("--out", required=True, type=output_png, metavar="PNG", help="the picture to write")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..bench.plot import draw, load_report, panels

    out = args.out
    figure_panels = panels([load_report(path) for path in args.reports])
    try:
        draw(figure_panels, out)
    except OSError as exc:
        return fail(f"--out {out}: cannot write: {exc.strerror or exc}", EXIT_USAGE)
    print(f"{out}: {len(figure_panels)} panel(s) from {len(args.reports)} report(s)")
    return 0
