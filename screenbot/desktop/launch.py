"""How each shipped client is started: the ``launch`` section of its skin's profile.json.

    "launch": {"packages": ["xdemineur"],            Debian packages it needs (installed as root)
               "command": ["xdemineur"],             program and fixed arguments
               "window_title": "mineur",             regex of its window's title (how it is found)
               "demo": {"cols": 30, ...}}            start_client options for `screenbot demo`

The options that vary per start (board size, window size, scale) are ``start_client`` arguments.
Read from the shipped skins only: a user's skin of the same name teaches the reader, not how to start
the client.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from ..errors import ClientStartError
from ..skin_folders import TEMPLATES_DIR


@dataclass(frozen=True, slots=True)
class Launch:
    client: str
    packages: tuple[str, ...]
    command: tuple[str, ...]
    window_title: str
    demo: dict | None = None  # None: not offered by `screenbot demo`
    extra: dict = field(default_factory=dict)  # client-specific keys (the browser client's page)


def launch_for(client: str) -> Launch:
    """The launch section of the shipped skin ``client``; ClientStartError when there is none."""
    path = TEMPLATES_DIR / client / "profile.json"
    try:
        section = json.loads(path.read_text(encoding="utf-8")).get("launch")
    except (OSError, ValueError) as exc:
        raise ClientStartError(f"cannot read {path}: {exc}", client=client) from None
    if not isinstance(section, dict):
        raise ClientStartError(f"{path} has no launch section: screenbot cannot start it", client=client)
    known = ("packages", "command", "window_title", "demo")
    try:
        return Launch(client, tuple(section["packages"]), tuple(section["command"]), str(section["window_title"]),
                      section.get("demo"), {k: v for k, v in section.items() if k not in known})
    except (KeyError, TypeError) as exc:
        raise ClientStartError(f"{path}: launch needs packages, command and window_title ({exc})",
                               client=client) from None


def demo_clients() -> dict[str, dict]:
    """The clients ``screenbot demo`` can start, with the options it starts each with."""
    launches = [launch_for(p.parent.name) for p in sorted(TEMPLATES_DIR.glob("*/profile.json"))
                if "launch" in json.loads(p.read_text(encoding="utf-8"))]
    return {launch.client: launch.demo for launch in launches if launch.demo is not None}
