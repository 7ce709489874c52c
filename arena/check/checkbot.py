"""`arena check-bot BOT`: the conformance check an author runs before submitting a bot.

The bot plays real games as real processes over real gRPC, with the same judge and time
control as a ladder. Seats around it are played inside the arena by simple policies that
steer it into every situation it must handle: dealing and discarding, round 2 and stick
the dealer, sitting out while its partner goes alone, defending a lone hand, the joker
turned up, the alone round. Then it is stopped the way the arena stops bots, and must
exit on SIGTERM.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, TypeAlias

import trio
from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.core import actions as A
from arena.core.actions import Action
from arena.core.cards import is_joker
from arena.core.game import HandEnded, deck_order, derive_seed
from arena.core.hand import HandState, Phase
from arena.core.rules import LoneDefender, RuleSet, WhoMayGoAlone
from arena.core.scoring import Outcome
from arena.core.view import SeatView
from arena.play.game_loop import play_game
from arena.play.process_cache import ProcessCache
from arena.procs.processes import open_bot_pool
from arena.procs.sandbox import SOCKET_DIR, SOCKET_NAME
from arena.records.gamelog import GameEnd, GameLog
from arena.records.replay import replay
from arena.settings.errors import EXIT_INTERRUPTED, EXIT_NO, EXIT_OK, EXIT_TERMINATED
from arena.settings.faults import BotFault, FaultKind, StartProblem
from arena.settings.manifest import BotManifest, load_manifest
from arena.settings.process import ProcessSettings
from arena.settings.rule_sets import NAMED_RULES
from arena.settings.spec import FaultPolicy, GameSpec, HouseSeat, TimeControl

HINTS = {
    FaultKind.START_FAILED: "make the bot start and listen: the message above says what "
    "stopped it",
    FaultKind.REFUSED_RULES: "the bot refused the rules at the handshake",
    FaultKind.TIMEOUT: "answer within DecideRequest.time_left.decision_ms",
    FaultKind.CRASHED: "the process died: see its last output above",
    FaultKind.DISCONNECTED: "the connection was lost, or the bot answered with a status "
    "other than OK (above): keep serving until SIGTERM and answer every call with OK; "
    "what the bot wrote is in its log",
    FaultKind.MALFORMED: "answer with action_index, the position of one of "
    "DecideRequest.legal_actions (from 0 to one less than their number), or with one of "
    "them copied whole",
    FaultKind.BOT_ERROR: "answer every call with a response and status OK: the bot "
    "returned the error status above instead (its code and details); what it wrote is in "
    "its log",
    FaultKind.ILLEGAL_ACTION: "answer only with one of DecideRequest.legal_actions "
    "(simplest: its position, DecideResponse.action_index)",
}
"""What to fix, in the protocol's words: for a bot that serves bot.proto itself, in any
language, so nothing here names the SDK or a traceback."""

SDK_HINTS = {
    **HINTS,
    FaultKind.REFUSED_RULES: "the bot refused the rules at the handshake: its "
    "supports(rules) gave a reason",
    FaultKind.TIMEOUT: "return from decide() within game.time_left seconds",
    FaultKind.DISCONNECTED: "a handler raised an error or the server went away: see the "
    "bot's log",
    FaultKind.MALFORMED: "return one of view.legal_actions, as it is",
    FaultKind.BOT_ERROR: "decide() or a hook raised an error: the traceback is in the bot's log",
    FaultKind.ILLEGAL_ACTION: "return only one of view.legal_actions",
}
"""What to fix, in the SDK's words: for a bot that says in Hello that arena.sdk serves it."""

STOP_HINT = ("exit promptly on SIGTERM: stop serving and end the process (a handler of "
             "the signal that does not exit, or a thread left running, keeps it alive)")
SDK_STOP_HINT = ("let run() return on SIGTERM: a thread that is not a daemon, or a signal "
                 "handler of the bot's own, keeps the process alive")


INTERPRETERS = {".py": "{python}", ".js": "node", ".mjs": "node", ".sh": "sh", ".rb": "ruby",
                ".pl": "perl"}
"""A script's interpreter by its suffix, to say how to run one that is not executable."""


BUILD_FILES = ("build.sh", "Makefile", "CMakeLists.txt", "Cargo.toml", "go.mod", "pom.xml",
               "build.gradle", "package.json")
"""Files that say how a bot is built, named when its program is not there yet."""


def hint(kind: FaultKind, sdk: bool) -> str:
    return (SDK_HINTS if sdk else HINTS)[kind]


def _found_in(folder: Path, name: str) -> str | None:
    """The path from `folder` of a file called `name` in it or below it (a build's
    output, say), leaving out version control and installed packages; None when there
    is none."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in (".git", "node_modules"))
        if name in files:
            return str((Path(root) / name).relative_to(folder))
    return None


def start_hint(problem: StartProblem | None, bot: BotManifest, processes: ProcessSettings
               ) -> str:
    """What to fix when the bot did not start, for the cause it did not start for (no
    SDK words: until its Hello, nothing says what serves a bot). How a command is found is
    arena.procs.processes._check_runnable's: a bare name on PATH, a path from the bot's
    working folder."""
    argv = bot.command or ("",)
    cmd, folder = argv[0], bot.cwd
    told = (f"unix:{SOCKET_DIR}/{SOCKET_NAME}" if processes.sandbox
            else "the one named above")
    if problem is StartProblem.MISSING:
        if "/" not in cmd:
            found = _found_in(folder, cmd)
            if found is not None:
                return (f"write ./{found} in the manifest's command: a bare name such as "
                        f"{cmd!r} is looked up on PATH only, never in the bot's folder")
            return (f"install {cmd}, or correct the manifest's command: a bare name such as "
                    f"{cmd!r} is looked up on PATH; a program in the bot's folder is "
                    f"./{cmd} (or {{here}}/{cmd})")
        builds = [n for n in BUILD_FILES if (folder / n).exists()]
        how = f" (the bot's folder holds {', '.join(builds)})" if builds else ""
        return (f"build it{how}, or correct the path in the manifest's command: ./NAME and "
                f"DIR/NAME are taken from the bot's working folder ({folder}), "
                "{here}/NAME from the manifest's folder, and a bare NAME is looked up on PATH")
    if problem is StartProblem.NOT_EXECUTABLE:
        if "/" in cmd and (folder / cmd).is_dir():
            return f"{cmd} is a folder: name the program in it in the manifest's command"
        name = Path(cmd).name
        runner = INTERPRETERS.get(Path(cmd).suffix)
        through = (f'command = ["{runner}", "{name}"]' if runner
                   else f'command = ["INTERPRETER", "{name}"] for a script')
        return (f"make it executable (chmod a+x {cmd}), or run it through its interpreter: "
                f"{through}")
    if problem is StartProblem.OUTSIDE_SANDBOX:
        return ("add the program's folder to the manifest's read_only, as the line above "
                "says, or put the program in the bot's folder")
    if problem is StartProblem.EXITED:
        return ("the bot exited before it listened: its own output above says why (run "
                f"its command in {folder} to see it fail)")
    if problem is StartProblem.NEVER_LISTENED:
        return (f"listen on the address in EUCHRE_BOT_ADDRESS ({told}), as it is, within "
                "the startup time; a bot that needs longer says so with startup_timeout in "
                "its manifest")
    if problem is StartProblem.LISTENS_ELSEWHERE:
        return (f"listen on the address in EUCHRE_BOT_ADDRESS ({told}), as it is: an "
                "address of the bot's own is never reached")
    if problem is StartProblem.REFUSED_SOCKET:
        return ("listen on EUCHRE_BOT_ADDRESS from the bot's own process: the arena "
                "connects only to a socket the bot made there itself, never through a link")
    if problem is StartProblem.HANDSHAKE:
        return ("answer Hello with a HelloResponse and status OK, within seconds of "
                "listening")
    return hint(FaultKind.START_FAILED, False)


# --- house policies: the seats around the bot ------------------------------------


def _random(view: SeatView, rng: random.Random) -> Action:
    return rng.choice(view.legal_actions)


def _first(view: SeatView, wanted: tuple[Action, ...], rng: random.Random) -> Action:
    for a in wanted:
        if a in view.legal_actions:
            return a
    return rng.choice(view.legal_actions)


def pass_all(view: SeatView, rng: random.Random) -> Action:
    """Passes in the first hand whenever it may; plays at random otherwise."""
    if view.hand_number == 0 and A.PASS in view.legal_actions and view.phase is not Phase.PLAY:
        return A.PASS
    return _random(view, rng)


def order_up(view: SeatView, rng: random.Random) -> Action:
    """Orders up (with partner) at its first chance in the first hand."""
    if view.hand_number == 0 and view.phase is Phase.BID_ROUND_1:
        return _first(view, (A.ORDER_UP,), rng)
    return pass_all(view, rng) if view.phase is not Phase.PLAY else _random(view, rng)


def go_alone(view: SeatView, rng: random.Random) -> Action:
    """Makes trump alone at its first chance in the first hand."""
    if view.hand_number == 0 and view.phase is not Phase.PLAY:
        wanted = (A.ORDER_UP_ALONE, A.GO_ALONE, *A.NAME_TRUMP_ALONE, A.ORDER_UP, *A.NAME_TRUMP)
        return _first(view, wanted, rng)
    return _random(view, rng)


HousePolicy: TypeAlias = Callable[[SeatView, random.Random], Action]


@dataclass
class Scenario:
    name: str
    rules: RuleSet
    seed: int
    first_dealer: int
    seats: tuple[Literal["BOT"] | HousePolicy, ...]
    """'BOT' or a house policy, by seat."""


def _joker_seed(rules: RuleSet, start: int, dealer: int) -> int | None:
    """A seed whose first hand turns up the joker, found by dealing it with the engine."""
    for i in range(5000):
        seed = derive_seed(start, i)
        if is_joker(HandState.deal(rules, dealer, deck_order(rules, seed, 0)).upcard):
            return seed
    return None


def scenarios(rules: RuleSet, games: int, base_seed: int) -> list[Scenario]:
    bot: Literal["BOT"] = "BOT"
    n = rules.seats
    last = n - 1

    def table(**by_seat: Literal["BOT"] | HousePolicy) -> tuple[Literal["BOT"] | HousePolicy, ...]:
        """Seats named s0, s1, ...; the others `rest` (pass_all unless given)."""
        rest = by_seat.pop("rest", pass_all)
        return tuple(by_seat.get(f"s{seat}", rest) for seat in range(n))

    out = [
        Scenario(f"self-play {i + 1}", rules, derive_seed(base_seed, i), i % n, (bot,) * n)
        for i in range(games)
    ]
    s = derive_seed(base_seed, 100)
    # the bot deals (the last seat); everybody passes: it decides both rounds as dealer
    out.append(Scenario("round 2 as dealer", rules, s, last, table(**{f"s{last}": bot})))
    # left of the bot (dealer) orders up: the bot takes the upcard (or may decline it)
    # and discards
    out.append(Scenario("dealer's discard", rules, s, last,
                        table(s0=order_up, **{f"s{last}": bot})))
    # dealer 2: seat 3 speaks first and goes alone; the bot, its partner(s), sits out
    out.append(Scenario("partner alone", rules, s, 2, table(
        s3=go_alone, **{f"s{p}": bot for p in range(1, n, 2) if p != 3})))
    # dealer 1: seat 2 speaks first and goes alone; the bot defends (and sits out too)
    out.append(Scenario("defending a lone hand", rules, s, 1,
                        table(s1=pass_all, s2=go_alone, rest=bot)))
    if rules.joker:
        seed = _joker_seed(rules, base_seed, 0)
        if seed is not None:
            out.append(Scenario("joker turned up", rules, seed, 0, table(s0=bot)))
            if rules.turned_joker_bid:
                # The dealer's partner bids on it (alone only, when it must go alone).
                out.append(Scenario("joker bid on, dealer's partner", rules, seed, 0,
                                    table(s2=bot)))
    return out


# --- running and judging -----------------------------------------------------------


@dataclass
class Check:
    name: str
    ok: bool | None
    """True passed, False failed, None: information only."""
    detail: str = ""


@dataclass
class Report:
    checks: list[Check] = field(default_factory=list)
    phases: set[str] = field(default_factory=set)
    think_us: list[int] = field(default_factory=list)
    fail_fast: bool = False
    """While the games run with --fail-fast: the first FAIL added stops them (_Stop)."""
    stopped: bool = False
    """The games stopped before all were played: a phase not reached proves nothing."""

    def add(self, name: str, ok: bool | None, detail: str = "") -> None:
        self.checks.append(Check(name, ok, detail))
        if ok is False and self.fail_fast:
            raise _Stop("--fail-fast: stopped at the first FAIL")

    @property
    def passed(self) -> bool:
        return all(c.ok is not False for c in self.checks)


class _Stop(Exception):
    """Ends the games early (the bot did not start; --fail-fast); `why` is said, with what
    was not checked."""

    def __init__(self, why: str) -> None:
        self.why = why


def _observe(log: GameLog, bot_seats: set[int], report: Report) -> None:
    for point in replay(log):
        hand = point.game.hand
        if point.logged.seat in bot_seats:
            report.phases.add(hand.phase.value)
            if not point.logged.substituted:
                report.think_us.append(point.logged.think_us)
        if any(hand.sitting_out[s] for s in bot_seats):
            report.phases.add("sat out (partner alone)")
        if hand.alone and any(s % 2 != a % 2 for s in bot_seats for a in hand.alone):
            report.phases.add("played against a lone hand")
    for h in log.hands:
        if h.result is not None and h.result.score.outcome is Outcome.THROWN_IN:
            report.phases.add("hand thrown in")


THROWN_IN_LIMIT = 24
"""Hands thrown in one after another (every player passed) before a check game is
stopped: without stick-the-dealer a bot that never makes trump, seated against itself or
behind players who always pass, would redeal for ever."""


class _ThrownIn:
    """Hears a check game (arena.play.observer) and stops it once THROWN_IN_LIMIT hands in a
    row were thrown in, so that check-bot says why rather than waiting for ever."""

    def __init__(self, scope: trio.CancelScope) -> None:
        self._scope = scope
        self._run = 0
        self.stalled = False

    def started(self, log: GameLog) -> None:
        pass

    def happened(self, events: Sequence[object], substituted: bool) -> None:
        for e in events:
            if isinstance(e, HandEnded):
                self._run = self._run + 1 if e.result.maker is None else 0
                if self._run >= THROWN_IN_LIMIT and not self.stalled:
                    self.stalled = True
                    self._scope.cancel()

    def ended(self, log: GameLog | None) -> None:
        pass

    @staticmethod
    def detail(label: str) -> str:
        return (f"{THROWN_IN_LIMIT} hands in a row thrown in (every player passed), so the "
                "game would never end: the bot never makes trump\nfix: order up or name a "
                f"suit when the hand is strong; under {label} rules a dealer who passes is "
                "not stuck with trump, and a hand every player passes is dealt again")


async def _run(bot: BotManifest, games: int, per_decision: float, report: Report,
               rule_sets: dict[str, RuleSet], processes: ProcessSettings) -> None:
    """Every rule set's games, in order; what was not checked once they stopped early."""
    left: list[str] = []  # what is still to check, for the note when the games stop
    try:
        await _run_rule_sets(bot, games, per_decision, report, rule_sets, processes, left)
    except _Stop as stop:
        report.stopped = True
        report.fail_fast = False  # the note below is information, not a check
        report.add("not checked", None, f"{stop.why}; not checked: {_not_checked(left)}")


def _not_checked(left: list[str]) -> str:
    """The scenes not played, then the rule sets not started, at most a few of each named."""
    scenes = [n for n in left if ": " in n]
    sets = [n for n in left if ": " not in n]
    parts = [_names(scenes)] if scenes else []
    if sets:
        parts.append(("the rule set " if len(sets) == 1 else "the rule sets ")
                     + _names(sets, most=6))
    return "; ".join(parts) or "nothing"


async def _run_rule_sets(bot: BotManifest, games: int, per_decision: float, report: Report,
                         rule_sets: dict[str, RuleSet], processes: ProcessSettings,
                         left: list[str]) -> None:
    tc = TimeControl(per_decision=per_decision, bank=max(60.0, per_decision * 40))
    sdk = False  # known from the bot's Hello; until then, the protocol's words
    left[:] = list(rule_sets)
    async with open_bot_pool() as pool:
        for label, rules in rule_sets.items():
            left.remove(label)
            cache = ProcessCache(pool, rules, processes,
                                 name=label.replace(" ", "_").replace(",", ""))
            stop: _Stop | None = None
            try:
                started = time.monotonic()
                try:
                    inst = await cache.instance(bot, 0)
                except BotFault as e:
                    if e.kind is FaultKind.REFUSED_RULES:
                        report.add(f"{label}: rules", None, f"refused: {e.detail}")
                        continue
                    report.fail_fast = False  # the stop below says so, either way
                    left.insert(0, label)  # none of its games was played
                    report.add(f"{label}: start", False,
                               f"{e.detail}\nfix: {start_hint(e.start, bot, processes)}")
                    raise _Stop("the bot did not start") from None
                # Advice speaks the SDK's names to a bot that says the SDK serves it.
                sdk = bool(inst.identity.sdk)
                if label == next(iter(rule_sets)):
                    ident = inst.identity
                    report.add("starts and listens", True,
                               f"ready and answered Hello in {time.monotonic() - started:.2f} s")
                    served = f", served by {ident.sdk}" if ident.sdk else ""
                    report.add("handshake", True,
                               f"name {ident.name!r}, version {ident.version!r}, "
                               f"author {ident.author!r}{served}")
                    if ident.name != bot.name:
                        # The arena records it under the manifest's name; a name that
                        # differs in Hello is a sign of the wrong bot or a stale build.
                        report.add("name", None,
                                   f"Hello says {ident.name!r}, the manifest {bot.name!r}: "
                                   "games are recorded under the manifest's name")
                report.add(f"{label}: rules", True, "accepted")
                played: list[str] = []
                plan = scenarios(rules, games, 7)
                scenes = [f"{label}: {sc.name}" for sc in plan]
                left[:0] = scenes
                for i, sc in enumerate(plan):
                    left.remove(scenes[i])
                    # The bot's processes are started here rather than by the game, so
                    # that one that fails to start is told why (the game's record keeps
                    # only that it did not).
                    try:
                        for index in range(sum(1 for x in sc.seats if x == "BOT")):
                            await cache.instance(bot, index)
                    except BotFault as e:
                        report.add(scenes[i], False, f"{e.kind.value}: {e.detail}\nfix: "
                                   f"{start_hint(e.start, bot, processes)}")
                        continue
                    seats = tuple(
                        bot if s == "BOT" else HouseSeat(f"house-{s.__name__}", s)
                        for s in sc.seats
                    )
                    spec = GameSpec(
                        game_id=f"check-{label}-{i}", rules=rules, seed=sc.seed,
                        first_dealer=sc.first_dealer, seat_bots=seats, time_control=tc,
                        fault_policy=FaultPolicy.FORFEIT,
                    )
                    with trio.CancelScope() as scope:
                        stall = _ThrownIn(scope)
                        log = await play_game(cache, spec, stall)
                    if stall.stalled:  # cancelled: the game has no record to observe
                        report.add(scenes[i], False, stall.detail(label))
                        continue
                    _observe(log, {s for s, x in enumerate(sc.seats) if x == "BOT"}, report)
                    if log.faults:
                        f = log.faults[0]
                        report.add(scenes[i], False,
                                   f"{f.kind.value} in hand {f.hand_number + 1}, decision "
                                   f"{f.decision_number}: {f.detail}\nfix: {hint(f.kind, sdk)}")
                    elif log.end is not GameEnd.COMPLETED:
                        report.add(scenes[i], False, "the game did not complete")
                    else:
                        played.append(sc.name)
                if played:
                    report.add(f"{label}: games", True,
                               f"{len(played)} completed without a fault: {', '.join(played)}")
            except _Stop as e:
                stop = e  # after the stop check: its processes are stopped in any case
            finally:
                codes = await cache.close()
            killed = [name for name, code in codes if code == -9]
            if killed:
                report.add(f"{label}: stops on SIGTERM", False,
                           f"the bot had to be killed after the {processes.grace:g} s grace "
                           f"period\n"
                           f"fix: {SDK_STOP_HINT if sdk else STOP_HINT}")
            elif codes:
                report.add(f"{label}: stops on SIGTERM", True, f"{len(codes)} process(es) exited")
            if stop is not None:
                raise stop


def expected_phases(rule_sets: dict[str, RuleSet]) -> list[str]:
    phases = [Phase.BID_ROUND_1, Phase.BID_ROUND_2, Phase.DEALER_DISCARD, Phase.PLAY]
    out = [p.value for p in phases]
    if any(r.joker and not r.turned_joker_bid for r in rule_sets.values()):
        out.append(Phase.DEALER_NAMES_TRUMP.value)
    if any(r.dealer_may_decline for r in rule_sets.values()):
        out.append(Phase.DEALER_PICKUP.value)
    if any(r.lone_asks_partner or r.railroading for r in rule_sets.values()):
        out.append(Phase.PARTNER_GIVES.value)
    if any(r.who_may_go_alone is WhoMayGoAlone.ANY_PLAYER
           or r.lone_defender is not LoneDefender.NOT_ALLOWED for r in rule_sets.values()):
        out.append(Phase.GOING_ALONE.value)
    out += ["sat out (partner alone)", "played against a lone hand"]
    return out


def cmd_check_bot(args: argparse.Namespace, processes: ProcessSettings) -> int:
    """`arena check-bot`, with its process options already read (arena.cli.args)."""
    import tempfile

    from arena.play.run_notes import run_notes

    bot = load_manifest(args.bot)
    if processes.sandbox:
        from arena.procs.processes import require_sandbox

        require_sandbox("add --no-sandbox")
        if bot.command is not None:
            bot.sandbox(processes.limits)  # a manifest asking for more than the caps is an error
    log_dir = Path(tempfile.mkdtemp(prefix="euchre-check-"))
    processes = replace(processes, log_dir=log_dir)
    rule_sets = {k: NAMED_RULES[k] for k in (args.rules or NAMED_RULES)}
    keep_logs: bool = args.keep_logs
    report = Report(fail_fast=args.fail_fast)
    console = Console()
    sealed = "in the arena's sandbox" if processes.sandbox else "WITHOUT a sandbox"
    over = "a unix socket" if processes.transport == "unix" else "loopback TCP"
    kept = "kept" if keep_logs else "removed if every check passes, unless --keep-logs"
    # Lines holding a path are never wrapped, so that a pipe gets it whole.
    console.print(Text.assemble(
        "checking ", (bot.label, "bold"), f" ({bot.source}), {sealed}, over {over}; "
        f"bot logs in {log_dir} ({kept})"
    ), soft_wrap=True)
    for note in run_notes(sealed=processes.sandbox, seed=None):
        console.print(Text(note), soft_wrap=True)
    from arena.play.runner import run_until_signal

    stopped_by = trio.run(run_until_signal, lambda: _run(
        bot, args.games, args.per_decision, report, rule_sets, processes))
    report.fail_fast = False  # the games are over: what follows sums them up
    if stopped_by is not None:
        # What was checked before the stop is still worth reading, with the logs.
        report.add("interrupted", False, f"stopped by {stopped_by}: the checks above are "
                   "those done before it; every bot process was stopped")
        _print(console, report)
        _say_logs(console, log_dir, keep=True)
        return EXIT_TERMINATED if stopped_by == "SIGTERM" else EXIT_INTERRUPTED
    accepted = {c.name.split(":")[0] for c in report.checks if c.name.endswith(": rules") and c.ok}
    if report.checks and not accepted and all(c.ok is not False for c in report.checks):
        # Advice for the rule sets checked: 'standard' only where it was one of them.
        ask = ("accept at least 'standard'" if "standard" in rule_sets else
               f"check it on rules it plays (--rules standard), or make it play "
               f"{', '.join(map(repr, rule_sets))}")
        report.add("rules", False, f"the bot refused every rule set checked: {ask}")
    if accepted and not report.stopped:  # a phase of the games not played proves nothing
        seen = report.phases
        missing = [p for p in expected_phases({k: rule_sets[k] for k in accepted}) if p not in seen]
        report.add("phases reached", None if missing else True,
                   ", ".join(sorted(seen)) + (f"\nnot reached: {', '.join(missing)}" if missing else ""))
    if report.think_us:
        worst = max(report.think_us) / 1000
        mean = sum(report.think_us) / len(report.think_us) / 1000
        limit = args.per_decision * 1000
        report.add("decision time", worst <= limit * 0.5 or None,
                   f"mean {mean:.1f} ms, worst {worst:.1f} ms of {limit:.0f} ms allowed"
                   + ("" if worst <= limit * 0.5 else "\nwarning: the worst is over half the limit"))
    timeouts = sum(1 for c in report.checks
                   if c.ok is False and c.detail.startswith(f"{FaultKind.TIMEOUT.value} in "))
    if timeouts >= SLOW_FAILURES and not args.fail_fast:
        # Each game is forfeited at its first timeout, and only waiting out the limit
        # tells a timeout: the time is the check's own, and this says where it went.
        wait = timeouts * (args.per_decision + TimeControl().allowance)
        report.add("time spent", None,
                   f"{timeouts} games each waited out the {args.per_decision:g} s limit "
                   f"before ruling a timeout, about {wait:.0f} s in all: --fail-fast stops at "
                   "the first FAIL")
    _print(console, report)
    # The logs of a failed check stay for the author to read; a passed one's, if asked.
    _say_logs(console, log_dir, keep=keep_logs or not report.passed)
    return EXIT_OK if report.passed else EXIT_NO


SLOW_FAILURES = 3
"""Games failed by timeout after which check-bot says what the waiting cost."""


def _say_logs(console: Console, log_dir: Path, *, keep: bool) -> None:
    """Where the bots' logs are, and whether they are kept (else removes them)."""
    if not keep:
        shutil.rmtree(log_dir, ignore_errors=True)
        console.print(Text(f"bot logs in {log_dir} removed, as every check passed "
                           "(--keep-logs keeps them)"), soft_wrap=True)
        return
    empty = not any(log_dir.iterdir()) if log_dir.is_dir() else True
    console.print(Text(f"bot logs: {log_dir} (kept"
                       + ("; empty: no bot process was started)" if empty else ")")),
                  soft_wrap=True)


GROUP_NAMES = 3
"""Checks a grouped row names; the rest it counts ("and 97 more")."""


def _names(names: Sequence[str], most: int = GROUP_NAMES) -> str:
    """The first `most` names, a rule set's "label: " said once for a run of its own,
    and how many more: "standard: self-play 1, self-play 2, six-player: round 2 as dealer
    and 97 more"."""
    shown: list[str] = []
    prefix = None
    for name in names[:most]:
        head, sep, rest = name.partition(": ")
        shown.append(rest if sep and head == prefix else name)
        prefix = head if sep else None
    more = len(names) - most
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _grouped(checks: list[Check]) -> list[Check]:
    """One row for checks that failed the same way (one bug in a bot fails every game of
    every rule set): a few of their names and the count of the rest, the detail once."""
    out: list[Check] = []
    by_detail: dict[str, tuple[Check, list[str]]] = {}
    for c in checks:
        # The same fault (its kind and what to fix) in another game, hand or decision.
        lines = c.detail.splitlines()
        fix = lines[-1] if lines and lines[-1].startswith("fix:") else None
        key = f"{c.detail.split(' ', 1)[0]} {fix}" if fix else re.sub(r"\d+", "#", c.detail)
        same = by_detail.get(key) if c.ok is False else None
        if same is None:
            row = Check(c.name, c.ok, c.detail)
            out.append(row)
            if c.ok is False:
                by_detail[key] = (row, [c.name])
        else:
            row, names = same
            names.append(c.name)
            row.name = _names(names)
    return out


def _print(console: Console, report: Report) -> None:
    t = Table(show_lines=False)
    t.add_column("check", overflow="fold")
    t.add_column("result", no_wrap=True)
    t.add_column("detail", overflow="fold")
    for c in _grouped(report.checks):
        mark = {True: Text("pass", "green"), False: Text("FAIL", "bold red"),
                None: Text("note", "yellow")}[c.ok]
        # A bot's own words (its output, its names) are text, never markup.
        t.add_row(Text(c.name), mark, Text(c.detail))
    console.print(t)
    if report.passed:
        console.print("[bold green]PASS[/bold green]: the bot is ready to submit")
    else:
        console.print("[bold red]FAIL[/bold red]: fix the checks marked FAIL above")

