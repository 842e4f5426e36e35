"""The board reader on real screenshots drawn at random on every run, with their truth from the game.

Each run draws a fresh seed (printed, and in every assertion message): window sizes, levels, device
scales, how far each game is played, flags, where the pointer rests, a light, a dark or a high-contrast desktop theme,
and now and then one of gnome-mines' two other tile themes, which no skin reads yet: refused, never
misread (see ``tests/random_cases.py``),
so the reader is judged on cases nobody tuned it for. Replay a run's draws with
``SCREENBOT_RANDOM_SEED=<seed>`` (the clients deal other mines on a replay, the same kinds of cases).

Every case is read by ``python3 -m screenbot read PNG --json`` as a user would. Allowed outcomes:
exit 0 with exactly the true board, or a refusal (exit 4 or 5 with a message on stderr). A board the
reader must refuse (not wholly on the screen) must not be read with exit 0. A wrong board with exit
0 fails the test and names the cells that differ; refusals are printed (run with ``-s`` to see the
table on a pass too).

Environment: SCREENBOT_RANDOM_SEED (replay), SCREENBOT_RANDOM_CASES (gnome-mines cases, default 30:
a misread that showed in one window size class of one tile theme took 30 draws to show once, and
each draw costs about 5 s), SCREENBOT_RANDOM_REACT_CASES (default 3).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from solver.board import parse_board

from . import random_cases
from .seeds import REPLAY, SEED

# Real Xvfb and clients: the end-to-end tier (tests/conftest.py).
pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[1]
READ_EXIT_REFUSED = (4, 5)  # no complete board found / a cell not recognised (README "Exit codes")


def _count(name: str, default: int) -> int:
    return int(os.environ.get(name, default))


def tally(verdicts) -> tuple[dict[str, int], list]:
    """How many verdicts are right, refused and wrong, and the wrong ones."""
    counts = {kind: sum(v.outcome == kind for v in verdicts) for kind in ("right", "refused", "wrong")}
    return counts, [v for v in verdicts if v.outcome == "wrong"]


def judge_labelled(pngs, what: str, replay: str) -> tuple[dict[str, int], str]:
    """Each labelled screenshot (``lab.shots``: PNG, JSON, true board) read by the command line reader
    with no lattice given, each verdict printed; fails on any wrong board. Returns the counts and a
    summary line (``what``: which screenshots, ``replay``: how to replay them)."""
    metas = []
    for png in pngs:
        meta_path = png.with_suffix(".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta.update(name=png.stem, expect="read")
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
        metas.append(meta_path)
    return judge_all(metas, f"{what}: {len(metas)} screenshots", replay)


def judge_all(paths, what: str, replay: str, describe=lambda path: "", where: str = "") -> tuple[dict[str, int], str]:
    """Each case (its JSON path) judged and printed (``describe`` adds to each line); fails on any wrong
    board. Returns the counts and the summary line."""
    verdicts = []
    for path in paths:
        verdict = judge(path)
        verdicts.append(verdict)
        print(f"  {verdict.name}{describe(path)}: {verdict.outcome.upper()} - {verdict.detail}", flush=True)
    counts, wrong = tally(verdicts)
    summary = f"{what}, {counts['right']} right, {counts['refused']} refused, {counts['wrong']} wrong; {replay}"
    print(summary)
    assert not wrong, summary + where + "\n" + "\n".join(f"  {v.name}: {v.detail}" for v in wrong)
    return counts, summary


@dataclass
class Verdict:
    name: str
    outcome: str  # "right", "refused", "wrong"
    detail: str


def judge(json_path: Path) -> Verdict:
    """Read one case with the command line reader and compare it with its truth."""
    meta = json.loads(json_path.read_text(encoding="utf-8"))
    png = json_path.with_suffix(".png").resolve()  # the reader runs in the repository root
    try:
        done = subprocess.run([sys.executable, "-m", "screenbot", "read", str(png), "--json"], cwd=ROOT,
                              capture_output=True, text=True, timeout=180)
    except subprocess.TimeoutExpired:
        return Verdict(meta["name"], "wrong", "the reader did not finish in 180 s")
    message = done.stderr.strip()
    if done.returncode != 0:
        if done.returncode in READ_EXIT_REFUSED and message and "Traceback" not in message:
            return Verdict(meta["name"], "refused", f"exit {done.returncode}: {message.splitlines()[-1][:300]}")
        return Verdict(meta["name"], "wrong", f"exit {done.returncode} is no refusal: {message[-600:] or 'no message'}")
    if meta["expect"] == "refuse":
        read = json.loads(done.stdout)
        return Verdict(meta["name"], "wrong", f"read a {read['rows']}x{read['cols']} board with exit 0, but "
                                              f"{meta['why']}")
    truth = parse_board(json_path.with_suffix(".txt").read_text(encoding="utf-8"))
    read = json.loads(done.stdout)
    rows = read["board"].split("\n")
    if (len(rows), len(rows[0]) if rows else 0) != (truth.rows, truth.cols):
        return Verdict(meta["name"], "wrong", f"read {len(rows)}x{len(rows[0]) if rows else 0} cells, "
                                              f"the board is {truth.rows}x{truth.cols}")
    diffs = [f"({r}, {c}) is {ch!r}, read {rows[r][c]!r}" for r, c, ch in truth.cells() if rows[r][c] != ch]
    if diffs:
        more = f" and {len(diffs) - 12} more" if len(diffs) > 12 else ""
        return Verdict(meta["name"], "wrong", f"{len(diffs)} of {truth.rows * truth.cols} cells differ: "
                                              + "; ".join(diffs[:12]) + more)
    return Verdict(meta["name"], "right", f"{truth.rows}x{truth.cols} read exactly")


def _describe(json_path: Path) -> str:
    meta = json.loads(json_path.read_text(encoding="utf-8"))
    if meta["client"] == "gnome-mines":
        size = f"{meta['level']} in a {meta['window'][2]}x{meta['window'][3]} window"
        themes = [f"tile theme {meta['tile_theme']}" if meta.get("tile_theme") else "",
                  f"GTK theme {meta['gtk_theme']}" if meta.get("gtk_theme") else "",
                  f"desktop at {meta['desktop_scale'] * 100}%" if meta.get("desktop_scale") else ""]
        if any(themes):
            size += f" ({', '.join(t for t in themes if t)})"
    else:
        size = f"{meta['rows']}x{meta['cols']} at scale {meta['scale']}"
    pointer = meta["pointer"]
    where = f"pointer {pointer['where']}"
    truth = json_path.with_suffix(".txt")
    if pointer.get("cell") and truth.exists():
        r, c = pointer["cell"]
        where = f"pointer on {(r, c)}, a {parse_board(truth.read_text(encoding='utf-8'))[r, c]!r}"
    return f"{size}, {meta['state']}, {where}, expect {meta['expect']}"


@pytest.mark.parametrize("client, env, default", [
    ("gnome-mines", "SCREENBOT_RANDOM_CASES", 30),
    ("react", "SCREENBOT_RANDOM_REACT_CASES", 3),
])
def test_reader_on_random_real_screenshots(client, env, default, tmp_path):
    count = _count(env, default)
    if count <= 0:
        pytest.skip(f"{env}=0")
    missing = random_cases.missing_tools(client)
    if missing:
        pytest.skip(f"needs {', '.join(missing)} (CI installs them: .ci/run)")
    print(f"\n{count} random {client} cases, {REPLAY}; cases in {tmp_path}")
    try:
        paths = random_cases.generate(tmp_path, count, SEED, client, report=lambda line: print(line, flush=True))
    except RuntimeError as exc:
        pytest.fail(f"{client} cases, {REPLAY}: the generator failed: {exc}")

    judge_all(paths, f"{client}: {len(paths)} random cases", REPLAY, lambda path: f" [{_describe(path)}]",
              f"; cases in {tmp_path}")
