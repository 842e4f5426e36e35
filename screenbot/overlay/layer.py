"""The hint overlay's picture as last shown, redrawn where the cells' marks changed.

Rendering a whole expert board's layer and sending it to the X server costs milliseconds; a change of
the game usually changes the marks of a few cells, so only their boxes are rendered and sent again.
"""

from __future__ import annotations

import numpy as np

from .draw import cell_marks, dirty_boxes, render_layer
from .marks import Hints, OverlayStyle


class OverlayPainter:
    """Draws hints on an overlay window (``show(bgr, mask, rect, boxes=...)``, see ``screenbot.platforms.base.Overlay``)."""

    def __init__(self) -> None:
        # The overlay picture as last shown and the mark of each cell in it (redraws touch changed cells).
        self._layer: tuple[np.ndarray, np.ndarray] | None = None
        self._marks: tuple[tuple[object, ...], ...] | None = None

    def forget(self) -> None:
        """A newly located board: the next drawing is a whole one."""
        self._layer = self._marks = None

    def draw(self, overlay, hints: Hints, located, style: OverlayStyle, shown: bool) -> None:
        """Show ``hints`` on ``overlay`` over the board ``located`` (its ``region`` and ``lattice``): only the
        cells whose mark changed are drawn again and sent to the X server. ``shown``: the overlay is up now."""
        region = located.region
        size = (region.height, region.width)
        grid = located.lattice
        marks = cell_marks(hints)
        boxes = None
        if self._layer is not None and self._marks is not None:
            changed = [
                (r, c)
                for r, (new_row, old_row) in enumerate(zip(marks, self._marks))
                for c, (new, old) in enumerate(zip(new_row, old_row))
                if new != old
            ]
            if len(changed) * 2 <= grid.rows * grid.cols:
                boxes = dirty_boxes(grid, style, changed, size)
        if boxes is None:
            layer = render_layer(size, grid, hints, style)
            self._layer = (layer.bgr, layer.alpha)
        elif boxes:
            part = render_layer(size, grid, hints, style, boxes=boxes)
            bgr, alpha = self._layer
            for x0, y0, x1, y1 in boxes:
                bgr[y0:y1, x0:x1] = part.bgr[y0:y1, x0:x1]
                alpha[y0:y1, x0:x1] = part.alpha[y0:y1, x0:x1]
        self._marks = marks
        if boxes == [] and shown:
            return  # the same marks are on screen already
        bgr, alpha = self._layer
        overlay.show(bgr, alpha > 0, region, boxes=boxes)


__all__ = ["OverlayPainter"]
