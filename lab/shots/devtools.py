"""A minimal Chrome DevTools protocol client: evaluate JavaScript in a page on 127.0.0.1.

Used to read the react-minesweeper page's own game state (ground truth for fixtures and end-to-end
tests, independent of the pixel recognizer). It speaks just enough WebSocket (RFC 6455: client
handshake, masked text frames out, unmasked frames in) with the standard library, because the only
peer is a local Chromium and a pip dependency for ~60 lines was not worth it for a test-side tool.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
import urllib.request
from urllib.parse import urlparse

from screenbot.errors import ScreenError


class DevToolsError(ScreenError):
    """The DevTools endpoint did not answer, or the evaluated script threw."""


def page_websocket_url(port: int, url_contains: str = "", timeout: float = 20.0) -> str:
    """The debugger WebSocket URL of the first page target whose URL contains ``url_contains``."""
    deadline = time.monotonic() + timeout
    last_error: Exception | None = None
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=2) as resp:
                targets = json.load(resp)
            for target in targets:
                if target.get("type") == "page" and url_contains in target.get("url", ""):
                    return str(target["webSocketDebuggerUrl"])
        except OSError as exc:
            last_error = exc
        time.sleep(0.2)
    raise DevToolsError(f"no page target on DevTools port {port} ({last_error})", port=port)


class DevToolsPage:
    """One WebSocket connection to a page target. ``evaluate(js)`` returns the value by JSON."""

    def __init__(self, ws_url: str, timeout: float = 10.0) -> None:
        parsed = urlparse(ws_url)
        self._sock = socket.create_connection((parsed.hostname, parsed.port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {parsed.path} HTTP/1.1\r\nHost: {parsed.hostname}:{parsed.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self._sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self._sock.recv(4096)
            if not chunk:
                break
            response += chunk
        if b" 101 " not in response.split(b"\r\n", 1)[0]:
            raise DevToolsError(f"WebSocket handshake refused: {response[:200]!r}")
        self._buffer = response.split(b"\r\n\r\n", 1)[1]
        self._next_id = 0

    def _send(self, payload: bytes) -> None:
        header = bytearray([0x81])  # FIN + text frame
        length = len(payload)
        if length < 126:
            header.append(0x80 | length)
        elif length < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", length)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", length)
        mask = os.urandom(4)  # clients must mask every frame they send
        header += mask
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self._sock.sendall(bytes(header) + masked)

    def _read_exact(self, count: int) -> bytes:
        while len(self._buffer) < count:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise DevToolsError("DevTools connection closed")
            self._buffer += chunk
        data, self._buffer = self._buffer[:count], self._buffer[count:]
        return data

    def _receive(self) -> str:
        message = b""
        while True:
            first, second = self._read_exact(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read_exact(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read_exact(8))[0]
            payload = self._read_exact(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                raise DevToolsError("DevTools closed the connection")
            if opcode in (0x1, 0x0):
                message += payload
                if first & 0x80:
                    return message.decode()

    def call(self, method: str, **params: object) -> dict:
        self._next_id += 1
        call_id = self._next_id
        self._send(json.dumps({"id": call_id, "method": method, "params": params}).encode())
        while True:
            reply = json.loads(self._receive())
            if reply.get("id") == call_id:
                if "error" in reply:
                    raise DevToolsError(f"{method} failed: {reply['error']}")
                return reply.get("result", {})

    def evaluate(self, expression: str) -> object:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise DevToolsError(f"script threw: {result['exceptionDetails'].get('text')}",
                                details=result["exceptionDetails"])
        return result.get("result", {}).get("value")

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> DevToolsPage:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


# Reads the Minesweeper component's React state (not the DOM classes): walk from the table's DOM node
# to its fiber and up to the class component whose state holds ``board``. Returns rows of
# {b: isBomb, r: isRevealed, f: isFlagged, n: bombsAround} plus the lost/won flags and the message.
REACT_MINESWEEPER_STATE_JS = r"""
(() => {
  const table = document.querySelector('table.minesweeper');
  if (!table) return null;
  const key = Object.keys(table).find(k => k.startsWith('__reactInternalInstance') || k.startsWith('__reactFiber'));
  let fiber = table[key];
  while (fiber && !(fiber.stateNode && fiber.stateNode.state && fiber.stateNode.state.board)) fiber = fiber.return;
  if (!fiber) return null;
  const s = fiber.stateNode.state;
  const tds = table.querySelectorAll('td');
  const first = tds[0].getBoundingClientRect(), last = tds[tds.length - 1].getBoundingClientRect();
  return {
    lost: s.isLost, won: s.isWon,
    board: s.board.map(row => row.map(f => ({b: f.isBomb, r: f.isRevealed, f: f.isFlagged, n: f.bombsAround}))),
    cells: [first.left, first.top, last.right, last.bottom],
    dpr: window.devicePixelRatio,
    message: (document.querySelector('#app p') || {}).textContent || ''
  };
})()
"""


def react_minesweeper_board_text(state: dict) -> str:
    """The board text the screen shows for a react-minesweeper state (as read by the JS above).

    Rendering rules of react-minesweeper 1.0.2: while playing, unrevealed cells are covered (a flag
    if flagged); after a loss every cell is revealed, flags disappear and every bomb shows the same
    mine icon (the client marks neither the exploded mine nor wrong flags).
    """
    rows = []
    for row in state["board"]:
        chars = []
        for cell in row:
            if state["lost"]:
                chars.append("*" if cell["b"] else str(cell["n"]))
            elif cell["f"]:
                chars.append("F")  # the flag icon is drawn even over a cell a flood fill revealed
            elif not cell["r"]:
                chars.append("#")
            else:
                chars.append("*" if cell["b"] else str(cell["n"]))
        rows.append("".join(chars))
    return "\n".join(rows) + "\n"
