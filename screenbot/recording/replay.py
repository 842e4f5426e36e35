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
    """Every step re-read and re-solved; a log that is not whole (cut, steps removed or reordered) and
    frames that are missing are differences too, so such a recording never passes as identical."""
    last = recording.steps[-1] if recording.steps else None
    differences = [
        Difference(last.seq if last else 0, last.game if last else 0, "log", "", "", fault) for fault in recording.faults()
    ]
    frames: dict[str, np.ndarray] = {}
    for step in recording.steps:
        key = str(step.frame_path)
        if key not in frames:
            frame = _load_frame(step)
            if frame is None:
                differences.append(Difference(step.seq, step.game, "frame", "", "", f"{step.frame_path.name} is missing or unreadable"))
                continue
            frames[key] = frame
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


# Settings older versions recorded that no longer exist and never changed a recorded move (a wall-clock
# cap that did not bite): dropped without a warning. Any other unknown setting is warned about.
RETIRED = {"GuessConfig": {"time_limit"}}


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
    unknown = sorted(set(record) - known - RETIRED.get(kind.__name__, set()))
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

    from ..geometry import Lattice

    names = {f.name for f in dataclasses.fields(Lattice)} - {"face"}  # the overlay's, never recorded
    unknown = sorted(set(record) - names)
    if unknown:
        raise RecordingError(f"unknown lattice fields {', '.join(unknown)}", path="log.jsonl")
    values = {k: tuple(v) if isinstance(v, list) else v for k, v in record.items()}
    problem = _lattice_problem(values)
    if problem:
        raise RecordingError(f"a step's lattice is malformed: {problem}", path="log.jsonl")
    try:
        return Lattice(**values)
    except (TypeError, ValueError) as exc:
        raise RecordingError(f"a step's lattice is malformed: {exc}", path="log.jsonl") from None


def _lattice_problem(values: dict[str, Any]) -> str:
    """What is wrong with a recorded lattice's values, or "" (it would otherwise fail deep in the eyes)."""
    import math

    from ..given_lattice import MIN_PITCH

    def numbers(value: Any, count: int | None) -> bool:
        return (
            isinstance(value, tuple)
            and (count is None or len(value) == count)
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
        )

    if not isinstance(values.get("skin"), str):
        return "'skin' should be a skin name"
    for name in ("rows", "cols"):
        value = values.get(name)
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 256:
            return f"{name!r} should be a whole number from 1 to 256, not {value!r:.40}"
    if not numbers(values.get("origin"), 2):
        return "'origin' should be two numbers"
    if not numbers(values.get("pitch"), 2) or min(values["pitch"]) < MIN_PITCH:
        return f"'pitch' should be two numbers of at least {MIN_PITCH:g} px"
    for name in ("xs", "ys"):
        if values.get(name) is not None and not numbers(values[name], None):
            return f"{name!r} should be a list of numbers"
    return ""


def vision_reader(skins=None) -> BoardReader:
    """Read frames with today's recognizer and templates at the recorded board position."""
    loaded: list[Any] = []  # the skins load on the first frame: an empty recording needs none

    def read(frame: np.ndarray, lattice_record: dict[str, Any]) -> Board:
        from ..play.live import SkinVision, load_skins

        if not loaded:
            loaded.append(SkinVision(skins if skins is not None else load_skins()))
        return loaded[0].read(frame, lattice_from_record(lattice_record)).board

    return read


def _load_frame(step: Step) -> np.ndarray | None:
    from ..capture import load_image
    from ..errors import InputError

    try:
        return load_image(step.frame_path)
    except InputError:
        return None


def _grid_text(board: Board) -> str:
    return "\n".join(board.grid)


def _moves_text(moves: list[tuple[str, int, int]]) -> str:
    return " ".join(f"{action}({r},{c})" for action, r, c in moves) or "(none)"
