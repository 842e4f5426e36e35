"""Sending the overlay's pictures to the X server: the image in 32-bit strips, the shape as a 1-bit mask.

python-xlib packs every request in Python, so what is sent is kept small: only boxes that changed, in
strips under the request size limit, and the shape as one bitmap rather than thousands of rectangles.
"""

from __future__ import annotations

import numpy as np

# X requests are limited to 256 KiB without BIG-REQUESTS; images go in strips below that.
_MAX_REQUEST_BYTES = 200_000


def bgrx_bytes(bgr: np.ndarray) -> bytes:
    """A 24-bit TrueColor ZPixmap image at 32 bits per pixel, little-endian: B, G, R, pad."""
    height, width = bgr.shape[:2]
    out = np.zeros((height, width, 4), np.uint8)
    out[:, :, :3] = bgr
    return out.tobytes()


def pack_bitmap(mask: np.ndarray, scanline_pad: int, *, lsb_first: bool) -> bytes:
    """An X bitmap of ``mask``: one bit per pixel, each row padded to ``scanline_pad`` bits."""
    height, width = mask.shape
    padded_width = -(-width // scanline_pad) * scanline_pad
    bits = np.zeros((height, padded_width), np.uint8)
    bits[:, :width] = mask
    return np.packbits(bits, axis=1, bitorder="little" if lsb_first else "big").tobytes()


def put_picture(pixmap, gc, bgr: np.ndarray, top: int, bottom: int, left: int, right: int) -> None:
    """Upload ``bgr``'s box (rows top:bottom, columns left:right) into ``pixmap`` at the same place."""
    from Xlib import X

    data = bgrx_bytes(bgr[top:bottom, left:right])
    box_width = right - left
    stride = box_width * 4
    rows_per_strip = max(1, _MAX_REQUEST_BYTES // stride)
    for y in range(top, bottom, rows_per_strip):
        rows_n = min(rows_per_strip, bottom - y)
        chunk = data[(y - top) * stride : (y - top + rows_n) * stride]
        pixmap.put_image(gc, left, y, box_width, rows_n, X.ZPixmap, 24, 0, chunk)


def set_shape(conn, window, mask: np.ndarray) -> None:
    """Set ``window``'s visible region to ``mask`` through a 1-bit pixmap: one small image request, where a
    rectangle list of a board's rings is thousands of rectangles packed in Python (10+ ms)."""
    from Xlib import X
    from Xlib.ext import shape

    height, width = mask.shape
    info = conn.display.info
    pad = info.bitmap_format_scanline_pad
    data = pack_bitmap(mask, pad, lsb_first=info.bitmap_format_bit_order == X.LSBFirst)
    bitmap = window.create_pixmap(width, height, 1)
    gc = bitmap.create_gc(foreground=1, background=0)
    stride = len(data) // height
    rows_per_strip = max(1, _MAX_REQUEST_BYTES // stride)
    for top in range(0, height, rows_per_strip):
        rows = min(rows_per_strip, height - top)
        bitmap.put_image(gc, 0, top, width, rows, X.XYBitmap, 1, 0, data[top * stride : (top + rows) * stride])
    window.shape_mask(shape.SO.Set, shape.SK.Bounding, 0, 0, bitmap)
    gc.free()
    bitmap.free()


__all__ = ["bgrx_bytes", "pack_bitmap", "put_picture", "set_shape"]
