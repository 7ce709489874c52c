"""Bot manifests (bot.toml): how the arena finds, starts and names a bot.

    name = "my-bot"                 # required
    version = "1.2"                 # optional: shown in results
    command = ["{python}", "bot.py"]  # or a string, split like a shell would
    cwd = "."                       # relative to the manifest's folder (default: that folder)
    env = { LEVEL = "3" }           # optional extra environment
    read_only = ["/opt/jdk"]        # more host paths the sandbox lets it read
    exclude = ["data/cache"]        # files that are not the bot (see _digest)
    files = ["*.py", "weights/*"]   # or: only these are the bot
    [limits]                        # optional: asks for other limits, within the caps
    memory_mb = 512                 #   of the match or ladder (see arena.settings.limits.Limits)
    # address = "127.0.0.1:50051"   # instead of command: a bot already running elsewhere

In `command`, {python} stands for the Python running the arena and {here} for the
manifest's folder. A BOT argument may be a manifest file, a folder holding bot.toml, or
the name of a sample bot.

In a sandbox the bot reads only its own folder, the system's programs and libraries, the
`read_only` paths, and, when its command uses {python}, the arena's Python installation
and the arena's own packages (its SDK), all read-only: see arena.procs.sandbox.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import os
import re
import shlex
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.settings.errors import ConfigError
from arena.settings.limits import Limits, Sandbox

SAMPLE_BOTS = Path(__file__).resolve().parents[2] / "sample_bots"
MANIFEST_NAME = "bot.toml"
_KEYS = {
    "name", "version", "command", "cwd", "env", "address", "author", "read_only", "limits",
    "startup_timeout", "files", "exclude",
}
DEFAULT_STARTUP_TIMEOUT = 10.0
"""Seconds a bot process has to listen, unless its manifest or the command line says."""


@dataclass(frozen=True)
class BotManifest:
    name: str
    version: str
    command: tuple[str, ...] | None
    """None for a bot already running at `address`."""
    cwd: Path
    env: dict[str, str] = field(default_factory=dict)
    address: str | None = None
    source: Path | None = None
    digest: str = ""
    """A hash of the manifest's content and the bot's files (see _digest): when it
    changes, a ladder treats the bot as a new version."""
    file_digests: dict[str, str] = field(default_factory=dict)
    """The same, file by file (the manifest under its own name), so that a change can be
    named: relative path -> a short hash."""
    read_only: tuple[Path, ...] = ()
    """Host paths its sandbox may read besides its folder (with the arena's Python when
    the command uses {python})."""
    limits: dict[str, int] = field(default_factory=dict)
    """The limits it asks for (Limits keys); the rest are the caps'."""
    startup_timeout: float | None = None
    """Seconds its process may take to listen (a JVM, say, needs more than the default);
    None: the run's limit."""

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}".strip()

    def sandbox(self, caps: Limits) -> Sandbox:
        """Its sandbox under the caps of a match or ladder; ConfigError if it asks for
        more than they allow."""
        limits = Limits(**{**{k: getattr(caps, k) for k in Limits.names()}, **self.limits})
        over = limits.over(caps)
        if over:
            raise ConfigError(
                f"{self.source or self.name}: [limits] asks for more than this run allows: "
                f"{', '.join(over)}"
            )
        return Sandbox(read_only=self.read_only, limits=limits)


def sample_bot_names() -> list[str]:
    if not SAMPLE_BOTS.is_dir():
        return []
    return sorted(p.parent.name for p in SAMPLE_BOTS.glob(f"*/{MANIFEST_NAME}"))


def resolve_manifest_path(ref: str, base: Path | None = None) -> Path:
    """A manifest path from what a person typed: file, folder, or sample bot name."""
    p = Path(ref).expanduser()
    if base is not None and not p.is_absolute():
        p = base / p
    if p.is_file():
        return p
    if p.is_dir():
        if (p / MANIFEST_NAME).is_file():
            return p / MANIFEST_NAME
        raise ConfigError(f"{p}: folder holds no {MANIFEST_NAME}")
    if "/" not in ref and (SAMPLE_BOTS / ref / MANIFEST_NAME).is_file():
        return SAMPLE_BOTS / ref / MANIFEST_NAME
    samples = ", ".join(sample_bot_names()) or "none installed"
    raise ConfigError(
        f"no bot {ref!r}: not a manifest file, a folder with {MANIFEST_NAME}, "
        f"or a sample bot ({samples})"
    )


def load_manifest(ref: str, base: Path | None = None) -> BotManifest:
    path = resolve_manifest_path(ref, base).resolve()
    if path.suffix != ".toml":
        raise ConfigError(
            f"{path}: a bot is given by its manifest ({MANIFEST_NAME}), the folder holding "
            "one, or a sample bot's name, not by its program (see 'Write a bot' in the "
            "README)"
        )
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {e}") from None
    return manifest_from_dict(data, path, raw)


def manifest_from_dict(data: dict[str, Any], path: Path, raw: bytes = b"") -> BotManifest:
    where = str(path)
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        text = raw.decode("utf-8", "replace")
        problems = []
        for key in unknown:
            line = next((i for i, ln in enumerate(text.splitlines(), 1)
                         if re.match(rf"\s*\"?{re.escape(key)}\"?\s*=", ln)), None)
            near = difflib.get_close_matches(key, sorted(_KEYS), n=1)
            problems.append(
                (f"line {line}: " if line else "") + f"unknown key {key!r}"
                + (f" (did you mean {near[0]!r}?)" if near else "")
            )
        raise ConfigError(
            f"{where}: " + "; ".join(problems) + f" (known: {', '.join(sorted(_KEYS))})"
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(f"{where}: 'name' must be a non-empty string")
    if any(c.isspace() or c in "/\\" for c in name):
        raise ConfigError(f"{where}: name {name!r} may not hold spaces or slashes")
    version = data.get("version", "")
    if not isinstance(version, str | int | float):
        raise ConfigError(f"{where}: 'version' must be a string")
    here = path.parent
    command = data.get("command")
    address = data.get("address")
    if (command is None) == (address is None):
        raise ConfigError(f"{where}: give exactly one of 'command' (to start the bot) or 'address'")
    argv: tuple[str, ...] | None = None
    if command is not None:
        if isinstance(command, str):
            parts = shlex.split(command)
        elif isinstance(command, list) and all(isinstance(x, str) for x in command):
            parts = list(command)
        else:
            raise ConfigError(f"{where}: 'command' must be a string or a list of strings")
        if not parts:
            raise ConfigError(f"{where}: 'command' is empty")
        argv = tuple(p.replace("{python}", sys.executable).replace("{here}", str(here)) for p in parts)
    elif not isinstance(address, str) or not address:
        raise ConfigError(f"{where}: 'address' must be a gRPC target such as '127.0.0.1:50051'")
    cwd_value = data.get("cwd", ".")
    if not isinstance(cwd_value, str):
        raise ConfigError(f"{where}: 'cwd' must be a string")
    cwd = (here / cwd_value).resolve()
    if argv is not None and not cwd.is_dir():
        raise ConfigError(f"{where}: cwd {cwd} is not a folder")
    env = data.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise ConfigError(f"{where}: 'env' must be a table of strings, e.g. env = {{ LEVEL = \"3\" }}")
    read_only = _read_only(data.get("read_only", []), here, where)
    if argv is not None and any("{python}" in part for part in parts):
        read_only += python_runtime()
    limits = _limits(data.get("limits", {}), where)
    files = _patterns(data, "files", where)
    exclude = _patterns(data, "exclude", where)
    digest, file_digests = _digests(path.name, raw, cwd if argv is not None else None,
                                    files, exclude)
    startup = data.get("startup_timeout")
    if startup is not None and (
        isinstance(startup, bool) or not isinstance(startup, int | float) or not startup > 0
    ):
        raise ConfigError(f"{where}: 'startup_timeout' must be a positive number of seconds")
    return BotManifest(
        name=name,
        version=str(version),
        command=argv,
        cwd=cwd,
        env=dict(env),
        address=address,
        source=path,
        digest=digest,
        file_digests=file_digests,
        read_only=tuple(dict.fromkeys(read_only)),
        limits=limits,
        startup_timeout=float(startup) if startup is not None else None,
    )


def _read_only(value: object, here: Path, where: str) -> list[Path]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: 'read_only' must be a list of paths, e.g. [\"/opt/jdk\"]")
    paths = []
    for v in value:
        p = (here / Path(v).expanduser()).resolve()
        if not p.exists():
            raise ConfigError(f"{where}: read_only path {v!r} does not exist ({p})")
        paths.append(p)
    return paths


def _limits(value: object, where: str) -> dict[str, int]:
    keys = Limits.names()
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: 'limits' must be a table, e.g. [limits] memory_mb = 512")
    for k, v in value.items():
        if k not in keys:
            raise ConfigError(f"{where}: limits: unknown key {k!r} (known: {', '.join(keys)})")
        if not isinstance(v, int) or isinstance(v, bool) or v < 1:
            raise ConfigError(f"{where}: limits.{k} must be a whole number of at least 1")
    return dict(value)


def python_runtime() -> list[Path]:
    """What a `{python}` bot needs to read: the arena's Python (a venv and the
    installation it links to) and the arena's own packages, wherever they are installed.
    All of it is the arena's public code; none of it holds a game."""
    import arena

    paths = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.executable).resolve().parent.parent,
             Path(arena.__file__).resolve().parent, SAMPLE_BOTS]
    return [p.resolve() for p in paths if p.exists()]


_HASH_WHOLE = 4 << 20

LEFT_OUT = (
    # version control and caches
    ".git", ".hg", ".svn", "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    "*.pyc",
    # what the arena writes: logs, ladder databases (and SQLite's files beside a live
    # one), a ladder's log folder, the default folder of matches and the demo
    "*.log", "*.sqlite", "*-wal", "*-shm", "*-journal", "*-logs", "runs",
)
"""Never part of a bot's fingerprint: files and folders (names, at any depth) that are
not its code, or that the arena itself writes when a ladder file or a match's output sits
in the bot's folder. node_modules is kept: for a JavaScript bot it is the code that runs
(a manifest's `exclude` can leave it out)."""


def _patterns(data: dict[str, Any], key: str, where: str) -> tuple[str, ...] | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of file patterns, e.g. "
                          '["*.py", "weights/*"]')
    return tuple(v.strip("/") for v in value)


def _matches(rel: str, patterns: tuple[str, ...]) -> bool:
    """A pattern without a slash matches a file's or a folder's name at any depth; one
    with a slash matches a path from the bot's folder. A folder that matches holds only
    matches."""
    parts = rel.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return any(
        fnmatch.fnmatchcase(prefix, pat) for pat in patterns if "/" in pat for prefix in prefixes
    ) or any(fnmatch.fnmatchcase(name, pat) for pat in patterns if "/" not in pat for name in parts)


def bot_files(folder: Path, files: tuple[str, ...] | None = None,
              exclude: tuple[str, ...] | None = None) -> list[Path]:
    """The files of a bot's folder that make up the bot, in a fixed order: every file but
    LEFT_OUT and the manifest's `exclude`; only those matching `files` when it is given."""
    left_out = LEFT_OUT + (exclude or ())
    found: list[Path] = []
    for top, dirs, names in os.walk(folder):
        here = Path(top)
        base = here.relative_to(folder).as_posix()
        prefix = "" if base == "." else f"{base}/"
        dirs[:] = [d for d in dirs if not _matches(prefix + d, left_out)]
        for n in names:
            r = prefix + n
            if _matches(r, left_out) or (files is not None and not _matches(r, files)):
                continue
            found.append(here / n)
    return sorted(found)


def _digests(manifest_name: str, raw: bytes, folder: Path | None,
             files: tuple[str, ...] | None = None,
             exclude: tuple[str, ...] | None = None) -> tuple[str, dict[str, str]]:
    """`digest` and `file_digests` of a manifest: content of small files, size and time
    of large ones (a bot may ship a big model: hashing it whole on every start would cost
    more than it tells)."""
    h = hashlib.sha256(raw)
    each = {manifest_name: hashlib.sha256(raw).hexdigest()[:16]}
    if folder is not None:
        for p in bot_files(folder, files, exclude):
            try:
                st = p.stat()
                rel = str(p.relative_to(folder))
                content = (p.read_bytes() if st.st_size <= _HASH_WHOLE
                           else f"{st.st_size}:{st.st_mtime_ns}".encode())
            except OSError:
                continue
            h.update(rel.encode())
            h.update(content)
            each[rel] = hashlib.sha256(content).hexdigest()[:16]
    return h.hexdigest()[:16], each


def changed_files(before: dict[str, str], now: dict[str, str]) -> str:
    """What differs between two file lists of a bot, in a few words."""
    changed = sorted(f for f in before.keys() & now.keys() if before[f] != now[f])
    added = sorted(now.keys() - before.keys())
    removed = sorted(before.keys() - now.keys())
    parts = [f"{what} {_few(names)}" for what, names in
             (("changed", changed), ("added", added), ("removed", removed)) if names]
    return "; ".join(parts) or "no file differs (its files were hashed otherwise)"


def _few(names: list[str], most: int = 5) -> str:
    shown = ", ".join(names[:most])
    return shown + (f" and {len(names) - most} more" if len(names) > most else "")
