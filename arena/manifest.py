"""Bot manifests (bot.toml): how the arena finds, starts and names a bot.

    name = "my-bot"                 # required
    version = "1.2"                 # optional: shown in results
    command = ["{python}", "bot.py"]  # or a string, split like a shell would
    cwd = "."                       # relative to the manifest's folder (default: that folder)
    env = { LEVEL = "3" }           # optional extra environment
    # address = "127.0.0.1:50051"   # instead of command: a bot already running elsewhere

In `command`, {python} stands for the Python running the arena and {here} for the
manifest's folder. A BOT argument may be a manifest file, a folder holding bot.toml, or
the name of a sample bot.
"""

from __future__ import annotations

import hashlib
import shlex
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from arena.errors import ConfigError

SAMPLE_BOTS = Path(__file__).resolve().parent.parent / "sample_bots"
MANIFEST_NAME = "bot.toml"
_KEYS = {"name", "version", "command", "cwd", "env", "address", "author"}


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
    """A hash of the manifest's content and the bot's files' names and sizes: when it
    changes, a ladder treats the bot as a new version."""

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}".strip()


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
    try:
        raw = path.read_bytes()
        data = tomllib.loads(raw.decode("utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {e}") from None
    return manifest_from_dict(data, path, raw)


def manifest_from_dict(data: dict, path: Path, raw: bytes = b"") -> BotManifest:
    where = str(path)
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_KEYS))})")
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
    return BotManifest(
        name=name,
        version=str(version),
        command=argv,
        cwd=cwd,
        env=dict(env),
        address=address,
        source=path,
        digest=_digest(raw, cwd if argv is not None else None),
    )


_HASH_WHOLE = 4 << 20


def _digest(raw: bytes, folder: Path | None) -> str:
    """Content of small files, size and time of large ones (a bot may ship a big model:
    hashing it whole on every start would cost more than it tells)."""
    h = hashlib.sha256(raw)
    if folder is not None:
        for p in sorted(folder.rglob("*")):
            if not p.is_file() or "__pycache__" in p.parts or p.name.endswith(".log"):
                continue
            try:
                st = p.stat()
                h.update(str(p.relative_to(folder)).encode())
                if st.st_size <= _HASH_WHOLE:
                    h.update(p.read_bytes())
                else:
                    h.update(f"{st.st_size}:{st.st_mtime_ns}".encode())
            except OSError:
                continue
    return h.hexdigest()[:16]
