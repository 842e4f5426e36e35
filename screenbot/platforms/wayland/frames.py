"""The screen cast's frames: a GStreamer pipeline in a child process, the latest frame held here.

Mutter sends a frame only when the screen changes, so one stream is kept open for the whole session
and ``latest`` answers at once with what the screen shows now (a new stream takes ~30 ms to its first
frame). ``gst-launch-1.0`` reads the PipeWire node and writes raw BGRx frames of the monitor's size to
a pipe; a reader thread keeps the newest. The pipeline ends by itself when this process goes (its next
write fails), so nothing is left behind.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import time

import numpy as np

from ...errors import DesktopGoneError, DisplayError

log = logging.getLogger(__name__)

FIRST_FRAME_TIMEOUT = 5.0  # seconds; the first frame came after 0.2 s here
PACKAGES = "gstreamer1.0-tools gstreamer1.0-pipewire"


class FrameStream:
    def __init__(self, node: int, size: tuple[int, int]) -> None:
        tool = shutil.which("gst-launch-1.0")
        if tool is None:
            raise DisplayError(f"the Wayland screen cast needs GStreamer's gst-launch-1.0 and its PipeWire "
                               f"source: apt-get install {PACKAGES}")
        self.size = size
        width, height = size
        # The caps fix the frame size: a stream that changed size would stop the pipeline (an error
        # below) rather than be cut into frames of the wrong shape.
        command = [tool, "-q", "pipewiresrc", f"path={node}", "always-copy=true", "!", "videoconvert", "!",
                   f"video/x-raw,format=BGRx,width={width},height={height}", "!", "fdsink", "fd=1", "sync=false"]
        self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE)
        self._frame: bytes | None = None
        self._said: list[str] | None = None  # the pipeline's error output, once it has ended
        self.count = 0  # frames received so far
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        self._reader = threading.Thread(target=self._read, name="screen-cast", daemon=True)
        self._reader.start()
        if not self.wait_for(1, FIRST_FRAME_TIMEOUT):
            self.close()
            raise DisplayError(f"GNOME's screen cast sent no frame in {FIRST_FRAME_TIMEOUT:.0f} s{self._why()}")

    def _read(self) -> None:
        length = self.size[0] * self.size[1] * 4
        out = self._process.stdout
        while True:
            frame = out.read(length)
            if len(frame) < length:  # the pipeline ended
                break
            with self._arrived:
                self._frame = frame
                self.count += 1
                self._arrived.notify_all()
        with self._arrived:
            self._arrived.notify_all()

    def _why(self) -> str:
        """The pipeline's own words when it has ended (a missing PipeWire source, a lost stream)."""
        if self._process.poll() is None:
            return ""
        if self._said is None:
            self._said = self._process.stderr.read().decode("utf-8", "replace").strip().splitlines()
        said = self._said
        hint = f" (is {PACKAGES} installed?)" if any("no element" in line for line in said) else ""
        return f": GStreamer said {said[-1] if said else f'nothing (exit {self._process.returncode})'}{hint}"

    def wait_for(self, count: int, timeout: float) -> bool:
        """Wait until ``count`` frames have arrived in all, or ``timeout`` seconds; False on timeout or
        when the stream ended."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while self.count < count and self._reader.is_alive():
                left = deadline - time.monotonic()
                if left <= 0 or not self._arrived.wait(left):
                    break
            return self.count >= count

    def latest(self) -> np.ndarray:
        """The newest frame, (height, width, 4) BGRx, read-only. DesktopGoneError once the stream ended."""
        if not self._reader.is_alive():
            raise DesktopGoneError(f"GNOME's screen cast ended{self._why()}")
        with self._lock:
            frame = self._frame
        width, height = self.size
        return np.frombuffer(frame, np.uint8).reshape(height, width, 4)

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(2)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._reader.join(2)
        self._why()  # kept for an error raised after closing (no first frame)
        for pipe in (self._process.stdout, self._process.stderr):
            pipe.close()
