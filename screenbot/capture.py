"""The screen IO edge: ``Screen.grab(region=None)`` returns a BGR uint8 NumPy frame.

``MssScreen`` grabs the real screen with mss (one instance reused: creating it costs far more than a
small grab). ``region`` is ``(left, top, width, height)`` in screen pixels; None means the whole screen.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Protocol

import numpy as np

from .errors import CaptureError, ImageReadError
from .inputs import IMAGE_PIXEL_LIMIT, read_image_file

log = logging.getLogger(__name__)

Region = tuple[int, int, int, int]


class Screen(Protocol):
    def grab(self, region: Region | None = None) -> np.ndarray:
        """A (height, width, 3) BGR uint8 frame of ``region`` (or the whole screen)."""
        ...

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the whole screen in pixels."""
        ...


def load_image(path: str | Path) -> np.ndarray:
    """Read a PNG/JPEG file as a BGR uint8 frame; raises ImageReadError naming the file."""
    import cv2

    data = read_image_file(path)
    if not data:
        raise ImageReadError("the file is empty, not a picture", path=Path(path))
    try:
        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:  # the decoder's own pixel cap, for formats whose header read_image_file skips
        raise ImageReadError(f"not readable, or larger than {IMAGE_PIXEL_LIMIT} pixels", path=Path(path)) from None
    if frame is None:
        raise ImageReadError("not a readable image (PNG or JPEG expected)", path=Path(path))
    return frame


def save_picture(path: str | Path, frame: np.ndarray) -> None:
    """Write ``frame`` as a PNG at ``path`` atomically: into a temporary file beside it, renamed into
    place only once complete (an interrupted write never leaves half a picture). OSError on failure."""
    import os
    import tempfile

    import cv2

    target = Path(path)
    ok, encoded = cv2.imencode(".png", frame)
    if not ok:
        raise OSError(f"{target}: could not encode the picture")
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(encoded.tobytes())
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def check_region(region: Region, size: tuple[int, int]) -> None:
    left, top, width, height = region
    if width <= 0 or height <= 0:
        raise CaptureError(f"empty region {region}", region=region)
    if left < 0 or top < 0 or left + width > size[0] or top + height > size[1]:
        raise CaptureError(f"region {region} is outside the {size[0]}x{size[1]} screen", region=region)


class MssScreen:
    """The real screen through mss. Use as a context manager, or call ``close()``."""

    def __init__(self) -> None:
        import mss

        # mss >= 10 renamed the factory to MSS; keep working with both.
        factory = getattr(mss, "MSS", None) or mss.mss
        try:
            self._sct = factory()
            monitor = self._sct.monitors[0]  # [0] is the union of all monitors: the whole X screen
        except Exception as exc:  # mss raises ScreenShotError without a DISPLAY or on Wayland
            raise CaptureError(f"cannot open the screen for capture: {exc}") from exc
        self._origin = (int(monitor["left"]), int(monitor["top"]))
        self._size = (int(monitor["width"]), int(monitor["height"]))

    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def origin(self) -> tuple[int, int]:
        """Top-left of the whole virtual screen relative to the primary monitor (negative when a monitor
        sits left of or above it); regions are relative to this corner. The mouse needs it to turn
        capture pixels into click points."""
        return self._origin

    def grab(self, region: Region | None = None) -> np.ndarray:
        if region is None:
            region = (0, 0, *self._size)
        check_region(region, self._size)
        left, top, width, height = region
        monitor = {"left": self._origin[0] + left, "top": self._origin[1] + top, "width": width, "height": height}
        try:
            shot = self._sct.grab(monitor)
        except Exception as exc:
            raise CaptureError(f"screen grab of {region} failed: {exc}", region=region) from exc
        # PLATFORM TRAP: mss hands back BGRA (X11 byte order); drop alpha here, in the one place that
        # knows, so every consumer sees plain BGR like cv2.imread gives. cv2.cvtColor does it ~40x
        # faster than a NumPy strided copy (0.02 ms vs 1-4 ms for an expert board), and the play loop
        # grabs the board on every move; ``raw`` avoids the bytes copy behind ``bgra``.
        import cv2

        bgra = np.frombuffer(shot.raw, dtype=np.uint8).reshape(shot.height, shot.width, 4)
        return cv2.cvtColor(bgra, cv2.COLOR_BGRA2BGR)

    def close(self) -> None:
        try:
            self._sct.close()
        except Exception as exc:  # its display went away first (the X server ended): nothing to close
            log.debug("closing the screen capture: %s", exc)

    def __enter__(self) -> MssScreen:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
