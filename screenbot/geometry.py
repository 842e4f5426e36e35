"""Screen rectangles shared by capture, vision, the desktop edge and the mouse."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle in screen (or image) pixels; ``right``/``bottom`` are exclusive."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    @property
    def center(self) -> tuple[int, int]:
        return self.left + self.width // 2, self.top + self.height // 2

    def as_region(self) -> tuple[int, int, int, int]:
        """(left, top, width, height), the form ``Screen.grab(region=...)`` takes."""
        return self.left, self.top, self.width, self.height

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def contains_rect(self, other: Rect) -> bool:
        return (
            self.left <= other.left
            and self.top <= other.top
            and other.right <= self.right
            and other.bottom <= self.bottom
        )

    def intersects(self, other: Rect) -> bool:
        return self.left < other.right and other.left < self.right and self.top < other.bottom and other.top < self.bottom

    def translated(self, dx: int, dy: int) -> Rect:
        return Rect(self.left + dx, self.top + dy, self.width, self.height)

    def expanded(self, margin: int) -> Rect:
        return Rect(self.left - margin, self.top - margin, self.width + 2 * margin, self.height + 2 * margin)

    def clipped(self, bounds: Rect) -> Rect:
        left, top = max(self.left, bounds.left), max(self.top, bounds.top)
        right, bottom = min(self.right, bounds.right), min(self.bottom, bounds.bottom)
        return Rect(left, top, max(0, right - left), max(0, bottom - top))
