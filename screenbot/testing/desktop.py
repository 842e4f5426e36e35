"""A fake ``screenbot.platforms.Desktop`` whose one window is a ``SimulatedClient``: the sessions find
and follow the simulated game's window through it as they do a real desktop's."""

from __future__ import annotations

import contextlib

from ..errors import WindowGoneError
from ..geometry import Rect
from .overlay import FakeOverlay


class FakeDesktop:
    name = "fake"
    overlay_refusal = None

    def __init__(self, client, others: list[Rect] = ()) -> None:
        self.client = client
        self.others = list(others)  # other windows' client areas, under the game's

    def require_screen(self, advice: str) -> None:
        return None

    def lost(self, exc: BaseException) -> bool:
        return False

    def window_holding(self, board: Rect) -> int | None:
        if self.client.closed or not self.client.geometry().contains_rect(board):
            return None
        return self.client.window_id

    def stacked(self) -> list[Rect]:
        return [*self.others, *([] if self.client.closed else [self.client.geometry()])]

    def follow(self, window_id: int):
        if window_id != self.client.window_id:
            raise WindowGoneError(f"no fake window {window_id}", window=window_id)
        return self.client

    def overlays_hidden(self):
        return contextlib.nullcontext()

    def overlay(self, window_id: int):
        return FakeOverlay(self.follow(window_id))

    def focus_probe(self):
        raise NotImplementedError("the fake desktop opens no window of its own")
