"""Reading the files users hand to commands: sized, decoded and checked before any work.

Every reader raises ``InputError`` (exit 2) with a message that names the file and says what is wrong
with it: missing, a folder, a pipe, socket or device, too big, not text, not a picture. Limits are
generous for real inputs and keep a wrong file (a disk image, a 10000x10000 picture) from eating the
machine.
"""

from __future__ import annotations

import stat
import struct
import sys
from pathlib import Path

from .errors import InputError

TEXT_LIMIT = 4 << 20  # bytes; a 1000x1000 board text is 1 MB
IMAGE_FILE_LIMIT = 256 << 20  # bytes
# Pixels in one picture: three 4K screens side by side are 25 M. cv2 is given the same cap
# (screenbot/__init__.py), so formats whose header is not read here are refused by the decoder.
IMAGE_PIXEL_LIMIT = 40_000_000


def read_text(path: str | Path, *, what: str = "file", limit: int = TEXT_LIMIT) -> str:
    """The text of ``path`` (``-`` = standard input), decoded as UTF-8 with an optional byte-order
    mark, at most ``limit`` bytes."""
    name = str(path)
    if name == "-":
        if sys.stdin is None:  # started with its standard input closed
            raise InputError("standard input is closed: give the board text as a file, or pipe it in")
        stream = getattr(sys.stdin, "buffer", None)  # a text-only stdin (a test's StringIO) has none
        data = _read_at_most(stream, limit) if stream is not None else sys.stdin.read(limit + 1).encode("utf-8")
        name = "standard input"
    else:
        _check_file(Path(path), what, limit)
        try:
            with open(path, "rb") as handle:
                data = _read_at_most(handle, limit)
        except OSError as exc:
            raise InputError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise InputError(f"{name}: larger than {_size(limit)}: not a {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{name}: not a {what}: byte {exc.start} is not UTF-8 text (a binary file?)") from None


def read_image_file(path: str | Path) -> bytes:
    """The bytes of ``path`` once it is a regular file of sane size whose header (PNG, JPEG) does not
    announce more than IMAGE_PIXEL_LIMIT pixels. The caller decodes them (``cv2.imdecode``): the image
    library is never handed a path (one that is not UTF-8 crashed OpenCV's own reader)."""
    p = Path(path)
    _check_file(p, "picture", IMAGE_FILE_LIMIT)
    try:
        with open(p, "rb") as handle:
            data = _read_at_most(handle, IMAGE_FILE_LIMIT)
    except OSError as exc:
        raise InputError(f"{p}: cannot read: {exc.strerror or exc}") from None
    if len(data) > IMAGE_FILE_LIMIT:
        raise InputError(f"{p}: larger than {_size(IMAGE_FILE_LIMIT)}: not a picture")
    if _cut_short(data):
        # Decoding would print the image library's own errors before failing.
        raise InputError(f"{p}: the picture file is cut short (its last bytes are missing)")
    size = image_size(data[: 64 << 10])
    if size is not None and size[0] * size[1] > IMAGE_PIXEL_LIMIT:
        raise InputError(
            f"{p}: a {size[0]}x{size[1]} picture is larger than the {IMAGE_PIXEL_LIMIT // 1_000_000} million "
            "pixels this reads; crop it to the game window"
        )
    return data


def _read_at_most(stream, limit: int) -> bytes:
    """Up to ``limit`` + 1 bytes of ``stream``, read in pieces: ``read(limit + 1)`` would first take
    ``limit`` bytes of memory (256 MB for a picture), a MemoryError under a memory limit for a 100 kB
    file. The extra byte tells a caller the stream is longer than ``limit``."""
    pieces, total = [], 0
    while total <= limit:
        piece = stream.read(min(1 << 20, limit + 1 - total))
        if not piece:
            break
        pieces.append(piece)
        total += len(piece)
    return b"".join(pieces)


def image_size(head: bytes) -> tuple[int, int] | None:
    """(width, height) from the first bytes of a PNG or JPEG file, None for other or truncated data."""
    if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR" and len(head) >= 24:
        width, height = struct.unpack(">II", head[16:24])
        return width, height
    if head[:2] == b"\xff\xd8":
        at = 2
        while at + 9 <= len(head):
            if head[at] != 0xFF:
                return None
            marker = head[at + 1]
            length = struct.unpack(">H", head[at + 2 : at + 4])[0]
            # SOF0-SOF15 carry the size; C4 (huffman), C8 (reserved) and CC (arithmetic) do not.
            if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
                height, width = struct.unpack(">HH", head[at + 5 : at + 9])
                return width, height
            at += 2 + length
    return None


def _cut_short(data: bytes) -> bool:
    """A PNG that does not end with its IEND chunk, or a JPEG with no end marker near its end."""
    png, jpeg = data[:8] == b"\x89PNG\r\n\x1a\n", data[:2] == b"\xff\xd8"
    if not (png or jpeg):
        return False
    tail = data[-1024:]
    return not tail.endswith(b"IEND\xaeB`\x82") if png else b"\xff\xd9" not in tail


def _check_file(path: Path, what: str, limit: int) -> None:
    """Refuse, before opening it, anything but a regular file of at most ``limit`` bytes: opening a
    named pipe waits for a writer, and a device or socket never ends (InputError, exit 2)."""
    try:
        status = path.stat()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(status.st_mode):
        raise InputError(f"{path}: is a folder, not a {what}")
    if not stat.S_ISREG(status.st_mode):
        raise InputError(f"{path}: is {_kind(status.st_mode)}, not a file: save the {what} to a file and give that")
    if status.st_size > limit:
        raise InputError(f"{path}: {_size(status.st_size)} is larger than {_size(limit)}: not a {what}")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a pipe (reading it could wait for ever)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _size(count: int) -> str:
    return f"{count / (1 << 20):.0f} MiB" if count >= 1 << 20 else f"{count} bytes"
