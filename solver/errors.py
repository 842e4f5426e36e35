"""Named errors of the pure side. Context travels as keyword attributes, not inside strings only."""

from __future__ import annotations


class MinesweeperError(Exception):
    """Base of every error this project raises on purpose."""

    def __init__(self, message: str, /, **details: object) -> None:
        super().__init__(message)
        self.details = details


class BoardFormatError(MinesweeperError):
    """A board text that does not follow the format. `line` and `column` are 1-based."""

    def __init__(self, message: str, /, *, line: int | None = None, column: int | None = None) -> None:
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message, line=line, column=column)
        self.line = line
        self.column = column


class InconsistentBoardError(MinesweeperError):
    """No placement of mines agrees with the numbers shown. `cells` are (row, col) pairs involved."""

    def __init__(self, message: str, /, *, cells: tuple[tuple[int, int], ...] = ()) -> None:
        shown = ", ".join(f"({r},{c})" for r, c in cells[:12])
        more = f" and {len(cells) - 12} more" if len(cells) > 12 else ""
        super().__init__(f"{message}: cells {shown}{more}" if cells else message, cells=cells)
        self.cells = cells
