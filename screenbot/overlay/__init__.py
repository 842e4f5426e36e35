"""The hint overlay: the solver's probabilities drawn over the game.

``draw`` renders hints for a located board (pure: NumPy and OpenCV); ``x11`` shows them live in a
click-through window above the game on X11; ``shape`` holds the small geometry the window needs.
"""
