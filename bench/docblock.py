"""Writes a measured section into a markdown file, between markers the script owns.

A section is `<!-- NAME:begin (written by SCRIPT) -->` … `<!-- NAME:end -->`;
everything between is replaced, the rest of the file is left alone. A file
without the markers gets the section appended.
"""
from __future__ import annotations

import re
from pathlib import Path


def begin_marker(name: str, script: str) -> str:
    return f"<!-- {name}:begin (written by {script}) -->"


def end_marker(name: str) -> str:
    return f"<!-- {name}:end -->"


def replace_block(path: Path, name: str, script: str, lines: list[str]) -> None:
    """Puts `lines` between the `name` markers of `path` (appending the section if it has none)."""
    body = "\n".join([begin_marker(name, script), *lines, end_marker(name)])
    text = path.read_text()
    pattern = re.compile(re.escape(f"<!-- {name}:begin") + r".*?" + re.escape(end_marker(name)), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: body, text)
    else:
        text = text.rstrip("\n") + "\n\n" + body + "\n"
    path.write_text(text)
