"""The evidence a stopped game leaves: the frame that stopped it, saved where the error says."""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)


def save_frame(frame: np.ndarray, folder: Path, what: str) -> str | None:
    """Save the frame that stopped a game in ``folder`` (the evidence a PlayError points to); None
    when it cannot be written."""
    import cv2

    try:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"screenbot-{what}-{time.strftime('%Y%m%d-%H%M%S')}.png"
        cv2.imwrite(str(path), frame)
    except OSError as exc:
        log.warning("could not save the frame: %s", exc)
        return None
    return str(path)


__all__ = ["save_frame"]
