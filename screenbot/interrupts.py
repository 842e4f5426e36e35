"""How a command is ended from outside: Ctrl-C (SIGINT), SIGTERM (``kill``, a service manager) and
SIGHUP (the terminal closed) each raise a ``KeyboardInterrupt`` in the main thread, so every ``finally``
and ``with`` block runs (workers stopped, clients and displays it started closed, staging folders
removed) and the command prints what it has so far. ``main`` in ``cli`` sets this up around a command.

Two ways an interrupt raised just anywhere was lost or hung a command, both met in CI:
- raised while a finalizer runs, Python prints "Exception ignored" and drops it (``interrupts_not_lost``);
- raised inside python-xlib's request/reply exchange, it leaves the X connection unusable, and the
  clean-up's own X calls never return (``_NOT_CUT``)."""

from __future__ import annotations

import _thread
import contextlib
import signal
import sys
import threading


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised as Ctrl-C's KeyboardInterrupt is, so every ``except KeyboardInterrupt``
    cleans up after it. A subclass, not KeyboardInterrupt itself: once a KeyboardInterrupt (that exact
    type) has ended code CPython runs for an extension module (``PyRun_*``, as a library's import can),
    CPython ends the process by SIGINT at exit, whatever exit code ``main`` returned: SIGTERM during
    new-skin's imports on a busy machine ended it so in 1 run of 24."""


# SIGTERM and SIGHUP where the platform has them (Windows has no SIGHUP); SIGINT is Ctrl-C itself.
ENDING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

# Packages no exception may cut short. python-xlib keeps the state of its one connection's exchange (a
# request waiting for its reply, someone receiving) in attributes it resets on the way out, not in
# ``finally``: cut there, the connection's next round trip loops for ever without sending, and the
# clean-up's X calls (a hint's overlay taken down) never return. A live hint given SIGTERM beside play
# did not end in the 30 s its test waits (1 CI run); a process cut in a loop of X round trips hung 20
# times of 20, by SIGTERM as by Ctrl-C (tests/test_interrupted_x_calls.py). An interrupt arriving
# inside such a package is raised on the first line the main thread runs outside it.
_NOT_CUT = ("Xlib",)

# Set when a finalizer dropped a Terminated: the next signal the ignoring handler sees raises it again.
_TERMINATED_AGAIN = threading.Event()


def handle_interrupts() -> dict:
    """Set the handlers for a command's run; returns the handlers it replaced, which ``restore`` puts
    back (``main`` is also called inside other programs). Only the main thread may set handlers.

    After SIGTERM or SIGHUP further signals are ignored while the command cleans up, so the clean-up is
    not cut short; a second Ctrl-C after a first still ends it at once, as a user pressing it twice
    expects. A Ctrl-C the process was started ignoring (a background job) stays ignored."""

    def ctrl_c(signum, frame) -> None:
        if not _held_back(signum, frame):
            raise KeyboardInterrupt

    def ignore_more(signum, frame) -> None:
        # A Python handler, not SIG_IGN: the one way a Terminated that a finalizer dropped comes back
        # (``interrupts_not_lost``) is a signal simulated in the main thread, which SIG_IGN would drop.
        if _TERMINATED_AGAIN.is_set() and not _held_back(signum, frame):
            _TERMINATED_AGAIN.clear()
            raise Terminated

    def terminate(signum, frame) -> None:
        if _held_back(signum, frame):
            return
        for sig in (*ENDING_SIGNALS, signal.SIGINT):
            signal.signal(sig, ignore_more)
        raise Terminated

    if threading.current_thread() is not threading.main_thread():
        return {}
    _TERMINATED_AGAIN.clear()
    # getsignal: None for a handler not set from Python, which cannot be put back.
    replaced = {sig: signal.getsignal(sig) for sig in (*ENDING_SIGNALS, signal.SIGINT)}
    for sig in ENDING_SIGNALS:
        signal.signal(sig, terminate)
    if replaced[signal.SIGINT] is signal.default_int_handler:
        signal.signal(signal.SIGINT, ctrl_c)
    return {sig: handler for sig, handler in replaced.items() if handler is not None}


def restore(replaced: dict) -> None:
    """Put back the handlers ``handle_interrupts`` replaced."""
    for sig, handler in replaced.items():
        signal.signal(sig, handler)


def _held_back(signum: int, frame) -> bool:
    """Whether the main thread, interrupted at ``frame``, is inside a package of ``_NOT_CUT``. If so, the
    signal's handler is called again on the first line run outside it (raising there, from a trace
    function, as debuggers end a program; Python then turns tracing off, a debugger's or coverage's too).
    Not a simulated signal a moment later: in a loop of X calls that lands inside again nearly always."""
    outermost = None
    while frame is not None:
        if frame.f_globals.get("__name__", "").partition(".")[0] in _NOT_CUT:
            outermost = frame
        frame = frame.f_back
    if outermost is None:
        return False

    def on_line(frame, event, arg):
        if event != "line":
            return on_line
        sys.settrace(None)
        for caller in callers:
            caller.f_trace = None
        handler = signal.getsignal(signum)
        if callable(handler):  # still a Python handler: one of this module's
            handler(signum, frame)
        return None

    callers = []
    frame = outermost.f_back
    while frame is not None:
        frame.f_trace = on_line
        callers.append(frame)
        frame = frame.f_back
    sys.settrace(lambda frame, event, arg: None)  # tracing on; no new frame traced
    return True


@contextlib.contextmanager
def interrupts_not_lost():
    """A Ctrl-C or SIGTERM that lands while a finalizer runs (a ``weakref.finalize`` callback, a
    ``__del__``) is printed as "Exception ignored" and dropped by Python, and the command goes on as if
    none had come: play went on with its 500 games after Ctrl-C (1 CI run), and a live hint, its
    further signals ignored, ran its 90 s after SIGTERM (1 CI run). Such a dropped interrupt is raised
    again in the main thread, where it ends the command."""
    previous = sys.unraisablehook

    def hook(unraisable) -> None:
        if not isinstance(unraisable.exc_value, KeyboardInterrupt):
            previous(unraisable)
            return
        if isinstance(unraisable.exc_value, Terminated):
            # The handler that raised it now ignores signals but this one (``handle_interrupts``).
            _TERMINATED_AGAIN.set()
        # From another thread, a moment later: raised here, inside the hook, it would be dropped again.
        threading.Timer(0.05, _thread.interrupt_main).start()

    sys.unraisablehook = hook
    try:
        yield
    finally:
        sys.unraisablehook = previous
