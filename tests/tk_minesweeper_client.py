"""A Minesweeper built of Tk's own widgets, as hobby clones are (run by ``tests/tk_minesweeper.py``).

Covered cells are Tk buttons, opened cells labels; the look comes from Tk, not from pictures: a
button's relief with Tk's bevel (one pixel by default), the default grey, numbers as text in the
standard colours, the flag as a red glyph. How it is drawn is given as JSON on the command line (cell
size, bevel, highlight ring, the opened cells' relief, the flag's glyph, the font's weight, the board).

The rules are Windows': the first click is never a mine (mines are dealt after it, away from it and its
neighbours), a win flags every mine left, a loss shows every mine and the hit one on red; F2 starts a
new game. Its state is written to a file after every change, for the tests to compare screenshots
and verdicts with: ``{"state": "PLAYING" | "WON" | "LOST", "board": [row, ...]}`` in the board text
format.
"""

import json
import os
import random
import sys
import tkinter as tk

LOOK = json.loads(sys.argv[1])
ROWS, COLS, MINES = LOOK["rows"], LOOK["cols"], LOOK["mines"]
CELL, BEVEL, RING = LOOK["cell"], LOOK["bevel"], LOOK["ring"]
COLOURS = {1: "#0000ff", 2: "#008000", 3: "#ff0000", 4: "#000080", 5: "#800000", 6: "#008080", 7: "#000000",
           8: "#808080"}

root = tk.Tk()
root.title("Tk Minesweeper")
font = ("DejaVu Sans", max(7, CELL // 2), LOOK["weight"])
board_frame = tk.Frame(root, bd=3, relief="sunken")
board_frame.pack(padx=10, pady=10)
holders = {}
game = {}


def new_game(_event=None):
    game.update(mines=set(), shown={}, state="PLAYING", dealt=False)
    for r in range(ROWS):
        for c in range(COLS):
            cover(r, c, flagged=False)
    dump()


def dump():
    text = json.dumps({"state": game["state"],
                       "board": ["".join(game["shown"][(r, c)] for c in range(COLS)) for r in range(ROWS)]})
    with open(LOOK["state_file"] + ".tmp", "w", encoding="utf-8") as out:
        out.write(text)
    os.replace(LOOK["state_file"] + ".tmp", LOOK["state_file"])


def holder(r, c):
    frame = tk.Frame(board_frame, width=CELL, height=CELL)
    frame.pack_propagate(False)
    frame.grid(row=r, column=c)
    return frame


def show(r, c, widget, char):
    for old in holders[(r, c)].winfo_children():
        if old is not widget:
            old.destroy()
    widget.pack(fill="both", expand=True)
    game["shown"][(r, c)] = char


def cover(r, c, flagged):
    button = tk.Button(holders[(r, c)], bd=BEVEL, relief="raised", highlightthickness=RING, padx=0, pady=0,
                       font=font, text=LOOK["flag"] if flagged else "", fg="red", activeforeground="red")
    button.bind("<Button-1>", lambda _e: open_cell(r, c))
    button.bind("<Button-3>", lambda _e: toggle_flag(r, c))
    show(r, c, button, "F" if flagged else "#")


def opened(r, c, char, text="", fg="black", bg=None):
    label = tk.Label(holders[(r, c)], bd=1, relief=LOOK["opened"], text=text, fg=fg, font=font)
    if bg:
        label.configure(bg=bg)
    show(r, c, label, char)


def around(r, c):
    return [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)
            if (dr or dc) and 0 <= r + dr < ROWS and 0 <= c + dc < COLS]


def open_cell(r, c):
    if game["state"] != "PLAYING" or game["shown"][(r, c)] != "#":
        return
    if not game["dealt"]:
        away = {(r, c), *around(r, c)}
        game["mines"] = set(random.sample([(y, x) for y in range(ROWS) for x in range(COLS) if (y, x) not in away], MINES))
        game["dealt"] = True
    if (r, c) in game["mines"]:
        game["state"] = "LOST"
        for mine in game["mines"]:
            if game["shown"][mine] != "F":
                hit = mine == (r, c)
                opened(*mine, "X" if hit else "*", text="\u25cf", bg="red" if hit else None)
        dump()
        return
    todo = [(r, c)]
    while todo:
        y, x = todo.pop()
        if game["shown"][(y, x)] != "#":
            continue
        count = sum(cell in game["mines"] for cell in around(y, x))
        opened(y, x, str(count), text=str(count) if count else "", fg=COLOURS.get(count, "black"))
        if count == 0:
            todo += around(y, x)
    if sum(ch not in "#F" for ch in game["shown"].values()) == ROWS * COLS - MINES:
        game["state"] = "WON"
        for mine in game["mines"]:
            if game["shown"][mine] != "F":
                cover(*mine, flagged=True)
    dump()


def toggle_flag(r, c):
    if game["state"] != "PLAYING" or game["shown"][(r, c)] not in "#F":
        return
    cover(r, c, flagged=game["shown"][(r, c)] == "#")
    dump()


holders.update({(r, c): holder(r, c) for r in range(ROWS) for c in range(COLS)})
root.bind("<F2>", new_game)
new_game()
root.mainloop()
