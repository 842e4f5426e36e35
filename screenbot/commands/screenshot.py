"""Reading the board on one screenshot, for the commands that take a picture (``read``, ``hint --image``):
locate it (or take the ``--lattice`` given), read it, refuse a board no game could show, whose
colours were changed or that reads more clearly turned over, and turn each way that can fail into its message and exit code."""

from __future__ import annotations

from pathlib import Path

from ..exit_codes import EXIT_NO_BOARD, EXIT_UNREADABLE, EXIT_USAGE
from .common import fail


def read_screenshot(image: Path, frame, skins, skin: str, given=None, *, crops_dir=None,
                    explain_unrecognized: bool = False):
    """The ``Reading`` of the board on ``frame`` (loaded from ``image``), or the exit code once the
    reason it could not be read is printed. ``given`` is the ``--lattice`` (a ``GivenLattice``) or
    None to search; ``explain_unrecognized`` adds which states a taught skin has no picture of."""
    from ..errors import BoardNotFoundError, ImplausibleBoardError, SkinError, UnrecognizedCellError
    from ..given_lattice import LatticeOffFrameError, choose_skin
    from ..vision import read_board
    from ..vision.locate import locate_found
    from ..vision.colour_cast import check_colours, restore_16_bit
    from ..vision.orientation import check_orientation
    from ..vision.classic import red_flag_in_own_colours
    from ..vision.plausible import check_plausible

    frame, sixteen_bit = restore_16_bit(frame)
    lattice = None
    rough = ""  # why a refusal below may mean a client nobody taught (``Found.rough_fit``)
    try:
        if given is not None:
            # The skin is chosen by reading the lattice; an unrecognized cell's error names its skin.
            reading = choose_skin(frame, given, skins, skin, crops_dir=crops_dir)
            lattice = reading.lattice
        else:
            found = locate_found(frame, skins, skin=skin)
            lattice, rough = found.lattice, found.rough_fit() if skin == "auto" else ""
            reading = read_board(frame, lattice, skins, crops_dir=crops_dir)
        check_plausible(reading.board, skins[lattice.skin], red_flags_own_colours=bool(skins[lattice.skin].family)
                        and red_flag_in_own_colours(frame, lattice, reading.board))
        check_colours(frame, reading, skins[lattice.skin],
                      lambda corrected: read_board(corrected, lattice, skins, crops_dir=crops_dir),
                      sixteen_bit=sixteen_bit)
        check_orientation(frame, reading, skins)
    except SkinError as exc:
        return fail(str(exc), EXIT_USAGE)
    except LatticeOffFrameError as exc:
        return fail(f"{image}: {exc}", EXIT_USAGE)
    except BoardNotFoundError as exc:
        return fail(f"{image}: {exc}", EXIT_NO_BOARD)
    except UnrecognizedCellError as exc:
        if not explain_unrecognized:
            return fail(f"{image}: {exc}", EXIT_UNREADABLE)
        chosen = lattice.skin if lattice is not None else None if skin == "auto" else skin
        hint = _missing_states_hint(skins[chosen]) if chosen is not None else ""
        where = " at the --lattice position" if given is not None else ""
        if rough:
            return fail(_untaught(image, rough, exc, skins[chosen], hint), EXIT_UNREADABLE)
        return fail(f"{image}{where}: {exc}{hint}", EXIT_UNREADABLE)
    except ImplausibleBoardError as exc:
        if rough:
            return fail(_untaught(image, rough, exc, skins[lattice.skin]), EXIT_UNREADABLE)
        return fail(f"{image}: {exc}", EXIT_UNREADABLE)
    return reading


def _untaught(image: Path, rough: str, exc: Exception, skin, hint: str = "") -> str:
    """The refusal of a board taken for ``skin``'s (a Skin) only roughly (``Found.rough_fit``): most
    likely a client nobody taught, said first, with how to teach it; then what to do if it is that client."""
    from ..vision.locate import untaught

    unless = f"; if it is {skin.name}: {hint.lstrip('; ')}" if hint else ""
    advice = untaught(skin)
    return f"{image}: {rough}, it does not read as one: {exc}. {advice[0].upper()}{advice[1:]}{unless}"


def _missing_states_hint(skin) -> str:
    """A skin made with ``new-skin`` knows only the states its screenshots showed: say which it lacks,
    since a cell showing one of them can only be "unrecognized". A look read from its structure
    (``classic``) has no pictures to lack: a client that draws a state otherwise is taught with learn."""
    from ..vision.classic import TEACH
    from ..vision.newskin import ALL_STATES, state_names

    if skin.family:
        return f"; {TEACH}"
    missing = "".join(ch for ch in ALL_STATES if ch not in skin.chars)
    if not missing:
        return ""
    return (f"; skin {skin.name!r} has no picture of {state_names(missing)}: if the cell shows one of these, "
            f"add a screenshot showing it (screenbot new-skin)")
