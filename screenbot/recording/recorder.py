"""Writing a recording: the play loop's observer (``on_step`` / ``on_game_end``), also used by ``hint``.

Frames are written only when they differ from the last one written (a hint session polls far more often
than the board changes). PNG compression level 1: lossless like any level, and the cheapest to encode.
The encoding and writing happen on a background thread (OpenCV releases the GIL meanwhile), so the loop
being recorded does not wait for the disk; a write error still stops the recording, at the next frame
or at ``close``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from solver.board import Board, format_board

from .log import FORMAT_VERSION, FRAMES_DIR, LOG_NAME, RecordingError

log = logging.getLogger(__name__)

# Frames waiting for the writer thread before a new one waits for them (bounds the memory they hold).
MAX_PENDING_FRAMES = 16


def _jsonable(value: Any) -> Any:
    """Dataclasses, tuples, frozensets and NumPy scalars as plain JSON values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (frozenset, set)):
        return [_jsonable(v) for v in sorted(value)]
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Path):
        return str(value)
    return value


def lattice_record(lattice: Any) -> dict[str, Any]:
    """The lattice's fields (skin, origin, pitch, rows, cols, and xs / ys, scale when set) as JSON values."""
    if dataclasses.is_dataclass(lattice):
        # Optional fields left at their default (a straight lattice's per-cell edges, the scale of a
        # board drawn at 100%) are left out.
        defaults = {field.name: field.default for field in dataclasses.fields(lattice)}
        return {name: value for name, value in _jsonable(lattice).items()
                if value != defaults.get(name, dataclasses.MISSING)}
    return {name: _jsonable(getattr(lattice, name)) for name in ("skin", "origin", "pitch", "rows", "cols")}


def analysis_record(analysis: Any) -> dict[str, Any] | None:
    if analysis is None:
        return None
    return {
        "probabilities": [
            [None if p is None else round(float(p), 6) for p in row] for row in analysis.probabilities
        ],
        "safe": sorted([list(cell) for cell in analysis.safe]),
        "mines": sorted([list(cell) for cell in analysis.mines]),
        "exact": bool(analysis.exact),
    }


def moves_record(decision: Any) -> list[dict[str, Any]] | None:
    if decision is None:
        return None
    return [
        {"action": m.action, "row": int(m.row), "col": int(m.col), "probability": round(float(m.probability), 6)}
        for m in decision.moves
    ]


def check_record_dir(directory: str | Path) -> Path:
    """``directory`` if a new recording can go there (checked before any screen work): not an
    existing recording, and a folder that can be written (``outputs.check_output_folder``: InputError)."""
    from ..outputs import check_output_folder

    folder = Path(directory)
    if (folder / LOG_NAME).exists():
        raise RecordingError("already holds a recording; choose a new folder", path=folder)
    return check_output_folder(folder)


class Recorder:
    """Records a session into ``directory`` (created; it must not already hold a recording).

    ``mines`` (the game's mine total, or None) and ``policy`` (the solver's PolicyConfig) are what the bot
    decided with; each may be a value or a function of the board read (the loop picks the first click
    and the total per board size). Both go into every step, so a replay decides on exactly what the
    bot decided on.
    """

    def __init__(
        self,
        directory: str | Path,
        *,
        command: str,
        skin: str | None = None,
        client: str | None = None,
        policy: Any = None,
        mines: int | None | Callable[[Board], int | None] = None,
        screen_region: Sequence[int] | None = None,
        clock=time.time,
    ) -> None:
        self.directory = check_record_dir(directory)
        try:
            (self.directory / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
            self._log = (self.directory / LOG_NAME).open("w", encoding="utf-8")
        except OSError as exc:
            raise RecordingError(f"cannot write here: {exc.strerror or exc}", path=self.directory) from exc
        self._clock = clock
        self._digest = hashlib.sha256()
        self._start = clock()
        self._mines = mines if callable(mines) else (lambda board, total=mines: total)
        self._policy = policy if callable(policy) else (lambda board, config=policy: config)
        self._seq = 0
        self._game = 1
        self._frames = 0
        self._last_frame: np.ndarray | None = None
        self._last_frame_name = ""
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="recording-frames")
        self._pending: deque[Future] = deque()
        self._write(
            {
                "type": "start",
                "version": FORMAT_VERSION,
                "time": self._start,
                "command": command,
                "skin": skin,
                "client": client,
                "mines": None if callable(mines) else mines,
                "policy": None if callable(policy) else _policy_record(policy),
                "screen_region": list(screen_region) if screen_region is not None else None,
            }
        )

    def bind_settings(self, *, policy: Callable[[Board], Any], mines: Callable[[Board], int | None]) -> None:
        """Take the solver settings from whoever decides (the play loop picks them per board size),
        when they are only known after the recorder was created."""
        self._policy = policy
        self._mines = mines

    @property
    def steps(self) -> int:
        return self._seq

    @property
    def frames(self) -> int:
        return self._frames

    # --- the play loop's observer hook --------------------------------------------------------

    def on_step(self, frame: np.ndarray, reading: Any, decision: Any, actions: Sequence[Any], timings: Any) -> None:
        now = self._clock()
        self._seq += 1
        board: Board = reading.board
        if board.mines is None:
            board = board.with_mines(self._mines(board))
        self._write(
            {
                "type": "step",
                "seq": self._seq,
                "time": now,
                "t": round(now - self._start, 6),
                "game": self._game,
                "frame": self._frame_name(frame),
                "lattice": lattice_record(reading.lattice),
                "board": format_board(board),
                "policy": _policy_record(self._policy(reading.board)),
                "min_confidence": _maybe_float(getattr(reading, "min_confidence", None)),
                "analysis": analysis_record(getattr(decision, "analysis", None)),
                "moves": moves_record(decision),
                "actions": [{"kind": a.kind, "row": int(a.row), "col": int(a.col)} for a in actions],
                "timings": _jsonable(timings) if timings is not None else {},
            }
        )

    def on_game_end(self, result: Any) -> None:
        record = {"type": "game_end", "game": self._game, "time": self._clock()}
        record.update(_jsonable(result) if dataclasses.is_dataclass(result) else {"outcome": str(result)})
        self._write(record)
        self._game += 1

    # --- lifetime -------------------------------------------------------------------------------

    def close(self) -> None:
        if self._log.closed:
            return
        try:
            self._finish_writes(keep=0)
        finally:
            self._writer.shutdown(wait=True)
            # The digest of every line before it: a replay tells an edited log from the one written.
            self._write({"type": "end", "time": self._clock(), "steps": self._seq, "frames": self._frames,
                         "digest": self._digest.hexdigest()})
            self._log.close()

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- internals ------------------------------------------------------------------------------

    def _frame_name(self, frame: np.ndarray) -> str:
        if self._last_frame is not None and self._last_frame.shape == frame.shape and np.array_equal(self._last_frame, frame):
            return self._last_frame_name
        self._finish_writes(keep=MAX_PENDING_FRAMES - 1)
        self._frames += 1
        name = f"{FRAMES_DIR}/{self._frames:06d}.png"
        # A copy: the caller may reuse its frame buffer while the writer thread still encodes this one.
        self._last_frame = frame.copy()
        self._last_frame_name = name
        self._pending.append(self._writer.submit(_write_png, self.directory, name, self._last_frame))
        return name

    def _finish_writes(self, keep: int) -> None:
        """Collect finished writes (raising the first error), waiting for the oldest while more than
        ``keep`` are pending."""
        while self._pending and (self._pending[0].done() or len(self._pending) > keep):
            self._pending.popleft().result()

    def _write(self, record: dict[str, Any]) -> None:
        # One line per record, flushed: a crashed session still leaves a readable log up to the crash.
        line = json.dumps(record, separators=(",", ":")) + "\n"
        self._digest.update(line.encode("utf-8"))
        self._log.write(line)
        self._log.flush()


def _policy_record(policy: Any) -> dict[str, Any]:
    """Every field of the solver's PolicyConfig, so a replay decides under exactly the same settings."""
    return {} if policy is None else _jsonable(policy)


def _maybe_float(value: Any) -> float | None:
    return None if value is None else round(float(value), 6)


def _write_png(directory: Path, name: str, frame: np.ndarray) -> None:
    import cv2

    if not cv2.imwrite(str(directory / name), np.ascontiguousarray(frame[:, :, :3]), [cv2.IMWRITE_PNG_COMPRESSION, 1]):
        raise RecordingError(f"could not write {name}", path=directory)
