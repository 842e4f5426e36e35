"""Re-run recognition and the solver on a recording and list every difference from what was recorded.

For each step: read its frame again with the recorded lattice and compare the board; then run the policy
on the board read now (with the recorded mine total and policy settings) and compare the moves. A step
whose frame can no longer be read at all is a difference too. Nothing here touches the screen.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from solver.board import Board, parse_board
from solver.errors import MinesweeperError

from .log import Recording, RecordingError, Step

log = logging.getLogger(__name__)

# read(frame, lattice_record) -> Board; choose(board, policy_record) -> [(action, row, col), ...]
BoardReader = Callable[[np.ndarray, dict[str, Any]], Board]
MoveChooser = Callable[[Board, dict[str, Any]], list[tuple[str, int, int]]]


@dataclass(frozen=True, slots=True)
class Difference:
    """One disagreement between the recording and a re-run. ``field`` is "board", "moves" or "read"."""

    seq: int
    game: int
    field: str
    recorded: str
    replayed: str
    detail: str = ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "game": self.game,
            "field": self.field,
            "recorded": self.recorded,
            "replayed": self.replayed,
            "detail": self.detail,
        }


@dataclass(frozen=True, slots=True)
class ReplayReport:
    steps: int
    frames: int
    differences: tuple[Difference, ...]

    @property
    def ok(self) -> bool:
        return not self.differences


def replay(recording: Recording, read: BoardReader, choose: MoveChooser) -> ReplayReport:
    frames: dict[str, np.ndarray] = {}
    differences: list[Difference] = []
    for step in recording.steps:
        key = str(step.frame_path)
        if key not in frames:
            frames[key] = _load_frame(step, recording)
        differences.extend(_replay_step(step, frames[key], read, choose))
    return ReplayReport(len(recording.steps), len(frames), tuple(differences))


def _replay_step(step: Step, frame: np.ndarray, read: BoardReader, choose: MoveChooser) -> list[Difference]:
    recorded = parse_board(step.board)
    try:
        board = read(frame, step.lattice)
    except MinesweeperError as exc:
        return [Difference(step.seq, step.game, "read", _grid_text(recorded), "", f"{type(exc).__name__}: {exc}")]
    if board.mines is None:
        board = board.with_mines(recorded.mines)
    found: list[Difference] = []
    if board.grid != recorded.grid:
        cells = [
            f"({r},{c}) {recorded.grid[r][c]!r}->{board.grid[r][c]!r}"
            for r in range(min(board.rows, recorded.rows))
            for c in range(min(board.cols, recorded.cols))
            if board.grid[r][c] != recorded.grid[r][c]
        ]
        detail = (
            f"{len(cells)} cells differ: " + ", ".join(cells[:8]) + (" ..." if len(cells) > 8 else "")
            if (board.rows, board.cols) == (recorded.rows, recorded.cols)
            else f"size {recorded.rows}x{recorded.cols} -> {board.rows}x{board.cols}"
        )
        found.append(Difference(step.seq, step.game, "board", _grid_text(recorded), _grid_text(board), detail))
    if step.moves is not None:  # None: the bot did not decide on this frame (game over)
        want = [(m["action"], int(m["row"]), int(m["col"])) for m in step.moves]
        try:
            got = choose(board, step.policy)
        except MinesweeperError as exc:
            found.append(Difference(step.seq, step.game, "moves", _moves_text(want), "", f"{type(exc).__name__}: {exc}"))
        else:
            if got != want:
                found.append(Difference(step.seq, step.game, "moves", _moves_text(want), _moves_text(got)))
    return found


def policy_from_record(record: dict[str, Any]):
    """Rebuild the recorded ``PolicyConfig``.

    Settings this version does not have (the recording is from another version) are left out with a
    warning rather than refused: if one of them mattered, the moves comparison shows it.
    """
    from solver.policy import PolicyConfig

    return _settings(PolicyConfig, record)


def _settings(kind, record: dict[str, Any]):
    import dataclasses

    known = {f.name for f in dataclasses.fields(kind)}
    unknown = sorted(set(record) - known)
    if unknown:
        log.warning("recorded %s settings unknown to this version, ignored: %s", kind.__name__, ", ".join(unknown))
    default = kind()
    values: dict[str, Any] = {}
    for name in known & set(record):
        value, current = record[name], getattr(default, name)
        if dataclasses.is_dataclass(current) and isinstance(value, dict):
            value = _settings(type(current), value)
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
    return kind(**values)


def solver_moves(board: Board, policy_record: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The real policy under the recorded settings."""
    from solver.policy import decide

    config = policy_from_record(policy_record)
    return [(m.action, m.row, m.col) for m in decide(board, config).moves]


def lattice_from_record(record: dict[str, Any]):
    """The recognizer's lattice from its JSON form in a step record."""
    import dataclasses

    from ..vision import Lattice

    names = {f.name for f in dataclasses.fields(Lattice)}
    unknown = sorted(set(record) - names)
    if unknown:
        raise RecordingError(f"unknown lattice fields {', '.join(unknown)}", path="log.jsonl")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in record.items()}
    return Lattice(**values)


def vision_reader(skins=None) -> BoardReader:
    """Read frames with today's recognizer and templates at the recorded board position."""
    loaded: list[Any] = []  # the skins load on the first frame: an empty recording needs none

    def read(frame: np.ndarray, lattice_record: dict[str, Any]) -> Board:
        from ..play.live import SkinVision, load_skins

        if not loaded:
            loaded.append(SkinVision(skins if skins is not None else load_skins()))
        return loaded[0].read(frame, lattice_from_record(lattice_record)).board

    return read


def _load_frame(step: Step, recording: Recording) -> np.ndarray:
    import cv2

    frame = cv2.imread(str(step.frame_path), cv2.IMREAD_COLOR)
    if frame is None:
        raise RecordingError(f"frame {step.frame_path.name} of step {step.seq} is missing or unreadable", path=recording.directory)
    return frame


def _grid_text(board: Board) -> str:
    return "\n".join(board.grid)


def _moves_text(moves: list[tuple[str, int, int]]) -> str:
    return " ".join(f"{action}({r},{c})" for action, r, c in moves) or "(none)"
