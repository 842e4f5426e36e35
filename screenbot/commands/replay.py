"""``screenbot replay DIR``: re-run recognition and the solver on a recording; report every difference.

Exit codes: 0 the re-run agrees with the recording on every step, 1 at least one difference (each is
printed; a log cut before its end record, steps removed or reordered, a missing frame and a board the
solver finds impossible are differences too), 2 bad arguments or not a readable recording (a malformed
log line, or a skin the recording names is missing).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..exit_codes import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from .common import add_templates_argument, fail


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="re-read and re-solve a recording (from play/hint --record) and report differences",
        description="Read every recorded frame again with the recorded board position, compare the board "
        "with the one recorded, run the solver on it with the recorded settings and compare the moves. "
        "A recording that is not whole (its log cut before the end record, steps removed or reordered, "
        "frames missing) is reported as such. Exit codes: 0 no difference, 1 differences found (listed; "
        "also a recording that is not whole, or a recorded board the solver finds impossible), 2 bad "
        "arguments or a malformed recording (the message names the file and line).",
    )
    parser.add_argument("directory", type=Path, metavar="DIR", help="a recording folder (with log.jsonl and frames/)")
    parser.add_argument("--json", action="store_true", help="print one JSON object: steps, frames, differences")
    add_templates_argument(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import SkinError
    from ..recording import RecordingError, load_recording
    from ..recording.replay import replay, solver_moves, vision_reader

    try:
        recording = load_recording(args.directory)
        report = replay(recording, vision_reader(), solver_moves)
    except (RecordingError, SkinError, ValueError) as exc:
        return fail(str(exc), EXIT_USAGE)
    if args.json:
        print(
            json.dumps(
                {
                    "directory": str(args.directory),
                    "steps": report.steps,
                    "frames": report.frames,
                    "ok": report.ok,
                    "differences": [d.as_dict() for d in report.differences],
                }
            )
        )
    else:
        for diff in report.differences:
            what = {
                "board": "board read differs",
                "moves": "moves differ",
                "read": "frame no longer readable",
                "frame": "frame missing",
                "log": "recording not whole",
            }[diff.field]
            line = f"step {diff.seq} (game {diff.game}): {what}"
            if diff.field == "moves":
                line += f": recorded {diff.recorded}, now {diff.replayed}"
            if diff.detail:
                line += f": {diff.detail}"
            print(line)
        verdict = "no differences" if report.ok else f"{len(report.differences)} differences"
        print(f"replay {args.directory}: {report.steps} steps, {report.frames} frames: {verdict}")
    return EXIT_OK if report.ok else EXIT_FAILED
