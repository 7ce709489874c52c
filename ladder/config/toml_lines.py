"""Where a key sits in TOML text: the line to put in an error message.

tomllib gives a line only for a syntax error. A ladder file that parses can still hold a
value that makes no sense (a bot that does not exist, an odd number of games in duplicate
mode), and the person fixing it before leaving a ladder to run overnight needs the line of
that key, "FILE:LINE: KEY: what is wrong", not just its name. tomllib keeps no positions,
so this module scans the text itself. It is kept apart from ladder/config/ladder_file.py, which only
checks values, because finding lines is a job of its own with its own ways of failing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


class KeyLines:
    """Finds the line of a key in TOML text, for error messages.

    Not a TOML parser: it follows [table] and [[array]] headers, dotted keys and inline
    tables well enough for the ladder format, and when it cannot place a nested key it
    falls back to the line of the enclosing key, which is always found when the key was
    written at all.
    """

    _HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.table: list[tuple[str, ...]] = []  # the table each line belongs to
        self.array_headers: dict[str, list[int]] = {}
        current: tuple[str, ...] = ()
        for number, line in enumerate(self.lines, start=1):
            m = self._HEADER.match(line)
            if m:
                current = tuple(p.strip().strip("\"'") for p in m.group(2).split("."))
                if m.group(1) == "[[":
                    self.array_headers.setdefault(".".join(current), []).append(number)
            self.table.append(current)

    def _key_line(self, table: tuple[str, ...], key: str, start: int = 0) -> int | None:
        pattern = re.compile(rf"^\s*[\"']?{re.escape(key)}[\"']?\s*=")
        for i in range(start, len(self.lines)):
            if self.table[i] == table and pattern.match(self.lines[i]):
                return i + 1
        return None

    def find(self, path: Sequence[str | int]) -> int | None:
        keys = [p for p in path if isinstance(p, str)]
        if not keys:
            return None
        top = keys[0]
        if len(path) >= 2 and isinstance(path[1], int):
            return self._find_item(top, path[1], path[2:])
        line = self._key_line((), top) or self._header_line((top,))
        if len(keys) == 1:
            return line
        sub = keys[1]
        nested = (
            self._key_line((top,), sub)
            or self._key_line((), f"{top}.{sub}")
            or self._inline_key(line, sub)
        )
        return nested or line

    def _header_line(self, table: tuple[str, ...]) -> int | None:
        for i, t in enumerate(self.table):
            if t == table and self._HEADER.match(self.lines[i]):
                return i + 1
        return None

    def _inline_key(self, line: int | None, key: str) -> int | None:
        """A key inside an inline table that starts on `line` (possibly spanning lines)."""
        if line is None:
            return None
        pattern = re.compile(rf"[{{,]\s*[\"']?{re.escape(key)}[\"']?\s*=")
        depth = 0
        for i in range(line - 1, len(self.lines)):
            text = self.lines[i].split("#", 1)[0]
            if pattern.search(text):
                return i + 1
            depth += text.count("{") - text.count("}")
            if depth <= 0:
                return None
        return None

    def _find_item(self, top: str, index: int, rest: Sequence[str | int]) -> int | None:
        headers = self.array_headers.get(top)
        if headers:  # [[bots]] tables
            if index >= len(headers):
                return headers[-1]
            start = headers[index]
            if rest and isinstance(rest[0], str):
                found = self._key_line((top,), rest[0], start - 1)
                end = headers[index + 1] if index + 1 < len(headers) else len(self.lines) + 1
                if found is not None and found < end:
                    return found
            return start
        line = self._key_line((), top)
        if line is None:
            return None
        starts = self._array_item_lines(line)
        return starts[index] if index < len(starts) else line

    def _array_item_lines(self, line: int) -> list[int]:
        """The line on which each top-level item of the inline array at `line` starts."""
        starts: list[int] = []
        depth = 0
        in_string: str | None = None
        expecting = False  # the next non-blank character at depth 1 starts an item
        for i in range(line - 1, len(self.lines)):
            text = self.lines[i]
            pos = text.index("=") + 1 if i == line - 1 else 0
            while pos < len(text):
                ch = text[pos]
                if in_string:
                    if ch == "\\" and in_string == '"':
                        pos += 1
                    elif ch == in_string:
                        in_string = None
                elif ch == "#":
                    break
                else:
                    if depth == 1 and expecting and not ch.isspace() and ch not in ",]":
                        starts.append(i + 1)
                        expecting = False
                    if ch in "\"'":
                        in_string = ch
                    elif ch in "[{":
                        depth += 1
                        expecting = depth == 1
                    elif ch in "]}":
                        depth -= 1
                        if depth == 0:
                            return starts
                    elif ch == "," and depth == 1:
                        expecting = True
                pos += 1
        return starts
