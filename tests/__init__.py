"""The test suite (tiers: tests/conftest.py), and the helpers its end-to-end tests run as child processes.

screenbot is imported first, before any test module or helper imports NumPy: it keeps NumPy's BLAS to
one thread (screenbot/__init__.py). A module that imported NumPy first gave every test in its process a
BLAS with a thread per core, spinning on small products: about twice the CPU per read, and with two
test workers on two cores, about twice the time.
"""

import screenbot  # noqa: F401
