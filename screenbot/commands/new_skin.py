"""``screenbot new-skin NAME --shot IMAGE --board BOARD ...``: teach the reader a new client.

From one or two screenshots of the new client and the true board shown on each (text format), find
the cell grid, cut the cell pictures into ``templates/NAME/``, then check that ``read`` (with the new
skin and with ``auto``) gives back exactly the true boards.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import tempfile
from pathlib import Path
from typing import Callable, Iterator

from ..exit_codes import EXIT_FAILED, EXIT_NO_BOARD, EXIT_USAGE
from .common import add_templates_argument, fail, skin_name


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "new-skin",
        help="make a skin for a new client from screenshots and their true boards",
        description="Give one or more screenshots of a client (--shot) each with its true board in the text "
        "format (--board, same order). Cells of every state you want recognised must appear in them, at "
        "each cell size you play at. Writes NAME/cells/*.png and a default profile.json into the skins folder (an "
        "existing profile.json is kept), then re-reads the screenshots to check. "
        "An existing skin of that name is only rebuilt with --replace. "
        "Exit codes: 0 ok, 2 bad arguments, unreadable files, a board text that disagrees with its "
        "screenshot, or NAME existing already without --replace, 4 no grid of the board's size found, 1 the new skin does not read the screenshots back, or another run is writing the same skin (nothing is written then), 130 interrupted.",
    )
    parser.add_argument("name", type=skin_name, help="skin name (a folder name: letters, digits, - and _)")
    parser.add_argument("--shot", action="append", required=True, help="screenshot of the client (repeatable)")
    parser.add_argument("--board", action="append", required=True, help="true board of that screenshot")
    add_templates_argument(parser, help="skins folder to write to (default: the SCREENBOT_TEMPLATES environment "
                           "variable, else the skins shipped in the package); '--templates DIR' on the other "
                           "commands and SCREENBOT_TEMPLATES=DIR then use it")
    parser.add_argument("--unlocated-ok", action="store_true",
                        help="a screenshot whose board the new pictures read right at the grid found, but which the "
                        "locator does not find by itself, passes the check (said so on its line): for lost boards "
                        "(the play loop reads a lost board where it found the fresh one); fresh boards should be found")
    parser.add_argument("--replace", action="store_true",
                        help="NAME exists already: rebuild its pictures from these screenshots (give them all)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from solver.board import parse_board
    from solver.errors import BoardFormatError

    from ..capture import load_image
    from ..errors import InputError
    from ..inputs import read_text
    from ..skin_folders import user_skins_folder

    if len(args.shot) != len(args.board):
        return fail(f"{len(args.shot)} --shot but {len(args.board)} --board: give one board per screenshot", EXIT_USAGE)
    examples = []
    for shot, board_path in zip(args.shot, args.board):
        try:
            image = load_image(shot)
            board = parse_board(read_text(board_path, what="board text"))
        except InputError as exc:
            return fail(str(exc), EXIT_USAGE)
        except BoardFormatError as exc:
            return fail(f"{board_path}: {exc}", EXIT_USAGE)
        examples.append((image, board))
    # A board text is taken for another screenshot's only when no screenshot given shows a grid of its
    # size: a lost board full of mines may show no clear grid, while the fresh board of that game does.
    grids = [_grid_sizes(image) for image, _ in examples]
    for (image, board), sizes, shot, board_path in zip(examples, grids, args.shot, args.board):
        mismatch = _size_mismatch(board, sizes, [size for other in grids for size in other])
        if mismatch:
            return fail(f"{shot} with {board_path}: {mismatch}", EXIT_USAGE)
    templates = user_skins_folder(args.templates)
    return holding_skin(templates, args.name, lambda: _write(args, templates, examples))


def holding_skin(templates: Path, name: str, work: Callable[[], int]) -> int:
    """``work()`` (learn's or new-skin's whole run) while this run alone may write skin ``name`` into
    ``templates`` (``skin_folders.hold_skin``): another run writing it stops at once, exit 1."""
    from ..errors import SkinBusyError
    from ..skin_folders import hold_skin

    try:
        held = hold_skin(templates, name)
    except SkinBusyError as exc:
        return fail(str(exc), EXIT_FAILED)
    except OSError as exc:
        return fail(f"cannot write the skin into {templates}: {exc.strerror or exc}", EXIT_USAGE)
    try:
        return work()
    finally:
        held.release()


def _write(args: argparse.Namespace, templates: Path, examples: list) -> int:
    """The skin taught from ``examples`` (screenshot, board) built, checked and moved into place."""
    from ..errors import BoardNotFoundError, SkinError
    from ..learn.skin import shared_pictures
    from ..vision import load_skins
    from ..vision.newskin import NewSkinError, make_skin, state_names

    existing = list((templates / args.name / "cells").glob("*.png"))
    if existing and not args.replace:
        # Its pictures would be replaced by these screenshots' only: a tuned skin would be lost.
        return fail(f"skin {args.name!r} exists already ({len(existing)} pictures in {templates / args.name}): "
                    f"choose another name, or add --replace to rebuild it from these screenshots (give all of "
                    f"them, old and new)", EXIT_USAGE)
    # Built in a staging folder beside the others and moved in only once it reads its screenshots
    # back: a failed run leaves no skin behind for `auto` to pick up.
    try:
        with staging(templates, args.name) as stage:
            try:
                taught = make_skin(args.name, examples, stage, shot_names=list(args.shot))
            except BoardNotFoundError as exc:
                return fail(str(exc), EXIT_NO_BOARD)
            except NewSkinError as exc:
                return fail(str(exc), EXIT_USAGE)
            for shot, fit in zip(args.shot, taught.fits):
                lat = fit.lattice
                print(f"{shot}: {lat.rows}x{lat.cols} cells, pitch {lat.pitch[0]:.2f}x{lat.pitch[1]:.2f} px, "
                      f"top-left cell at ({lat.origin[0]:.1f}, {lat.origin[1]:.1f})")
            try:
                shared = shared_pictures(load_skins(stage)[args.name])
                failed = _check(args.name, examples, list(args.shot), taught, stage, unlocated_ok=args.unlocated_ok)
            except SkinError as exc:
                return fail(str(exc), EXIT_FAILED)
            if shared:
                # A label given wrong (a 0 marked as covered, say) puts one picture under two states.
                return fail("the screenshots' labels give one picture two states: " + "; ".join(shared[:4])
                            + "; nothing was written", EXIT_FAILED)
            if failed:
                return fail(f"the new skin does not read {failed} check(s) back; see above; nothing was written", EXIT_FAILED)
            publish(stage, templates, args.name)
    except OSError as exc:
        return fail(f"cannot write the skin into {templates}: {exc.strerror or exc}", EXIT_USAGE)
    print(f"wrote {templates / args.name}")
    print(f"states learnt: {state_names(taught.states)}")
    if taught.missing:
        print(f"states not in these screenshots (a cell showing one stops reading with exit 5): "
              f"{state_names(taught.missing)}")
    sizes = ", ".join(f"{px:g}x{py:g}" for px, py in taught.pitches)
    print(f"cell sizes learnt: {sizes} px (other sizes are compared with these pictures scaled; teach each "
          f"size you play at if it reads badly)")
    return 0


def _grid_sizes(image) -> list[tuple[int, int]]:
    """(rows, cols) of the cell grids found on ``image`` by their structure alone, biggest first."""
    from ..vision.structure import find_grids

    return sorted({(g.rows, g.cols) for g in find_grids(image)}, key=lambda rc: -rc[0] * rc[1])


def _size_mismatch(board, sizes: list[tuple[int, int]], anywhere: list[tuple[int, int]]) -> str:
    """Why the board text cannot be this screenshot's board ("" when it may be): the cell grids found
    by their structure on this screenshot (``sizes``) and on every screenshot given (``anywhere``) are
    all of another size. Saves the minutes a search for a grid of the text's size would take before
    failing."""
    # Cells at the picture's edge may be missed (a screenshot cropped close to the board), and window
    # parts next to the board may pass for a row or column more (xbomb's lost boards): a grid up to two
    # rows and columns off may still be this board.
    if not sizes or any(abs(r - board.rows) <= 2 and abs(c - board.cols) <= 2 for r, c in sizes + anywhere):
        return ""
    shown = ", ".join(f"{r}x{c}" for r, c in sizes[:3])
    return (f"the board text is {board.rows}x{board.cols} but the screenshot shows a grid of {shown} cells: "
            "check that the text is this screenshot's board, every row and column of it")


@contextlib.contextmanager
def staging(templates: Path, name: str) -> Iterator[Path]:
    """A templates folder to build skin ``name`` in: the existing skins linked in, ``name`` copied
    (its profile.json is kept, and --replace rebuilds its pictures there). Removed on the way out."""
    templates.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=".new-skin-", dir=templates))
    try:
        for folder in templates.iterdir():
            if folder.name != name and (folder / "profile.json").is_file():
                (stage / folder.name).symlink_to(folder.resolve(), target_is_directory=True)
        if (templates / name).is_dir():
            shutil.copytree(templates / name, stage / name)
        yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def publish(stage: Path, templates: Path, name: str) -> None:
    """Move the built skin into place; an old skin of that name is swapped out only after."""
    target = templates / name
    old = stage / ".old"
    if target.exists():
        target.rename(old)  # same file system: both are in templates/
    (stage / name).rename(target)


def _check(name: str, examples, shots: list[str], taught, templates: Path, unlocated_ok: bool = False) -> int:
    """Read every screenshot back with the new skin and with ``auto``; print one line each. A failure
    says whether the pictures themselves misread the board (at the grid just found) or only finding
    the board failed (the locator), which need different fixes."""
    from ..errors import ScreenError
    from ..vision import load_skins, locate_board, read_board

    skins = load_skins(templates)
    failed = 0
    for (image, board), shot, fit in zip(examples, shots, taught.fits):
        try:
            at_grid = read_board(image, fit.lattice, skins).board.grid == board.grid
        except ScreenError:
            at_grid = False
        for mode in (name, "auto"):
            try:
                lattice = locate_board(image, skins, skin=mode)
                got = read_board(image, lattice, skins).board
            except ScreenError as exc:
                if at_grid and unlocated_ok:
                    print(f"check {shot} ({mode}): ok at the grid found above only (--unlocated-ok): the locator "
                          f"does not find this board ({exc})")
                    continue
                why = "" if not at_grid else (" (the pictures read this board right at the grid found above: "
                                              "only locating it failed)")
                print(f"check {shot} ({mode}): FAILED: {exc}{why}")
                failed += 1
                continue
            if lattice.skin != name:
                print(f"check {shot} ({mode}): FAILED: taken for skin {lattice.skin!r}, not {name!r}")
                failed += 1
            elif got.grid != board.grid:
                wrong = [(r, c) for r in range(min(got.rows, board.rows)) for c in range(min(got.cols, board.cols))
                         if got.grid[r][c] != board.grid[r][c]]
                print(f"check {shot} ({mode}): FAILED: read {got.rows}x{got.cols}, "
                      f"{len(wrong)} cell(s) differ from the true board {board.rows}x{board.cols}")
                failed += 1
            else:
                print(f"check {shot} ({mode}): ok")
    return failed
