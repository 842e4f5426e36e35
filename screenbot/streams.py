"""The standard streams a command starts with: closed ones found before any work, and output that
cannot be written (a full disk, /dev/full) turned into OutputError (exit 2) where it was a traceback.
``cli.main`` uses both around every command."""

from __future__ import annotations

import contextlib
import errno
import io
import logging
import os
import sys

from .errors import OutputError

log = logging.getLogger(__name__)


def closed_streams() -> str:
    """What is wrong with the standard streams before any work, or "". A program started with its
    output closed would print into nothing and exit 0; with its error stream closed, messages go
    nowhere (they are dropped: the exit code still tells). Output that cannot be written later (a
    full disk) is said when it happens (``CheckedOutput``)."""
    if _closed(sys.stderr):
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    if _closed(sys.stdout):
        return "standard output is closed: nothing this command prints could be seen; run it with its output open"
    return ""


def _closed(stream) -> bool:
    """Is ``stream`` missing, or on a file descriptor that takes no writes? Python still makes a stream
    for a descriptor closed at start, and the first file opened may take that number, read-only: an
    empty write tells. A stream without a descriptor (a test's capture) is open."""
    if stream is None:
        return True
    try:
        os.write(stream.fileno(), b"")
    except OSError as exc:  # a full device (ENOSPC) is open; its writes fail later, and are said then
        return exc.errno == errno.EBADF
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return False
    return False


class CheckedOutput:
    """Standard output, whose failed writes (a full disk, /dev/full) become OutputError: said and
    exit 2, where they were a traceback. A reader gone away (BrokenPipeError) is left as it is."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write the output (standard output): {exc.strerror or exc}") from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"cannot write the output (standard output): {exc.strerror or exc}") from None

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


@contextlib.contextmanager
def prints_logged():
    """What a library prints on stdout goes to the log instead while the block runs: python-xlib prints
    its warnings there ("Xlib.xauth: warning, no xauthority details available" for the empty
    ~/.Xauthority that xvfb-run leaves behind), where they would corrupt ``--json`` output. It prints
    them when it connects, and pyautogui connects when it is imported."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            yield
    finally:
        for line in printed.getvalue().splitlines():
            log.debug("%s", line)
