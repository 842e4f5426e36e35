"""The hint overlay: the solver's probabilities drawn over the game.

``marks`` says what is marked (colour scale, cell grid, hints, styles), ``draw`` renders it for a
located board on a ``canvas`` (pure: NumPy and OpenCV); ``x11`` shows them live in a
click-through window above the game on X11 (``x11_pictures`` sends its pictures, ``x11_events`` tells
it when to look again; ``hiding`` takes every such window off the screen while ``play`` locates a
board); ``live`` is the session that keeps them up to date (``cell_reading`` tells which cells the game
redrew, read again by the play loop's ``ChangedCellsReader``; ``layer`` redraws the marks that changed); ``fake`` is a test double of the window. The
commands bind the board reader and client profiles (``screenbot.play.live``).
"""
