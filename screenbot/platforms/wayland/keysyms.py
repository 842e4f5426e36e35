"""pyautogui's key names (the ones skins' profiles use) as X keysyms, which Mutter's RemoteDesktop takes."""

from __future__ import annotations

from ...errors import InputError

_NAMED = {
    "escape": 0xFF1B, "esc": 0xFF1B, "enter": 0xFF0D, "return": 0xFF0D, "tab": 0xFF09, "space": 0x20,
    "backspace": 0xFF08, "delete": 0xFFFF, "home": 0xFF50, "end": 0xFF57,
    "left": 0xFF51, "up": 0xFF52, "right": 0xFF53, "down": 0xFF54,
    "ctrl": 0xFFE3, "ctrlleft": 0xFFE3, "ctrlright": 0xFFE4, "shift": 0xFFE1, "shiftleft": 0xFFE1,
    "shiftright": 0xFFE2, "alt": 0xFFE9, "altleft": 0xFFE9, "altright": 0xFFEA,
}


def keysym(name: str) -> int:
    """The keysym of one pyautogui key name; InputError for a name this backend does not know."""
    key = name.lower()
    if key in _NAMED:
        return _NAMED[key]
    if len(key) == 1 and (key.isascii() and key.isprintable()):
        return ord(key)  # Latin-1 keysyms are the characters' own codes
    if key.startswith("f") and key[1:].isdigit() and 1 <= int(key[1:]) <= 12:
        return 0xFFBE + int(key[1:]) - 1
    raise InputError(f"the key {name!r} cannot be sent on Wayland (known: letters, digits, F1-F12, "
                     f"{', '.join(sorted(_NAMED))})")
