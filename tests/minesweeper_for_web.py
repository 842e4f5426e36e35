"""minesweeper-for-web (npm 3.0.4, a Web Component by Manuel Henke): a browser client in the classic
Windows look (grey raised covered cells, flat opened ones of the same grey, the standard number
colours, 40 px fields drawn as SVG) found on npm, which no skin was taught on and no code of ours
names. A page of the kind its README describes embeds it: the component, and a face button above it
that starts a new game (its ``restart-selector``).

What it does, seen here: left click opens; flags only with Ctrl/Alt held while clicking, or a long
press (a right click does nothing: ``play`` sends no flag to it, and needs none, the page flags every
mine at a win); a
lost game shows every mine, the hit one on red, and wrong flags crossed out. Its own state
(``board_text``, through Chromium's DevTools protocol) is the truth the tests compare with, never the
screen.
"""

from __future__ import annotations

from pathlib import Path

from screenbot.desktop.browser import npm_package, start_page
from screenbot.desktop.launch import launch_for
from screenbot.desktop.processes import ClientWindow

PACKAGE = "minesweeper-for-web@3.0.4"
TITLE = "Minesweeper for web"

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>Minesweeper for web</title>
<script type="module" src="package/dist/custom-element.js"></script>
<style>
body { background: #008080; margin: 0; padding: 24px; }
.panel { display: inline-block; background: #bdbdbd; padding: 8px; border: 3px solid;
         border-color: #fff #7b7b7b #7b7b7b #fff; }
.top { text-align: center; margin-bottom: 8px; }
#face { width: 34px; height: 34px; font: bold 16px sans-serif; background: #bdbdbd; border: 3px solid;
        border-color: #fff #7b7b7b #7b7b7b #fff; }
</style></head>
<body oncontextmenu="return false">
<div class="panel"><div class="top"><button id="face" title="New game">:)</button></div>
<minesweeper-game id="game" restart-selector="#face"></minesweeper-game></div>
<script>
const query = new URLSearchParams(location.search), game = document.getElementById('game');
for (const key of ['rows', 'columns', 'bombs']) if (query.get(key)) game.setAttribute(key, query.get(key));
</script>
</body></html>
"""

# The game's verdict from the component's own state: over, and lost when a mine went off.
STATE_JS = """
(() => {
  const e = document.getElementById('game').engine;
  const lost = e.board.positions.flat().includes('BOMB_EXPLODE');
  return {won: e.isGameOver && !lost, lost: lost};
})()
"""

# The board as the text format, from the component's own state.
BOARD_JS = """
(() => {
  const b = document.getElementById('game').engine.board;
  return b.positions.map((row, r) => row.map((v, c) => {
    const shown = b.revealedFields[r][c], flag = b.flags[r][c];
    if (shown) {
      if (v === 'BOMB') return flag ? 'F' : '*';
      if (v === 'BOMB_EXPLODE') return 'X';
      return flag ? 'W' : String(v);
    }
    return b.questionMarks[r][c] ? '?' : flag ? 'F' : '#';
  }).join(''));
})()
"""

# The mines' places, from the component's own state.
MINES_JS = """
(() => { const b = document.getElementById('game').engine.board, out = [];
  b.positions.forEach((row, r) => row.forEach((v, c) => { if (v === 'BOMB' || v === 'BOMB_EXPLODE') out.push([r, c]); }));
  return out; })()
"""

# Each field's box on the page (device pixels of the viewport: CSS pixels times the device scale factor).
FIELDS_JS = """
(() => Array.from(document.getElementById('game').shadowRoot.querySelectorAll('.sweeper-field')).map(f => {
  const r = f.getBoundingClientRect(), d = window.devicePixelRatio;
  return [Number(f.dataset.row), Number(f.dataset.column), r.left * d, r.top * d, r.width * d, r.height * d];
}))()
"""


def page_folder() -> Path:
    """The folder served: the npm package (fetched once into the cache) and the page beside it."""
    package = npm_package(PACKAGE, "dist/custom-element.js", "minesweeper-for-web")
    page = package.parent / "classic.html"
    if not page.is_file() or page.read_text(encoding="utf-8") != PAGE:
        partial = page.with_suffix(".tmp")
        partial.write_text(PAGE, encoding="utf-8")
        partial.replace(page)  # whole, for tests starting it at the same time
    return package.parent


WINDOW = (1200, 1000)  # the window the tests open the page in


def drawn_scale_and_size(rng, max_rows: int, max_cols: int) -> tuple[float, int, int]:
    """(device scale, rows, columns) drawn from ``rng``: a desktop's scaling (or a browser's zoom) in
    0.67-1.25 draws the page's 40 px fields at 27-50 px, whole or not, its 3 px frame in 2 to 4; the
    board (8 or more lines each way, up to ``max_rows`` x ``max_cols``) fits the ``WINDOW`` at that scale."""
    scale = round(rng.uniform(0.67, 1.25), 2)
    rows = rng.randint(8, min(max_rows, int((WINDOW[1] / scale - 300) / 40)))
    cols = rng.randint(8, min(max_cols, int((WINDOW[0] / scale - 100) / 40)))
    return scale, rows, cols


def start(rows: int = 9, columns: int = 9, bombs: int = 10, window_size: tuple[int, int] = (1000, 900),
          scale: float = 1.0) -> ClientWindow:
    """The page in Chromium (with its DevTools port open, for ``board_text``) on the current display;
    ``scale``: Chromium's device scale factor (a desktop's scaling, as a browser's zoom draws too)."""
    chromium = launch_for("react-minesweeper").command  # the same Chromium and options as the shipped page
    return start_page("minesweeper-for-web", page_folder(), f"classic.html?rows={rows}&columns={columns}&bombs={bombs}",
                      TITLE, chromium, window_size=window_size, devtools=True, scale=scale)


if __name__ == "__main__":
    print(page_folder())
