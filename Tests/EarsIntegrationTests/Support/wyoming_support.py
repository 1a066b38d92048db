"""What the tests' Wyoming clients share: the pinned `wyoming` package and one JSON line out.

`wyoming_client.py`, `wyoming_wake_client.py` and `wake_shape_client.py`
import this (Python puts a script's own directory first on sys.path).
"""

import json
import os
import sys
from typing import NoReturn

_REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
_DEPS = os.path.join(_REPO, ".deps", "wyoming")


def use_pinned_wyoming() -> None:
    """Puts the repository's .deps/wyoming (make wyoming-setup) first, so the pinned copy wins."""
    if os.path.isdir(_DEPS) and _DEPS not in sys.path:
        sys.path.insert(0, _DEPS)


def missing_package(script: str, error: ImportError) -> NoReturn:
    """Says the package is missing and how to install it, then exits 1."""
    print(f"{script}: cannot import the wyoming package ({error}); run make wyoming-setup", file=sys.stderr)
    sys.exit(1)


def emit(line: dict) -> None:
    """One JSON line, flushed at once so a test reading the pipe sees it."""
    print(json.dumps(line, ensure_ascii=False, sort_keys=True), flush=True)
