"""Recordings of play and hint sessions, and their replay.

A recording is a folder in an open format any tool can read:

    DIR/
      log.jsonl          one JSON object per line, in time order
      frames/000001.png  the captured frames, written only when the picture changed

``log.jsonl`` records, each with ``"type"``:

- ``start`` (first line): ``version`` (format version, 1), ``time`` (Unix seconds), ``command``
  ("play" or "hint"), ``skin``, ``client``, ``policy`` (the solver's ``PolicyConfig`` fields that shape the
  decision: ``first_click``, ``flag_mines``, ``density``), and ``screen_region`` ([left, top, width,
  height] of the captured area on screen, when known).
- ``step``: one captured frame and what the bot made of it. ``seq`` (1, 2, ...), ``time`` (Unix seconds),
  ``t`` (seconds since the start), ``game`` (1-based game number), ``frame`` (path of the PNG relative to
  the folder; consecutive steps share a file when the picture did not change), ``lattice`` (``skin``,
  ``origin`` [x, y], ``pitch`` [x, y], ``rows``, ``cols`` in frame pixels; ``xs`` / ``ys``, each column's and
  row's box start, where the cells are uneven; ``scale``, where the board was drawn at a desktop's scale
  other than 100%), ``board`` (the board read, in
  the solver's text format, ``mines:`` line included when the total is known), ``min_confidence``,
  ``analysis`` (null, or ``probabilities`` as rows of numbers / null, ``safe`` and ``mines`` as [row, col]
  lists, ``exact``), ``moves`` (the solver's moves: ``action``, ``row``, ``col``, ``probability``; null
  when the bot made no decision on that frame, e.g. the game was over),
  ``actions`` (the mouse actions actually taken: ``kind`` "open" / "flag" / "chord", ``row``, ``col``;
  empty for hints and dry runs) and ``timings`` (seconds: ``capture``, ``read``, ``solve``, ``act``,
  ``redraw``).
- ``game_end``: ``game``, ``outcome`` ("won", "lost", "aborted", or "unconfirmed": every safe cell open
  and every mine flagged with no win shown by a client whose win rule is unknown), ``seconds``,
  ``steps``, ``actions``, ``guesses``, ``reason``, ``shown`` (how the client showed a win).
- ``end`` (last line when the session closed cleanly): ``time``, ``steps``, ``frames``.

Frames are lossless PNGs of exactly what was captured, so re-running recognition on them must give the
recorded board. ``screenbot replay DIR`` does that and re-runs the solver (``replay.replay``), reporting
every difference.
"""

from .log import FORMAT_VERSION, Recording, RecordingError, Step, load_recording
from .recorder import Recorder

__all__ = ["FORMAT_VERSION", "Recorder", "Recording", "RecordingError", "Step", "load_recording"]
