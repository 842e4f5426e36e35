"""Skins: one folder per client with reference cell images and a profile.

The shipped skins are package data (``screenbot/templates/``, read through ``importlib.resources`` so a
wheel install finds them too); a user's own skins folder, named by ``--templates DIR`` or the
``SCREENBOT_TEMPLATES`` environment variable, is read beside them (``screenbot.skin_folders``).

Folder layout (what the lab's ``templates`` command and ``screenbot new-skin`` write):

    templates/<skin>/profile.json          client rules (shared with the play loop)
    templates/<skin>/calibration.json      the pixel look's margins on the skin's labelled shots (optional;
                                           ``calibration``, written by the lab's ``detail-margins --write``)
    templates/<skin>/cells/<state>-<pitch>-<n>.png   one cell's pitch box as captured, e.g. "3-23-0.png"

``<state>`` is a cell state name (``STATE_CHARS`` maps it to the board character), ``<pitch>`` the cell
pitch in pixels the image was captured at (the file may be a box of pitch x pitch pixels, or
pitch_x x pitch_y when the pitch is not square), ``<n>`` tells pictures apart; one ending in ``lit``
shows the state as the client draws it under the pointer only (``Template.lit``). Templates are compared at one canonical size
(``CANONICAL``), and for each state the variant captured nearest the board's own pitch is used, so a
client whose gaps and fonts do not scale linearly (gnome-mines) still matches at every size.
"""

from __future__ import annotations

import collections
import functools
import json
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import InputError, SkinError
from .calibration import FILE as CALIBRATION
from .calibration import read_margins
from ..skin_folders import TEMPLATES_DIR, skin_folders  # noqa: F401 - TEMPLATES_DIR: where callers look for the shipped skins

log = logging.getLogger(__name__)

# Side of the square every cell is scaled to before comparing: big enough to keep digits apart,
# small enough that a 30x16 board is one ~480x768 matrix product.
CANONICAL = 16

# Not a cell state: pictures of what surrounds the board (window background, frame, bevels), cut one
# cell beyond its edges. A cell that looks most like these is not part of a board.
OUTSIDE = "~"

STATE_CHARS = {
    "outside": OUTSIDE,
    "covered": "#",
    "question": "?",
    "flag": "F",
    "mine": "*",
    "exploded": "X",
    "wrongflag": "W",
    **{str(n): str(n) for n in range(9)},
}
CHAR_STATES = {ch: name for name, ch in STATE_CHARS.items()}
# The end of a picture's name that marks it as a look under the pointer (``Template.lit``).
LIT = "lit"
_TEMPLATE_NAME = re.compile(r"^(?P<state>[a-z0-9]+)-(?P<px>\d+(?:\.\d+)?)(?:x(?P<py>\d+(?:\.\d+)?))?-(?P<n>\w+)$")


@dataclass(frozen=True, slots=True, eq=False)
class Template:
    char: str
    pitch: tuple[float, float]
    canonical: np.ndarray  # (CANONICAL, CANONICAL, 3) uint8
    image: np.ndarray  # as captured, one pitch box
    path: Path

    @property
    def lit(self) -> bool:
        """Whether the picture shows its state as the client draws it under the pointer only (lit or
        pressed): named ``<state>-<pitch>-<n>lit.png``. A pointer lights one cell (a chord's press, 9),
        so a board where many cells look lit is no board of this skin (``colour_cast``)."""
        return self.path.stem.endswith(LIT)


@dataclass(frozen=True, slots=True, eq=False)
class Skin:
    """A loaded skin: its templates and vision settings. ``profile`` is the raw profile.json.
    ``family``: a look read from its structure, with no pictures (``classic``), instead of templates."""

    name: str
    templates: tuple[Template, ...]
    profile: dict = field(default_factory=dict)
    family: str = ""
    # The pixel look's margins measured on the skin's labelled shots (``calibration``): kind -> Margin.
    margins: dict = field(default_factory=dict)

    @property
    def chars(self) -> frozenset[str]:
        return frozenset(t.char for t in self.templates)

    @property
    def board_sizes(self) -> list[tuple[int, int]]:
        """The client's standard board sizes (rows, cols): those its profile knows a mine total for."""
        sizes = []
        for key in (self.profile.get("mine_total") or {}):
            rows, _, cols = str(key).partition("x")
            if rows.isdigit() and cols.isdigit():
                sizes.append((int(rows), int(cols)))
        return sizes

    def bank(self, pitch: tuple[float, float]) -> TemplateBank:
        """The templates to compare with at this board pitch (cached per rounded pitch)."""
        return _bank(self, round(pitch[0] * 4) / 4, round(pitch[1] * 4) / 4)


@dataclass(frozen=True, slots=True, eq=False)
class TemplateBank:
    """Templates as one matrix, ready for a vectorised nearest-template search."""

    chars: tuple[str, ...]  # char of each row of ``vectors``
    vectors: np.ndarray  # (T, D) float32, softened
    pictures: np.ndarray  # (T, CANONICAL, CANONICAL, 3): the same templates as captured (not softened)
    char_order: tuple[str, ...]  # distinct chars; ``group`` maps each row to its index here
    group: np.ndarray  # (T,) int
    starts: np.ndarray  # (len(char_order),) first row of each char
    # For a skin whose cells lie on their window's background (``background``; None for any other):
    background: np.ndarray | None = None  # (3,) BGR: that background, as the pictures show it
    rims: np.ndarray | None = None  # (colours, 3) BGR: every colour common on the pictures' rims


def pitch_distance(a: tuple[float, float], b: tuple[float, float]) -> float:
    """How far apart two cell pitches are, in log terms: 20 to 40 px is as far as 40 to 80."""
    return abs(float(np.log(a[0] / b[0]))) + abs(float(np.log(a[1] / b[1])))


@functools.lru_cache(maxsize=64)
def _bank(skin: Skin, px: float, py: float) -> TemplateBank:
    # For each state and each look of it (``_looks``: a covered cell lit under the pointer is another
    # look of "covered"), keep the variants captured nearest this pitch (log distance: 20->40 is as far
    # as 40->80), plus any within 15% of that: size-specific rendering is compared like with like,
    # and a look captured at one size only is still known at every other size.
    chosen: list[Template] = []
    for char in sorted(skin.chars):
        for variants in _looks(tuple(t for t in skin.templates if t.char == char)):
            dist = [pitch_distance(t.pitch, (px, py)) for t in variants]
            best = min(dist)
            chosen += [t for t, d in zip(variants, dist) if d <= best + 0.15]
    chars = tuple(t.char for t in chosen)
    pictures = np.stack([t.canonical for t in chosen])
    pictures.flags.writeable = False
    vectors = soften(pictures).reshape(len(chosen), -1).copy()
    vectors.flags.writeable = False  # shared by every read at this pitch (cells.squared_distances keeps its side)
    order = tuple(sorted(set(chars)))
    group = np.array([order.index(c) for c in chars])
    # Rows are sorted by char, so each char's rows are contiguous: ``starts`` feeds np.minimum.reduceat.
    starts = np.searchsorted(group, np.arange(len(order)))
    background, rims = _background(pictures) if skin.profile.get("cells_on_background") else (None, None)
    return TemplateBank(chars, vectors, pictures, order, group, starts, background, rims)


def _background(pictures: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The colour most of the pictures' outermost pixels have (the background their cells lie on), and
    every colour on at least RIM_COMMON of them."""
    ring = np.concatenate([pictures[:, 0], pictures[:, -1], pictures[:, :, 0], pictures[:, :, -1]], axis=1)
    colours, counts = np.unique(ring.reshape(-1, 3), axis=0, return_counts=True)
    background = colours[np.argmax(counts)].astype(np.float32)
    rims = colours[counts >= RIM_COMMON * counts.sum()].astype(np.float32)
    background.flags.writeable = rims.flags.writeable = False
    return background, rims


# Share of the pictures' outermost pixels a colour must have to count as one their rims show.
RIM_COMMON = 0.01


# Two pictures of one state are the same look when the middles of their canonical cells differ by
# less than this (RMS, 0-255): gaps and borders, which change with the size, are left out.
LOOK_DISTANCE = 12.0


@functools.lru_cache(maxsize=256)
def _looks(templates: tuple[Template, ...]) -> tuple[tuple[Template, ...], ...]:
    """The templates of one state grouped by look, each template in the group of the first earlier
    template whose middle it matches. Remembered per set of templates: the looks do not depend on the
    pitch, and a skin's banks are made for every pitch it meets (one per quarter pixel)."""
    quarter = CANONICAL // 4
    groups: list[tuple[np.ndarray, list[Template]]] = []
    for template in templates:
        middle = template.canonical[quarter:-quarter, quarter:-quarter].astype(np.float32)
        for ref, members in groups:
            if np.sqrt(((middle - ref) ** 2).mean()) < LOOK_DISTANCE:
                members.append(template)
                break
        else:
            groups.append((middle, [template]))
    return tuple(tuple(members) for _, members in groups)


# Gaussian weights (sigma ~0.8 canonical px) for ``soften``.
_SOFT_KERNEL = np.array([0.04, 0.24, 0.44, 0.24, 0.04], dtype=np.float32)
SOFTEN_CHUNK = 32  # cells softened at a time


def soften(cells: np.ndarray) -> np.ndarray:
    """Blur a stack of canonical cells (..., H, W, 3) a little, each on its own (edges reflected).

    Both the cells and the templates are softened before they are compared: a border that sits half
    a canonical pixel off (a fractional pitch, or a toolkit that gives some cells one pixel more than
    others) then costs little, while digits and icons stay far apart. Returns float32.
    """
    import cv2

    arr = np.asarray(cells, dtype=np.float32)
    shape = arr.shape
    h, w = shape[-3], shape[-2]
    stack = arr.reshape(-1, h, w, 3)
    out = np.empty_like(stack)
    # A few dozen cells at a time: the two passes and the turn between them then stay in the
    # processor's cache (a stack of 1,600 cells in one go took three times as long per cell).
    for start in range(0, len(stack), SOFTEN_CHUNK):
        out[start : start + SOFTEN_CHUNK] = _softened(stack[start : start + SOFTEN_CHUNK], cv2)
    return out.reshape(shape)


def _softened(stack: np.ndarray, cv2) -> np.ndarray:
    """``soften`` on a stack (n, H, W, 3) of float32 cells."""
    n, h, w = stack.shape[:3]
    one = np.ones(1, dtype=np.float32)
    # Along x on the cells stacked one above the other (each pixel row is its own cell's), then along
    # y on the cells side by side (each pixel column is its own cell's): every cell is filtered on
    # its own, its edges reflected, with two filter calls for the whole stack.
    tall = np.ascontiguousarray(stack).reshape(-1, w, 3)
    tall = cv2.sepFilter2D(tall, -1, _SOFT_KERNEL, one, borderType=cv2.BORDER_REFLECT_101)
    wide = np.ascontiguousarray(tall.reshape(n, h, w, 3).transpose(1, 0, 2, 3)).reshape(h, -1, 3)
    wide = cv2.sepFilter2D(wide, -1, one, _SOFT_KERNEL, borderType=cv2.BORDER_REFLECT_101)
    return wide.reshape(h, n, w, 3).transpose(1, 0, 2, 3)


def to_canonical(cell: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.resize(cell, (CANONICAL, CANONICAL), interpolation=cv2.INTER_AREA)


def check_skin_name(name: str, known) -> None:
    """The one check of a skin name asked for: SkinError, naming ``known``, when it is none of them
    nor "auto"."""
    if name != "auto" and name not in known:
        raise SkinError(f"no such skin; known: {', '.join(sorted(known)) or 'none'}, or auto", skin=name)


def read_profile(folder: Path) -> dict:
    """The skin folder's profile.json as a dict; SkinError when it is missing, unreadable or does not
    fit the profile reference (profile_schema)."""
    from .profile_schema import check_profile

    path = folder / "profile.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SkinError(f"no profile.json in {folder}", skin=folder.name) from None
    except (OSError, ValueError) as exc:
        raise SkinError(f"cannot read {path}: {exc}", skin=folder.name) from None
    check_profile(data, folder.name, path)
    return data


# Skins loaded, by folder, with what their files were then (``_files_now``): a process that loads the
# skins many times (a test session, ``replay`` of many frames, ``read`` of many pictures in one
# process) decodes each picture once, and keeps the banks made for each skin (``_bank``).
_LOADED: collections.OrderedDict[str, tuple[tuple, Skin]] = collections.OrderedDict()
_LOADED_KEPT = 64


def load_skin(folder: Path) -> Skin:
    """The skin in ``folder``: the one loaded before while none of its files changed (their names,
    sizes, times and inodes are the same), else loaded from its files. Its pictures are read-only."""
    where = os.path.abspath(folder)
    files = _files_now(folder)
    kept = _LOADED.get(where)
    if files is not None and kept is not None and kept[0] == files:
        _LOADED.move_to_end(where)
        return kept[1]
    skin = _read_skin(folder)
    if files is not None:
        _LOADED[where] = (files, skin)
        _LOADED.move_to_end(where)
        while len(_LOADED) > _LOADED_KEPT:
            _LOADED.popitem(last=False)
    return skin


def _files_now(folder: Path) -> tuple | None:
    """What ``load_skin`` reads, as (name, size, modification and change times, inode) of each file:
    profile.json, calibration.json and the pictures. None when it cannot be told (then the skin is read again)."""
    try:
        found = []
        for where in (folder, folder / "cells"):
            with os.scandir(where) as entries:
                for entry in entries:
                    if entry.name in ("profile.json", CALIBRATION) or entry.name.endswith(".png"):
                        info = entry.stat()
                        found.append((where is folder, entry.name, info.st_size, info.st_mtime_ns, info.st_ctime_ns,
                                      info.st_ino))
        return tuple(sorted(found))
    except OSError:
        return None


def _read_skin(folder: Path) -> Skin:
    from ..capture import load_image

    name = folder.name
    profile = read_profile(folder)
    templates = []
    for path in sorted((folder / "cells").glob("*.png")):
        match = _TEMPLATE_NAME.match(path.stem)
        if not match or match["state"] not in STATE_CHARS:
            raise SkinError(f"template file name {path.name!r} is not <state>-<pitch>-<n>.png", skin=name)
        try:
            image = load_image(path)
        except InputError as exc:
            raise SkinError(f"unreadable template {path.name}: {exc}", skin=name) from None
        px = float(match["px"])
        py = float(match["py"] or px)
        canonical = to_canonical(image)
        image.flags.writeable = canonical.flags.writeable = False  # shared by every later load_skin
        templates.append(Template(STATE_CHARS[match["state"]], (px, py), canonical, image, path))
    if not templates:
        raise SkinError(f"no cell templates in {folder / 'cells'}", skin=name)
    if "#" not in {t.char for t in templates}:
        raise SkinError("no template for the covered cell", skin=name)
    try:
        margins = read_margins(folder / CALIBRATION)
    except (OSError, ValueError, TypeError) as exc:
        raise SkinError(f"unreadable {CALIBRATION}: {exc}", skin=name) from None
    return Skin(name, tuple(templates) + on_each_tile(templates), profile, margins=margins)


# The states of a cell not yet opened other than covered: marks the player puts on the covered tile.
MARKS = ("F", "?")


def on_each_tile(templates: list[Template] | tuple[Template, ...]) -> tuple[Template, ...]:
    """Pictures of the marks (a flag, a "?") on each look of the covered tile they were not captured on.

    A client that lights the covered tile under the pointer (or draws it pressed) lights a flag's or
    a "?"'s tile the same way and draws the mark over it unchanged, yet a skin holds each mark on the
    tile look it was captured on. Each picture is taken to lie on the look (the capture nearest its
    size) it shares the most of its tile with: where it is nearer that look than half-way to another
    (the tile shows through), it takes on the other look's difference; elsewhere (the mark) it is
    kept. A mark that shares less than half the pixels where the looks differ is not drawn on the
    tile (a client may give it a background of its own) and gets none."""
    import cv2

    looks = _looks(tuple(t for t in templates if t.char == "#"))
    if len(looks) < 2:
        return ()
    derived = []
    for template in templates:
        if template.char not in MARKS:
            continue
        height, width = template.image.shape[:2]
        tiles = []
        for variants in looks:
            nearest = min(variants, key=lambda t: pitch_distance(t.pitch, template.pitch))
            tile = nearest.image if nearest.image.shape[:2] == (height, width) else \
                cv2.resize(nearest.image, (width, height), interpolation=cv2.INTER_AREA)
            tiles.append(tile.astype(np.int16))
        own = template.image.astype(np.int16)
        apart = [np.maximum.reduce([np.abs(other - tile).max(axis=-1) for other in tiles if other is not tile])
                 for tile in tiles]
        shows = [np.abs(own - tile).max(axis=-1) * 2 < differ for tile, differ in zip(tiles, apart)]
        shares = [near.sum() / max(1, (differ > 0).sum()) for near, differ in zip(shows, apart)]
        home = int(np.argmax(shares))
        if shares[home] <= 0.5:
            continue
        for index, other in enumerate(tiles):
            if index == home:
                continue
            image = np.clip(np.where(shows[home][..., None], own + other - tiles[home], own), 0, 255).astype(np.uint8)
            canonical = to_canonical(image)
            image.flags.writeable = canonical.flags.writeable = False
            path = template.path.with_name(f"{template.path.stem}+tile{index}{template.path.suffix}")
            derived.append(Template(template.char, template.pitch, canonical, image, path))
    return tuple(derived)


# The name of the built-in look read from its structure (``classic``).
CLASSIC = "classic"
# How a client no skin knows is taught, as refusals say it: by play, or, where the client hides its lost
# board (learn names the cells from it), from screenshots and their boards written out.
HOW_TO_TEACH = ("screenbot learn NAME (a fresh game on the screen), or screenbot new-skin NAME (screenshots and "
                "their boards)")


def load_skins(folders: str | Path | list[Path] | None = None) -> dict[str, Skin]:
    """All skins by name: from ``skin_folders()`` by default, with the classic look built in, or from
    the given folder(s) only (a later folder's skin replacing an earlier one's of the same name)."""
    roots = skin_folders() if folders is None else [folders] if isinstance(folders, (str, Path)) else folders
    skins = {}
    if folders is None:
        from .classic import classic_skin

        skins[CLASSIC] = classic_skin()  # built in; a skin folder of that name replaces it
    for root in map(Path, roots):
        if not root.is_dir():
            raise SkinError(f"templates folder {root} does not exist", skin="*")
        for folder in sorted(p for p in root.iterdir() if (p / "profile.json").is_file()):
            skins[folder.name] = load_skin(folder)
    if not skins:
        raise SkinError(f"no skin folders (with profile.json) in {', '.join(map(str, roots))}", skin="*")
    return skins


def template_kind(stem: str) -> tuple[str, str, str] | None:
    """(state, pitch x, pitch y) as written in a picture's file name (without .png), or None for a
    name that is not a skin picture's."""
    match = _TEMPLATE_NAME.match(stem)
    return (match["state"], match["px"], match["py"] or match["px"]) if match else None


def template_name(char: str, pitch: tuple[float, float], index: int | str) -> str:
    def fmt(v: float) -> str:
        return f"{v:g}"

    size = fmt(pitch[0]) if abs(pitch[0] - pitch[1]) < 1e-6 else f"{fmt(pitch[0])}x{fmt(pitch[1])}"
    return f"{CHAR_STATES[char]}-{size}-{index}.png"
