"""Settings for the whole suite.

Hypothesis's default 200 ms deadline per example is a timing assertion: on a loaded
machine (the suite runs in four pytest-xdist processes over two cores) it fails correct
code. Speed is measured by the scripts in bench/, so the suite's profile has no deadline.
Another profile can be chosen with HYPOTHESIS_PROFILE (say "thorough", for more examples)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("arena", deadline=None)
settings.register_profile("thorough", deadline=None, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "arena"))


@pytest.fixture(autouse=True)
def _bot_folders_readable_by_nobody(request: pytest.FixtureRequest) -> None:
    """As root, sealed bots run as nobody (arena.procs.sandbox.host_uid), so a bot's folder must
    be readable by others, as a bots folder made with the usual umask is; pytest makes
    each test's folder private (0700), and many tests write a bot straight into it."""
    if os.geteuid() == 0 and "tmp_path" in request.fixturenames:
        request.getfixturevalue("tmp_path").chmod(0o755)


PROCESS_AREAS = ("procs", "play", "check", "views", "sdk", "e2e")
"""Folders of tests that start processes (bots, command lines, a browser): every test in
them is marked `processes`. Elsewhere a module that starts one says so itself
(`pytestmark = pytest.mark.processes`); `_processes_are_marked` holds both to it."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.parent.name in PROCESS_AREAS:
            item.add_marker(pytest.mark.processes)


@pytest.fixture(autouse=True)
def _processes_are_marked(request: pytest.FixtureRequest,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A test not marked `processes` may start none, so that `pytest -m "not processes"`
    is the suite's pure part, whole: it fails at the first process it would start."""
    if request.node.get_closest_marker("processes") is not None:
        return
    import subprocess

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"{request.node.nodeid} starts a process: mark it, or its "
                             "module, with pytest.mark.processes")

    monkeypatch.setattr(subprocess.Popen, "_execute_child", refuse)
    for name in ("fork", "posix_spawn", "posix_spawnp", "forkpty"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse)
