"""The hint overlay: the solver's probabilities drawn over the game.

``marks`` says what is marked (colour scale, cell grid, hints, styles), ``draw`` renders it for a
located board on a ``canvas`` (pure: NumPy and OpenCV); ``live`` is the session that keeps them up to
date (``cell_reading`` tells which cells the game redrew, read again by the play loop's
``ChangedCellsReader``; ``layer`` redraws the marks that changed). The window that shows them over the
game is the desktop's (``screenbot.platforms``: X11's click-through window); its test double is
``screenbot.testing.FakeOverlay``. The commands bind the board reader and client profiles
(``screenbot.play.live``).
"""
