"""The rules core is pure: no module under arena/core imports I/O, networking, UI or
concurrency libraries, imports the rest of the arena, or opens files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "arena" / "core"
FORBIDDEN = frozenset(
    {"trio", "grpc", "rich", "os", "subprocess", "socket", "pathlib", "io", "sqlite3",
     "asyncio", "threading"}
)
FORBIDDEN_CALLS = frozenset({"open", "__import__", "exec", "eval"})


def impurities(source: str, filename: str = "<source>") -> list[str]:
    """Every forbidden import or call in a module's source, as 'line: what'."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module]
        for module in modules:
            top = module.split(".")[0]
            if top in FORBIDDEN or top == "importlib":
                found.append(f"{node.lineno}: imports {module}")
            elif top == "arena" and module.split(".")[:2] != ["arena", "core"]:
                found.append(f"{node.lineno}: imports {module} (outside the rules core)")
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else None
            )
            if name in FORBIDDEN_CALLS:
                found.append(f"{node.lineno}: calls {name}()")
    return found


CORE_MODULES = sorted(CORE.rglob("*.py"))


def test_the_core_has_its_modules():
    names = {p.name for p in CORE_MODULES}
    assert {"cards.py", "rules.py", "actions.py", "hand.py", "scoring.py", "game.py",
            "view.py", "__init__.py"} <= names


@pytest.mark.parametrize("path", CORE_MODULES, ids=lambda p: str(p.relative_to(CORE)))
def test_core_module_is_pure(path):
    assert impurities(path.read_text(encoding="utf-8"), str(path)) == []


@pytest.mark.parametrize(
    "source",
    [
        "import os",
        "import os.path",
        "from os import path",
        "from pathlib import Path",
        "import grpc.aio",
        "from trio import sleep",
        "import rich.console",
        "import subprocess, json",
        "import socket",
        "import io",
        "import sqlite3",
        "import asyncio",
        "import threading",
        "import importlib",
        "from arena.wire import codec",
        "import arena.play.runner",
        "def f():\n    return open('x')",
        "x = builtins.open('x')",
        "m = __import__('os')",
    ],
)
def test_the_checker_catches_each_kind_of_impurity(source):
    assert impurities(source) != []


def test_the_checker_allows_what_the_core_uses():
    source = (
        "from __future__ import annotations\n"
        "from random import Random\n"
        "from dataclasses import dataclass\n"
        "from arena.core.cards import Card\n"
        "from . import cards\n"
        "import arena.core.rules\n"
        "x = sorted([1])\n"
    )
    assert impurities(source) == []
