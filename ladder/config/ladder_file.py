"""Ladder files (TOML): what a person writes to run a ladder overnight.

    name = "club"                        # default: the file's name
    bots = [                             # two or more
        "random",                        # a sample bot, a bot.toml, or a folder holding one
        "bots/mine/bot.toml",            # relative to this file
        { name = "mine-b", bot = "bots/mine" },            # the same bot again, named apart
        { name = "remote", address = "10.0.0.5:50051" },   # a bot already running elsewhere
    ]
    format = "round-robin"               # or "gauntlet", with challenger = "mine"
    games_per_pairing = 200              # even when duplicate is on
    duplicate = true                     # each deal twice, teams swapped (default true)
    concurrency = 8                      # games at once (default: the number of cores)
    seed = 1                             # publishes every deal (default: a secret key)
    database = "club.sqlite"             # relative to this file (default: beside it)
    on_fault = "forfeit"                 # or "substitute"
    logs = "club-logs"                   # the bots' logs (default: beside the database)
    transport = "unix"                   # or "tcp" (needs sandbox = false)
    start_limit = 10.0                   # seconds a bot may take to listen (default 10)
    grace = 2.0                          # seconds to exit after SIGTERM (default 2)
    sandbox = true                       # seal every bot process (default true)
    fresh_processes = false              # new processes for every game (default false)
    executor = "local"                   # or "ray": games on a Ray cluster's workers

    [ray]                                # executor = "ray" only
    address = "10.0.0.2:6379"            # a running cluster (default: one of this machine)
    workers = 16                         # arena worker processes (default: concurrency)

    [limits]                             # caps for every bot (arena.settings.limits.Limits)
    memory_mb = 2048

The keys of the bots' processes (logs, transport, start_limit, grace, sandbox,
fresh_processes, [limits]) make the ladder's arena.settings.process.ProcessSettings, and
`ladder run` takes the same options as `arena match` to override them.

    [rules]                              # or rules = "british"
    preset = "standard"
    target = 10                          # any single rule option

    [time_control]                       # seconds
    per_decision = 2.0
    bank = 60.0
    allowance = 0.25

    [sprt]                               # a gauntlet only: stop once this is answered
    elo0 = 0                             # H0: the challenger is at most elo0 stronger
    elo1 = 20                            # H1: at least elo1 (Elo, as the standings' gaps)
    alpha = 0.05                         # chance of accepting H1 when H0 holds
    beta = 0.05                          # chance of accepting H0 when H1 holds
    model = "logistic"                   # or "normalized" (normalized Elo, as fastchess)

Every mistake is reported as one line, "FILE:LINE: KEY: what is wrong", so a person can fix
a ladder before leaving it to run for the night rather than find out in the morning.
tomllib gives the line of syntax errors; for a value that parses but makes no sense the
key's line is found by scanning the text (ladder.config.toml_lines.KeyLines).
"""

from __future__ import annotations

import difflib
import hashlib
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, overload

from arena.core.errors import RuleSetError
from arena.core.game import MAX_SEED
from arena.core.rules import OPTION_NAMES, PRESETS, RuleSet, preset
from arena.settings.errors import ConfigError
from arena.settings.limits import DEFAULT_CAPS, Limits
from arena.settings.manifest import BotManifest, load_manifest
from arena.settings.process import TRANSPORTS, ProcessSettings
from arena.settings.spec import EXECUTORS, LOCAL, Executor, FaultPolicy, TimeControl, default_concurrency
from ladder.config.toml_lines import KeyLines
from ladder.rating.sprt import MODELS as SPRT_MODELS
from ladder.rating.sprt import SprtTest

DEALS = "hmac-sha256/pairing"
"""How seeds are drawn from the deal key (arena.settings.deals): stored with the settings, so that
a database whose games were dealt another way is not resumed as if they matched."""
ROUND_ROBIN = "round-robin"
GAUNTLET = "gauntlet"
FORMATS = (ROUND_ROBIN, GAUNTLET)

KEYS = (
    "name", "bots", "format", "challenger", "games_per_pairing", "duplicate", "concurrency",
    "seed", "database", "logs", "rules", "time_control", "on_fault", "transport",
    "start_limit", "grace", "sandbox", "fresh_processes", "limits", "sprt", "executor", "ray",
)
_RAY_KEYS = ("address", "workers")
_SPRT_KEYS = ("elo0", "elo1", "alpha", "beta", "model")
_TIME_KEYS = ("per_decision", "bank", "allowance")
_BOT_KEYS = ("name", "bot", "address")

# Names become parts of game ids ("a~b~00012") and versions are shown as "name@v2", so those
# two characters are kept out of ladder names; slashes and spaces are refused by manifests.
_NAME_RE = re.compile(r"^[^\s/\\~@]+$")
_TOML_LINE_RE = re.compile(r"\(at line (\d+), column \d+\)")


@dataclass(frozen=True)
class LadderBot:
    name: str
    """The ladder's name for the bot: what standings show and game records hold."""
    manifest: BotManifest
    """Its manifest, already renamed to `name`."""


@dataclass(frozen=True)
class LadderConfig:
    name: str
    bots: tuple[LadderBot, ...]
    format: str
    challenger: str | None
    games_per_pairing: int
    duplicate: bool
    concurrency: int
    seed: int | None
    """None: deals from a secret key the database keeps (arena.settings.deals)."""
    database: Path
    rules: RuleSet
    time_control: TimeControl
    fault_policy: FaultPolicy
    processes: ProcessSettings
    """How the bots' processes are started, held and stopped: not a setting of the games
    (see settings()), so a database is resumed under other ones."""
    source: Path | None = None
    sprt: SprtTest | None = None
    """A gauntlet's sequential test: the run stops when it accepts a hypothesis."""
    executor: Executor = LOCAL
    """Where the games run; not a setting of the games (see settings()), so a database
    is resumed under either executor."""

    @property
    def bot_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bots)

    def settings(self) -> dict[str, Any]:
        """What decides how each game is played. Every game in one database must have been
        played under the same settings, or its ratings would mix different contests; the
        store compares these on resume. The preset's name is left out: two presets with the
        same options play the same games."""
        rules = self.rules.to_options()
        rules.pop("name", None)
        tc = self.time_control
        out: dict[str, Any] = {
            "seed": self.seed,
            "deals": DEALS,
            "duplicate": self.duplicate,
            "rules": rules,
            "time_control": {
                "per_decision": tc.per_decision, "bank": tc.bank, "allowance": tc.allowance,
            },
            "on_fault": self.fault_policy.value,
        }
        if self.sprt is not None:
            # Not how games are played, but what the run is for: a resumed run must go on
            # with the same test, so other bounds are refused like other rules are.
            out["sprt"] = {**sprt_settings(self.sprt), "challenger": self.challenger}
        return out

    def with_overrides(
        self,
        *,
        games_per_pairing: int | None = None,
        concurrency: int | None = None,
        database: Path | None = None,
        processes: ProcessSettings | None = None,
        executor: str | None = None,
        ray_address: str | None = None,
    ) -> LadderConfig:
        """Command-line overrides, checked as strictly as the file's own values. Another
        database brings its own logs folder, beside it."""
        cfg = self
        if executor is not None or ray_address is not None:
            kind = executor or ("ray" if ray_address is not None else cfg.executor.kind)
            if kind not in EXECUTORS:
                raise ConfigError(f"--executor {kind}: expected one of {', '.join(EXECUTORS)}")
            if ray_address is not None and kind != "ray":
                raise ConfigError("--ray-address: the games run on Ray only with --executor ray")
            cfg = replace(cfg, executor=replace(
                cfg.executor, kind="ray" if kind == "ray" else "local",
                address=ray_address if ray_address is not None else cfg.executor.address))
        if processes is not None:
            check_caps(cfg.bots, processes)
            cfg = replace(cfg, processes=processes)
        if games_per_pairing is not None:
            if cfg.duplicate and games_per_pairing % 2:
                raise ConfigError(
                    f"--games {games_per_pairing}: duplicate mode plays each deal twice, so "
                    "games per pairing must be even"
                )
            cfg = replace(cfg, games_per_pairing=games_per_pairing)
        if concurrency is not None:
            cfg = replace(cfg, concurrency=concurrency)
        if database is not None:
            cfg = replace(cfg, database=database,
                          processes=replace(cfg.processes, log_dir=default_logs(database)))
        return cfg


def check_caps(bots: Sequence[LadderBot], processes: ProcessSettings) -> None:
    """ConfigError, naming the manifest, for a sealed bot asking for more than the caps."""
    if processes.sandbox:
        for b in bots:
            if b.manifest.command is not None:
                b.manifest.sandbox(processes.limits)


def sprt_settings(test: SprtTest) -> dict[str, Any]:
    return {"elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
            "model": test.model}


def sprt_from_settings(settings: Any) -> SprtTest | None:
    """The test a database's stored settings name, if any (see LadderConfig.settings)."""
    if not isinstance(settings, dict) or not isinstance(settings.get("sprt"), dict):
        return None
    values = {k: v for k, v in settings["sprt"].items() if k in _SPRT_KEYS}
    try:
        return SprtTest(**values)
    except (TypeError, ValueError):
        return None


def default_logs(database: Path) -> Path:
    return database.with_name(f"{database.stem}-logs")


def live_folder(database: Path) -> Path:
    """Where a ladder's games in progress are published for 'ladder watch' (see
    arena.play.live_files): beside its database, which holds the same secrets."""
    return database.with_name(f"{database.stem}-live")


class _Reader:
    """Checks values one key at a time and raises ConfigError "FILE:LINE: KEY: problem"."""

    def __init__(self, where: str, text: str) -> None:
        self.where = where
        self.lines = KeyLines(text)

    def error(self, path: Sequence[str | int], problem: str) -> ConfigError:
        line = self.lines.find(path)
        key = _key_name(path)
        prefix = f"{self.where}:{line}" if line else self.where
        return ConfigError(f"{prefix}: {key}: {problem}" if key else f"{prefix}: {problem}")


def _key_name(path: Sequence[str | int]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def _unknown(keys: Sequence[str], known: Sequence[str]) -> str:
    key = keys[0]
    close = difflib.get_close_matches(key, known, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else f" (known: {', '.join(known)})"
    return f"unknown key{hint}"


def load_ladder(path: str | Path) -> LadderConfig:
    p = Path(path).expanduser()
    try:
        text = p.read_bytes().decode("utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such ladder file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{p}: cannot read: {e}") from None
    return parse_ladder(text, p)


def parse_ladder(text: str, path: Path) -> LadderConfig:
    where = str(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_LINE_RE.search(str(e))
        prefix = f"{where}:{m.group(1)}" if m else where
        raise ConfigError(f"{prefix}: not valid TOML: {e}") from None
    r = _Reader(where, text)
    base = path.resolve().parent

    for key in data:
        if key not in KEYS:
            raise r.error((key,), _unknown([key], KEYS))

    name = data.get("name", path.stem)
    if not isinstance(name, str) or not name.strip():
        raise r.error(("name",), "must be a non-empty string")

    bots = _read_bots(r, data, base)
    names = [b.name for b in bots]

    fmt = data.get("format", ROUND_ROBIN)
    if fmt not in FORMATS:
        raise r.error(("format",), f"{fmt!r}: expected one of {', '.join(map(repr, FORMATS))}")
    challenger = data.get("challenger")
    if fmt == GAUNTLET:
        if challenger is None:
            raise r.error(("format",), "a gauntlet needs challenger = \"NAME\": the bot "
                          "that plays against the field")
        if challenger not in names:
            raise r.error(("challenger",), f"{challenger!r} is not one of the bots "
                          f"({', '.join(names)})")
    elif challenger is not None:
        raise r.error(("challenger",), "only a gauntlet has a challenger; set "
                      "format = \"gauntlet\" or remove it")

    duplicate = data.get("duplicate", True)
    if not isinstance(duplicate, bool):
        raise r.error(("duplicate",), "expected true or false")

    games = data.get("games_per_pairing")
    if games is None:
        raise r.error(("games_per_pairing",), "missing: how many games each pairing plays, "
                      "e.g. games_per_pairing = 100")
    if not _is_int(games) or games < 1:
        raise r.error(("games_per_pairing",), f"{games!r}: expected a whole number of at "
                      "least 1")
    if duplicate and games % 2:
        raise r.error(("games_per_pairing",), f"{games}: duplicate mode plays each deal "
                      "twice (teams swapped), so it must be even")

    concurrency = data.get("concurrency", default_concurrency())
    if not _is_int(concurrency) or concurrency < 1:
        raise r.error(("concurrency",), f"{concurrency!r}: expected a whole number of at "
                      "least 1 (games at once)")

    seed = data.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise r.error(("seed",), f"{seed!r}: expected a whole number from 0 to 2**63-1")
    flags = {}
    for key, default in (("sandbox", True), ("fresh_processes", False)):
        flags[key] = data.get(key, default)
        if not isinstance(flags[key], bool):
            raise r.error((key,), "expected true or false")
    caps = _read_limits(r, data.get("limits", {}))
    seconds = {}
    for key in ("start_limit", "grace"):
        if key in data:
            v = data[key]
            if isinstance(v, bool) or not isinstance(v, int | float) or v != v \
                    or not (v > 0 if key == "start_limit" else 0 <= v < float("inf")):
                raise r.error((key,), f"{v!r}: expected a positive number of seconds"
                              if key == "start_limit" else f"{v!r}: expected a number of "
                              "seconds of 0 or more")
            seconds[key] = float(v)

    database = _read_path(r, data, "database", base, f"{path.stem}.sqlite")
    logs = _read_path(r, data, "logs", base, None) or default_logs(database)

    rules = _read_rules(r, data.get("rules", {}))
    time_control = _read_time_control(r, data.get("time_control", {}))

    on_fault = data.get("on_fault", FaultPolicy.FORFEIT.value)
    policies = [f.value for f in FaultPolicy]
    if on_fault not in policies:
        raise r.error(("on_fault",), f"{on_fault!r}: expected one of "
                      f"{', '.join(map(repr, policies))}")
    transport = data.get("transport", "unix")
    if transport not in TRANSPORTS:
        raise r.error(("transport",), f"{transport!r}: expected one of "
                      f"{', '.join(map(repr, TRANSPORTS))}")
    if transport == "tcp" and flags["sandbox"]:
        raise r.error(("transport",), "a sandboxed bot has no network, so it cannot listen "
                      "on TCP: keep transport = \"unix\", or set sandbox = false")
    processes = ProcessSettings(log_dir=logs, transport=transport, sandbox=flags["sandbox"],
                                limits=caps, fresh_processes=flags["fresh_processes"],
                                **seconds)
    check_caps(bots, processes)

    sprt = _read_sprt(r, data.get("sprt"), fmt)
    executor = _read_executor(r, data.get("executor", "local"), data.get("ray"))

    return LadderConfig(
        name=name.strip(),
        bots=tuple(bots),
        format=fmt,
        challenger=challenger,
        games_per_pairing=games,
        duplicate=duplicate,
        concurrency=concurrency,
        seed=seed,
        database=database,
        rules=rules,
        time_control=time_control,
        fault_policy=FaultPolicy(on_fault),
        processes=processes,
        source=path,
        sprt=sprt,
        executor=executor,
    )


def _read_sprt(r: _Reader, value: Any, fmt: str) -> SprtTest | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise r.error(("sprt",), "expected a table: [sprt] with elo0, elo1, alpha, beta")
    if fmt != GAUNTLET:
        raise r.error(("sprt",), "an SPRT tests a gauntlet's challenger against its field; "
                      "set format = \"gauntlet\" or remove [sprt]")
    for key in value:
        if key not in _SPRT_KEYS:
            raise r.error(("sprt", key), _unknown([key], _SPRT_KEYS))
    for key in ("elo0", "elo1"):
        if key not in value:
            raise r.error(("sprt",), f"{key}: missing: the test needs elo0 and elo1, e.g. "
                          "elo0 = 0 and elo1 = 20")
    numbers: dict[str, float] = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key in value:
            v = value[key]
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise r.error(("sprt", key), f"{v!r}: expected a number")
            numbers[key] = float(v)
    model = value.get("model", "logistic")
    if model not in SPRT_MODELS:
        raise r.error(("sprt", "model"), f"{model!r}: expected one of "
                      f"{', '.join(map(repr, SPRT_MODELS))}")
    try:
        return SprtTest(model=model, **numbers)
    except ValueError as e:
        first = str(e).split()[0]  # the key the problem is about, when it names one
        raise r.error(("sprt", first) if first in value else ("sprt",), str(e)) from None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@overload
def _read_path(r: _Reader, data: dict[str, Any], key: str, base: Path, default: str) -> Path: ...
@overload
def _read_path(r: _Reader, data: dict[str, Any], key: str, base: Path, default: None) -> Path | None: ...
def _read_path(
    r: _Reader, data: dict[str, Any], key: str, base: Path, default: str | None
) -> Path | None:
    """The path under `key`, relative to `base`; the default when the key is absent."""
    value = data.get(key, default)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise r.error((key,), "expected a path (a non-empty string)")
    p = Path(value).expanduser()
    return p if p.is_absolute() else base / p


def _read_bots(r: _Reader, data: dict[str, Any], base: Path) -> list[LadderBot]:
    entries = data.get("bots")
    if entries is None:
        raise r.error((), "bots: missing: list the bots to rate, e.g. "
                      'bots = ["random", "heuristic"]')
    if not isinstance(entries, list):
        raise r.error(("bots",), "expected a list, e.g. bots = [\"random\", \"heuristic\"]")
    if len(entries) < 2:
        raise r.error(("bots",), "a ladder needs at least two bots")
    bots: list[LadderBot] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        # A table's values may be anything TOML holds: each is checked below before use.
        alias: str | None
        ref: str | None
        address: str | None
        if isinstance(entry, str):
            alias, ref, address = None, entry, None
        elif isinstance(entry, dict):
            for key in entry:
                if key not in _BOT_KEYS:
                    raise r.error(("bots", i, key), _unknown([key], _BOT_KEYS))
            alias, ref, address = entry.get("name"), entry.get("bot"), entry.get("address")
            if (ref is None) == (address is None):
                raise r.error(("bots", i), "give exactly one of bot = \"MANIFEST\" or "
                              "address = \"HOST:PORT\"")
            if alias is not None and (not isinstance(alias, str) or not alias):
                raise r.error(("bots", i, "name"), "expected a non-empty string")
            if address is not None and alias is None:
                raise r.error(("bots", i), "a bot given by address needs a name, e.g. "
                              '{ name = "remote", address = "10.0.0.5:50051" }')
        else:
            raise r.error(("bots", i), "expected a bot (a string) or a table such as "
                          '{ name = "mine-b", bot = "bots/mine" }')
        if address is not None:
            if not isinstance(address, str) or not address.strip():
                raise r.error(("bots", i, "address"), "expected a gRPC target such as "
                              "'10.0.0.5:50051' or 'unix:/path/to.sock'")
            assert alias is not None  # refused above: a bot given by address needs a name
            manifest = BotManifest(
                name=alias, version="", command=None, cwd=base, address=address,
                # Nothing of a remote bot can be hashed but where it is: a bot restarted
                # behind the same address with new code is not noticed (stated in the README).
                digest=hashlib.sha256(f"address:{address}".encode()).hexdigest()[:16],
            )
        else:
            if not isinstance(ref, str) or not ref.strip():
                raise r.error(("bots", i), "expected a manifest path, a folder or a sample "
                              "bot name")
            try:
                manifest = load_manifest(ref, base)
            except ConfigError as e:
                raise r.error(("bots", i), str(e)) from None
        name = alias or manifest.name
        if not _NAME_RE.match(name):
            raise r.error(("bots", i), f"name {name!r} may not hold spaces, slashes, '~' or "
                          "'@'; give it another with { name = \"...\", bot = \"...\" }")
        if name in seen:
            raise r.error(("bots", i), f"two bots are named {name!r}; name this one apart, "
                          f'e.g. {{ name = "{name}-2", bot = "{ref or address}" }}')
        seen[name] = i
        bots.append(LadderBot(name, replace(manifest, name=name)))
    return bots


def _read_rules(r: _Reader, value: Any) -> RuleSet:
    if isinstance(value, str):
        value = {"preset": value}
    if not isinstance(value, dict):
        raise r.error(("rules",), "expected a preset name or a table of options")
    opts = dict(value)
    name = opts.pop("preset", "standard")
    try:
        base = preset(name)
    except RuleSetError as e:
        raise r.error(("rules", "preset") if "preset" in value else ("rules",), str(e)) from None
    known = sorted(OPTION_NAMES - {"name"})
    for key, v in opts.items():
        if key not in OPTION_NAMES or key == "name":
            raise r.error(("rules", key), _unknown([key], ["preset", *known]) +
                          f"; presets: {', '.join(PRESETS)}")
        try:
            base.with_options(**{key: v})
        except RuleSetError as e:
            # Wrong on its own: point at it now. Wrong only beside another option (a
            # contradiction): wait, the other may be set too and make it right.
            if len(opts) == 1 or set(e.options) <= {key}:
                raise r.error(("rules", key), str(e)) from None
    try:
        rules = base.with_options(**opts) if opts else base
    except RuleSetError as e:
        # "deck=25 contradicts joker=false: ...": point at the first option it names.
        named = e.option
        where = ("rules", named) if named is not None and named in opts else ("rules",)
        raise r.error(where, str(e)) from None
    if opts:
        rules = replace(rules, name=f"{name}+custom")
    return rules


def _read_time_control(r: _Reader, value: Any) -> TimeControl:
    if not isinstance(value, dict):
        raise r.error(("time_control",), "expected a table: [time_control] with "
                      "per_decision, bank, allowance (seconds)")
    defaults = TimeControl()
    out: dict[str, float] = {}
    for key, v in value.items():
        if key not in _TIME_KEYS:
            raise r.error(("time_control", key), _unknown([key], _TIME_KEYS))
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise r.error(("time_control", key), f"{v!r}: expected a number of seconds")
        if not (v >= 0 if key == "allowance" else v > 0) or v != v or v == float("inf"):
            raise r.error(("time_control", key), f"{v!r}: expected a positive number of "
                          "seconds" if key != "allowance" else f"{v!r}: expected 0 or more")
        out[key] = float(v)
    return replace(defaults, **out)


def _read_executor(r: _Reader, kind: Any, ray: Any) -> Executor:
    if kind not in EXECUTORS:
        raise r.error(("executor",), f"{kind!r}: expected one of {', '.join(map(repr, EXECUTORS))}")
    if ray is None:
        return Executor(kind)
    if not isinstance(ray, dict):
        raise r.error(("ray",), "expected a table: [ray] with address and workers")
    if kind != "ray":
        raise r.error(("ray",), "[ray] is for games on a Ray cluster: set executor = \"ray\" "
                      "or remove [ray]")
    for key in ray:
        if key not in _RAY_KEYS:
            raise r.error(("ray", key), _unknown([key], _RAY_KEYS))
    address = ray.get("address")
    if address is not None and (not isinstance(address, str) or not address.strip()):
        raise r.error(("ray", "address"), f"{address!r}: expected a cluster's address, e.g. "
                      "\"10.0.0.2:6379\" (as `ray start --head` prints it) or \"auto\"")
    workers = ray.get("workers")
    if workers is not None and (not _is_int(workers) or workers < 1):
        raise r.error(("ray", "workers"), f"{workers!r}: expected a whole number of at least 1")
    return Executor(kind, address=address, workers=workers)


def _read_limits(r: _Reader, value: Any) -> Limits:
    keys = Limits.names()
    if not isinstance(value, dict):
        raise r.error(("limits",), f"expected a table: [limits] with {', '.join(keys)}")
    for key, v in value.items():
        if key not in keys:
            raise r.error(("limits", key), _unknown([key], keys))
        if not _is_int(v) or v < 1:
            raise r.error(("limits", key), f"{v!r}: expected a whole number of at least 1")
    return replace(DEFAULT_CAPS, **value)


def database_of(path: str | Path) -> Path:
    """The database a ladder file names, without loading its bots: reading standings must
    not depend on every bot's folder still being there."""
    p = Path(path).expanduser()
    try:
        text = p.read_bytes().decode("utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise ConfigError(f"{p}: no such ladder file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{p}: cannot read: {e}") from None
    except tomllib.TOMLDecodeError as e:
        m = _TOML_LINE_RE.search(str(e))
        raise ConfigError(f"{p}:{m.group(1) if m else '?'}: not valid TOML: {e}") from None
    return _read_path(_Reader(str(p), text), data, "database", p.resolve().parent,
                      f"{p.stem}.sqlite")
