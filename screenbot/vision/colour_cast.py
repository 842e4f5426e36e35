"""Has a screenshot's colour been changed since its client drew it? (a brightness or gamma change, a
colour filter or profile, an edited picture, a capture of fewer colours)

Several clients tell states apart by flat colour alone: gnome-mines' covered cell, that cell lit under
the pointer and its open 0 differ by 10-20 levels. A brightness or gamma change of a few levels moves
one onto another, and every cell still matches some picture confidently: a whole board of covered
cells read as open 0s, with nothing weak to refuse. So a reading of a picture from a file is checked
here as a whole:

- each cell read as a state whose pictures are plain in the middle (covered, open 0: not a number or
  an icon, whose share of the cell changes with the size it is drawn at) is compared, by the mean
  colour of its middle, with the picture of that state nearest it in colour; a look the client
  draws under the pointer only (``Template.lit``) serves at most ``LIT_CELLS`` cells;
- "off" is the median, over those cells, of each one's largest difference on one channel;
- far off (``REFUSE_OFF``): refused, the cells' colours cannot tell the states apart;
- a little off (``RECHECK_OFF``): the board is read again with the median difference taken off its
  colours, and refused if it then reads otherwise (a small change that moved one state onto another);
  a corrected board that does not read at all says the difference was no cast when it is no more
  than a lossy capture's noise (``NOISE_OFF``), and is refused when it is more; past that noise the
  corrected board must also fit its pictures as surely as a board taken for its client does.

The middle checked (``MIDDLE``) is inside the part the live hint overlay never draws on.

Live play does not ask this: it grabs the pixels the client drew, and a screen's gamma or night-light
setting under X changes what the monitor shows, not those pixels. A picture of fewer colours (a 16-bit
capture, the low bits of each channel dropped) is restored before it is read (``restore_16_bit``).
"""

from __future__ import annotations

import functools

import numpy as np

from ..errors import ImplausibleBoardError, ScreenError
from .cells import cell_images
from .skins import CANONICAL, OUTSIDE, Skin, to_canonical

# The median colour difference (0-255, largest channel) a board's own colours can show: labelled
# screenshots, real gnome-mines at random window sizes (20-100 px cells) and react pages at random
# scales, as they are, resized 0.7-2.2x, or restored 16-bit captures: 0.1 at most; saved as JPEG
# (quality 40-95): up to 2. Past it the colours were changed (a brightness or gamma change, a profile).
NOISE_OFF = 3.0
# The median colour difference over which a board is refused, not corrected. Changes of brightness
# and gamma made a board read wrong from 3.9 levels off when read as they were; read again with the
# difference taken off and no limit, the first read wrong was 7 levels off (gnome-mines darkened 6
# levels: open 0s read as covered cells in the reading and in the corrected one), and every board up to
# 6 levels off read exactly or was refused (the labelled shots of every client at brightness 4 to 8
# levels either way and gamma 0.85-1.15).
REFUSE_OFF = 5.0
# Over this, the board is read again with the difference taken off and must read the same.
RECHECK_OFF = 1.5
# A picture counts as plain when no channel of its middle varies more than this (standard deviation,
# levels): a covered cell's faint texture (minegauler's: ~5) is plain, a number or an icon (16-100) is not.
PLAIN_STD = 6.0
# Fewer plain cells than this say nothing about the colours as a whole.
MIN_CELLS = 4
# The most cells a pointer shows lit or pressed at once: a chord presses a cell and its 8 neighbours.
LIT_CELLS = 9
# The middle compared, as a share of the pitch: well inside the face at any size. At gnome-mines'
# smallest cells (20 px) the face's rim takes part of a wider middle, which was then 7 levels off its
# larger pictures' (62.5%, the share the hint overlay never draws on: it draws on none of this either).
MIDDLE = 0.375
_MARGIN = round(CANONICAL * (1 - MIDDLE) / 2)


class ColourCastError(ImplausibleBoardError):
    """The board's colours are not its skin's: its states cannot be told apart by colour. Exit 5."""

    def __init__(self, message: str, /, *, off: float) -> None:
        super().__init__(message, off=off)
        self.off = off


def _middle(canonical: np.ndarray) -> np.ndarray:
    """The middle (``MIDDLE``) of each canonical cell, as floats: (..., m, m, 3)."""
    return canonical[..., _MARGIN:-_MARGIN, _MARGIN:-_MARGIN, :].astype(np.float32)


def middle_colours(canonical: np.ndarray) -> np.ndarray:
    """The mean colour of each canonical cell's middle, the colour this check compares: (..., 3)."""
    return _middle(canonical).mean(axis=(-3, -2))


def picture_colour(picture: np.ndarray) -> np.ndarray:
    """``middle_colours`` of one cell picture as captured (a skin's picture file): (3,)."""
    return middle_colours(to_canonical(picture))


@functools.lru_cache(maxsize=32)
def _plain_pictures(skin: Skin, sixteen_bit: bool) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """For each state with plain pictures, their middles' mean colours, (n, 3), and which of them are
    looks under the pointer only (``Template.lit``), (n,). With ``sixteen_bit`` the pictures are first
    brought to the colours a restored 16-bit capture has."""
    plain: dict[str, list[tuple[np.ndarray, bool]]] = {}
    for template in skin.templates:
        if template.char == OUTSIDE:  # never read as a cell
            continue
        # A 16-bit capture drops bits pixel by pixel, before the cell is scaled to the canonical size.
        canonical = to_canonical(_restored(template.image & ~_DROPPED)) if sixteen_bit else template.canonical
        middle = _middle(canonical)
        if float(middle.std(axis=(0, 1)).max()) <= PLAIN_STD:
            plain.setdefault(template.char, []).append((middle.mean(axis=(0, 1)), template.lit))
    return {char: (np.stack([m for m, _ in pictures]), np.array([lit for _, lit in pictures]))
            for char, pictures in plain.items()}


def colour_offset(frame: np.ndarray, lattice, chars: np.ndarray, skin: Skin,
                  sixteen_bit: bool = False) -> tuple[float, np.ndarray]:
    """How far the board's plain cells are from their skin's pictures: ("off", the median difference
    per channel). ``chars`` is the state read for each cell, (rows, cols); ``sixteen_bit``: ``frame``
    is a restored 16-bit capture. (0.0, zeros) when too few cells are plain to tell.

    Each cell is compared with the picture of its state nearest it in colour, but at most
    ``LIT_CELLS`` cells, those nearest a look under the pointer by the widest margin, with such a
    look: gnome-mines' covered cell lit under the pointer is 13 levels from its open 0, and 10 levels
    of darkening made every open 0 of a board nearest it, only 3 levels off."""
    pictures = _plain_pictures(skin, sixteen_bit)
    means = middle_colours(cell_images(frame, lattice)).reshape(-1, 3)
    flat_chars = np.asarray(chars).reshape(-1)
    nearest_any, nearest_unlit, gains = [], [], []
    for char, (options, lit) in pictures.items():
        cells = means[flat_chars == char]
        if not len(cells):
            continue
        diff = cells[:, None, :] - options[None, :, :]
        far = np.abs(diff).max(axis=2)
        best = far.argmin(axis=1)
        unlit = np.where(lit[None, :], np.inf, far).argmin(axis=1) if not lit.all() else best
        rows = np.arange(len(cells))
        nearest_any.append(diff[rows, best])
        nearest_unlit.append(diff[rows, unlit])
        gains.append(far[rows, unlit] - far[rows, best])  # > 0 where a lit look is nearest
    if sum(map(len, nearest_any)) < MIN_CELLS:
        return 0.0, np.zeros(3, np.float32)
    gain = np.concatenate(gains)
    lit_kept = np.zeros(len(gain), bool)
    lit_kept[np.argsort(-gain)[:LIT_CELLS]] = True
    difference = np.where((lit_kept & (gain > 0))[:, None], np.concatenate(nearest_any), np.concatenate(nearest_unlit))
    return float(np.median(np.abs(difference).max(axis=1))), np.median(difference, axis=0)


def check_colours(frame: np.ndarray, reading, skin: Skin, read_again, *, sixteen_bit: bool = False) -> None:
    """Raise ColourCastError when ``reading`` (of ``frame``, with ``skin``) cannot be trusted for the
    board's colours. ``read_again(frame)`` reads a corrected frame at the same lattice (a Reading);
    ``sixteen_bit``: ``frame`` is a restored 16-bit capture (``restore_16_bit``)."""
    chars = np.array([list(row) for row in reading.board.grid])
    off, shift = colour_offset(frame, reading.lattice, chars, skin, sixteen_bit)
    if off <= RECHECK_OFF:
        return
    what = f"the {skin.name} board's colours differ from the skin's by about {off:.0f} levels"
    advice = ("(a colour filter, a colour profile or an edited screenshot?): its cells cannot be told apart by "
              "colour; capture the screen as it is")
    if off > REFUSE_OFF:
        raise ColourCastError(f"{what} {advice}", off=off)
    corrected = np.clip(frame.astype(np.float32) - shift, 0, 255).round().astype(np.uint8)
    try:
        again = read_again(corrected)
    except ScreenError:
        # A cell of the corrected board that no picture matches: the difference taken off fits the
        # board worse than none (JPEG's noise, not a cast: q46 moves gnome-mines' plain cells ~2
        # levels, and a 2 then no longer read). A cast shows as a state read otherwise, below. Past
        # a lossy capture's noise it is a cast, and one the correction did not undo.
        if off <= NOISE_OFF:
            return
        raise ColourCastError(f"{what}, and with that taken off its cells no longer read {advice}", off=off) from None
    for r, (row, other) in enumerate(zip(reading.board.grid, again.board.grid)):
        for c, (a, b) in enumerate(zip(row, other)):
            if a != b:
                raise ColourCastError(f"{what}, and with that taken off ({r},{c}) reads {b!r}, not {a!r} {advice}",
                                      off=off)
    # Past a lossy capture's noise the board is taken for the skin's client with its colours changed
    # only where, changed back, its cells fit the pictures as closely as a board taken for it surely
    # does (``locate.CERTAIN``): another client's flat grey cells, 4 levels off xbomb's stippled ones,
    # read the same either way and fit them at 0.76 corrected.
    from .locate import CERTAIN

    fit = float(np.mean(again.confidence))
    if off > NOISE_OFF and fit < CERTAIN:
        raise ColourCastError(f"{what}, and with that taken off its cells still fit the skin's pictures only "
                              f"{fit:.2f} of 1 {advice}", off=off)


def restore_16_bit(frame: np.ndarray) -> tuple[np.ndarray, bool]:
    """(``frame`` with each channel's dropped low bits set to the middle of their range, True) when
    every pixel has them at 0, as in a 5-6-5 capture (3 low bits of blue and red, 2 of green); else
    (``frame``, False). Such a capture is otherwise up to 7 levels darker than the skin, which moves
    one flat state onto another: covered cells lit under the pointer read as open 0s."""
    if frame.size == 0 or (frame & _DROPPED).any():
        return frame, False
    return _restored(frame), True


def restored_16_bit(frame: np.ndarray) -> bool:
    """Whether ``frame`` is a 16-bit capture as ``restore_16_bit`` restored it (every pixel's dropped
    bits at the middle of their range): its colours are to be compared with the pictures as such a
    capture shows them (``colour_offset``'s ``sixteen_bit``)."""
    return frame.size > 0 and bool(((frame & _DROPPED) == _MIDDLE).all())


# The low bits a 16-bit (5-6-5) capture drops, per channel in BGR order, and the middle of their range.
_DROPPED = np.array([7, 3, 7], np.uint8)
_MIDDLE = np.array([4, 2, 4], np.uint8)


def _restored(pixels: np.ndarray) -> np.ndarray:
    return pixels | _MIDDLE
