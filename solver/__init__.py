"""The pure side of screenbot: board format, exact mine probabilities, move policy, simulator, benchmark.

Nothing here touches the screen: it imports no OpenCV, mss or pyautogui, and nothing from ``screenbot``.

    from solver import parse_board, analyze, decide
    board = parse_board(open("board.txt").read())
    analysis = analyze(board)           # exact probability per covered cell
    decision = decide(board)            # the moves to make now
"""

from .native import refuse_stale

refuse_stale()  # before a compiled module is imported in place of its edited source

from .board import Board, format_board, parse_board  # noqa: E402
from .errors import BoardFormatError, InconsistentBoardError, MinesweeperError
from .policy import Decision, Move, PolicyConfig, decide
from .probability import Analysis, analyze

__all__ = [
    "Analysis",
    "Board",
    "BoardFormatError",
    "Decision",
    "InconsistentBoardError",
    "MinesweeperError",
    "Move",
    "PolicyConfig",
    "analyze",
    "decide",
    "format_board",
    "parse_board",
]
