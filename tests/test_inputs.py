"""Reading user files before any work (screenbot.inputs, capture.save_picture): each fault is named."""

from __future__ import annotations

import struct
import zlib

import cv2
import numpy as np
import pytest

from screenbot.capture import load_image, save_picture
from screenbot.errors import InputError
from screenbot.inputs import IMAGE_PIXEL_LIMIT, image_size, read_image_file, read_text

pytestmark = pytest.mark.integration


def _png_header(width: int, height: int) -> bytes:
    """A PNG signature and IHDR chunk announcing width x height (no picture data)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def test_text_with_a_byte_order_mark_reads_as_text(tmp_path):
    path = tmp_path / "b.txt"
    path.write_bytes(b"\xef\xbb\xbf##\n#1\n")
    assert read_text(path) == "##\n#1\n"


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: None, "no such file"),
        (lambda p: p.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe"), "not a board text: byte 0"),
        (lambda p: p.write_bytes(b"#" * 5000), "larger than"),
    ],
    ids=["folder", "missing", "binary", "too-big"],
)
def test_text_faults_are_named(tmp_path, make, words):
    path = tmp_path / "board.txt"
    make(path)
    with pytest.raises(InputError, match=words) as info:
        read_text(path, what="board text", limit=4000)
    assert str(path) in str(info.value)


def test_a_device_is_refused_before_it_is_read():
    with pytest.raises(InputError, match="/dev/zero: is a device, not a file"):
        read_text("/dev/zero", limit=1000)


def test_a_standard_input_that_never_ends_is_cut_at_the_limit(monkeypatch):
    class Endless:
        def read(self, count: int) -> bytes:
            return b"#" * count

    monkeypatch.setattr("sys.stdin", type("Stdin", (), {"buffer": Endless()})())
    with pytest.raises(InputError, match="standard input: larger than"):
        read_text("-", limit=1000)


def test_a_huge_announced_picture_is_refused_before_decoding(tmp_path):
    path = tmp_path / "huge.png"
    path.write_bytes(_png_header(10_000, 10_000) + b"IEND\xaeB`\x82")
    assert image_size(path.read_bytes()) == (10_000, 10_000)
    with pytest.raises(InputError, match="10000x10000 picture is larger"):
        read_image_file(path)
    assert 10_000 * 10_000 > IMAGE_PIXEL_LIMIT


def test_jpeg_size_is_read_from_its_frame_header(tmp_path):
    ok, data = cv2.imencode(".jpg", np.zeros((37, 53, 3), np.uint8))
    assert ok and image_size(data.tobytes()) == (53, 37)


@pytest.mark.parametrize("suffix", [".png", ".jpg"])
def test_a_picture_cut_short_is_named(tmp_path, suffix):
    ok, data = cv2.imencode(suffix, np.random.default_rng(1).integers(0, 255, (60, 80, 3), dtype=np.uint8))
    path = tmp_path / f"cut{suffix}"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    with pytest.raises(InputError, match="cut short"):
        load_image(path)


def test_an_empty_picture_file_is_named_empty(tmp_path):
    path = tmp_path / "empty.png"
    path.write_bytes(b"")
    with pytest.raises(InputError, match="the file is empty"):
        load_image(path)


def test_save_picture_replaces_the_file_whole_and_leaves_no_temporary(tmp_path):
    picture = np.random.default_rng(2).integers(0, 255, (20, 30, 3), dtype=np.uint8)
    target = tmp_path / "out.png"
    target.write_bytes(b"old")
    save_picture(target, picture)
    assert np.array_equal(cv2.imread(str(target)), picture)
    assert [p.name for p in tmp_path.iterdir()] == ["out.png"]
