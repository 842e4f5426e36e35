"""What a skin's ``profile.json`` may hold, checked when the skin is loaded (``check_profile``).

The schema is the table "Profile reference" of docs/clients.md, as JSON Schema: every documented key
with its type and range. Keys it does not name are allowed (a learnt skin keeps its evidence under
``learnt``; notes for people). A profile that does not fit stops with SkinError (exit 2) naming the key
and what it should be, before anything is read or clicked: a file a user is told to edit would
otherwise end in a traceback (a list instead of an object), or in a wrong message (a negative mine
total blamed the board).

jsonschema (a well-kept validator) rather than checks written here: its messages name the key path
and the rule, and the table and the check cannot drift apart key by key.
"""

from __future__ import annotations

from typing import Any

from ..errors import SkinError

_SECONDS = {"type": "number", "minimum": 0}
_MINES = {"type": "integer", "minimum": 0}
_ACTION = {
    "type": "object",
    "properties": {
        "keys": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
        "click": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
        "wait": _SECONDS,
        "focus": {"type": "boolean"},
        "dialog": {"type": "boolean"},
    },
    "anyOf": [{"required": ["keys"]}, {"required": ["click"]}],
}

SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "client": {"type": "string"},
        "first_click": {"enum": ["opening", "safe", "none", "preopened"]},
        "mine_total": {
            "anyOf": [
                {"type": "null"},
                _MINES,
                {"type": "object", "propertyNames": {"pattern": "^[1-9][0-9]*x[1-9][0-9]*$"},
                 "additionalProperties": _MINES},
            ],
        },
        "win_requires_all_flags": {"anyOf": [{"type": "boolean"}, {"const": "unknown"}]},
        "win_requires_all_open": {"type": "boolean"},
        "hover_highlight": {"type": "boolean"},
        "cells_on_background": {"type": "boolean"},
        "device_scales": {"type": "array", "items": {"type": "number", "minimum": 1, "maximum": 4}, "uniqueItems": True},
        "pauses_on_focus_loss": {"type": "boolean"},
        "question_marks": {"type": "boolean"},
        "looks_not_read": {"type": "string", "minLength": 1},
        "launch": {"type": "object"},
        "play": {
            "type": "object",
            "properties": {
                "restart": {"anyOf": [{"const": "find"}, _ACTION]},
                "after_win": _ACTION,
                "after_loss": _ACTION,
                "window_title": {"type": "string"},
                "redraw_timeout": _SECONDS,
                "settle": _SECONDS,
                "restart_timeout": _SECONDS,
                "end_mark": _SECONDS,
                "chord_button": {"enum": ["middle", "left"]},
                "flag_keys": {"type": "array", "items": {"enum": ["ctrl", "shift", "alt"]}, "uniqueItems": True},
                "flood": {"enum": ["8", "4", "none"]},
                "confirm_clicks": {"enum": ["none", "cell", "ping", "board"]},
                "drops_clicks": {"type": "boolean"},
                "frozen_board_means_won": {"type": "boolean"},
            },
        },
    },
}


def check_profile(data: object, skin: str, path: object) -> None:
    """SkinError naming the first key of ``data`` (a parsed profile.json) that does not fit SCHEMA."""
    import jsonschema

    validator = jsonschema.Draft202012Validator(SCHEMA)
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return
    where = ".".join(str(part) for part in error.absolute_path) or "the whole file"
    raise SkinError(f"{path}: {where}: {_said(error)}", skin=skin)


def _said(error) -> str:
    """The rule broken, in words: jsonschema's own message, shortened where it quotes whole schemas."""
    if error.validator in ("anyOf", "oneOf"):
        return f"{error.instance!r} is not {_ALLOWED.get(error.absolute_path[-1] if error.absolute_path else '', 'allowed here')}"
    return error.message


# What an anyOf key may be, said plainly (jsonschema would print the alternatives as schemas).
_ALLOWED = {
    "mine_total": "a whole number of 0 or more, a table of sizes ({\"16x30\": 99}) or null",
    "restart": "\"find\" or an action ({\"keys\": [\"f2\"]} or {\"click\": [dx, dy]})",
    "after_win": "an action ({\"keys\": [...]} or {\"click\": [dx, dy]})",
    "after_loss": "an action ({\"keys\": [...]} or {\"click\": [dx, dy]})",
    "win_requires_all_flags": "true, false or \"unknown\" (not seen while learning)",
}
