"""Fakes shipped with the package, so the play loop runs in tests without a display.

- ``SimulatedClient``: a Minesweeper "window" backed by ``solver.game.Game``. It is at once the screen
  (``grab`` renders the game), the mouse and keyboard (clicks land on cells, keys restart) and the
  window (``geometry``, ``activate``; it can be moved or closed mid-game). Every click is recorded with
  whether it fell on the board. ``SimulatedTime``: a clock whose waits pass without real time.
- Renderers: ``FlatRenderer`` paints each cell state in its own flat colour (read back by
  ``FlatVision``, a fake of the vision module); ``ClassicRenderer`` the classic Windows look (raised
  covered cells, flat opened ones of the same colour); ``TemplateRenderer`` pastes a skin's template images,
  so the real vision code reads the simulated game like a real client.
- ``FakeDesktop``: a ``screenbot.platforms.Desktop`` whose one window is a ``SimulatedClient``;
  ``FakeOverlay`` (with ``OverlaidScreen``) the hint overlay over it.
- ``RecordingMouse`` (from ``screenbot.mouse``) for tests that only look at the clicks.
"""

from solver.game import LOST, WON

from ..mouse import RecordingMouse
from .client import ClickRecord, SimulatedClient, SimulatedTime
from .desktop import FakeDesktop
from .overlay import FakeOverlay, OverlaidScreen
from .renderers import ClassicRenderer, FlatReading, FlatRenderer, FlatVision, TemplateRenderer

__all__ = [
    "LOST",
    "WON",
    "ClassicRenderer",
    "ClickRecord",
    "FakeDesktop",
    "FakeOverlay",
    "FlatReading",
    "FlatRenderer",
    "FlatVision",
    "OverlaidScreen",
    "RecordingMouse",
    "SimulatedClient",
    "SimulatedTime",
    "TemplateRenderer",
]
