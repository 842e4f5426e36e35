"""The overlay latency measure (``lab.latency``) on synthetic traces and drawn frames, and
the ``hint-bench`` command's argument checks (the measurement itself needs Xvfb: ``python3 -m lab hint-bench``)."""

from __future__ import annotations

import numpy as np
import pytest

from lab.cli import main
from lab.latency import CellProbe, change_events, figures, settle_latency
from screenbot.overlay.draw import render_layer
from screenbot.geometry import Lattice
from screenbot.overlay.marks import FRAME_STYLE, Hints

pytestmark = pytest.mark.unit

MS = 0.001


def trace(pictures, marks, step=MS):
    """A one-cell trace: the cell's middle checksum and whether it is marked, one entry per frame."""
    times = np.arange(len(pictures)) * step
    return times, np.array(pictures, dtype=np.int64)[:, None], np.array(marks, dtype=bool)[:, None]


def test_latency_runs_from_the_settled_picture_to_the_mark_gone():
    # Covered and marked for 100 ms, "pressed" for 20 ms, then opened; the mark goes 30 ms after that.
    pictures = [1] * 100 + [2] * 20 + [3] * 200
    marks = [True] * 150 + [False] * 170
    (event,) = change_events(*trace(pictures, marks))
    assert event.on_screen == pytest.approx(120 * MS)
    assert event.seconds == pytest.approx(30 * MS)
    assert event.cells == ((0, 0),)


def test_a_mark_still_there_at_the_end_is_reported_as_never_cleared():
    (event,) = change_events(*trace([1] * 100 + [3] * 200, [True] * 300))
    assert event.cleared is None and event.seconds is None


def test_an_in_between_look_of_a_covered_cell_is_not_a_change():
    # Lit under the pointer for 80 ms (still covered: the mark rightly stays), then opened.
    pictures = [1] * 100 + [5] * 80 + [3] * 200
    marks = [True] * 190 + [False] * 190
    (event,) = change_events(*trace(pictures, marks))
    assert event.on_screen == pytest.approx(180 * MS) and event.seconds == pytest.approx(10 * MS)


def test_cells_without_a_mark_and_unchanged_cells_give_no_event():
    assert change_events(*trace([1] * 100 + [3] * 100, [False] * 200)) == []
    assert change_events(*trace([1] * 200, [True] * 200)) == []


def test_cells_settling_in_the_same_frame_are_one_change_timed_by_the_slowest():
    times = np.arange(300) * MS
    mids = np.ones((300, 2), dtype=np.int64)
    mids[100:, :] = 7
    marks = np.ones((300, 2), dtype=bool)
    marks[110:, 0] = False
    marks[140:, 1] = False
    (event,) = change_events(times, mids, marks, cols=2)
    assert event.cells == ((0, 0), (0, 1))
    assert event.seconds == pytest.approx(40 * MS)


def test_settle_latency_and_figures():
    times = np.arange(10) * MS
    assert settle_latency(times, [1, 1, 2, 2, 3, 3, 3, 3, 3, 3], on_screen=2 * MS) == pytest.approx(2 * MS)
    fig = figures([0.010, 0.020, 0.030, 0.040, 0.100])
    assert (fig.count, fig.median_ms, fig.p90_ms, fig.max_ms) == (5, 30.0, 100.0, 100.0)
    assert figures([]).median_ms is None


def test_probe_sees_the_live_overlays_marks_and_the_games_changes():
    pitch, rows, cols = 24.3, 3, 4
    grid = Lattice("flat", (5.4, 6.2), (pitch, pitch), rows, cols)
    size = (int(6.2 + rows * pitch) + 6, int(5.4 + cols * pitch) + 6)
    game = np.full((*size, 3), 190, np.uint8)  # grey cells, like the clients
    probs = ((0.3, None, 0.0, 1.0), (None, 0.5, None, 0.12), (0.99, None, None, None))
    hints = Hints(probs, safe=frozenset({(0, 2)}), mines=frozenset({(0, 3)}), move=("open", 1, 1))
    layer = render_layer(size, grid, hints, FRAME_STYLE)
    frame = game.copy()
    frame[layer.shape_mask] = layer.bgr[layer.shape_mask]
    probe = CellProbe(size, grid.origin, grid.pitch, rows, cols)
    mids, marked = probe.sample(frame)
    expected = np.array([[p is not None for p in row] for row in probs])
    assert (marked.reshape(rows, cols) == expected).all()
    # The overlay never reaches the middles: the same as on the bare game.
    bare_mids, bare_marked = probe.sample(game)
    assert (mids == bare_mids).all() and not bare_marked.any()
    # The game redraws one cell: only its middle checksum changes.
    cx, cy = grid.face_center(2, 1)
    frame[int(cy) - 2 : int(cy) + 2, int(cx) - 2 : int(cx) + 2] = (30, 30, 200)
    changed = probe.sample(frame)[0] != mids
    assert changed.reshape(rows, cols)[2, 1] and changed.sum() == 1


@pytest.mark.parametrize("window", ["600", "axb", "100x100"])
def test_hint_bench_bad_window(window, capsys):
    assert main(["hint-bench", "--window", window]) == 2
    assert "--window" in capsys.readouterr().err


def test_a_covered_cell_lit_and_back_is_no_change():
    # Lit under the pointer (a click the client dropped), then the pointer leaves: still covered, marked.
    pictures = [1] * 100 + [5] * 100 + [1] * 100
    assert change_events(*trace(pictures, [True] * 300)) == []
