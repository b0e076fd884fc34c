"""Errors for people: every bad input becomes one line naming the file, line and what was expected."""


class HordeError(Exception):
    """A problem in the user's input, reported as one line; the CLI exits with code 2."""

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.message = message
        self.path = path
        self.line = line
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = ""
        if self.path is not None:
            where = f"{self.path}:{self.line}: " if self.line is not None else f"{self.path}: "
        return where + self.message


class DeckError(HordeError):
    """A decklist or card catalogue that cannot be read as written."""
