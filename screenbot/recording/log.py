"""Reading a recording folder back (the format is described in ``screenbot.recording``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ScreenError

FORMAT_VERSION = 1
LOG_NAME = "log.jsonl"
FRAMES_DIR = "frames"


class RecordingError(ScreenError):
    """A recording folder is missing, incomplete or not in the expected format."""

    def __init__(self, message: str, /, *, path: str | Path, line: int | None = None) -> None:
        where = f"{path}" + (f", line {line}" if line is not None else "")
        super().__init__(f"{where}: {message}", path=str(path), line=line)
        self.path = str(path)
        self.line = line


@dataclass(frozen=True, slots=True)
class Step:
    """One ``step`` record, with the frame path resolved against the recording folder."""

    seq: int
    game: int
    time: float
    frame_path: Path
    lattice: dict[str, Any]
    board: str
    min_confidence: float | None
    analysis: dict[str, Any] | None
    moves: tuple[dict[str, Any], ...] | None  # None when the bot made no decision on this frame
    actions: tuple[dict[str, Any], ...]
    timings: dict[str, float]
    policy: dict[str, Any]  # the solver settings of this step (the header's when the step has none)


@dataclass(frozen=True, slots=True)
class Recording:
    directory: Path
    header: dict[str, Any]
    steps: tuple[Step, ...]
    games: tuple[dict[str, Any], ...]
    complete: bool  # the session wrote its ``end`` record

    @property
    def policy(self) -> dict[str, Any]:
        return dict(self.header.get("policy") or {})


_STEP_FIELDS = ("seq", "frame", "lattice", "board")


def load_recording(directory: str | Path) -> Recording:
    """Parse ``DIR/log.jsonl``; raises RecordingError naming the file and line of any fault."""
    folder = Path(directory)
    log_path = folder / LOG_NAME
    if not folder.is_dir():
        raise RecordingError("not a folder", path=folder)
    if not log_path.is_file():
        raise RecordingError(f"no {LOG_NAME} in this folder: not a recording", path=folder)
    header: dict[str, Any] | None = None
    steps: list[Step] = []
    games: list[dict[str, Any]] = []
    complete = False
    with log_path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RecordingError(f"not JSON ({exc.msg})", path=log_path, line=number) from None
            if not isinstance(record, dict) or "type" not in record:
                raise RecordingError("a record without a 'type'", path=log_path, line=number)
            kind = record["type"]
            if header is None:
                if kind != "start":
                    raise RecordingError("the first record must be 'start'", path=log_path, line=number)
                if record.get("version") != FORMAT_VERSION:
                    raise RecordingError(
                        f"format version {record.get('version')!r}, this program reads {FORMAT_VERSION}",
                        path=log_path,
                        line=number,
                    )
                header = record
            elif kind == "step":
                steps.append(_step(record, folder, log_path, number, header))
            elif kind == "game_end":
                games.append(record)
            elif kind == "end":
                complete = True
            # Unknown record types are skipped: newer writers may add some.
    if header is None:
        raise RecordingError("the log is empty", path=log_path)
    return Recording(folder, header, tuple(steps), tuple(games), complete)


def _step(record: dict[str, Any], folder: Path, log_path: Path, number: int, header: dict[str, Any]) -> Step:
    missing = [name for name in _STEP_FIELDS if name not in record]
    if missing:
        raise RecordingError(f"step record lacks {', '.join(missing)}", path=log_path, line=number)
    frame = folder / str(record["frame"])
    # A frame path may not leave the recording folder.
    if ".." in Path(str(record["frame"])).parts or Path(str(record["frame"])).is_absolute():
        raise RecordingError(f"frame path {record['frame']!r} points outside the recording", path=log_path, line=number)
    return Step(
        seq=int(record["seq"]),
        game=int(record.get("game", 1)),
        time=float(record.get("time", 0.0)),
        frame_path=frame,
        lattice=dict(record["lattice"]),
        board=str(record["board"]),
        min_confidence=record.get("min_confidence"),
        analysis=record.get("analysis"),
        moves=None if record.get("moves") is None else tuple(record["moves"]),
        actions=tuple(record.get("actions") or ()),
        timings=dict(record.get("timings") or {}),
        policy=dict(record.get("policy") or header.get("policy") or {}),
    )
