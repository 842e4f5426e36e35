"""Boards drawn in the classic look by code, at any cell size: cases for the structural reader
(``vision.classic``) that no client's pictures were taken from.

The drawing follows the look's description, not any client's pixels: raised covered cells (light bevel
top and left, dark bottom and right), flat opened cells with a one-pixel grid line top and left (or
none), numbers in the standard colours in a font of OpenCV's, a red flag on a black pole and foot, a
black mine with spikes, the hit mine on red, a wrong flag as a mine crossed in red.
"""

from __future__ import annotations

import random

import numpy as np

FACE = (192, 192, 192)
LIGHT = (255, 255, 255)
DARK = (128, 128, 128)
NUMBER_BGR = {"1": (255, 0, 0), "2": (0, 128, 0), "3": (0, 0, 255), "4": (128, 0, 0),
              "5": (0, 0, 128), "6": (128, 128, 0), "7": (0, 0, 0), "8": (128, 128, 128)}


def random_game(rng: random.Random, rows: int, cols: int, *, lost: bool, won: bool = False) -> list[str]:
    """A board text a game could show: mines dealt, one opening flooded open, some mines flagged (and,
    when ``lost``, every mine shown, the hit one, a wrong flag or two). ``won``: every safe cell open
    and every mine shown, none hit nor flagged, as some clients show a win (a clone of Windows 3.1's):
    no cell is left raised."""
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    start = rng.choice(cells)
    near = {(start[0] + dr, start[1] + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)}
    mines = set(rng.sample([cell for cell in cells if cell not in near], max(1, rows * cols // 6)))

    def count(r, c):
        return sum((r + dr, c + dc) in mines for dr in (-1, 0, 1) for dc in (-1, 0, 1))

    opened, todo = set(), [start]
    while todo:
        r, c = todo.pop()
        if (r, c) in opened or not (0 <= r < rows and 0 <= c < cols):
            continue
        opened.add((r, c))
        if count(r, c) == 0:
            todo += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
    if won:
        opened = set(cells) - mines
    flagged = set() if won else set(rng.sample(sorted(mines), len(mines) // 3))
    wrong = set(rng.sample(sorted(set(cells) - mines - opened), min(2, len(set(cells) - mines - opened)))) if lost else set()
    hit = rng.choice(sorted(mines - flagged)) if lost and mines - flagged else None
    grid = []
    for r in range(rows):
        row = ""
        for c in range(cols):
            if (r, c) in opened:
                row += str(count(r, c))
            elif (r, c) == hit:
                row += "X"
            elif (r, c) in wrong:
                row += "W"
            elif (r, c) in flagged:
                row += "F"
            elif (lost or won) and (r, c) in mines:
                row += "*"
            else:
                row += "#"
        grid.append(row)
    return grid


def single_number_game(rng: random.Random, rows: int, cols: int) -> list[str]:
    """A fresh board where a first click opened one cell, a number, and nothing else (a client with no
    opening on the first click): every covered cell but that one."""
    row, col = rng.randrange(rows), rng.randrange(cols)
    around = sum(0 <= row + dr < rows and 0 <= col + dc < cols for dr in (-1, 0, 1) for dc in (-1, 0, 1)) - 1
    number = str(rng.randint(1, around))
    return ["".join(number if (r, c) == (row, col) else "#" for c in range(cols)) for r in range(rows)]


def draw(board: list[str], pitch: int, *, grid_line: bool = True, margin: int = 24, frame: int = 3,
         mine_scale: float = 1.0, number_scale: float = 1.0, stipple: bool = False,
         buttons: bool = False, red_flag: bool = False, black_flag: bool = False, row_space: int = 0,
         palette: dict[str, tuple[int, int, int]] | None = None,
         faces: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None,
         number_weight: int | None = None) -> tuple[np.ndarray, tuple[int, int]]:
    """The board drawn at ``pitch`` px a cell on a window-grey picture, in a sunken frame (dark top and
    left, light bottom and right, as every client in the look draws round its board); (picture, origin
    of cell (0, 0)). ``mine_scale``: the mines' size, 1 the usual; clients draw them up to a third
    larger (pygame-minesweeper's spikes reach a pixel from the cell's edge at 16 px). ``number_scale``:
    the numbers' size and weight, 1 the usual; a bold font fills most of its cell (minesweeper-for-web's
    SVG digits span four fifths of it, covering over half of the ring just inside its edge). ``stipple``: the
    covered cells' faces are a one-pixel checkerboard of black and white, as Windows' black-and-white
    mode draws them. ``frame``: the frame's width (px; a page drawn at 80% draws its 3 px frame in 2).
    ``buttons``: as a toolkit's default buttons and labels draw the look (Tk's: a clone built of them):
    covered cells with a one-pixel bevel at every size, opened cells sunken by one pixel (a dark line
    top and left, a light one bottom and right) instead of a grid line. ``red_flag``: the flag drawn in
    red alone, pole and all (a red "⚑" or "F", as many clones draw it); ``black_flag``: in black alone
    (a black "⚑", as the React page draws it). ``row_space``: pixels of the window's grey below each
    row of cells, as a page whose cells are inline blocks lays them out (rows a line's spacing apart,
    the cells square). ``palette``: the numbers' colours (BGR) by digit, in
    place of the standard ones. ``faces``: (covered, opened) face colours (BGR) of a flat look whose
    covered cells are told by a colour of their own, not raised (gnome-mines' other tile themes).
    ``number_weight``: the numbers' strokes (px), a tenth of the cell by default (1: a thin font's)."""
    rows, cols = len(board), len(board[0])
    step = pitch + row_space
    image = np.full((rows * step + 2 * margin, cols * pitch + 2 * margin, 3), FACE, dtype=np.uint8)
    top, left, bottom, right = margin - frame, margin - frame, margin + rows * step + frame, margin + cols * pitch + frame
    image[top:bottom, left:right] = LIGHT
    image[top : bottom - frame, left : right - frame] = (0, 0, 0) if stipple else DARK  # black and white only
    image[margin : margin + rows * step, margin : margin + cols * pitch] = FACE
    for r, line in enumerate(board):
        for c, ch in enumerate(line):
            _cell(image[margin + r * step : margin + r * step + pitch, margin + c * pitch : margin + (c + 1) * pitch],
                  ch, pitch, grid_line, mine_scale, number_scale, stipple, buttons, red_flag, palette or NUMBER_BGR,
                  black_flag, faces, number_weight)
    return image, (margin, margin)


def _cell(box: np.ndarray, ch: str, pitch: int, grid_line: bool, mine_scale: float = 1.0, number_scale: float = 1.0,
          stipple: bool = False, buttons: bool = False, red_flag: bool = False,
          palette: dict[str, tuple[int, int, int]] = NUMBER_BGR, black_flag: bool = False,
          faces: tuple[tuple[int, int, int], tuple[int, int, int]] | None = None, number_weight: int | None = None) -> None:
    import cv2

    bevel = 1 if buttons else max(1, round(pitch / 8))
    if faces is not None:
        box[:] = (0, 0, 255) if ch == "X" else faces[0] if ch in "#F?" else faces[1]
        if grid_line:
            box[0, :] = DARK
            box[:, 0] = DARK
    elif ch in "#F?":
        box[:] = FACE
        shade = DARK
        if stipple:  # a face of black and white pixels, mid-grey on average: its dark bevel is black
            box[:] = np.where(((np.arange(pitch)[:, None] + np.arange(pitch)[None, :]) % 2 == 0)[..., None], 0, 255)
            shade = (0, 0, 0)
        for i in range(bevel):
            box[i, : pitch - i] = LIGHT
            box[: pitch - i, i] = LIGHT
            box[pitch - 1 - i, i:] = shade
            box[i:, pitch - 1 - i] = shade
    else:
        box[:] = (0, 0, 255) if ch == "X" else FACE
        if buttons:
            box[0, :] = box[:, 0] = DARK
            box[-1, 1:] = box[1:, -1] = LIGHT
        elif grid_line:
            box[0, :] = DARK
            box[:, 0] = DARK
    middle = pitch / 2
    if ch in NUMBER_BGR and number_scale != 1.0:
        _bold_number(box, ch, pitch, number_scale, palette[ch])
    elif ch in NUMBER_BGR or ch == "?":
        scale = pitch / 40
        thick = number_weight or max(1, round(pitch / 10))
        (w, h), _ = cv2.getTextSize(ch, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        colour = palette.get(ch, (0, 0, 0))
        cv2.putText(box, ch, (round(middle - w / 2), round(middle + h / 2)), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                    thick, cv2.LINE_AA)
    elif ch == "F":
        s = pitch / 16
        pole_x = round(middle + s)
        cv2.fillPoly(box, [np.array([[pole_x, round(3.5 * s)], [pole_x, round(8 * s)], [round(middle - 3 * s), round(5.75 * s)]],
                                    dtype=np.int32)], (0, 0, 0) if black_flag else (0, 0, 255))
        pole = (0, 0, 255) if red_flag else (0, 0, 0)
        cv2.line(box, (pole_x, round(3.5 * s)), (pole_x, round(11 * s)), pole, max(1, round(s)))
        if not red_flag:
            cv2.rectangle(box, (round(middle - 3.5 * s), round(11 * s)), (round(middle + 3.5 * s), round(12 * s)), pole, -1)
    elif ch in "*XW":
        radius = max(2, round(pitch * 0.22 * mine_scale))
        centre = (round(middle), round(middle))
        cv2.circle(box, centre, radius, (0, 0, 0), -1, cv2.LINE_AA)
        spike = min(round(pitch * 0.34 * mine_scale), round(middle) - 1)
        cv2.line(box, (centre[0] - spike, centre[1]), (centre[0] + spike, centre[1]), (0, 0, 0), max(1, pitch // 16))
        cv2.line(box, (centre[0], centre[1] - spike), (centre[0], centre[1] + spike), (0, 0, 0), max(1, pitch // 16))
        if ch == "W":
            reach = round(pitch * 0.36)
            for sign in (1, -1):
                cv2.line(box, (centre[0] - reach, centre[1] - sign * reach), (centre[0] + reach, centre[1] + sign * reach),
                         (0, 0, 255), max(1, pitch // 12))


def _bold_number(box: np.ndarray, ch: str, pitch: int, number_scale: float, colour: tuple[int, int, int]) -> None:
    """Number ``ch`` as a wide bold font draws it: its box ``number_scale`` times the usual glyph's
    height (at most 0.9 of the cell) and four fifths as wide, its strokes ``number_scale`` times as
    thick; drawn four times larger and shrunk, for its anti-aliased edge."""
    import cv2

    big = 4 * pitch
    canvas = np.zeros((big, big), dtype=np.uint8)
    cv2.putText(canvas, ch, (big // 8, big * 7 // 8), cv2.FONT_HERSHEY_SIMPLEX, big / 30, 255,
                max(1, round(big / 10 * number_scale)), cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    height = max(2, round(pitch * min(0.9, 0.5 * number_scale)))
    width = max(2, round(height * 0.8))
    glyph = cv2.resize(canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], (width, height),
                       interpolation=cv2.INTER_AREA)[..., None] / 255.0
    top, left = (pitch - height) // 2, (pitch - width) // 2
    area = box[top : top + height, left : left + width]
    area[:] = np.round(area * (1 - glyph) + np.array(colour) * glyph).astype(np.uint8)
