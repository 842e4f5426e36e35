"""A board's own look, learnt from the board: where the classic reader tells covered cells from opened
ones by their faces (``classic._read_by_faces``: gnome-mines' "classic" and "default" tiles), the client
draws its marks in pictures and colours of its own, which the shipped pictures and the standard colours
may leave unclear. A look draws each state with one picture and one colour: the cells read clearly
teach them, and ``read_by_own_look`` asks six questions in turn, each of the board the one before left:

1. ``by_picture``: is an unclear mark drawn as clear cells of one state are (its shape, ``shape_of``,
   within SAME_PICTURE of one's, nearer it than CLEAR_DIGIT of the nearest cell of another state; its
   colour within OWN_COLOUR_NEAR of theirs; a digit's shape nearest that digit's shipped shapes)? A
   covered cell only as a mine (no number stands on one).
2. ``hit_mine``: a lost game shows its mines alike and the one hit in a colour of its own (OWN_COLOURS_APART
   from the others' median, all of which lie within OWN_COLOUR_NEAR of it); several apart: none is told,
   each is unread; two hit mines read are a misread (a game ends at the first), both unread.
3. ``by_colour``: is a number whose shape was unclear in the colour of one digit read clearly (two digits
   at least, OWN_COLOURS_APART from each other: one colour for all numbers tells nothing), and nearer
   that digit's shipped shapes than any other's? Two witnesses, as the standard colours and shapes are.
4. ``by_standard_colours``: is a number whose shape was unclear in one of the standard number colours
   (``classic.NUMBER_COLOURS``), clearly, and nearer that digit's shipped shapes than any other's, on a
   board whose numbers show the standard colours (two of the coloured ones, 1 to 6, each on a number
   shaped as that digit; no number read clearly by its shape in another digit's colour)? A flat look of
   its own faces may keep the standard colours (web clones of flat grey tiles): the colours are then a
   witness, as in the classic look, the shape the second.
5. ``by_room``: is a number whose shape was unclear clearly shaped as one of the digits its cell has
   room for? A number counts the mines round it, so it is at most the count of its neighbours not read
   clearly as opened numbers: a 3 whose shape lay nearly as near an 8's, with opened cells round it,
   is a 3 (the "default" tiles draw every number in one dark grey, where the colours tell nothing).
6. ``wrong_flags``: a lost game whose flags come in two colourings, some with red in them
   (``classic.has_red``) and some without: the look draws its flag without red, and the red one is its
   wrong flag (gnome-mines' "default" tiles: a dark grey flag, the wrong flag the same in red). Flags all
   red are left as read: such a look may draw its flag red (the "classic" tiles), or every flag shown
   may be a wrong one, which one picture cannot tell (``plausible`` refuses it).
"""

from __future__ import annotations

import functools

import numpy as np

from .classic import (BY_SHAPE, CLEAR, FACES, MIDDLE, NEITHER_MARK, UNCLEAR_SHAPE, ClassicReading, Limits, core_colour,
                      has_red, inside_ink, nearest_number)
from .digit_shapes import CLEAR_DIGIT, DIGITS, clear_digit, distances, shape_of

# Distance (``digit_shapes`` shapes, mean per pixel) within which two cells' marks are one picture:
# marks of two states lie 0.226 apart at least; of one state (a number, a mine), within 0.19 on 95% of
# their pairs on each board, and 0.27 at most (the 36 boards of gnome-mines' tiles at 25-92 px that the
# look reads, on their true lattices). Under the first, by a margin: a mark further is left unread.
SAME_PICTURE = 0.15
# Levels (RGB distance) a mark's ink lies from its state's colour on the board at most, and by which two
# states' colours differ at least, where the board's own colours tell them.
OWN_COLOUR_NEAR = 30.0
OWN_COLOURS_APART = 60.0
# Confidence of a cell whose state the board's own look leaves in doubt.
DOUBT = 0.4
# The standard numbers whose colours are hues (the others are black and grey, which a look of its own
# colours draws every number in: gnome-mines' "default" tiles).
STANDARD_HUES = "123456"


class OwnLook:
    """A board read by its faces (``reading``), as the questions of ``read_by_own_look`` change it, with
    each cell's mark's shape and ink colour measured once, when first asked."""

    def __init__(self, boxes: np.ndarray, reading: ClassicReading, limits: Limits, shape: tuple[int, int]):
        self.boxes, self.limits, self.covered, self.faces = boxes, limits, reading.covered, reading.faces
        self.board_shape = shape
        self.chars, self.confidence, self.unclear = reading.chars.copy(), reading.confidence.copy(), list(reading.unclear)
        self._face = reading.face
        # Measured once per cell, when first asked (the cells' faces do not change).
        self.ink, self.shape, self.colour, self.shipped = (functools.cache(self._ink), functools.cache(self._shape),
                                                           functools.cache(self._colour), functools.cache(self._shipped))

    def reading(self) -> ClassicReading:
        return ClassicReading(self.chars, self.confidence, tuple(self.unclear), self.covered, self.faces, FACES)

    def _shape(self, i: int) -> np.ndarray | None:
        """The shape of cell ``i``'s mark (``digit_shapes.shape_of``), None for no ink."""
        return shape_of(self.ink(i))

    def _shipped(self, i: int) -> str:
        """The digit whose shipped shapes cell ``i``'s ink lies nearest, however unclearly ('' where its
        ink reaches its box's edge: ``digit_shapes.distances``)."""
        shapes = distances(self.ink(i), self.limits.ink_level, DIGITS)
        return min(shapes, key=shapes.get) if shapes else ""

    def _ink(self, i: int) -> np.ndarray:
        """Cell ``i``'s ink inside its box's outer pixels (``classic.inside_ink``)."""
        return inside_ink(self.boxes[i], self._face(i), self.limits.ink_level)

    def _colour(self, i: int) -> np.ndarray | None:
        """The colour of the strongest quarter of cell ``i``'s ink in its middle, None for none."""
        middle = self.boxes[i][MIDDLE, MIDDLE].reshape(-1, 3)
        far = np.abs(middle - self._face(i)).max(axis=1)
        ink = far > self.limits.ink_level
        return core_colour(middle[ink], far[ink]) if ink.any() else None

    def clear(self, states: str) -> np.ndarray:
        """The cells read clearly in one of ``states``."""
        return np.flatnonzero(np.isin(self.chars, tuple(states)) & (self.confidence >= CLEAR))

    def unread(self, *why: str) -> list[int]:
        return [i for i, said in enumerate(self.unclear) if said in why]

    def take(self, i: int, state: str) -> None:
        self.chars[i], self.confidence[i], self.unclear[i] = state, BY_SHAPE, ""

    def doubt(self, i: int, why: str) -> None:
        self.confidence[i], self.unclear[i] = DOUBT, why

    def by_picture(self) -> None:
        """Question 1 (see the module)."""
        unread = self.unread(UNCLEAR_SHAPE, NEITHER_MARK)
        if not unread:
            return
        pictures: dict[str, list[np.ndarray]] = {}
        colours: dict[str, list[np.ndarray]] = {}
        for i in map(int, self.clear(DIGITS + "*")):
            if self.shape(i) is not None and self.colour(i) is not None:
                pictures.setdefault(str(self.chars[i]), []).append(self.shape(i))
                colours.setdefault(str(self.chars[i]), []).append(self.colour(i))
        for i in unread:
            drawn, colour = self.shape(i), self.colour(i)
            held = "*" if self.covered[i] else DIGITS + "*"
            nearest = {state: min(float(np.abs(drawn - p).mean()) for p in shown)
                       for state, shown in pictures.items() if state in held and drawn is not None}
            if not nearest or colour is None:
                continue
            state = min(nearest, key=nearest.get)
            others = [d for s, d in nearest.items() if s != state]
            if nearest[state] > SAME_PICTURE or (others and nearest[state] >= CLEAR_DIGIT * min(others)):
                continue
            # One picture and one colour: a green 2 at 16 px lies within SAME_PICTURE of a board's blue 1s
            # (no 2 read clearly to set it against), and was read as a 1. A digit's shape must also be
            # nearest that digit's shipped shapes, however unclearly.
            if np.linalg.norm(colour - np.median(colours[state], axis=0)) > OWN_COLOUR_NEAR:
                continue
            if state in DIGITS and self.shipped(i) != state:
                continue
            self.take(i, state)

    def hit_mine(self) -> None:
        """Question 2 (see the module)."""
        hits = np.flatnonzero(self.chars == "X")
        if len(hits) > 1:
            for i in hits:
                self.doubt(i, "one of several hit mines (a game ends at the first)")
            return
        mines = np.flatnonzero(self.chars == "*")
        if len(mines) < 2 or len(hits):
            return
        colours = [self.colour(int(i)) for i in mines]
        if any(colour is None for colour in colours):
            return
        apart = np.linalg.norm(np.array(colours) - np.median(colours, axis=0), axis=1)
        far = apart > OWN_COLOURS_APART
        if not far.any() or (apart[~far] > OWN_COLOUR_NEAR).any():
            return
        if far.sum() == 1:
            self.chars[mines[far]] = "X"
            return
        for i in mines[far]:
            self.doubt(i, "a mine in a colour unlike the other mines'")

    def by_colour(self) -> None:
        """Question 3 (see the module)."""
        unread = self.unread(UNCLEAR_SHAPE)
        if not unread:
            return
        palette = {}
        for digit in DIGITS:
            shown = [self.colour(int(i)) for i in self.clear(digit) if not self.covered[i]]
            shown = [colour for colour in shown if colour is not None]
            if shown:
                palette[digit] = np.median(shown, axis=0)
        names = list(palette)
        if len(names) < 2 or min(np.linalg.norm(palette[a] - palette[b]) for a in names for b in names if a < b) \
                < OWN_COLOURS_APART:
            return
        for i in unread:
            colour = self.colour(i)
            if colour is None:
                continue
            near = min(names, key=lambda d: np.linalg.norm(palette[d] - colour))
            if np.linalg.norm(palette[near] - colour) <= OWN_COLOUR_NEAR and self.shipped(i) == near:
                self.take(i, near)

    def by_standard_colours(self) -> None:
        """Question 4 (see the module)."""
        unread = self.unread(UNCLEAR_SHAPE)
        if not unread:
            return
        said = {}  # per number cell whose ink shows a shape: the digit its colour clearly is
        asked = set(unread)
        for i in map(int, np.flatnonzero(np.isin(self.chars, tuple(DIGITS + "~")) & ~self.covered)):
            if self.chars[i] == "~" and i not in asked:
                continue
            colour = self.colour(i)
            if colour is None or not self.shipped(i):
                continue
            digit, clarity, why = nearest_number(colour, self._face(i), 1.0, self.limits, lambda: "")
            if digit in DIGITS and clarity >= CLEAR and not why:
                said[i] = digit
        clear = set(map(int, self.clear(DIGITS)))
        if any(said[i] != self.chars[i] for i in said if i in clear):
            return  # a number read by its shape in another digit's colour: the look's colours are its own
        if len({digit for i, digit in said.items() if digit in STANDARD_HUES and self.shipped(i) == digit}) < 2:
            return
        for i in unread:
            if i in said and self.shipped(i) == said[i]:
                self.take(i, said[i])

    def by_room(self) -> None:
        """Question 5 (see the module)."""
        rows, cols = self.board_shape
        safe = (np.isin(self.chars, tuple("0" + DIGITS)) & ~self.covered & (self.confidence >= CLEAR)).reshape(rows, cols)
        for i in self.unread(UNCLEAR_SHAPE):
            r, c = divmod(i, cols)
            around = safe[max(0, r - 1) : r + 2, max(0, c - 1) : c + 2]
            room = around.size - 1 - int(around.sum())  # the cell itself is unclear: not among the safe
            digit = clear_digit(self.ink(i), self.limits.ink_level, digits=DIGITS[:room])
            if digit:
                self.take(i, digit)

    def wrong_flags(self) -> None:
        """Question 6 (see the module)."""
        if not np.isin(self.chars, ("X", "*")).any():
            return
        flags = np.flatnonzero(self.chars == "F")
        red = [i for i in flags if has_red(self.boxes[i], self._face(int(i)), self.limits)]
        if red and len(red) < len(flags):
            self.chars[red] = "W"


def read_by_own_look(boxes: np.ndarray, reading: ClassicReading, limits: Limits, shape: tuple[int, int]) -> ClassicReading:
    """``reading`` (told by its faces, of a board of ``shape``: rows, cols) with its unclear cells read by
    the board's own look and the room round them, its hit mine told by its colour, and its wrong flags
    by theirs (see the module)."""
    look = OwnLook(boxes, reading, limits, shape)
    look.by_picture()
    look.hit_mine()
    look.by_colour()
    look.by_standard_colours()
    look.by_room()
    look.wrong_flags()
    return look.reading()
