"""Which of the solver's modules run compiled, and a guard against a compiled module older than its source.

The solver proper (``COMPILED``: bitmask helpers, constraints, enumeration, combination, endgame search,
the lookahead, the 50/50 count, the probabilities) and the simulator the benchmark plays on are compiled to C by mypyc when the package is installed and a C compiler is there (``setup.py``); it is
the same source, and without a compiler the install falls back to it as plain Python, slower (about
1.35x the CPU per expert game). A compiled module is imported before its ``.py``, so in a checkout
installed with ``pip install -e .`` an edited source would silently not run: the install records a
hash of each source it compiled, and importing ``solver`` refuses a compiled module whose source has
changed since.

Compiled, three habits of plain Python go wrong, so the core avoids them: ``_`` is one variable of one
type across a function and its comprehensions (unpacking a float into it where a loop holds ints in it
is a TypeError), ``sum`` of floats starts from ``0.0`` (from the int 0 it was checked as an int), and
``functools.cached_property`` on a compiled class computes its value again at every use (so
``Model.probabilities`` is made with the model). Three more are only slow, so the core avoids them
too: ``a[i] += x`` on a list is a generic Python operation (the core writes ``a[i] = a[i] + x``,
which is compiled for the item's type), ``x.bit_count()`` is a method looked up at every call
(``grid.popcount``), and a builtin called with a keyword (``max(v, default=0.0)``) takes the slow
generic call.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import json
import sys
from pathlib import Path

# Not the move policy and guessing modules: their frozen configuration classes go to the benchmark's
# worker processes by pickle, which a compiled frozen dataclass does not survive.
COMPILED = ("grid", "constraints", "enumeration", "combine", "endgame", "lookahead", "influence", "probability", "game")
# Written by setup.py next to the modules: {module: sha256 of the source it compiled}.
RECORD = "compiled_sources.json"

_HERE = Path(__file__).resolve().parent


def compiled_modules() -> list[str]:
    """The solver modules running compiled in this process (imported ones only)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return [name for name in COMPILED
            if str(getattr(sys.modules.get(f"{__package__}.{name}"), "__file__", "")).endswith(suffixes)]


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stale_modules(folder: Path = _HERE) -> list[str]:
    """Modules with a compiled file in ``folder`` whose source differs from the one compiled (or that
    have no record of it: left by an install that compiled more than this one)."""
    built = sorted({source.stem for source in folder.glob("*.py") for suffix in importlib.machinery.EXTENSION_SUFFIXES
                    if (folder / f"{source.stem}{suffix}").exists()})
    if not built:
        return []
    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        record = {}
    return [name for name in built
            if (folder / f"{name}.py").exists() and record.get(name) != source_hash(folder / f"{name}.py")]


def refuse_stale(folder: Path = _HERE) -> None:
    stale = stale_modules(folder)
    if stale:
        names = ", ".join(f"solver/{name}.py" for name in stale)
        raise ImportError(f"{names} changed after the solver was compiled, and the compiled copy would run "
                          f"instead: run `python3 -m pip install -e .` again (or delete solver/*.so to run "
                          f"the Python source)")
