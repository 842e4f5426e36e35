"""Shots read as ``screenbot read`` would, counted: right, refused (with the reason counted), or wrong
(read with no error but not the true board), with the CPU time they took."""

from __future__ import annotations

import collections
import time


class ShotTally:
    def __init__(self) -> None:
        self.counts = collections.Counter()
        self.reasons = collections.Counter()
        self.wrong: list[str] = []
        self.cpu = 0.0

    def add(self, name: str, frame, truth: list[str], skins, skin: str = "auto") -> None:
        """Locate, read and check ``frame`` with ``skins`` (only ``skin`` unless "auto"), against ``truth``."""
        from screenbot.errors import MinesweeperError
        from screenbot.vision import locate_board, read_board
        from screenbot.vision.plausible import check_plausible

        started = time.process_time()
        try:
            lattice = locate_board(frame, skins, skin)
            reading = read_board(frame, lattice, skins)
            check_plausible(reading.board, skins[lattice.skin])
        except MinesweeperError as exc:
            self.counts["refused"] += 1
            self.reasons[_reason(str(exc))] += 1
        else:
            right = list(reading.board.grid) == truth
            self.counts["right" if right else "wrong"] += 1
            if not right:
                self.wrong.append(f"{name} (read as {lattice.skin})")
        self.cpu += time.process_time() - started

    def report(self, what: str) -> int:
        total = sum(self.counts.values())
        print(f"{what}: {total} boards, {self.counts['right']} right, {self.counts['refused']} refused, "
              f"{self.counts['wrong']} wrong ({self.cpu / max(total, 1) * 1000:.0f} ms CPU a board)")
        for reason, count in self.reasons.most_common(4):
            print(f"  refused {count}: {reason}")
        for name in self.wrong:
            print(f"  WRONG: {name}")
        return self.counts["wrong"]


def _reason(message: str) -> str:
    """The part of a refusal that says why, without the board's place or the crop's path."""
    why = message.split(": ", 2)[-1] if message.startswith("no complete") else message
    # Its beginning says why; the end is the cell's place, the crop's path, or how to teach a client.
    why = why.split(": cell row")[0].split(". If the game is not")[0].split("; if the game is not")[0]
    return why if len(why) <= 140 else f"{why[:60]} ... {why[-75:]}"
