"""The limits the pixel look (``detail``) holds number cells to, measured on labelled screenshots, not
set by hand.

``python3 -m lab detail-margins --write`` sets every number cell of the labelled shots, as captured and
saved as JPEG, against the pictures of its own number (a right read) and of every other number and the
opened 0 (a wrong one), at the pixel that differs most, and writes per skin the largest right and the
smallest wrong distance, for pictures of the board's own size and of another size, into the skin's
``calibration.json``; and the same figures pooled over the shipped skins into
``screenbot/templates/calibration.json``, for the skins with no shots of their own (learnt ones, a
user's).

A limit is the midpoint of the gap between the two: what the capture may add to a right read (JPEG's
blur, a fraction of a pixel's slip) gets as much room as what brings a wrong one nearer. Where a skin's
numbers do not stand apart at the pixel (gnome-mines' small digits: another number as near as its
own), this look cannot tell them apart, and the small scale does: the skin takes the limit pooled over the
skins that separate, raised to keep half the pooled gap over its own right reads. Where its right
reads come as far as the pooled wrong ones (xbomb's 50 px digits against its 20 px pictures: another
glyph), it cannot hold them to pictures of that size: the pooled limit, and such a read is refused.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import NamedTuple

FILE = "calibration.json"
# The kinds of pictures a cell is set against: captures at the board's own pitch, or of another.
OWN, OTHER = "own size", "other size"


class Limits(NamedTuple):
    """The largest difference (0-255, at the pixel and channel that differ most) a number cell may
    have from its pictures of the board's own size (``own``) and of another size brought to it
    (``other``)."""

    own: float
    other: float


class Margin(NamedTuple):
    """For one kind of pictures: the largest distance of a right read, the smallest of a wrong one
    (None: none measured), and the cells they came from."""

    right: float | None
    wrong: float | None
    right_case: str = ""
    wrong_case: str = ""

    def separates(self) -> bool:
        """Whether every wrong read measured is farther than every right one (both measured)."""
        return self.right is not None and self.wrong is not None and self.wrong > self.right

    def apart(self) -> bool:
        """Whether the wrong reads are not known to come as near as right ones (a skin whose shots show
        no right read of this kind: minegauler's, all at sizes it has pictures of)."""
        return self.wrong is not None and (self.right is None or self.wrong > self.right)


def limit_from(margin: Margin, pooled: Margin) -> float:
    """The limit for one skin and kind: the midpoint of its margin where it separates right from wrong.
    Else the pooled one (``pooled``: the margins of the skins that separate, pooled), raised to half
    the pooled gap over the skin's own right reads where that stays under the pooled wrong ones
    (farther, a right read is as unlike its pictures as another glyph is: refused), and kept halfway
    under the skin's own wrong reads where those come nearer."""
    if margin.separates():
        return (margin.right + margin.wrong) / 2
    if not pooled.separates():
        raise ValueError("the pooled margin does not separate right reads from wrong ones")
    limit = (pooled.right + pooled.wrong) / 2
    raised = None if margin.right is None else margin.right + (pooled.wrong - pooled.right) / 2
    if raised is not None and raised < pooled.wrong:
        limit = max(limit, raised)
    if margin.apart() and limit >= margin.wrong:
        limit = (pooled.right + margin.wrong) / 2
    return limit


def joined(margins: list[Margin]) -> Margin:
    """Several measures of one skin's margin (at several JPEG qualities) as one: the largest right read,
    the smallest wrong one."""
    rights = [(m.right, m.right_case) for m in margins if m.right is not None]
    wrongs = [(m.wrong, m.wrong_case) for m in margins if m.wrong is not None]
    right, right_case = max(rights) if rights else (None, "")
    wrong, wrong_case = min(wrongs) if wrongs else (None, "")
    return Margin(right, wrong, right_case, wrong_case)


def pooled_margin(margins: list[Margin]) -> Margin:
    """The margins of the skins that separate right from wrong, as one: the largest right read of any,
    the smallest wrong one. A skin whose numbers do not stand apart at the pixel (gnome-mines' small
    digits, read by the small scale) or whose right reads come as far as wrong ones (xbomb's 50 px
    digits against its 20 px pictures: another glyph) says nothing of where the line lies."""
    return joined([m for m in margins if m.separates()] + [Margin(None, m.wrong, "", m.wrong_case) for m in margins
                                                            if m.apart() and not m.separates()])


def margins_json(margins: dict[str, Margin], qualities: list[int], pooled: dict[str, Margin]) -> dict:
    """What a calibration file holds: the measured margins, and for the reader the limits ``limits``
    sets from them and the pooled ones."""
    return {"measured by": "python3 -m lab detail-margins --write", "jpeg qualities": qualities,
            "margins": {kind: margin._asdict() for kind, margin in margins.items()},
            "limits": {kind: round(limit_from(margins.get(kind, Margin(None, None)), pooled[kind]), 1) for kind in pooled}}


def read_margins(path: Path) -> dict[str, Margin]:
    """The margins a calibration file holds; empty when there is none."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    found = {}
    for kind, values in data.get("margins", {}).items():
        margin = Margin(**values)
        if not all(v is None or isinstance(v, (int, float)) for v in (margin.right, margin.wrong)):
            raise ValueError(f"the {kind!r} margin's distances are not numbers: {values}")
        found[kind] = margin
    return found


@functools.lru_cache(maxsize=1)
def _pooled() -> dict[str, Margin]:
    from ..skin_folders import TEMPLATES_DIR

    found = read_margins(Path(TEMPLATES_DIR) / FILE)
    if not all(kind in found and found[kind].separates() for kind in (OWN, OTHER)):
        raise RuntimeError(f"{Path(TEMPLATES_DIR) / FILE} lacks the pooled margins: run python3 -m lab detail-margins --write")
    return found


def limits(margins: dict[str, Margin]) -> Limits:
    """The pixel look's limits for a skin with these measured margins (none: a skin with no labelled
    shots, held to the pooled limits)."""
    pooled = _pooled()
    return Limits(*(limit_from(margins.get(kind, Margin(None, None)), pooled[kind]) for kind in (OWN, OTHER)))
