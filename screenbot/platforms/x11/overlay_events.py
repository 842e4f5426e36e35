"""When the overlay should look again: the game drawing into its window (DAMAGE events) and other windows
mapped, moved or restacked on the root (the overlay must then be raised above them again).

Waking on DAMAGE shows a change of the game about one display frame later instead of at the next poll.
"""

from __future__ import annotations

import logging
import select
import time

log = logging.getLogger(__name__)


class ChangeWatch:
    """The events of one game window. ``restacked``: another window was mapped or moved since the flag was
    cleared; ``damage``: the DAMAGE object on the game (None when the server lacks the extension). The
    connection stays the overlay's and is passed to each call."""

    def __init__(self, conn, root, target, X) -> None:
        self._X = X
        # Restacks and maps of other windows arrive as events on the root: that is when to re-raise.
        root.change_attributes(event_mask=X.SubstructureNotifyMask)
        self.restacked = False
        self.damaged = False
        self.damage = self._watch_drawing(conn, target)

    def wait(self, conn, timeout: float, own: int | None) -> bool:
        """Wait up to ``timeout`` seconds, returning early (True) as soon as the game draws into its
        window (DAMAGE extension) or another window is mapped or moved. Without DAMAGE it just waits."""
        if self.damage is None:
            time.sleep(timeout)
            return False
        self.drain(conn, own)
        if not (self.damaged or self.restacked):
            readable, _, _ = select.select([conn.fileno()], [], [], timeout)
            if readable:
                self.drain(conn, own)
        woke = self.damaged or self.restacked
        if self.damaged:
            # Re-arm: the next drawing sends a new event. Synced, so that drawing after this point
            # cannot be cleared by it before the capture that follows sees it.
            self.damaged = False
            conn.damage_subtract(self.damage)
            conn.sync()
        return woke

    def drain(self, conn, own: int | None) -> None:
        """Consume pending events: note another window restacked or mapped (root events) and the game
        drawing into its window (DamageNotify). ``own``: the overlay's window, whose moves do not count."""
        X = self._X
        while conn.pending_events():
            event = conn.next_event()
            if event.type == self.damage_event:
                self.damaged = True
            elif event.type in (X.ConfigureNotify, X.MapNotify, X.CirculateNotify):
                if getattr(event, "window", None) is not None and event.window.id != own:
                    self.restacked = True

    def _watch_drawing(self, conn, target):
        """A DAMAGE object on the game window (None when the server lacks the extension): an event
        each time the game draws, so a change is looked at at once instead of at the next poll."""
        from Xlib.ext import damage

        self.damage_event = -1
        if not conn.has_extension("DAMAGE"):
            log.info("no DAMAGE extension: the overlay polls the screen only")
            return None
        try:
            conn.damage_query_version()
            # python-xlib gives each display its own event class: compare the event code instead.
            self.damage_event = conn.query_extension("DAMAGE").first_event + damage.DamageNotifyCode
            return target.damage_create(damage.DamageReportNonEmpty)
        except Exception:  # an old or odd server: polling alone still works
            log.info("DAMAGE unusable here: the overlay polls the screen only", exc_info=True)
            return None


__all__ = ["ChangeWatch"]
