"""Wait until the client has redrawn after our clicks and the picture has settled.

Reading a frame caught mid-redraw (half a flood fill drawn, an animation frame) would give a board that
disagrees with the next one. So after acting we poll the board region until it differs from the frame
before the action *and* has stayed identical for ``settle`` seconds. Polling a board-sized region costs
well under a millisecond, so the wait adds little beyond the client's own latency.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True, slots=True)
class Settled:
    frame: np.ndarray
    changed: bool  # False when nothing changed before the timeout
    waited: float  # seconds from the start of the wait to the first frame of the settled picture
    grab_seconds: float  # time of the last grab alone (the capture cost of one step)
    # Of the pictures seen after the redraw began and before the last one, the one that held longest
    # (None if the redraw was one change): a board shown whole for a moment before a window came over
    # it, as a game's dialog does right after a win.
    earlier: np.ndarray | None = None
    earlier_held: float = 0.0  # seconds it held


def wait_for_redraw(
    grab: Callable[[], np.ndarray],
    before: np.ndarray | None,
    *,
    timeout: float,
    settle: float,
    watch: tuple[slice, slice] | None = None,
    poll: float = 0.0005,
    clock: Callable[[], float] = time.perf_counter,
    sleep: Callable[[float], None] = time.sleep,
) -> Settled:
    """Poll ``grab`` until the frame differs from ``before`` and stays the same for ``settle`` seconds.

    With ``before`` None (first look at a board) only the settling is waited for. On timeout the last
    frame is returned with ``changed`` telling whether anything moved at all.

    ``watch`` (a pair of slices of the frame): the redraw only counts as begun once this part differs
    from ``before``. Given the cell clicked last, for a client that handles clicks in order, a frame
    showing just the first clicks of a batch is not mistaken for the result.
    """
    def begun(frame: np.ndarray) -> bool:
        if before is None:
            return True
        if watch is not None and frame.shape == before.shape:
            return not same_frame(frame[watch], before[watch])
        return not same_frame(frame, before)

    start = clock()
    frame, grab_seconds = _timed_grab(grab, clock)
    changed = begun(frame)
    stable_since = clock()
    first_seen = stable_since - start if changed else 0.0
    earlier, earlier_held = None, 0.0
    while True:
        now = clock()
        if changed and now - stable_since >= settle:
            return Settled(frame, True, first_seen, grab_seconds, earlier, earlier_held)
        if now - start >= timeout:
            # Not begun (a click the client dropped, or ignored): say whether anything moved at all.
            moved = changed or not same_frame(frame, before)
            return Settled(frame, moved, now - start, grab_seconds, earlier, earlier_held)
        if poll:
            sleep(poll)
        nxt, grab_seconds = _timed_grab(grab, clock)
        if not changed:
            frame = nxt
            if begun(nxt):
                changed = True
                stable_since = clock()
                first_seen = stable_since - start
        elif not same_frame(nxt, frame):
            # Any difference from the last frame is a redraw in progress: restart the settling clock.
            held = clock() - stable_since
            if held >= earlier_held:
                earlier, earlier_held = frame, held
            frame = nxt
            stable_since = clock()


def _timed_grab(grab: Callable[[], np.ndarray], clock: Callable[[], float]) -> tuple[np.ndarray, float]:
    t0 = clock()
    frame = grab()
    return frame, clock() - t0


def same_frame(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two grabs show the same picture, pixel for pixel."""
    return a.shape == b.shape and np.array_equal(a, b)


def wait_for_paint(
    grab: Callable[[], np.ndarray],
    before: np.ndarray,
    *,
    timeout: float,
    settle: float,
    clock: Callable[[], float] = time.perf_counter,
    sleep: Callable[[float], None] = time.sleep,
) -> Settled:
    """For a client known to have handled every click already (it answered a ping sent after them):
    its next paint shows them all. Wait for the picture to change from the one on screen now and
    stay so for ``settle``; with no change within ``timeout`` (a display frame and a half), that
    paint had happened already. ``changed`` compares with ``before`` (the frame the clicks were
    chosen on): this spares the fixed settling time after the last change of ``wait_for_redraw``.
    """
    start = clock()
    now, _ = _timed_grab(grab, clock)
    settled = wait_for_redraw(grab, now, timeout=timeout, settle=settle, clock=clock, sleep=sleep)
    changed = not same_frame(settled.frame, before)
    earlier, held = settled.earlier, settled.earlier_held
    if not same_frame(settled.frame, now) and settled.waited >= held:
        # The picture on screen when the wait began held longest, until the redraw.
        earlier, held = now, settled.waited
    return Settled(settled.frame, changed, clock() - start, settled.grab_seconds, earlier, held)
