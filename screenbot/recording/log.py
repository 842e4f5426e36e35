"""Reading a recording folder back (the format is described in ``screenbot.recording``)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.board import parse_board
from solver.errors import BoardFormatError

from ..errors import InputError
from ..inputs import read_text

FORMAT_VERSION = 1
LOG_NAME = "log.jsonl"
FRAMES_DIR = "frames"
LOG_LIMIT = 512 << 20  # bytes; an hour of play logs about 20 MB


class RecordingError(InputError):
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
    end: dict[str, Any] | None  # the ``end`` record, None when the session never wrote it
    digest: str = ""  # sha256 of the log's lines before its ``end`` record, as read

    @property
    def complete(self) -> bool:
        return self.end is not None

    def faults(self) -> list[str]:
        """What says this log is not the whole session as written: cut before its ``end`` record, any
        line changed, removed or added (the ``end`` record holds a digest of the lines before it, and
        counts the steps), steps out of order."""
        found = []
        if self.end is None:
            found.append(f"the log is cut: it ends after {len(self.steps)} steps without its 'end' record")
        elif "digest" not in self.end or "steps" not in self.end:
            # The recorder always writes both: without them nothing below could be checked.
            found.append("the log was edited: its 'end' record lacks its digest or its count of steps")
        elif self.end["digest"] != self.digest:
            found.append("the log was edited: its lines do not match the digest its 'end' record holds")
        elif self.end["steps"] != len(self.steps):
            found.append(f"the 'end' record counts {self.end.get('steps')} steps but the log has {len(self.steps)}: steps were removed or added")
        seqs = [step.seq for step in self.steps]
        if any(b <= a for a, b in zip(seqs, seqs[1:])):
            found.append("step numbers do not increase: the log was edited or its lines reordered")
        return found

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
    if not log_path.exists():  # anything else that is not a file (a pipe, a folder) is named by read_text
        raise RecordingError(f"no {LOG_NAME} in this folder: not a recording", path=folder)
    header: dict[str, Any] | None = None
    steps: list[Step] = []
    games: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    text = read_text(log_path, what="recording log", limit=LOG_LIMIT)
    digest, digest_before_end = hashlib.sha256(), ""
    for number, line in enumerate(text.splitlines(), start=1):
        before = digest.hexdigest()
        digest.update((line + "\n").encode("utf-8"))
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
        elif kind == "start":
            raise RecordingError("a second 'start' record: two sessions in one log, or an edited log", path=log_path, line=number)
        elif end is not None:
            raise RecordingError("a record after the 'end' record: an edited log", path=log_path, line=number)
        elif kind == "step":
            steps.append(_step(record, folder, log_path, number, header))
        elif kind == "game_end":
            games.append(record)
        elif kind == "end":
            end, digest_before_end = record, before
        # Unknown record types are skipped: newer writers may add some.
    if header is None:
        raise RecordingError("the log is empty", path=log_path)
    return Recording(folder, header, tuple(steps), tuple(games), end, digest_before_end)


def _step(record: dict[str, Any], folder: Path, log_path: Path, number: int, header: dict[str, Any]) -> Step:
    missing = [name for name in _STEP_FIELDS if name not in record]
    if missing:
        raise RecordingError(f"step record lacks {', '.join(missing)}", path=log_path, line=number)
    if not isinstance(record["frame"], str):
        raise RecordingError(f"step field 'frame' should be text, not {record['frame']!r:.40}", path=log_path, line=number)
    frame = folder / record["frame"]
    # A frame path may not leave the recording folder.
    if ".." in Path(str(record["frame"])).parts or Path(str(record["frame"])).is_absolute():
        raise RecordingError(f"frame path {record['frame']!r} points outside the recording", path=log_path, line=number)
    def field(name: str, kinds: tuple[type, ...], default: Any = None) -> Any:
        value = record.get(name, default)
        # bool is an int to Python, never a count or a position here. The fields every step must
        # have may not be null either.
        if name in _STEP_FIELDS and value is None:
            raise RecordingError(f"step field {name!r} is null", path=log_path, line=number)
        if value is not default and (not isinstance(value, kinds) or isinstance(value, bool)):
            wanted = " or ".join(_KIND_NAMES[k] for k in kinds)
            raise RecordingError(f"step field {name!r} should be {wanted}, not {value!r:.40}", path=log_path, line=number)
        return value

    board = field("board", (str,))
    try:
        parse_board(board)
    except BoardFormatError as exc:
        raise RecordingError(f"the step's board is malformed: {exc}", path=log_path, line=number) from None
    moves = field("moves", (list,))
    for move in moves or ():
        if not (
            isinstance(move, dict)
            and move.get("action") in ("open", "flag")
            and all(isinstance(move.get(k), int) and not isinstance(move.get(k), bool) for k in ("row", "col"))
        ):
            raise RecordingError(f"a recorded move (step field 'moves') should be an open or flag of a row and col, not {move!r:.60}", path=log_path, line=number)
    policy = field("policy", (dict,)) or header.get("policy") or {}
    if not isinstance(policy, dict):
        raise RecordingError(f"the policy settings should be an object, not {policy!r:.40}", path=log_path, line=number)
    return Step(
        seq=field("seq", (int,)),
        game=field("game", (int,), 1),
        time=float(field("time", (int, float), 0.0)),
        frame_path=frame,
        lattice=field("lattice", (dict,)),
        board=board,
        min_confidence=field("min_confidence", (int, float)),
        analysis=field("analysis", (dict,)),
        moves=None if moves is None else tuple(moves),
        actions=tuple(field("actions", (list,)) or ()),
        timings=dict(field("timings", (dict,)) or {}),
        policy=dict(policy),
    )


_KIND_NAMES = {int: "a whole number", float: "a number", str: "text", dict: "an object", list: "a list"}
