"""Where skins are read from: the ones shipped in the package and a user's own folder beside them.

The shipped skins are package data (``screenbot/templates/``, found through ``importlib.resources`` so a
wheel install has them too); a user's own skins folder, named by ``--templates DIR`` or the
``SCREENBOT_TEMPLATES`` environment variable, is read beside them. Kept apart from ``screenbot.vision``
(and free of numpy/cv2) because the command line asks it for the demo clients at start-up.
"""

from __future__ import annotations

import importlib.resources
import os
from pathlib import Path

from .errors import SkinBusyError, SkinError

# The environment variable naming a user's own skins folder (what ``--templates DIR`` names too).
TEMPLATES_ENV = "SCREENBOT_TEMPLATES"


# The skins shipped inside the package (``screenbot/templates/``). Skins are globbed and read with cv2,
# so they need real files: every form we install (wheel, editable, checkout) has them. A zipped package
# would give a path that does not exist, which ``load_skins`` reports by name.
TEMPLATES_DIR = Path(str(importlib.resources.files("screenbot") / "templates"))

# The folder the command line's ``--templates DIR`` named, for this command (``use_option_folder``).
_option_folder: Path | None = None


def use_option_folder(folder: str | Path | None) -> None:
    """Read ``folder`` (``--templates DIR``) beside the others for the rest of this command; None for none.
    Set once per command by ``cli.main``, so every part that loads a skin or a profile sees it."""
    global _option_folder
    _option_folder = None if folder is None else Path(folder)


def skin_folders(user: str | Path | None = None, environ: dict[str, str] | None = None) -> list[Path]:
    """The folders skins are loaded from, in order: the shipped skins, the folder named by
    ``SCREENBOT_TEMPLATES``, then ``user`` (``--templates DIR``). A skin in a later folder replaces
    the shipped one of the same name, so a user can re-teach a client without touching the package."""
    env = os.environ if environ is None else environ
    folders = [TEMPLATES_DIR]
    for extra in (env.get(TEMPLATES_ENV), user if user is not None else _option_folder):
        if extra and Path(extra) not in folders:
            folders.append(Path(extra))
    return folders


def user_skins_folder(user: str | Path | None = None, environ: dict[str, str] | None = None) -> Path:
    """Where new skins are written: ``user`` (``--templates DIR``), else ``SCREENBOT_TEMPLATES``, else
    the shipped folder (what a developer working in a checkout wants)."""
    env = os.environ if environ is None else environ
    return Path(user or _option_folder or env.get(TEMPLATES_ENV) or TEMPLATES_DIR)


def skin_folder(name: str) -> Path:
    """The folder the skin ``name`` is loaded from (the last of ``skin_folders`` holding it)."""
    for root in reversed(skin_folders()):
        if (root / name / "profile.json").is_file():
            return root / name
    raise SkinError(f"no skin {name!r} in {', '.join(map(str, skin_folders()))}", skin=name)


def hold_skin(folder: Path, name: str):
    """Hold skin ``name`` of ``folder`` for writing, and return the held lock (``release()`` it when
    the skin is written or given up). ``learn`` and ``new-skin`` hold it from before they look whether
    the skin exists until it is in place: two runs writing one skin would otherwise both say "wrote"
    and one skin be silently lost. A second run stops at once with SkinBusyError (exit 1); OSError
    when the folder cannot be written.

    filelock rather than a lock of our own: one way on Linux and Windows (flock / LockFileEx), and the
    operating system lets go of the lock when the process ends however it ends, so a killed run leaves
    no stale lock. The lock file (hidden, empty) stays beside the skins."""
    from filelock import FileLock, Timeout

    folder.mkdir(parents=True, exist_ok=True)
    lock = FileLock(folder / f".{name}.lock")
    try:
        lock.acquire(timeout=0)
    except Timeout:
        raise SkinBusyError(f"another screenbot run (learn or new-skin) is writing skin {name!r} in {folder} "
                            "now: wait for it to end, or choose another name; nothing was written") from None
    return lock
