"""Turn what a learning session saw into a skin: its frames labelled with the names the rules gave,
the same builder ``new-skin`` uses (``vision.newskin.make_skin``), a profile with its "play" section,
and a check that the new skin reads its own screens back (the frames it was built from and the ones
held back) before anything is written.
"""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from solver.board import Board

from ..geometry import Lattice
from ..play.profile import UNKNOWN, action_json
from .naming import label
from .watch import Seen

log = logging.getLogger(__name__)

MAX_EXAMPLES = 10  # screenshots given to the skin builder (a state left out may be misread as a look-alike)
ALL_STATES = "#012345678F?*XW"
# A cell this far (RMS, 0-255, at the canonical size) from every picture of its state chosen so far
# shows a look of it they lack.
NEW_LOOK = 6.0


@dataclass
class Built:
    states: str  # the board characters the skin has pictures of
    missing: str  # those it has none of
    examples: list[str]  # what each screenshot used was
    checks: list[tuple[str, str]] = field(default_factory=list)  # (frame, "right..." / "refused: ..." / "WRONG...")
    profile: dict = field(default_factory=dict)
    # Where the pictures were cut on the screen: learn's lattice, or a pixel from it where new-skin's
    # fit found alignments that tie (play finds the board where the pictures place it).
    lattice: Lattice | None = None


class SkinCheckError(ValueError):
    """The new skin does not read its own screens back: nothing is written."""


# The kept frames that show a finished game (``Watcher.keep``'s names).
FINISHED = ("lost", "won")


def labelled_frames(seen: Seen) -> list[tuple[np.ndarray, Board, str]]:
    """Every kept frame whose pictures all have names, with its board text."""
    names = seen.all_names()
    out = []
    for frame in seen.frames:
        board = label(frame.ids, names)
        if board is not None:
            out.append((frame.image, board, frame.what))
    return out


def evidence_faults(seen: Seen) -> list[str]:
    """Where the names learnt disagree with what the bot did and saw (each a sentence; none: they
    agree): a cell the bot opened named covered, a flag or a question mark in a later frame of its
    game, or a number of a lost board that shows every mine unlike the mines around it (but on a cell
    the bot flagged: a wrong flag may show as an opened cell)."""
    from solver.board import neighbours

    names = seen.all_names()
    faults = []
    for frame in seen.frames:
        board = label(frame.ids, names)
        if board is None:
            continue
        shut = sorted(cell for cell in frame.opened if board[cell] in "#F?")
        if shut:
            faults.append(f"the {frame.what} frame names {len(shut)} cell(s) the bot opened "
                          f"{board[shut[0]]!r} (e.g. {shut[0]})")
        if frame.all_mines_shown:
            for r, c, ch in board.cells():
                if not ch.isdigit() or (r, c) in frame.flagged:
                    continue
                around = sum(board[n] in "*XF" for n in neighbours(board.rows, board.cols, r, c))
                if int(ch) != around:
                    faults.append(f"the {frame.what} frame names cell ({r}, {c}) {ch!r} beside {around} mine(s) shown")
                    break
    return faults


def shared_pictures(skin) -> list[str]:
    """Pairs of states of ``skin`` (a loaded ``vision.skins.Skin``) with a picture of one the same as
    one of the other's at the same size, compared as learning compares cells (whole, rims included):
    one picture read as two states, as a sentence each. Pictures of what lies outside the board are
    no state: winemine's opened 0 is as black as its window round the board."""
    from .clusters import box_picture, same_picture

    by_pitch: dict[tuple, list] = {}
    for template in skin.templates:
        if template.char not in ALL_STATES:
            continue
        by_pitch.setdefault((template.pitch, template.image.shape), []).append(template)
    found = set()
    for (pitch, _), templates in by_pitch.items():
        pictures = [box_picture(t.image, pitch) for t in templates]
        for i, a in enumerate(templates):
            for j in range(i):
                b = templates[j]
                if a.char != b.char and same_picture(pictures[i], pictures[j]):
                    found.add((min(a.char, b.char), max(a.char, b.char), a.path.name, b.path.name))
    return [f"{x!r} and {y!r} share a picture ({pa} and {pb})" for x, y, pa, pb in sorted(found)]


def choose_examples(frames: list[tuple[np.ndarray, Board, str]]) -> tuple[list[int], list[int]]:
    """Indices of the frames to build from and of those held back to check the skin with: the fewest
    frames that show every state seen in play, then the fewest that show every state seen on finished
    games, boards with many states first. Both, because a client may draw a number otherwise once the
    game is over (xbomb: green borders round the cells the player opened) and play reads both."""
    # The lit covered cell is one more look of "covered": a frame showing it is always taught.
    chosen: list[int] = [i for i, (_, _, what) in enumerate(frames) if what == "hover"][:1]
    candidates = [i for i, (_, board, _) in enumerate(frames) if len({ch for _, _, ch in board.cells()}) >= 2]
    for finished in (False, True):
        pool = [i for i in candidates if (frames[i][2] in FINISHED) == finished]
        have: set[str] = {ch for i in chosen if i in pool or frames[i][2] == "hover" for _, _, ch in frames[i][1].cells()}
        while len(chosen) < MAX_EXAMPLES:
            gains = [(len({ch for _, _, ch in frames[i][1].cells()} - have), i) for i in pool if i not in chosen]
            gains = [g for g in gains if g[0] > 0]
            if not gains:
                break
            best = max(gains)[1]
            chosen.append(best)
            have |= {ch for _, _, ch in frames[best][1].cells()}
    held = [i for i in range(len(frames)) if i not in chosen]
    return chosen, held


def add_looks(frames: list[tuple[np.ndarray, Board, str]], lattice: Lattice, chosen: list[int]) -> tuple[list[int], list[int]]:
    """``chosen`` with more frames, up to MAX_EXAMPLES, each the one showing the most cells unlike every
    picture of their state in the frames chosen so far; and the frames held back. A client that draws
    its opened cells see-through (KMines) shows each state in as many shades as its background has:
    frames chosen for their states alone taught one shade of 0, and a 0 on a lighter part of the
    board then read as a covered cell."""
    from ..vision.cells import cell_images

    cells = [(cell_images(image, lattice).reshape(board.rows * board.cols, -1).astype(np.float32),
              np.array([ch for _, _, ch in board.cells()])) for image, board, _ in frames]
    looks = _Looks()
    chosen = list(chosen)
    for i in chosen:
        looks.add(*cells[i])
    while len(chosen) < MAX_EXAMPLES:
        gains = [(looks.new(*cells[i]), i) for i in range(len(frames)) if i not in chosen]
        gains = [g for g in gains if g[0] > 0]
        if not gains:
            break
        best = max(gains)[1]
        chosen.append(best)
        looks.add(*cells[best])
    return chosen, [i for i in range(len(frames)) if i not in chosen]


class _Looks:
    """One picture (canonical size) of each look of each state seen: a cell joins when it is NEW_LOOK
    or more from every picture of its state kept, so a board of cells that look alike keeps a few."""

    def __init__(self) -> None:
        self.kept: dict[str, np.ndarray] = {}

    def _unlike(self, pictures: np.ndarray, state: str) -> np.ndarray:
        from ..vision.cells import squared_distances

        known = self.kept.get(state)
        if known is None:
            return np.ones(len(pictures), dtype=bool)
        return squared_distances(pictures, known).min(axis=1) >= NEW_LOOK**2 * pictures.shape[1]

    def new(self, pictures: np.ndarray, states: np.ndarray) -> int:
        """How many of the cells (``pictures``, one row each, and their ``states``) show a new look."""
        return sum(int(self._unlike(pictures[states == ch], ch).sum()) for ch in np.unique(states))

    def add(self, pictures: np.ndarray, states: np.ndarray) -> None:
        for ch in np.unique(states):
            left = pictures[states == ch]
            while len(left := left[self._unlike(left, ch)]):
                self.kept[ch] = np.vstack([self.kept[ch], left[:1]]) if ch in self.kept else left[:1].copy()


# A rule every game showed is taken as the client's only where luck alone would show it this often
# with less than this chance (three first clicks that missed on a board of 40 mines in 256: 60%).
LUCK = 0.05


def first_click_rule(seen: Seen) -> tuple[str, str]:
    """The profile's first-click rule, and the evidence for it as a sentence: "opening" or "safe" only
    where the first clicks seen could hardly all have been so by luck (each cell a mine with the
    board's density), "none" (the first click may lose) otherwise."""
    if seen.preopened:
        return "preopened", "the client opened an area of every new game itself"
    named = [rule for rule in seen.first_clicks if rule != "unknown"]
    lost = named.count("lost")
    counts = set(seen.mine_counts)
    if not named:
        return "none", "no first click could be named"
    if lost:
        return "none", f"{lost} of {len(named)} first clicks hit a mine"
    if len(counts) != 1:
        return "none", f"{len(named)} first clicks missed, but the mine total is not known to weigh that against luck"
    density = counts.pop() / (seen.lattice.rows * seen.lattice.cols)
    if set(named) == {"opening"}:
        luck = (1 - density) ** (9 * len(named))  # each a 0: it and the 8 around it free of mines
        if luck < LUCK:
            return "opening", f"{len(named)} first clicks each opened an area ({luck:.1%} by luck alone)"
    luck = (1 - density) ** len(named)
    if luck < LUCK:
        return "safe", f"{len(named)} first clicks missed ({luck:.1%} by luck alone)"
    return "none", f"{len(named)} first clicks missed, which luck alone does {luck:.0%} of the time: too few to tell"


def mine_total_rule(seen: Seen) -> tuple[int | None, str]:
    """The mine total of the learnt board size, and the evidence for it as a sentence. Written only
    where the games seen (lost boards showing every mine, won boards the client showed won) all had
    the same number of mines and could hardly have by luck: were each cell a mine by chance, with the
    board's density (the React page's way), k games would all have the same count with probability
    sum over m of P(m)^k, about 8% for two 10x10 games with 15 mines (one CI run learnt "15" so)."""
    counts = seen.mine_counts + seen.won_mine_counts
    if not counts:
        return None, "no game showed all its mines"
    if len(set(counts)) > 1:
        return None, f"games showed {', '.join(str(c) for c in sorted(set(counts)))} mines: no one total"
    cells, mines = seen.lattice.rows * seen.lattice.cols, counts[0]
    luck = same_count_by_chance(cells, mines / cells, len(counts))
    games = f"{len(counts)} game{'s' if len(counts) > 1 else ''} ({len(seen.mine_counts)} lost, {len(seen.won_mine_counts)} won)"
    if luck < LUCK:
        return mines, f"{games} each had {mines} mines ({luck:.1%} by luck alone)"
    return None, f"{games} each had {mines} mines, which chance alone does {luck:.0%} of the time: too few to tell"


def same_count_by_chance(cells: int, density: float, games: int) -> float:
    """The probability that ``games`` boards of ``cells`` cells, each cell a mine with ``density``, all
    have the same number of mines."""
    if games <= 1:
        return 1.0
    if density <= 0.0 or density >= 1.0:
        return 1.0  # every board alike, whatever the rule: no evidence either way
    log_q, log_p = math.log1p(-density), math.log(density)
    return sum(math.exp(games * (math.lgamma(cells + 1) - math.lgamma(m + 1) - math.lgamma(cells - m + 1)
                                 + m * log_p + (cells - m) * log_q)) for m in range(cells + 1))


def profile_for(seen: Seen, name: str) -> dict:
    """The profile of the learnt client, every value from what was seen (or a safe default, said so)."""
    first_click, first_click_evidence = first_click_rule(seen)
    lat = seen.lattice
    total, total_evidence = mine_total_rule(seen)
    mine_total = {f"{lat.rows}x{lat.cols}": total} if total is not None else None
    restart = seen.restart[1] if seen.restart is not None else None
    play: dict = {}
    if seen.window_title:
        play["window_title"] = "^" + re.escape(seen.window_title) + "$"
    if restart is not None:
        play["restart"] = action_json(restart)
    if seen.after_win is not None:
        play["after_win"] = action_json(seen.after_win[1])
    else:
        # No window was seen over a won board, but a win may bring one (winemine asks for a name after
        # a new best time; KMines shows its High Scores only for a time that makes the list, so wins
        # seen with nothing over the board prove nothing), and Escape is the usual way to close one:
        # pressed only while a window of the game is over the board, since the key may do harm to the
        # game itself (Escape quits xdemineur, which has no such window).
        play["after_win"] = {"keys": ["escape"], "wait": 0.05, "focus": False, "dialog": True}
    if seen.after_loss is not None:
        play["after_loss"] = action_json(seen.after_loss[1])
    if seen.end_mark_seconds:
        play["end_mark"] = round(seen.end_mark_seconds + 1.0, 1)
    slowest = max(seen.latencies, default=0.05)
    # Every game seen must agree; with no 0 seen in play, no rule ("none": play checks nothing).
    flood = "none" if not seen.floods or "none" in seen.floods else "4" if "4" in seen.floods else "8"
    if seen.flag_keys:
        play["flag_keys"] = list(seen.flag_keys)
    play.update({
        "redraw_timeout": round(max(0.5, 5 * slowest), 2),
        "settle": 0.02,
        "restart_timeout": 5.0,
        "flood": flood,
        "confirm_clicks": "cell",
        "drops_clicks": seen.dropped_clicks > 0,
    })
    return {
        "client": name,
        "first_click": first_click,
        "first_click_shown": first_click_evidence,
        "mine_total": mine_total,
        "mine_total_shown": total_evidence,
        # Learnt as both: every safe cell opened, then every mine flagged, is the win learn saw. Play
        # then flags the mines once no safe cell is left (xdemineur ends a game as soon as every
        # mine is flagged, xbomb wants both: this order wins on either). No win seen: "unknown", and
        # play counts a win only when the client shows one.
        "win_requires_all_flags": UNKNOWN if seen.flags_to_win is None else seen.flags_to_win,
        "win_requires_all_open": bool(seen.flags_to_win),
        "hover_highlight": seen.lit is not None,
        "pauses_on_focus_loss": seen.pauses_on_focus_loss,
        "question_marks": seen.question is not None,
        "loss_shown": "learnt: every mine shown on the board"
        + (f", with a window over it closed with {seen.after_loss[0]}" if seen.after_loss else ""),
        "win_shown": ("learnt: a window over the board, closed with " + seen.after_win[0]) if seen.after_win
        else "learnt: every safe cell open, then a flag on every mine" if seen.flags_to_win
        else "learnt: on the board" if seen.flags_to_win is False
        else f"not learnt: {seen.wins} won games showed nothing clear" if seen.wins else "not seen while learning",
        "learnt": {
            "games": seen.games_played,
            "games_named": seen.games_named,
            "wins": seen.wins,
            "wins_unclear": seen.unclear_wins,
            "first_clicks": seen.first_clicks,
            "mines_seen": seen.mine_counts,
            "mines_of_wins_seen": seen.won_mine_counts,
            "restart": seen.restart[0] if seen.restart is not None else None,
            "restarts_tried": seen.restarts_tried,
            "floods_seen": seen.floods,
            "dropped_clicks": seen.dropped_clicks,
            "slowest_redraw_s": round(slowest, 3),
        },
        "play": play,
    }


def extended_profile(old: dict, new: dict) -> dict:
    """The profile of a skin extended by another session: the old one as it is (a person may have
    tuned its "play" section), with the mine totals of both and the new session's figures added."""
    merged = json.loads(json.dumps(old))
    totals = {**(new.get("mine_total") or {}), **(old.get("mine_total") or {})}
    merged["mine_total"] = totals or None
    merged["question_marks"] = bool(old.get("question_marks")) or bool(new.get("question_marks"))
    merged.setdefault("learnt", {}).setdefault("extended", []).append(new.get("learnt", {}))
    return merged


def keep_pictures(old_cells: Path, new_cells: Path) -> list[str]:
    """Copy into ``new_cells`` the pictures of ``old_cells`` whose state and pitch the new ones lack
    (those it has were cut from this session's screens, the same way as the rest of them); returns
    the names written."""
    import shutil

    from ..vision.skins import LIT, template_kind

    have = {template_kind(path.stem) for path in new_cells.glob("*.png")}
    kept = []
    for path in sorted(old_cells.glob("*.png")):
        key = template_kind(path.stem)
        if key is None or key in have:
            continue
        lit = LIT if path.stem.endswith(LIT) else ""
        target = new_cells / f"{path.stem.rsplit('-', 1)[0]}-e{len(kept)}{lit}.png"
        shutil.copyfile(path, target)
        kept.append(target.name)
    return kept


def name_lit(seen: Seen, cells: Path) -> list[str]:
    """Rename (``...lit.png``, ``Template.lit``) the covered pictures in ``cells`` that show the covered
    cell as the client lit it under the pointer (``seen.lit``): those nearer in colour to the lit cells
    of the frames kept than to the other covered cells. Returns the new names."""
    import cv2

    from ..vision.cells import cell_images
    from ..vision.colour_cast import middle_colours, picture_colour
    from ..vision.skins import CHAR_STATES, LIT, template_kind

    if seen.lit is None:
        return []
    lattice = seen.lattice.translated(-seen.crop.left, -seen.crop.top)
    lit, unlit = [], []
    for frame in seen.frames:
        means = middle_colours(cell_images(frame.image, lattice))
        lit.append(means[frame.ids == seen.lit])
        unlit.append(means[np.isin(frame.ids, list(seen.covered - {seen.lit}))])
    lit_colour, unlit_colour = np.concatenate(lit), np.concatenate(unlit)
    if not len(lit_colour) or not len(unlit_colour):
        return []
    lit_colour, unlit_colour = np.median(lit_colour, axis=0), np.median(unlit_colour, axis=0)
    renamed = []
    for path in sorted(cells.glob("*.png")):
        kind = template_kind(path.stem)
        if kind is None or kind[0] != CHAR_STATES["#"] or path.stem.endswith(LIT):
            continue
        colour = picture_colour(cv2.imread(str(path)))
        if np.abs(colour - lit_colour).max() < np.abs(colour - unlit_colour).max():
            target = path.with_name(f"{path.stem}{LIT}{path.suffix}")
            path.rename(target)
            renamed.append(target.name)
    return renamed


def build_skin(seen: Seen, name: str, stage: Path, extend: Path | None = None) -> Built:
    """Build skin ``name`` into the staging folder ``stage`` and check it there. SkinCheckError (or the
    builder's own errors) when it cannot be built or misreads a screen. ``extend``: the folder of an
    existing skin of that name whose pictures of states (or sizes) this session did not see are kept,
    with its profile."""
    from ..errors import ScreenError
    from ..play.live import check_playable
    from ..play.profile import profile_from_dict
    from ..vision import load_skins, read_board
    from ..vision.newskin import make_skin

    frames = labelled_frames(seen)
    chosen, held = choose_examples(frames)
    if not chosen:
        raise SkinCheckError("no screen could be labelled from the games played (no lost game was named)")
    faults = evidence_faults(seen)
    if faults:
        raise SkinCheckError("the pictures learnt do not fit what the bot did and saw: " + "; ".join(faults[:4]))
    lattice = seen.lattice.translated(-seen.crop.left, -seen.crop.top)
    chosen, held = add_looks(frames, lattice, chosen)
    examples = [(frames[i][0], frames[i][1]) for i in chosen]
    taught = make_skin(name, examples, stage, shot_names=[frames[i][2] for i in chosen],
                       lattices=[lattice] * len(examples), trust_labels=True)
    profile = profile_for(seen, name)
    states, missing = taught.states, taught.missing
    if extend is not None:
        profile = extended_profile(json.loads((extend / "profile.json").read_text(encoding="utf-8")), profile)
        kept = keep_pictures(extend / "cells", stage / name / "cells")
        log.info("learn: kept %d pictures of the skin extended", len(kept))
    lit = name_lit(seen, stage / name / "cells")
    if lit:
        log.info("learn: the covered cell lit under the pointer: %s", ", ".join(lit))
    (stage / name / "profile.json").write_text(json.dumps(profile, indent=1) + "\n", encoding="utf-8")
    check_playable(profile_from_dict(name, profile))
    skins = load_skins(stage)
    shared = shared_pictures(skins[name])
    if shared:
        raise SkinCheckError("the new skin would read one picture as two states: " + "; ".join(shared[:4]))
    if extend is not None:
        states = "".join(ch for ch in ALL_STATES if ch in skins[name].chars)
        missing = "".join(ch for ch in ALL_STATES if ch not in states)
    checks = []
    for i in chosen + held:
        image, board, what = frames[i]
        used = "taught" if i in chosen else "held back"
        try:
            at, found = _where_play_reads(image, what, skins, name, taught.fits[0].lattice)
            got = read_board(image, at, skins).board
        except ScreenError as exc:
            checks.append((f"{what} ({used})", f"refused: {str(exc).splitlines()[0][:120]}"))
            continue
        if got.grid == board.grid:
            checks.append((f"{what} ({used})", found))
            continue
        cells = [f"({r}, {c}) is {board[r, c]!r} read {got[r, c]!r}" for r, c, _ in board.cells()
                 if (got.rows, got.cols) == (board.rows, board.cols) and got[r, c] != board[r, c]]
        checks.append((f"{what} ({used})", "WRONG: " + ("; ".join(cells[:4]) or f"read {got.rows}x{got.cols}")))
    wrong = [f"{what} ({verdict})" for what, verdict in checks if verdict.startswith("WRONG")]
    refused_taught = [f"{what}: not read ({verdict})" for what, verdict in checks
                      if verdict.startswith("refused") and "(taught)" in what]
    if wrong or refused_taught:
        raise SkinCheckError("the new skin does not read its own screens back: "
                             + "; ".join([f"{w}: misread" for w in wrong] + refused_taught))
    return Built(states, missing, [frames[i][2] for i in chosen], checks, profile,
                 taught.fits[0].lattice.translated(seen.crop.left, seen.crop.top))


def _where_play_reads(image: np.ndarray, what: str, skins: dict, name: str, place):
    """Where the play loop would read a kept frame of kind ``what``, and how the check says "right".
    ``place`` is where the builder cut the pictures (maybe a pixel from the lattice learn found).
    ScreenError when play would not find the board."""
    from ..errors import ScreenError
    from ..vision import locate_board

    if what in FINISHED:
        # Play reads a finished game where it found the board while it was being played, so a lost or
        # won board (mines or flags all over it) is read there, not found anew (the locator, placing
        # the skin's pictures on a board of mines, can land a pixel off and take edge cells for the
        # window around them).
        return place, "right at the board's place"
    try:
        return locate_board(image, skins, name), "right"
    except ScreenError:
        if what == "fresh":
            raise  # play finds the board on a fresh game: that one the locator must find
        # A game in progress is read where the board was found at its start, as play does.
        return place, "right at the board's place (the locator does not find it alone)"
