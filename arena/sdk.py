"""Write a bot in Python by writing `decide(view) -> action`; this module does the rest.

    from arena.sdk import Bot, run

    class MyBot(Bot):
        name = "my-bot"
        def decide(self, view):
            return view.legal_actions[0]

    if __name__ == "__main__":
        run(MyBot())

`view` is the seat's whole view (SeatView) with `view.legal_actions` filled in; the arena
checks every answer, so a bot can never play what the rules forbid, only lose by trying.

Several games at once
---------------------
One bot process may be playing several games at the same time, on several threads: a bot
given by address is sent every game of a match or ladder that seats it, its partners'
seats included (two seats of one table, one game id), and the server answers calls on
four threads. So nothing about "the current game" lives on the Bot. Each seat of each
game has its own `Game`, made at StartGame and handed to every hook of that game:

    start_game(game)          game.id, game.seat, game.rules, game.seat_bots, ...
    decide(view, game)        game.time_left: this decision's limit
    on_event(event, game)     every event, in order, also kept in game.events
    end_game(game)            game.result: the GameEnded event

A hook may leave `game` out of its signature (`decide(self, view)`, as in the example
above), and is then called without it. Keep per-game state on the Game (any attribute
name of your own, e.g. `game.rng = random.Random(game.id)`): it is dropped at EndGame.
State on `self` is shared by every game and every thread; guard it with a lock. Calls of
one seat of one game never overlap (the arena asks a seat one thing at a time), so a
Game needs no lock.

The SDK keeps the Games in a dict by game id and seat, guarded by a lock, and removes
each at its EndGame. EndGame does not say the seat: when this process holds both
partners' seats of a table, each EndGame goes to the seat whose own action its events
begin with (a seat's events since its last decision start with that decision), else to
the seat with fewer decisions. A seat the arena ruled out of a game (its bank spent, a
crash) is not sent EndGame; its Game is dropped, without end_game, once it has been idle
longer than any game could last (STALE_AFTER, at least).

Cards and tricks: the helpers below (effective_suit, trick_power, trick_winner,
follows_suit, known_voids, outstanding_cards, ...) answer with the rules core's own
tables, so a bot needs nothing from arena.core.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

from arena import ADDRESS_ENV
from arena.core import actions as _actions
from arena.core.actions import Action, ActionKind
from arena.core.cards import EFFECTIVE_SUIT as _EFFECTIVE_SUIT
from arena.core.cards import (
    JACK,
    JOKER,
    Card,
    Suit,
    build_deck,
    card_name,
    card_rank,
    card_suit,
    effective_suit,
    is_trump,
    parse_card,
    trick_winner_index,
)
from arena.core.cards import TRICK_POWER as _TRICK_POWER
from arena.core.events import ActionTaken, Event, GameEnded, HandEnded, HandStarted, TrickCompleted
from arena.core.hand import Phase
from arena.core.rules import RuleSet
from arena.core.scoring import Outcome, Score, score_hand
from arena.core.view import SeatView, TrickView
from arena.wire.server import BotHandler, BotIdentity, Decision, GameStart, serve

ADDRESS_VARIABLE = ADDRESS_ENV

SDK_NAME = "arena.sdk"
"""What the SDK says of itself in Hello (HelloResponse.sdk), so that advice to the
bot's author (check-bot's) speaks of this module's names, not the protocol's fields."""

STALE_AFTER = 600.0
"""Seconds without a call after which a game that was never ended may be dropped (more
when its bank is long: four banks and a minute)."""

# --- actions -------------------------------------------------------------------------

PASS = _actions.PASS
ORDER_UP = _actions.ORDER_UP
ORDER_UP_ALONE = _actions.ORDER_UP_ALONE
GO_ALONE = _actions.GO_ALONE
order_up = _actions.order_up
name_trump = _actions.name_trump
discard = _actions.discard
play = _actions.play


# --- cards and tricks: the rules core's tables, read for bots -----------------------


def trick_power(card: Card, trump: Suit | int, led: Suit | int) -> int:
    """The card's strength in a trick whose led (effective) suit is `led`: any trump
    beats any other card, then the led suit by rank; 0 when the card neither follows nor
    trumps. The trick's winner is the card of greatest power."""
    return _TRICK_POWER[trump][led][card]


def led_suit(trick: TrickView | Sequence[tuple[int, Card]], trump: Suit | int) -> Suit | None:
    """The suit to follow in this trick (the first card's effective suit); None before
    its lead."""
    plays = trick.plays if isinstance(trick, TrickView) else trick
    return effective_suit(plays[0][1], trump) if plays else None


def follows_suit(card: Card, led: Suit | int, trump: Suit | int) -> bool:
    """Whether the card is of the led suit under this trump (the left bower is a trump,
    not of its printed suit). A seat must play such a card when it holds one, so a seat
    that plays another card holds none: it is void in the led suit."""
    return _EFFECTIVE_SUIT[trump][card] == led


def trick_winner(
    trick: TrickView | Sequence[tuple[int, Card]], trump: Suit | int
) -> tuple[int, Card]:
    """The (seat, card) winning the trick so far: the highest trump, else the highest
    card of the led suit."""
    plays = trick.plays if isinstance(trick, TrickView) else trick
    if not plays:
        raise ValueError("an empty trick has no winner")
    return plays[trick_winner_index([c for _, c in plays], trump)]


def partners(seat: int, seats: int) -> tuple[int, ...]:
    """The seat's partners (team = seat % 2), clockwise from it: one of four seats, two of
    six."""
    return tuple((seat + k) % seats for k in range(2, seats, 2))


@cache
def trump_order(trump: Suit | int, deck: int) -> tuple[Card, ...]:
    """Every trump of a `deck`-card deck, highest first (joker, right bower, left bower,
    ace, king, ...)."""
    power = _TRICK_POWER[trump][trump]
    trumps = [c for c in build_deck(deck) if _EFFECTIVE_SUIT[trump][c] == trump]
    return tuple(sorted(trumps, key=power.__getitem__, reverse=True))


def known_voids(view: SeatView) -> tuple[frozenset[Suit], ...]:
    """For each seat, the suits it has shown it holds none of in this hand (it did not
    follow them); all empty before trump is made."""
    trump = view.trump
    voids: list[set[Suit]] = [set() for _ in range(view.rules.seats)]
    if trump is not None:
        eff = _EFFECTIVE_SUIT[trump]
        tricks = (*view.tricks, *((view.current_trick,) if view.current_trick else ()))
        for t in tricks:
            if t.plays:
                led = eff[t.plays[0][1]]
                for seat, card in t.plays:
                    if eff[card] != led:
                        voids[seat].add(Suit(led))
    return tuple(frozenset(v) for v in voids)


def outstanding_cards(view: SeatView) -> list[Card]:
    """The cards another seat may still play, in deck order: the deck less this seat's
    hand, every card played, its own discard, and an upcard left in the kitty."""
    seen = set(view.hand)
    for t in (*view.tricks, *((view.current_trick,) if view.current_trick else ())):
        seen.update(c for _, c in t.plays)
    if view.discard is not None:
        seen.add(view.discard)
    if not view.dealer_took_upcard:
        seen.add(view.upcard)
    return [c for c in build_deck(view.rules.deck) if c not in seen]


# --- the game a call belongs to --------------------------------------------------------


class Game:
    """One seat of one game that this process plays, handed to every hook of that game.

    Besides the fields below, a bot may keep its own state for the game on it, under any
    attribute name of its own; it goes when the game ends."""

    def __init__(
        self,
        id: str,
        seat: int,
        rules: RuleSet,
        seat_bots: Sequence[str] = (),
        per_decision: float = 0.0,
        bank: float = 0.0,
    ) -> None:
        self.id = id
        """The game's id: an opaque table id, the same for both partners' seats, a
        stable seed for a bot that wants to be reproducible game by game."""
        self.seat = seat
        """This process's seat in the game (the partner's is (seat + 2) % 4)."""
        self.rules = rules
        self.seat_bots = tuple(seat_bots)
        """The name of the bot in each seat."""
        self.per_decision = per_decision
        """Seconds one decision may take (the time control; 0 if the arena did not say)."""
        self.bank = bank
        """Seconds for all of this seat's decisions in the game (0 if not said)."""
        self.time_left = 0.0
        """Seconds the current decision may take (set before each decide)."""
        self.bank_left = bank
        """Seconds left in this seat's bank (set before each decide)."""
        self.decisions = 0
        """Decisions asked of this seat so far, the current one included."""
        self.events: list[Event] = []
        """Every event this seat has heard in the game, in order."""
        self.result: GameEnded | None = None
        """How the game ended (scores, winning team, forfeit); None until then."""
        self._last_call = time.monotonic()

    if TYPE_CHECKING:
        # A bot's own state for the game, under attribute names of its own (the class
        # doc): any name may be set and read, as Any. Only for the type checker: at run
        # time a Game is a plain object, and a name never set raises AttributeError.
        def __getattr__(self, name: str) -> Any: ...
        def __setattr__(self, name: str, value: Any) -> None: ...

    @property
    def over(self) -> bool:
        return self.result is not None

    def __repr__(self) -> str:
        return f"Game({self.id!r}, seat={self.seat}, decisions={self.decisions})"


_calling = threading.local()
"""`.game`: the Game of the call this thread is running (for Bot.game_id and time_left)."""


class Bot:
    """Subclass it, set the class attributes, and write decide().

    Every hook of a game gets that game's Game as its last argument, and may leave it out
    of its signature. The hooks of different games run at once, on different threads."""

    name = "unnamed-bot"
    version = "0"
    author = ""

    def supports(self, rules: RuleSet) -> str | None:
        """Return a reason to refuse these rules, or None to play them."""
        return None

    def start_game(self, game: Game) -> None:
        """A game starts: `game.seat` is this process's seat in it. (An older form,
        start_game(self, seat, seat_bots), is still called as such.)"""

    def decide(self, view: SeatView, game: Game) -> Action:
        """One of view.legal_actions. `game` may be left out: decide(self, view)."""
        raise NotImplementedError("a bot must implement decide(view)")

    def on_event(self, event: Event, game: Game) -> None:
        """Hears each event of the game (hand dealt, actions it may see, tricks, results),
        in order, before the decide() or end_game() that follows it."""

    def end_game(self, game: Game) -> None:
        """The game is over (its last events came through on_event first)."""

    @property
    def game_id(self) -> str:
        """The id of the game whose call this thread is running ("" outside a call).
        For bots written before hooks were given their game: prefer `game.id`."""
        game = getattr(_calling, "game", None)
        return game.id if game is not None else ""

    @property
    def time_left(self) -> float:
        """Seconds the decision this thread is running may take. Prefer `game.time_left`."""
        game = getattr(_calling, "game", None)
        return game.time_left if game is not None else 0.0


def _positional(fn: Callable[..., object]) -> tuple[int, int]:
    """(how many positional arguments fn takes, how many it requires); many for *args."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # a builtin without a signature: assume the new form
        return 99, 0
    takes = needs = 0
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            takes = 99
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            takes += 1
            needs += p.default is p.empty
    return takes, needs


class _Handler(BotHandler):
    """Serves one Bot: one Game per (game id, seat), made at StartGame, dropped at EndGame."""

    def __init__(self, bot: Bot, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self._clock = clock
        self._lock = threading.Lock()
        self._games: dict[str, dict[int, Game]] = {}
        """Game id -> seat -> Game: the games this process is playing. Under _lock."""
        # Which form of each hook the bot wrote: with or without the game.
        self._decide_game = _positional(bot.decide)[0] >= 2
        self._event_game = _positional(bot.on_event)[0] >= 2
        self._end_game = _positional(bot.end_game)[0] >= 1
        self._start_legacy = _positional(bot.start_game)[1] >= 2  # (seat, seat_bots)

    # -- the games' table ---------------------------------------------------------

    def games(self) -> list[Game]:
        """The games being played now (for tests and tools)."""
        with self._lock:
            return [g for seats in self._games.values() for g in seats.values()]

    def _add(self, game: Game) -> None:
        with self._lock:
            self._sweep()
            self._games.setdefault(game.id, {})[game.seat] = game

    def _sweep(self) -> None:
        """Drops games never ended (under _lock): idle longer than any game lasts."""
        now = self._clock()
        for game_id in list(self._games):
            seats = self._games[game_id]
            for seat, g in list(seats.items()):
                if now - g._last_call > max(STALE_AFTER, 4 * g.bank + 60):
                    del seats[seat]
            if not seats:
                del self._games[game_id]

    def _find(self, game_id: str, seat: int) -> Game | None:
        with self._lock:
            return self._games.get(game_id, {}).get(seat)

    def _remove(self, game_id: str, events: Sequence[Event]) -> Game | None:
        """Takes out the Game an EndGame is for (it does not say its seat)."""
        with self._lock:
            seats = self._games.get(game_id)
            if not seats:
                return None
            first = events[0] if events else None
            if isinstance(first, ActionTaken) and first.seat in seats:
                seat = first.seat
            else:
                seat = min(seats, key=lambda s: (seats[s].decisions, s))
            game = seats.pop(seat)
            if not seats:
                del self._games[game_id]
            return game

    # -- calls --------------------------------------------------------------------

    @contextlib.contextmanager
    def _call(self, game: Game) -> Iterator[None]:
        """Runs a hook of `game` on this thread: Bot.game_id and time_left say it."""
        before = getattr(_calling, "game", None)
        _calling.game = game
        game._last_call = self._clock()
        try:
            yield
        except MemoryError:
            _out_of_memory(self.bot)
        finally:
            _calling.game = before

    def _hear(self, game: Game, events: Sequence[Event]) -> None:
        # on_event(event, game) or on_event(event): which one, __init__ read from its signature
        on_event: Callable[..., object] = self.bot.on_event
        for e in events:
            game.events.append(e)
            if isinstance(e, GameEnded):
                game.result = e
            if self._event_game:
                on_event(e, game)
            else:
                on_event(e)

    def _start(self, game: Game) -> None:
        self._add(game)
        with self._call(game):
            if self._start_legacy:  # the older start_game(seat, seat_bots), read in __init__
                legacy_start: Callable[..., object] = self.bot.start_game
                legacy_start(game.seat, game.seat_bots)
            else:
                self.bot.start_game(game)

    def hello(self, rules: RuleSet) -> BotIdentity:
        bot = self.bot
        return BotIdentity(bot.name, bot.version, bot.author, bot.supports(rules), sdk=SDK_NAME)

    def handle_start_game(self, start: GameStart) -> None:
        self._start(Game(start.game_id, start.seat, start.rules, start.seat_bots,
                         start.per_decision, start.bank))

    def handle_decide(self, decision: Decision) -> Action:
        view = decision.view
        game = self._find(decision.game_id, view.seat)
        if game is None:  # a StartGame not heard: start the game now
            game = Game(decision.game_id, view.seat, view.rules)
            self._start(game)
        with self._call(game):
            game.decisions += 1
            game.time_left = decision.time_left
            game.bank_left = decision.bank_left
            self._hear(game, decision.events)
            args = (view, game) if self._decide_game else (view,)
            action = self.bot.decide(*args)
        return action

    def end_game(self, game_id: str, events: Sequence[Event]) -> None:
        game = self._remove(game_id, events)
        if game is None:  # never started here (or long dropped): nothing to end
            return
        with self._call(game):
            self._hear(game, events)
            if self._end_game:
                self.bot.end_game(game)
            else:  # end_game(self) without the game, read in __init__
                bare_end: Callable[..., object] = self.bot.end_game
                bare_end()


def _out_of_memory(bot: Bot) -> NoReturn:
    """A bot that ran out of memory (in the arena, its sandbox's memory limit) exits at
    once: a Python process that failed to allocate may be left in any state, and the
    arena rules a crash of this seat alone, where a half-broken bot could go on failing
    in ways that look like other faults."""
    os.write(2, f"{bot.name}: out of memory (the sandbox's limit is its manifest's "
                f"[limits] memory_mb); exiting\n".encode())
    os._exit(70)


def run(
    bot: Bot,
    address: str | None = None,
    *,
    on_started: Callable[[], None] | None = None,
    stop: threading.Event | None = None,
) -> None:
    """Serves the bot at EUCHRE_BOT_ADDRESS (set by the arena) until it is stopped: by
    SIGTERM or SIGINT, or, when `stop` is given (serving from a thread), once it is set.
    `on_started` is called once the bot listens."""
    address = address or os.environ.get(ADDRESS_VARIABLE)
    if not address:
        sys.exit(
            f"{bot.name}: no address to listen on. The arena starts bots and sets "
            f"{ADDRESS_VARIABLE}; to run this bot by hand, set it yourself, e.g. "
            f"{ADDRESS_VARIABLE}=127.0.0.1:50051, and register that address with the arena."
        )
    try:
        serve(_Handler(bot), address, on_started=on_started, stop=stop)
    except (OSError, RuntimeError) as e:  # grpcio says RuntimeError when it cannot bind
        sys.exit(f"{bot.name}: cannot listen on {address}: {e}")


__all__ = [
    "GO_ALONE",
    "JACK",
    "JOKER",
    "ORDER_UP",
    "ORDER_UP_ALONE",
    "PASS",
    "STALE_AFTER",
    "Action",
    "ActionKind",
    "ActionTaken",
    "Bot",
    "Card",
    "Event",
    "Game",
    "GameEnded",
    "HandEnded",
    "HandStarted",
    "Outcome",
    "Phase",
    "RuleSet",
    "Score",
    "SeatView",
    "Suit",
    "TrickCompleted",
    "TrickView",
    "build_deck",
    "card_name",
    "card_rank",
    "card_suit",
    "discard",
    "effective_suit",
    "follows_suit",
    "is_trump",
    "known_voids",
    "led_suit",
    "name_trump",
    "order_up",
    "outstanding_cards",
    "parse_card",
    "partners",
    "play",
    "run",
    "score_hand",
    "trick_power",
    "trick_winner",
    "trump_order",
]
