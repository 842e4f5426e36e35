"""Named errors of the screen side (capture, desktop, vision, and later the play loop and overlay).

Every error derives from ``solver.errors.MinesweeperError`` so the CLI safety net catches them all, and
carries its context as keyword attributes (``exc.details`` plus named attributes) rather than only inside
the message.
"""

from __future__ import annotations

from pathlib import Path

from solver.errors import MinesweeperError


class ScreenError(MinesweeperError):
    """Base of errors raised by the screen side."""


# --- desktop / X session ---------------------------------------------------------------------------


class DisplayError(ScreenError):
    """No usable X display (Xvfb would not start, DISPLAY unreachable, ...)."""


class WaylandSessionError(DisplayError):
    """A Wayland session the bot cannot serve: other programs' pixels cannot be captured nor clicked."""


class DesktopGoneError(DisplayError):
    """The desktop's capture or input session ended under a running command (its compositor went)."""


class MissingPackagesError(ScreenError):
    """Debian packages this feature needs are not installed. ``command`` is what to run to fix it."""

    def __init__(self, message: str, /, *, packages: tuple[str, ...], command: str) -> None:
        super().__init__(f"{message}; install them with: {command}", packages=packages, command=command)
        self.packages = packages
        self.command = command


class ClientStartError(ScreenError):
    """A game client did not start or its window never appeared."""

    def __init__(self, message: str, /, *, client: str, log: str = "") -> None:
        tail = f"\n--- client output ---\n{log.strip()[-2000:]}" if log.strip() else ""
        super().__init__(f"{client}: {message}{tail}", client=client, log=log)
        self.client = client
        self.log = log


class WindowGoneError(ScreenError):
    """A window we were tracking no longer exists."""

    def __init__(self, message: str, /, *, window: int) -> None:
        super().__init__(message, window=window)
        self.window = window


class ClickMetWindowError(ScreenError):
    """A click of the bot's met another program's window (``title``) that came over the board after
    the bot last looked at the window list."""

    def __init__(self, message: str, /, *, title: str) -> None:
        super().__init__(message, title=title)
        self.title = title


class PressHeldBackError(ClickMetWindowError):
    """A click was held back as it reached the window system: another program's window was under its
    point at that moment, though it was not when the bot looked just before."""


class PressStrayedError(ClickMetWindowError):
    """A click was let through with the game under its point, and another program's window was there
    as the press passed: that window came over the board in those milliseconds and may have taken it.
    Nothing can hold back a press then; it is reported so that the bot stops."""


# --- input files and arguments ------------------------------------------------------------------


class InputError(ScreenError):
    """An input file or argument the command cannot use: missing, a folder, too big, undecodable, or
    outside the board. The message names the file or option."""


class OutputError(InputError):
    """Standard output could not be written (a full disk, /dev/full). Exit 2."""


class MissingExtraError(InputError):
    """An option needs a Python package of an optional extra that is not installed. ``extra`` names the
    extra that brings it (``pip install 'screenbot-minesweeper[EXTRA]'``)."""

    def __init__(self, option: str, /, *, package: str, extra: str) -> None:
        install = f"python3 -m pip install 'screenbot-minesweeper[{extra}]'"
        super().__init__(f"{option} needs the Python package {package!r}, which is not installed; install it with: {install}",
                         option=option, package=package, extra=extra)
        self.option, self.package, self.extra = option, package, extra


# --- benchmark cluster -----------------------------------------------------------------------------


class ClusterError(ScreenError):
    """The Dask cluster a benchmark runs on cannot be reached, or its workers failed. Exit 1."""

    def __init__(self, message: str, /, *, address: str) -> None:
        super().__init__(f"Dask cluster {address}: {message}", address=address)
        self.address = address


# --- capture ---------------------------------------------------------------------------------------


class CaptureError(ScreenError):
    """A screen grab failed or asked for a region outside the screen."""


class ImageReadError(InputError):
    """An image file is missing or not a readable picture."""

    def __init__(self, message: str, /, *, path: str | Path) -> None:
        super().__init__(f"{path}: {message}", path=str(path))
        self.path = str(path)


# --- vision ----------------------------------------------------------------------------------------


class SkinError(ScreenError):
    """A skin folder under templates/ is missing, incomplete or malformed."""

    def __init__(self, message: str, /, *, skin: str) -> None:
        super().__init__(f"skin {skin!r}: {message}", skin=skin)
        self.skin = skin


class SkinBusyError(ScreenError):
    """Another run (learn, new-skin) is writing the same skin into the same folder. Exit 1."""


class BoardNotFoundError(ScreenError):
    """No complete Minesweeper board is visible on the frame (none, partly off screen, or covered)."""

    def __init__(self, message: str, /, *, skin: str | None = None, reason: str = "", cells: int = 0) -> None:
        super().__init__(message, skin=skin, reason=reason, cells=cells)
        self.skin = skin
        self.reason = reason
        self.cells = cells  # size of the partial board seen, when one was (partly covered / off screen)


class ImplausibleBoardError(ScreenError):
    """Every cell was recognised, but the board as a whole is not one a game could show (a blank area,
    a zero next to a covered cell, numbers no mine placement satisfies): something was misread."""


class UnrecognizedCellError(ScreenError):
    """A cell matches no template well enough; its crop was saved to ``crop_path`` for inspection."""

    def __init__(
        self,
        message: str,
        /,
        *,
        row: int,
        col: int,
        score: float,
        best: str = "",
        crop_path: str | None = None,
    ) -> None:
        saved = f" (crop saved to {crop_path})" if crop_path else ""
        super().__init__(
            f"{message}: cell row {row}, col {col}, best match {best!r} scored {score:.3f}{saved}",
            row=row,
            col=col,
            score=score,
            best=best,
            crop_path=crop_path,
        )
        self.row = row
        self.col = col
        self.score = score
        self.best = best
        self.crop_path = crop_path
