"""Every exit code of every command, and which error means which code: the one table.

Commands return these; an error a command does not handle itself reaches ``cli.main``, which maps it
here (``for_error``). The README's "Exit codes" section lists the same table.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1  # stopped early, differences found, a check failed
EXIT_USAGE = 2  # bad arguments, or an input file that is unreadable, malformed or too big
EXIT_NO_DISPLAY = 3  # no usable X display (or a Wayland session)
EXIT_NO_BOARD = 4  # no complete board found (none, cut, covered, several)
EXIT_UNREADABLE = 5  # a cell matches no template, or the board read is one no game could show
EXIT_IMPOSSIBLE = 6  # the board's numbers fit no placement of mines
EXIT_INTERRUPTED = 130  # Ctrl-C, SIGTERM, SIGHUP

TABLE = (
    (EXIT_OK, "ok"),
    (EXIT_FAILED, "stopped early or failed (the message says why)"),
    (EXIT_USAGE, "bad arguments or input (unreadable, malformed or too big), or an output that cannot be written"),
    (EXIT_NO_DISPLAY, "no usable display"),
    (EXIT_NO_BOARD, "no complete board found"),
    (EXIT_UNREADABLE, "a cell could not be recognised, or the board read is implausible"),
    (EXIT_IMPOSSIBLE, "impossible board: no mine placement fits its numbers"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C, SIGTERM, SIGHUP)"),
)


def for_error(exc: BaseException) -> int:
    """The exit code for an error no command handled itself."""
    from solver.errors import BoardFormatError, InconsistentBoardError

    from .errors import (
        BoardNotFoundError,
        DisplayError,
        ImplausibleBoardError,
        InputError,
        SkinError,
        UnrecognizedCellError,
    )

    for kinds, code in (
        ((BoardFormatError, InputError, SkinError), EXIT_USAGE),
        ((DisplayError,), EXIT_NO_DISPLAY),
        ((BoardNotFoundError,), EXIT_NO_BOARD),
        ((UnrecognizedCellError, ImplausibleBoardError), EXIT_UNREADABLE),
        ((InconsistentBoardError,), EXIT_IMPOSSIBLE),
    ):
        if isinstance(exc, kinds):
            return code
    return EXIT_FAILED
