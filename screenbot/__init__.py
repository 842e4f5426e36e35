"""screenbot: reads a Minesweeper client from the screen, solves it, and plays or hints."""

import os

# The eyes multiply small matrices (a few hundred cells by a hundred templates). A threaded BLAS
# spends more on waking its threads than on such products: one thread was 4-5x faster per product
# here, and it leaves the other cores to the game and the X server. Set before NumPy is first
# imported; a value the user set wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

# OpenCV's decoder refuses pictures above our pixel limit (its default is a billion, which takes
# minutes and gigabytes); screenbot.inputs checks PNG and JPEG headers against the same figure.
from .inputs import IMAGE_PIXEL_LIMIT  # noqa: E402

os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(IMAGE_PIXEL_LIMIT))
# OpenCV's own log would print "[ERROR] ... IHDR chunk shall be first" beside our message naming the
# file and what is wrong with it: one clear message is enough.
os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")

__version__ = "0.1.0"
