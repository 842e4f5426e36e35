"""Where commands write: checked when the arguments are read, before any work.

A run that plays games for minutes and then cannot write its picture has lost the user's time and, if
it still exits 0, their result (``demo --out`` into a folder that did not exist did both). Each check
raises ``InputError`` (exit 2) naming the path and what is wrong; ``commands.common`` turns them into
argparse types. Writability is tried, not guessed from permission bits: root passes every bit, and a
read-only file system or a Windows ACL shows only when a file is made.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .errors import InputError


def check_output_file(path: str | Path, suffix: str) -> Path:
    """``path`` if a file ending in ``suffix`` can be written there at the end of the run: its folder
    exists and takes a new file, and it is no folder or special file already."""
    target = Path(path)
    if target.is_dir():
        raise InputError(f"{target}: is a folder: name the {suffix} file to write")
    if target.exists() and not target.is_file():
        raise InputError(f"{target}: exists and is not a regular file (a pipe, socket or device)")
    if target.suffix.lower() != suffix:
        raise InputError(f"{target}: the output must be a {suffix} file")
    folder = target.parent
    if not folder.is_dir():
        raise InputError(f"{target}: no folder {folder} to write it in")
    if not can_write_in(folder):
        raise InputError(f"{target}: cannot write into {folder}")
    return target


def check_output_folder(path: str | Path) -> Path:
    """``path`` if files can be written into it: an existing folder that takes a new file, or a new
    one (made when the first file goes there) whose nearest existing parent does."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise InputError(f"{folder}: exists and is not a folder")
    existing = next((p for p in (folder, *folder.absolute().parents) if p.exists()), None)
    if existing is None or not existing.is_dir() or not can_write_in(existing):
        raise InputError(f"{folder}: cannot write here ({existing} is not a folder that can be written)")
    return folder


def can_write_in(folder: Path) -> bool:
    """Does ``folder`` take a new file? A hidden temporary file is made there and removed."""
    try:
        with tempfile.TemporaryFile(prefix=".screenbot-check-", dir=folder):
            return True
    except OSError:
        return False
