"""The solver's hot core compiled to C with mypyc where this machine can (``solver/native.py`` says why
and which modules); plain Python where it cannot. Everything else is in pyproject.toml.

SCREENBOT_PURE_PYTHON=1 skips the compilation.
"""

import importlib.util
import json
import os
import sys
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent


def _native():
    # Loaded by path: importing the solver package here would import the whole solver.
    spec = importlib.util.spec_from_file_location("solver_native", HERE / "solver" / "native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_core():
    if os.environ.get("SCREENBOT_PURE_PYTHON"):
        return []
    native = _native()
    sources = [f"solver/{name}.py" for name in native.COMPILED]
    try:
        from mypyc.build import mypycify

        # Type errors in the modules the core imports but which stay Python are not the build's business.
        extensions = mypycify(["--follow-imports=silent", *sources], opt_level="3")
    except (Exception, SystemExit) as exc:  # mypy's type errors exit
        print(f"screenbot: the solver core is not compiled ({exc!r}); it runs as plain Python, slower", file=sys.stderr)
        return []
    record = {name: native.source_hash(HERE / "solver" / f"{name}.py") for name in native.COMPILED}
    (HERE / "solver" / native.RECORD).write_text(json.dumps(record, indent=1) + "\n")
    for extension in extensions:
        extension.optional = True  # no C compiler: the plain Python modules are used
    return extensions


setup(ext_modules=compiled_core())
