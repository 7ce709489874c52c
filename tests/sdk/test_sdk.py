"""The SDK with several games at once: one bot process served over real gRPC, driven by
the arena's own client from several threads, each game's hooks seeing only their own
game (id, seat, rules, events, time left), its state dropped at EndGame; bots written
in the older forms still work; and the card helpers agree with the rules core."""

from __future__ import annotations

import ast
import contextlib
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import trio

from arena import sdk
from arena.core.events import EventFeed
from arena.core.game import GameState
from arena.core.hand import Phase
from arena.core.rules import preset
from arena.core.view import seat_view
from arena.settings.spec import TimeControl
from arena.wire.client import BotClient
from arena.wire.server import serve

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def serving(
    bot: sdk.Bot, tmp_path: Path, *, via_run: bool = False
) -> Iterator[tuple[str, sdk._Handler | None]]:
    """Serves the bot on a unix socket from a thread: (its address, its handler)."""
    address = f"unix:{tmp_path}/bot.sock"
    started, stop = threading.Event(), threading.Event()
    handler = None if via_run else sdk._Handler(bot)
    if via_run:
        target, args = sdk.run, (bot, address)
    else:
        target, args = serve, (handler, address)
    thread = threading.Thread(
        target=target, args=args, kwargs={"on_started": started.set, "stop": stop}, daemon=True
    )
    thread.start()
    assert started.wait(10), "the bot never listened"
    try:
        yield address, handler
    finally:
        stop.set()
        thread.join(10)
        assert not thread.is_alive(), "the server did not stop"


class Table:
    """One game as the arena plays it: the bot under test holds `seats`, the other seats
    play at random here. Records what each of the bot's seats was sent."""

    def __init__(self, game_id: str, rules_name: str, seats: tuple[int, ...], seed: int,
                 per_decision: float, hard_end: bool = False) -> None:
        self.game_id = game_id
        self.rules = preset(rules_name)
        self.seats = seats
        self.seed = seed
        self.names = tuple("sdk" if s in seats else f"house{s}" for s in range(4))
        self.time_control = TimeControl(per_decision=per_decision, bank=60.0 + seed)
        self.hard_end = hard_end
        """With partners' seats: send EndGame first to the seat that made more decisions
        (EndGame does not say the seat, and the SDK must not guess it by the count)."""
        self.sent: dict[int, list] = {s: [] for s in seats}
        self.times: dict[int, list[float]] = {s: [] for s in seats}
        self.banks: dict[int, list[float]] = {s: [] for s in seats}

    def play(self, address: str) -> None:
        trio.run(self._play, address)

    async def _play(self, address: str) -> None:
        client = BotClient(address)
        try:
            ident = await client.hello(self.rules, "test")
            assert ident.refusal is None
            game = GameState(self.rules, self.seed, first_dealer=self.seed % 4)
            feed = EventFeed(game)
            rng = random.Random(self.seed)
            for s in self.seats:
                await client.start_game(self.game_id, s, self.rules, self.names, self.time_control)
            number = {s: 0 for s in self.seats}
            while not game.over:
                seat = game.turn
                view = seat_view(game, seat)
                events = feed.take(seat)
                if seat in self.seats:
                    self.sent[seat] += events
                    # a time left of this game's own, different at each decision
                    left = round(self.time_control.per_decision - number[seat] / 1000, 3)
                    bank = round(self.time_control.bank - number[seat] / 100, 3)
                    action, _ = await client.decide(self.game_id, number[seat], view, events,
                                                    left, bank)
                    self.times[seat].append(left)
                    self.banks[seat].append(bank)
                    number[seat] += 1
                    assert action in view.legal_actions, action
                else:
                    action = rng.choice(view.legal_actions)
                feed.apply(action)
            order = self.seats
            if self.hard_end:
                order = tuple(sorted(self.seats, key=lambda s: (-number[s], -s)))
            for s in order:
                events = feed.take(s)
                self.sent[s] += events
                await client.end_game(self.game_id, events)
        finally:
            client.close()


class Recorder(sdk.Bot):
    """Plays at random, per game, and records what each game's hooks saw. Each game's
    first decision waits until every game has one in flight (so all run at once, on
    different server threads), then checks that its game is still its own."""

    name = "recorder"
    version = "1"

    def __init__(self, games_at_once: int) -> None:
        self.lock = threading.Lock()
        self.started: list[sdk.Game] = []
        self.ended: list[sdk.Game] = []
        self.barrier = threading.Barrier(games_at_once)
        self.met: set[str] = set()
        self.in_flight = 0
        self.most_in_flight = 0
        self.threads: set[int] = set()

    def start_game(self, game):
        game.rng = random.Random(f"{game.id}:{game.seat}")
        game.heard = []
        game.times = []
        game.banks = []
        game.wrong = []
        if self.game_id != game.id:
            game.wrong.append(f"start: self.game_id {self.game_id!r}")
        with self.lock:
            self.started.append(game)

    def on_event(self, event, game):
        game.heard.append(event)

    def decide(self, view, game):
        with self.lock:
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            first = game.id not in self.met
            self.met.add(game.id)
            self.threads.add(threading.get_ident())
        try:
            time_left = game.time_left
            if first:
                self.barrier.wait(20)
            else:
                time.sleep(0.0005)
            # Other games' calls ran meanwhile: this call's game is still its own.
            if view.seat != game.seat:
                game.wrong.append(f"view of seat {view.seat}")
            if view.rules != game.rules:
                game.wrong.append("rules")
            if self.game_id != game.id or self.time_left != game.time_left:
                game.wrong.append(f"self.game_id {self.game_id!r}, time_left {self.time_left}")
            if game.time_left != time_left:
                game.wrong.append("time_left changed under the call")
            if game.heard != game.events:
                game.wrong.append("events")
            game.times.append(game.time_left)
            game.banks.append(game.bank_left)
            return game.rng.choice(view.legal_actions)
        finally:
            with self.lock:
                self.in_flight -= 1

    def end_game(self, game):
        if self.game_id != game.id:
            game.wrong.append(f"end: self.game_id {self.game_id!r}")
        with self.lock:
            self.ended.append(game)


def test_games_at_once_each_see_only_their_own_game(tmp_path):
    tables = [
        # partners' seats in one process, under one game id
        Table("t-a1f3", "standard", (0, 2), seed=11, per_decision=1.5, hard_end=True),
        Table("t-77b0", "british", (1,), seed=12, per_decision=1.2),
        Table("t-c9e2", "canadian", (3,), seed=13, per_decision=0.9),
        Table("t-05d4", "standard", (1, 3), seed=14, per_decision=1.8, hard_end=True),
    ]
    bot = Recorder(games_at_once=len(tables))
    with serving(bot, tmp_path) as (address, handler), ThreadPoolExecutor(len(tables)) as pool:
        for f in [pool.submit(t.play, address) for t in tables]:
            f.result(timeout=60)
        assert handler is not None
        assert handler.games() == [], "a game's state outlived its EndGame"

    assert not bot.barrier.broken
    assert bot.most_in_flight == len(tables)  # every game's decision in flight at once
    assert len(bot.threads) >= 2
    by_key = {(g.id, g.seat): g for g in bot.started}
    assert len(by_key) == len(bot.started) == sum(len(t.seats) for t in tables)
    assert sorted(map(id, bot.ended)) == sorted(map(id, bot.started))
    for t in tables:
        for seat in t.seats:
            game = by_key[(t.game_id, seat)]
            assert game.wrong == [], (t.game_id, seat, game.wrong)
            assert game.rules == t.rules
            assert game.seat_bots == t.names
            assert (game.per_decision, game.bank) == (t.time_control.per_decision,
                                                     t.time_control.bank)
            assert game.events == game.heard == t.sent[seat], (t.game_id, seat)
            assert game.times == t.times[seat]
            assert game.banks == t.banks[seat]
            assert game.decisions == len(t.times[seat]) > 0
            assert game.over and game.result == t.sent[seat][-1]


class ReadmeBot(sdk.Bot):
    """The README's bot, as written there: decide(self, view) and nothing else."""

    name = "cautious"
    version = "1.0"

    def decide(self, view):
        legal = view.legal_actions
        passes = [a for a in legal if a.kind is sdk.ActionKind.PASS]
        if passes:
            return passes[0]
        return min(legal, key=lambda a: a.card if a.card is not None else -1)


def test_a_bot_with_decide_view_only_plays_games_at_once(tmp_path):
    tables = [Table(f"readme-{i}", "standard", (i % 4,), seed=20 + i, per_decision=1.0)
              for i in range(3)]
    with serving(ReadmeBot(), tmp_path, via_run=True) as (address, _), ThreadPoolExecutor(3) as pool:
        for f in [pool.submit(t.play, address) for t in tables]:
            f.result(timeout=60)
    assert all(t.times[t.seats[0]] for t in tables)


class OldStyle(sdk.Bot):
    """A bot written before hooks were given their game (like tests/bots/hostile.py):
    start_game(seat, seat_bots), on_event(event), end_game(), self.game_id."""

    name = "old-style"

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: list[tuple[str, str, int]] = []
        self.events: dict[str, int] = {}
        self.ends: list[str] = []

    def start_game(self, seat, seat_bots):
        with self.lock:
            self.seen.append(("start", self.game_id, seat))

    def on_event(self, event):
        with self.lock:
            self.events[self.game_id] = self.events.get(self.game_id, 0) + 1

    def decide(self, view):
        game_id = self.game_id
        time.sleep(0.0005)
        with self.lock:
            self.seen.append(("decide", game_id if game_id == self.game_id else "CHANGED",
                              view.seat))
        assert self.time_left > 0
        return view.legal_actions[-1]

    def end_game(self):
        with self.lock:
            self.ends.append(self.game_id)


def test_bots_in_the_older_forms_still_work(tmp_path):
    tables = [Table(f"old-{i}", "standard", (i,), seed=30 + i, per_decision=1.0)
              for i in range(3)]
    bot = OldStyle()
    with serving(bot, tmp_path) as (address, _), ThreadPoolExecutor(3) as pool:
        for f in [pool.submit(t.play, address) for t in tables]:
            f.result(timeout=60)
    for t in tables:
        seat = t.seats[0]
        mine = [(kind, s) for kind, gid, s in bot.seen if gid == t.game_id]
        assert mine[0] == ("start", seat)
        assert mine[1:] == [("decide", seat)] * len(t.times[seat])
        assert bot.events[t.game_id] == len(t.sent[seat])
    assert sorted(bot.ends) == sorted(t.game_id for t in tables)
    assert "CHANGED" not in {gid for _, gid, _ in bot.seen}


def test_state_is_dropped_at_end_game_and_a_reused_id_starts_afresh(tmp_path):
    bot = Recorder(games_at_once=1)
    with serving(bot, tmp_path) as (address, handler):
        assert handler is not None
        first = Table("same-id", "standard", (0,), seed=40, per_decision=1.0)
        first.play(address)
        assert handler.games() == []
        second = Table("same-id", "british", (0,), seed=41, per_decision=1.0)
        second.play(address)
        assert handler.games() == []
    one, two = bot.started
    assert one is not two and bot.ended == [one, two]
    assert two.events == second.sent[0] and two.rules == second.rules


def test_a_game_never_ended_is_dropped_once_stale():
    now = [0.0]
    bot = Recorder(games_at_once=1)
    handler = sdk._Handler(bot, clock=lambda: now[0])
    from arena.wire.server import GameStart

    rules = preset("standard")
    handler.handle_start_game(GameStart("lost", 1, rules, ("a", "b", "c", "d"), 2.0, 60.0))
    now[0] += sdk.STALE_AFTER - 1
    handler.handle_start_game(GameStart("next", 1, rules, ("a", "b", "c", "d"), 2.0, 60.0))
    assert {g.id for g in handler.games()} == {"lost", "next"}
    now[0] += 2  # "lost" has had no call for longer than any game lasts
    handler.handle_start_game(GameStart("third", 2, rules, ("a", "b", "c", "d"), 2.0, 60.0))
    assert {g.id for g in handler.games()} == {"next", "third"}
    assert bot.ended == []  # dropped, not ended: it never heard its end


# --- card helpers ---------------------------------------------------------------------


@pytest.mark.parametrize("rules_name", ["standard", "british", "canadian"])
def test_card_helpers_agree_with_the_rules_core(rules_name):
    rules = preset(rules_name)
    checked_tricks = checked_follows = 0
    for seed in range(40):
        rng = random.Random(seed)
        game = GameState(rules, seed)
        while not game.over:
            hand = game.hand
            seat = game.turn
            view = seat_view(game, seat)
            trump = view.trump
            if view.phase is Phase.PLAY:
                assert trump is not None
                order = sdk.trump_order(trump, rules.deck)
                assert [sdk.trick_power(c, trump, trump) for c in order] == sorted(
                    (sdk.trick_power(c, trump, trump) for c in order), reverse=True)
                assert all(sdk.is_trump(c, trump) for c in order)
                # legal plays: the cards that follow the led suit, if any, else any card
                trick = view.current_trick
                legal = sorted(a.card for a in view.legal_actions)
                if trick is not None and trick.plays:
                    led = sdk.led_suit(trick, trump)
                    assert led == sdk.effective_suit(trick.plays[0][1], trump)
                    follow = sorted(c for c in view.hand if sdk.follows_suit(c, led, trump))
                    assert legal == (follow or sorted(view.hand))
                    checked_follows += 1
                # voids and outstanding cards never contradict the hidden hands
                voids = sdk.known_voids(view)
                outstanding = set(sdk.outstanding_cards(view))
                assert not outstanding & set(view.hand)
                for s in range(4):
                    held = hand.hands[s]
                    assert not any(sdk.effective_suit(c, trump) in voids[s] for c in held)
                    if s != seat:
                        assert set(held) <= outstanding
            tricks_before = len(hand.tricks)
            game.apply(rng.choice(view.legal_actions), seat)
            if len(hand.tricks) > tricks_before:
                done = hand.tricks[-1]
                winner = sdk.trick_winner(done.plays, hand.trump)
                assert winner[0] == done.winner and winner in done.plays
                checked_tricks += 1
    assert checked_tricks > 100 and checked_follows > 100


def test_sample_bots_import_only_the_sdk_from_the_arena():
    for path in (ROOT / "sample_bots").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            else:
                continue
            for m in modules:
                assert m.split(".")[0] != "arena" or m == "arena.sdk", f"{path}: imports {m}"
