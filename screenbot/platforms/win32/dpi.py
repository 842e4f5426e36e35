"""Make this process DPI aware before anything measures the screen.

A DPI-unaware process on a scaled monitor (125 %, 150 %...) is lied to: Windows hands it screen
coordinates divided by the scale and stretches its screenshots, so a board found on a grab and the
point a click lands on disagree. Awareness must be set before mss or pyautogui look at the screen
(pyautogui sets the old system-wide kind when it is imported), and it can be set only once per
process: a manifest, the Python launcher or Wine may have set it already, and the calls then answer
"access denied", which is not an error. What the process ends up with is read back, not assumed.
"""

from __future__ import annotations

import logging

from .api import (DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2, E_ACCESSDENIED, ERROR_ACCESS_DENIED,
                  PROCESS_PER_MONITOR_DPI_AWARE)

log = logging.getLogger(__name__)

PER_MONITOR_V2, PER_MONITOR, SYSTEM, UNAWARE = "per-monitor v2", "per-monitor", "system", "unaware"
_AWARENESS = {0: UNAWARE, 1: SYSTEM, 2: PER_MONITOR}


def make_dpi_aware(api=None) -> str:
    """Ask for the best DPI awareness this Windows offers (per-monitor v2, then 8.1's per-monitor, then
    Vista's system-wide) and say what the process has now: one of "per-monitor v2", "per-monitor",
    "system", "unaware"."""
    if api is None:
        from .api import Win32Api

        api = Win32Api()
    _ask(api)
    return awareness(api)


def _ask(api) -> None:
    """Stop at the first call that sets it, or that says it was set already (later calls would be
    refused the same way)."""
    answer = api.set_process_dpi_awareness_context(DPI_AWARENESS_CONTEXT_PER_MONITOR_AWARE_V2)
    if answer == 0:
        return
    if answer == ERROR_ACCESS_DENIED:
        log.debug("DPI awareness was set before this process asked (a manifest, or the system)")
        return
    if answer is not None:  # e.g. ERROR_INVALID_PARAMETER: a Windows 10 older than v2 (1703)
        log.debug("SetProcessDpiAwarenessContext(per-monitor v2) failed: error %d", answer)
    answer = api.set_process_dpi_awareness(PROCESS_PER_MONITOR_DPI_AWARE)
    if answer == 0:
        return
    if answer == E_ACCESSDENIED:
        log.debug("DPI awareness was set before this process asked (a manifest, or the system)")
        return
    if answer is not None:
        log.debug("SetProcessDpiAwareness(per-monitor) failed: HRESULT 0x%08x", answer)
    if not api.set_process_dpi_aware():
        log.debug("SetProcessDPIAware failed")


def awareness(api) -> str:
    """What the process is, asked of the newest call this Windows has."""
    thread = api.thread_dpi_awareness()
    if thread is not None and thread[0] in _AWARENESS:
        kind, v2 = thread
        return PER_MONITOR_V2 if v2 else _AWARENESS[kind]
    process = api.process_dpi_awareness()
    if process in _AWARENESS:
        return _AWARENESS[process]
    return SYSTEM if api.is_process_dpi_aware() else UNAWARE
