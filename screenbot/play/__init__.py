"""The play loop: plays a Minesweeper client on the screen, game after game (see ``loop.Player``)."""

from .loop import Player
from .types import GameSoFar, InconsistentReadingError, LookChangedError, PlayConfig, PlayError, WindowLostError
from .observer import Action, GameResult, NullObserver, ObserverGroup, PlayObserver, StepTimings
from .profile import ControlAction, PlayProfile, load_profile

__all__ = [
    "Action",
    "ControlAction",
    "GameResult",
    "GameSoFar",
    "InconsistentReadingError",
    "LookChangedError",
    "NullObserver",
    "ObserverGroup",
    "PlayConfig",
    "PlayError",
    "PlayObserver",
    "Player",
    "PlayProfile",
    "StepTimings",
    "WindowLostError",
    "load_profile",
]
