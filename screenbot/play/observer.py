"""What the play loop reports while it runs: per-step timings, game results, and the observer hook.

A recorder or an overlay plugs into the loop by implementing ``PlayObserver``; the loop calls it and
never needs to know who listens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence

import numpy as np

WON, LOST, ABORTED = "won", "lost", "aborted"
# Every safe cell open and every mine flagged, with no win shown by the client (a client whose win rule
# was not learnt): not counted as a win.
UNCONFIRMED = "unconfirmed"


@dataclass(frozen=True, slots=True)
class Action:
    """One mouse action on a cell: ``open`` (left), ``flag`` (right) or ``chord`` (on a number)."""

    kind: str
    row: int
    col: int


@dataclass(frozen=True, slots=True)
class StepTimings:
    """Seconds spent in one step. ``redraw`` is the client's time to show the result of the previous
    actions (waiting, not our work); the bot's own overhead is the other four."""

    capture: float = 0.0
    read: float = 0.0
    solve: float = 0.0
    act: float = 0.0
    redraw: float = 0.0
    actions: int = 0  # clicks made in this step

    @property
    def overhead(self) -> float:
        return self.capture + self.read + self.solve + self.act


@dataclass(frozen=True, slots=True)
class GameResult:
    outcome: str  # WON, LOST, ABORTED or UNCONFIRMED
    seconds: float
    steps: int
    actions: int
    guesses: int
    reason: str = ""  # why a game was aborted
    # Cells that showed a number the skin has no picture of (played as unread numbers: see
    # ``vision.unseen``); ``learn NAME --extend`` teaches them.
    unread: int = 0
    # The numbers among them that the game's end named (taught to the skin for the rest of the session).
    named: str = ""
    # How the client showed the game's end (a win: "a window of the game over the board", ...).
    shown: str = ""


class PlayObserver(Protocol):
    """Hooks called by the loop. ``frame`` is the captured board region (BGR); ``reading`` what vision
    made of it; ``decision`` the solver's output (None on the step that found the game over)."""

    def on_step(self, frame: np.ndarray, reading, decision, actions: Sequence[Action], timings: StepTimings) -> None: ...

    def on_game_end(self, result: GameResult) -> None: ...


class NullObserver:
    def on_step(self, frame, reading, decision, actions, timings) -> None:
        return None

    def on_game_end(self, result: GameResult) -> None:
        return None


class ObserverGroup:
    """Fans each call out to several observers, in order."""

    def __init__(self, *observers: PlayObserver) -> None:
        self.observers = observers

    def on_step(self, frame, reading, decision, actions, timings) -> None:
        for observer in self.observers:
            observer.on_step(frame, reading, decision, actions, timings)

    def on_game_end(self, result: GameResult) -> None:
        for observer in self.observers:
            observer.on_game_end(result)
