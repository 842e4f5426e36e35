"""The picture of ``screenbot bench-plot``: the win rate of each ``bench --json`` report with its 95%
interval, beside the published figures for the same board, rules and first click (``solver.anchors``).

One panel per board, rules and first click; in it a row per report (several runs of the same rules,
say two guessing strategies, share a panel) and a row per published figure. Reading and grouping the
reports is plain Python; only ``draw`` needs matplotlib (the ``[plot]`` extra), imported there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from solver.anchors import anchors_for, level_of
from solver.bench import wilson_interval

from ..errors import InputError, MissingExtraError
from ..inputs import read_text

# What a report must hold for the plot; `bench --json` writes these and more.
REPORT_KEYS = {"rows": int, "cols": int, "mines": int, "rules": str, "first": list, "games": int, "wins": int}


@dataclass(frozen=True, slots=True)
class Report:
    """What the plot takes from one ``bench --json`` report."""

    rows: int
    cols: int
    mines: int
    rules: str
    first: tuple[int, int]
    games: int
    wins: int
    seed: int | None = None
    guess: str | None = None

    @property
    def setting(self) -> tuple:
        """Board, rules and first click: reports with the same setting share a panel."""
        return (self.rows, self.cols, self.mines, self.rules, self.first)


@dataclass(frozen=True, slots=True)
class Row:
    label: str
    rate: float
    low: float
    high: float
    ours: bool  # a report's row (else a published figure's)


@dataclass(frozen=True, slots=True)
class Panel:
    title: str
    rows: tuple[Row, ...]


def load_report(path: str) -> Report:
    """The report in ``path``; InputError (exit 2) names the file and what is wrong with it."""
    text = read_text(path, what="bench --json report")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not JSON ({exc}): give reports written by `screenbot bench --json`") from None
    if not isinstance(data, dict):
        raise InputError(f"{path}: not a `screenbot bench --json` report (not a JSON object)")
    for key, kind in REPORT_KEYS.items():
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise InputError(f"{path}: not a `screenbot bench --json` report: {key!r} missing or not {kind.__name__}")
    first = data["first"]
    if len(first) != 2 or not all(isinstance(v, int) for v in first):
        raise InputError(f"{path}: 'first' is not [row, col]")
    if not 0 <= data["wins"] <= data["games"] or data["games"] < 1:
        raise InputError(f"{path}: {data['wins']} wins out of {data['games']} games")
    seed, guess = data.get("seed"), data.get("guess")
    return Report(
        data["rows"], data["cols"], data["mines"], data["rules"], (first[0], first[1]), data["games"], data["wins"],
        seed if isinstance(seed, int) else None, guess if isinstance(guess, str) else None,
    )


def panels(reports: list[Report]) -> list[Panel]:
    """A panel per setting, in the order the reports first show it."""
    settings: dict[tuple, list[Report]] = {}
    for report in reports:
        settings.setdefault(report.setting, []).append(report)
    return [_panel(group) for group in settings.values()]


def _panel(group: list[Report]) -> Panel:
    head = group[0]
    board = f"{head.rows}x{head.cols}/{head.mines}"
    level = level_of(head.rows, head.cols, head.mines)
    title = f"{level + ' ' if level else ''}{board}, rules {head.rules}, first click {head.first[0]},{head.first[1]}"
    rows = []
    for report in group:
        low, high = wilson_interval(report.wins, report.games)
        guess = f" {report.guess}" if report.guess else ""
        seed = f", seed {report.seed}" if report.seed is not None else ""
        label = f"screenbot{guess}, {report.games:,} games{seed}"
        rows.append(Row(label, report.wins / report.games, low, high, ours=True))
    for anchor in anchors_for(head.rows, head.cols, head.mines, head.rules, head.first):
        rate = (anchor.low + anchor.high) / 2
        rows.append(Row(f"{anchor.solver}, {anchor.games} games", rate, anchor.low, anchor.high, ours=False))
    return Panel(title, tuple(rows))


def draw(figure_panels: list[Panel], out: Path) -> None:
    """Write the panels as a PNG to ``out``."""
    try:
        import matplotlib
    except ImportError:
        raise MissingExtraError("bench-plot", package="matplotlib", extra="plot") from None
    matplotlib.use("Agg")  # no display: the picture goes to a file
    from matplotlib import pyplot

    heights = [len(panel.rows) + 1.2 for panel in figure_panels]
    figure, axes = pyplot.subplots(
        len(figure_panels), 1, figsize=(10, 0.42 * sum(heights) + 0.6), gridspec_kw={"height_ratios": heights},
        squeeze=False, layout="constrained",
    )
    try:
        for ax, panel in zip(axes[:, 0], figure_panels):
            _draw_panel(ax, panel)
        axes[-1, 0].set_xlabel("win rate, %  (bars: screenbot's 95% interval; a published range or margin)")
        figure.savefig(out, format="png", dpi=110)
    finally:
        pyplot.close(figure)


def _draw_panel(ax, panel: Panel) -> None:
    ys = range(len(panel.rows) - 1, -1, -1)  # the first row on top
    for y, row in zip(ys, panel.rows):
        colour, marker = ("tab:blue", "o") if row.ours else ("tab:gray", "D")
        ax.errorbar(
            100 * row.rate, y, xerr=[[100 * (row.rate - row.low)], [100 * (row.high - row.rate)]],
            fmt=marker, color=colour, capsize=4, markersize=6 if row.ours else 5,
        )
    ax.set_yticks(list(ys), [_with_figures(row) for row in panel.rows], fontsize=8)
    for tick, row in zip(ax.get_yticklabels(), panel.rows):
        tick.set_color("tab:blue" if row.ours else "black")
    ax.set_ylim(-0.7, len(panel.rows) - 0.3)
    low = min(row.low for row in panel.rows)
    high = max(row.high for row in panel.rows)
    pad = max(0.5, 100 * (high - low) * 0.08)
    ax.set_xlim(max(0.0, 100 * low - pad), min(100.0 + pad / 4, 100 * high + pad))
    ax.set_title(panel.title + ("" if any(not r.ours for r in panel.rows) else " (no published figure for these rules)"),
                 fontsize=9, loc="left")
    ax.grid(axis="x", alpha=0.3)


def _with_figures(row: Row) -> str:
    interval = f" ({100 * row.low:.2f}-{100 * row.high:.2f})" if row.high > row.low else ""
    return f"{row.label}: {100 * row.rate:.2f}%{interval}"
