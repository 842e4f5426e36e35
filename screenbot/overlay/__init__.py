"""The hint overlay: the solver's probabilities drawn over the game.

``marks`` says what is marked (colour scale, cell grid, hints, styles), ``draw`` renders it for a
located board on a ``canvas`` (pure: NumPy and OpenCV); ``x11`` shows them live in a
click-through window above the game on X11 (``hiding`` takes every such window off the screen
while ``play`` locates a board); ``live`` is the session that keeps them up to date;
``vision`` binds the board reader and client profiles for the commands; ``fake`` is a test double of
the window.
"""
