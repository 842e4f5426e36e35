"""Command-line entry point: ``screenbot <command> ...``.

Each command lives in ``screenbot/commands/<name>.py`` and exposes ``register(subparsers)``, which adds
its parser and sets ``run`` as the handler: ``run(args) -> int``. Command modules import heavy or
display-bound libraries (cv2, mss, pyautogui) inside ``run`` so that ``--help`` and the pure commands
work anywhere.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import logging
import os
import re
import sys
from typing import Sequence

from solver.errors import MinesweeperError

from . import __version__
from .errors import OutputError
from .exit_codes import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, for_error
from .interrupts import handle_interrupts, interrupts_not_lost, restore
from .streams import CheckedOutput, closed_streams


COMMAND_MODULES = (
    "screenbot.commands.solve",
    "screenbot.commands.bench",
    "screenbot.commands.bench_plot",
    "screenbot.commands.play",
    "screenbot.commands.demo",
    "screenbot.commands.hint",
    "screenbot.commands.replay",
    "screenbot.commands.read",
    "screenbot.commands.new_skin",
    "screenbot.commands.learn",
    "screenbot.commands.read_bench",
)
DESCRIPTION = (
    "A Minesweeper bot that reads the game from the screen, computes exact mine probabilities and plays "
    "or shows hints."
)


def build_parser(
    commands: Sequence[str] = COMMAND_MODULES, prog: str = "screenbot", description: str = DESCRIPTION
) -> argparse.ArgumentParser:
    """The parser of every command in ``commands``."""
    return _build(commands, prog, description)[0]


def _build(commands: Sequence[str], prog: str, description: str) -> tuple[argparse.ArgumentParser, dict]:
    """The parser, and its commands' parsers by name."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    _add_log_options(parser, default=0)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in commands:
        importlib.import_module(name).register(subparsers)
    for command in subparsers.choices.values():
        # Also after the command (`screenbot play -v`). SUPPRESS: a command's parser sets these only
        # when they are given there, so it never undoes a -v given before the command.
        _add_log_options(command, default=argparse.SUPPRESS)
    return parser, subparsers.choices


def _parser_for(
    argv: Sequence[str], commands: Sequence[str], prog: str, description: str
) -> argparse.ArgumentParser:
    """The parser for ``argv``: with only the command it names where it names one. Each command's
    module is imported to register it, and loading all of them was a third of a second of every run;
    ``--help`` with no command, or a name that is no command, still gets them all (argparse lists
    them). A command's name is its module's, ``_`` written ``-`` (``new_skin``: ``new-skin``); where
    a module registers another name, the whole parser is built."""
    named = next((token for token in argv if not token.startswith("-")), None)
    module = [name for name in commands if name.rsplit(".", 1)[-1].replace("_", "-") == named]
    if module:
        parser, choices = _build(module, prog, description)
        if named in choices:
            return parser
    return build_parser(commands, prog, description)


def _add_log_options(parser: argparse.ArgumentParser, default) -> None:
    parser.add_argument("-v", "--verbose", action="count", default=default, help="more log output (-vv for debug)")
    quiet_default = argparse.SUPPRESS if default is argparse.SUPPRESS else False
    parser.add_argument("-q", "--quiet", action="store_true", default=quiet_default, help="only errors in the log output")


# A value that starts with a minus but is no option: "-1,5" (argparse takes "-5" as a number, but
# "-1,5" as an unknown option, and then says only "expected one argument").
_NEGATIVE_VALUE = re.compile(r"-\d+(,-?\d+)+")


def _attach_negative_values(argv: Sequence[str]) -> list[str]:
    """``--first -1,5`` -> ``--first=-1,5``, so the option's own check says what is wrong with it."""
    out: list[str] = []
    for token in argv:
        if out and out[-1].startswith("--") and "=" not in out[-1] and _NEGATIVE_VALUE.fullmatch(token):
            out[-1] = f"{out[-1]}={token}"
        else:
            out.append(token)
    return out


def _printed(prog: str, text: str, code: int) -> int:
    """``code`` once ``text`` (what argparse printed: ``--help``, ``--version``) is written out.
    argparse drops a write that fails: help into a full device was lost with exit 0."""
    if not text:
        return code
    closed = closed_streams()
    if closed:
        print(f"{prog}: {closed}", file=sys.stderr)
        return EXIT_USAGE
    out = CheckedOutput(sys.stdout)
    try:
        out.write(text)
        out.flush()
    except BrokenPipeError:  # the reader went away (a pipe into ``head``): it had what it wanted
        sys.stderr.close()
        return code
    except OutputError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        # What Python would flush at exit is dropped, not said twice.
        sys.stdout = open(os.devnull, "w", encoding="utf-8")
        return EXIT_USAGE
    return code


def _out_of_memory(exc: Exception) -> bool:
    """Python's MemoryError, or OpenCV's error for the same (``cv2.error``, code -4, "Insufficient
    memory"), told apart without importing OpenCV here."""
    if isinstance(exc, MemoryError):
        return True
    return type(exc).__module__.startswith("cv2") and getattr(exc, "code", None) == -4


def main(
    argv: Sequence[str] | None = None,
    commands: Sequence[str] = COMMAND_MODULES,
    prog: str = "screenbot",
    description: str = DESCRIPTION,
) -> int:
    """Run one command; the lab's tools in a checkout (``python3 -m lab``) come in with their own list."""
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            argv = _attach_negative_values(sys.argv[1:] if argv is None else argv)
            parser = _parser_for(argv, commands, prog, description)
            args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on bad arguments and 0 on --help
        return _printed(prog, printed.getvalue(), int(exc.code or 0))
    except KeyboardInterrupt:  # while the command modules load
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    logging.basicConfig(
        level=logging.ERROR if args.quiet else logging.WARNING - 10 * min(args.verbose, 2),
        format="%(levelname)s %(name)s: %(message)s",
    )
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    closed = closed_streams()
    if closed:
        print(f"{prog}: {closed}", file=sys.stderr)
        return EXIT_USAGE
    # --templates DIR (on every command that loads skins): read beside the shipped skins while it runs.
    from .skin_folders import use_option_folder

    use_option_folder(getattr(args, "templates", None))
    replaced = {}
    stdout, sys.stdout = sys.stdout, CheckedOutput(sys.stdout)
    try:
        replaced = handle_interrupts()
        with interrupts_not_lost():
            code = int(args.run(args))
        sys.stdout.flush()  # here, so that output that cannot be written is said, not lost at exit
        return code
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. piped into `head`); nothing more can be written.
        sys.stderr.close()
        return EXIT_OK
    except OutputError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        if stdout is sys.__stdout__:  # the process's own: what Python would flush at exit is dropped
            stdout = open(os.devnull, "w", encoding="utf-8")
        return EXIT_USAGE
    except MinesweeperError as exc:
        # An error a command did not handle itself: its exit code comes from the one table.
        print(f"{prog}: {exc}", file=sys.stderr)
        return for_error(exc)
    except Exception as exc:
        if not _out_of_memory(exc):
            raise
        print(f"{prog}: out of memory (a memory limit for this process, or the input is too large for this "
              "machine)", file=sys.stderr)
        return EXIT_FAILED
    finally:
        sys.stdout = stdout
        use_option_folder(None)
        restore(replaced)
