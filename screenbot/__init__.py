"""screenbot: reads a Minesweeper client from the screen, solves it, and plays or hints."""

__version__ = "0.1.0"
