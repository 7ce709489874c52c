"""One hand of Euchre as a state machine: whose turn, which actions are legal, apply one.

Legality has exactly one definition: an action is legal when it is in legal_actions().
apply() checks membership and nothing else, so the rules live in one place per phase.
The list is cached until the next apply(), which makes the usual "ask, choose, apply"
loop compute it once per decision.

Phases of a hand, in order (some are skipped):

    BID_ROUND_1 -> [GOING_ALONE] -> [exchanges] -> [DEALER_PICKUP] -> [DEALER_DISCARD] -> PLAY
    exchanges, for each lone player in turn (Cornwall's ask, or railroading):
        [LONER_ASKS] -> PARTNER_GIVES -> LONER_DISCARDS (Cornwall) or LONER_EXCHANGES
    BID_ROUND_1 -> BID_ROUND_2 -> [GOING_ALONE] -> PLAY -> HAND_OVER
    BID_ROUND_1 -> BID_ROUND_2 -> HAND_OVER            (thrown in, stick the dealer off)
    DEALER_NAMES_TRUMP -> [GOING_ALONE] -> [DEALER_DISCARD] -> PLAY -> HAND_OVER  (joker up)

Choices the rules reference leaves open, written down here:
- When only makers may go alone, the caller says so with the call (ORDER_UP or NAME_TRUMP
  with alone=True). When any player may, calls carry it only where going alone is the one
  way to make them (the dealer's partner, below); an alone round follows.
- The alone round asks the maker, then the maker's partner, then the defenders clockwise
  from the dealer's left; each eligible seat once. A lone defender (when allowed) is asked
  in the same round, also when only makers may go alone.
- The dealer's partner who must go alone when ordering up has only ORDER_UP alone=True.
- The alone round comes before the dealer's discard, so a dealer who sits out never
  takes the upcard, whoever made them sit out.
- A lone defender who euchres the makers and a super euchre: the larger of the points
  that apply is scored (see scoring.py).
- At six seats a lone player's two partners both sit out; in the alone round the
  maker's partners are asked clockwise from the maker. "The dealer's partner" (who must
  go alone to order up, with that option) is either of the dealer's two partners.
- The dealer who may decline the upcard (an option) decides after the alone round, so a
  dealer sitting out is never asked; a turned joker is always taken.
- With a turned joker bid on (an option), round 1 offers each seat a suit to name (the
  joker's suit is the one the maker names); the dealer may not pass it.
- A lone player's card from a partner (Cornwall's ask, or railroading) comes after the
  alone round and before the dealer's pickup, for each lone player in the order they
  declared. In Cornwall the loner may ask either partner or none (PASS); railroading
  asks a partner at six seats (the loner picks which), and the partner passes a card or
  none (PASS; edition 2 of the rules' reading, arena.core.rules.RULES_EDITION). A partner
  who sits out still gives. The railroaded card is taken unseen: PASS sets it aside, DISCARD of a
  card of the hand sets that card aside and takes the passed one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from arena.core import actions as A
from arena.core.actions import Action, ActionKind
from arena.core.cards import (
    EFFECTIVE_SUIT,
    SUIT_INDEX,
    SUITS,
    TRICK_POWER,
    TRICK_POWER_COLOURED_JOKERS,
    Card,
    card_name,
    is_joker,
)
from arena.core.errors import IllegalActionError
from arena.core.rules import RULES_EDITION, FirstLead, LoneDefender, RuleSet, WhoMayGoAlone
from arena.core.scoring import Outcome, Score, score_hand


class Phase(Enum):
    BID_ROUND_1 = "bid_round_1"
    BID_ROUND_2 = "bid_round_2"
    DEALER_NAMES_TRUMP = "dealer_names_trump"
    """The joker was turned up: the dealer's team are makers; the dealer names trump
    before looking at their cards."""
    GOING_ALONE = "going_alone"
    DEALER_PICKUP = "dealer_pickup"
    """Another seat ordered up and the dealer may decline the upcard (an option): ORDER_UP
    takes it, PASS leaves it in the kitty."""
    LONER_ASKS = "loner_asks"
    """A lone player asks a partner for a card (ASK seat), or, in Cornwall, not (PASS)."""
    PARTNER_GIVES = "partner_gives"
    """The asked partner chooses the card: GIVE (Cornwall) or PASS_CARD (railroading)."""
    LONER_DISCARDS = "loner_discards"
    """Cornwall: the lone player, holding the card given, puts one card face down."""
    LONER_EXCHANGES = "loner_exchanges"
    """Railroading: without looking at the passed card, the lone player sets it aside
    (PASS) or sets a card of the hand aside and takes it (DISCARD that card)."""
    DEALER_DISCARD = "dealer_discard"
    PLAY = "play"
    HAND_OVER = "hand_over"


@dataclass(frozen=True, slots=True)
class Trick:
    leader: int
    plays: tuple[tuple[int, Card], ...]
    """(seat, card) in the order played."""
    winner: int


@dataclass(frozen=True, slots=True)
class HandResult:
    dealer: int
    trump: int | None
    maker: int | None
    alone: tuple[int, ...]
    tricks_won: tuple[int, int]
    """Tricks taken by team 0 and team 1."""
    score: Score

    @property
    def makers_team(self) -> int | None:
        return None if self.maker is None else self.maker % 2


def partners(seat: int, seats: int) -> tuple[int, ...]:
    """The seat's partners, clockwise from it: one at four seats, two at six."""
    return tuple((seat + k) % seats for k in range(2, seats, 2))


class HandState:
    """A hand from the deal to its score. Seats are 0..N-1 clockwise; team = seat % 2."""

    __slots__ = (
        "_eff",
        "_legal",
        "_next_active",
        "_passed",
        "_power",
        "_trick_size",
        "alone",
        "alone_queue",
        "dealer",
        "dealer_took_upcard",
        "discarded",
        "edition",
        "exchange_queue",
        "gave",
        "hands",
        "history",
        "kitty",
        "maker",
        "passed_card",
        "passed_in_deciding_round",
        "phase",
        "result",
        "rules",
        "seats",
        "set_aside",
        "set_aside_unseen",
        "sitting_out",
        "trick_leader",
        "trick_plays",
        "tricks",
        "tricks_won",
        "trump",
        "trump_from_upcard",
        "turn",
        "upcard",
    )

    def __init__(
        self, rules: RuleSet, dealer: int, hands: list[list[Card]], kitty: list[Card],
        edition: int = RULES_EDITION,
    ) -> None:
        self.rules = rules
        self.edition = edition
        """The reading of the rules the hand is played by (arena.core.rules.RULES_EDITION)."""
        self.seats = n = rules.seats
        self.dealer = dealer
        self.hands = hands
        self.kitty = tuple(kitty)
        self.upcard: Card = kitty[0]
        self.history: list[tuple[int, Action]] = []
        self.trump: int | None = None
        self.trump_from_upcard = False
        """Ordered up in round 1, or the joker turned: the dealer takes the upcard."""
        self.maker: int | None = None
        self.alone: list[int] = []
        self.sitting_out = [False] * n
        self.alone_queue: list[int] = []
        self.passed_in_deciding_round: frozenset[int] = frozenset()
        self._passed: list[int] = []
        self.dealer_took_upcard = False
        self.discarded: Card | None = None
        self.exchange_queue: list[int] = []
        """Lone players still to get their card from a partner."""
        self.passed_card: Card | None = None
        """Railroading: the card passed face down, not yet taken or set aside."""
        self.gave: list[Card | None] = [None] * n
        """The card each seat gave a lone partner (its own knowledge)."""
        self.set_aside: list[list[Card]] = [[] for _ in range(n)]
        """Cards a lone player put face down in an exchange, by seat (its own knowledge)."""
        self.set_aside_unseen: list[Card] = []
        """Railroaded cards their lone player set aside without looking."""
        self.tricks: list[Trick] = []
        self.trick_leader = -1
        self.trick_plays: list[tuple[int, Card]] = []
        self.tricks_won = [0, 0]
        self.result: HandResult | None = None
        self._legal: list[Action] | None = None
        self._eff: tuple[int, ...] = ()
        self._power: tuple[tuple[int, ...], ...] = ()
        self._next_active: list[int] = []
        self._trick_size = 0
        if is_joker(self.upcard) and not rules.turned_joker_bid:
            self.phase = Phase.DEALER_NAMES_TRUMP
            self.turn = dealer
        else:
            self.phase = Phase.BID_ROUND_1
            self.turn = (dealer + 1) % n

    @classmethod
    def deal(cls, rules: RuleSet, dealer: int, deck_order: list[Card] | tuple[Card, ...],
             edition: int = RULES_EDITION) -> HandState:
        """A hand's cards to each seat from the dealer's left, in deck order; the rest is
        the kitty, whose top card (the first) is turned up."""
        n, seats = rules.cards_per_hand, rules.seats
        hands: list[list[Card]] = [[] for _ in range(seats)]
        for i in range(seats):
            seat = (dealer + 1 + i) % seats
            hands[seat] = list(deck_order[i * n : (i + 1) * n])
        return cls(rules, dealer, hands, list(deck_order[seats * n :]), edition)

    # --- questions ---------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.phase is Phase.HAND_OVER

    @property
    def makers_team(self) -> int | None:
        return None if self.maker is None else self.maker % 2

    def describe(self, show_hand: bool = True) -> str:
        """A one-line state for error messages and logs. The hand of the seat to act is
        left out when show_hand is false, and while a dealer names trump on a turned joker
        (not having looked yet): an error message may go to another seat's bot."""
        parts = [f"{self.phase.value}, dealer {self.dealer}"]
        if self.phase is not Phase.HAND_OVER:
            parts.append(f"seat {self.turn} to act")
        if self.trump is not None:
            parts.append(f"trump {SUITS[self.trump].name.lower()}")
        if show_hand and self.phase is not Phase.DEALER_NAMES_TRUMP:
            hand = " ".join(card_name(c) for c in self.hands[self.turn])
            parts.append(f"hand [{hand}]")
        if self.trick_plays:
            played = " ".join(card_name(c) for _, c in self.trick_plays)
            parts.append(f"trick so far [{played}]")
        return ", ".join(parts)

    def legal_actions(self) -> list[Action]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal

    def _compute_legal(self) -> list[Action]:
        phase = self.phase
        if phase is Phase.PLAY:  # most decisions are plays
            play = A.PLAY
            hand = self.hands[self.turn]
            plays = self.trick_plays
            if plays:
                eff = self._eff
                led = eff[plays[0][1]]
                follow = [play[c] for c in hand if eff[c] == led]
                if follow:
                    return follow
            return [play[c] for c in hand]
        rules = self.rules
        seat = self.turn
        if phase is Phase.BID_ROUND_1:
            partner_alone = (
                rules.dealer_partner_must_go_alone
                and seat != self.dealer
                and (seat - self.dealer) % 2 == 0
            )
            if is_joker(self.upcard):  # bid on (turned_joker_bid): name the joker's suit
                bids = [] if seat == self.dealer else [A.PASS]
                if partner_alone and self.edition >= 2:  # RULES.md section 7: no exception
                    return [*bids, *A.NAME_TRUMP_ALONE]
                for s in range(4):
                    bids.append(A.NAME_TRUMP[s])
                    if rules.who_may_go_alone is WhoMayGoAlone.MAKER_ONLY:
                        bids.append(A.NAME_TRUMP_ALONE[s])
                return bids
            if seat == self.dealer and rules.dealer_needs_trump_to_pick_up:
                suit = SUIT_INDEX[self.upcard]
                if not any(is_joker(c) or SUIT_INDEX[c] == suit for c in self.hands[seat]):
                    return [A.PASS]
            if partner_alone:
                return [A.PASS, A.ORDER_UP_ALONE]
            if rules.who_may_go_alone is WhoMayGoAlone.MAKER_ONLY:
                return [A.PASS, A.ORDER_UP, A.ORDER_UP_ALONE]
            return [A.PASS, A.ORDER_UP]
        if phase is Phase.DEALER_DISCARD:
            discard = A.DISCARD
            return [discard[c] for c in self.hands[seat]]
        if phase is Phase.GOING_ALONE:
            return [A.PASS, A.GO_ALONE]
        if phase is Phase.DEALER_PICKUP:
            return [A.ORDER_UP, A.PASS]
        if phase is Phase.LONER_ASKS:
            asks = [A.ASK[p] for p in partners(seat, self.seats)]
            return asks if rules.railroading else [A.PASS, *asks]
        if phase is Phase.PARTNER_GIVES:
            loner = self.exchange_queue[0]
            if rules.railroading:  # the partner may pass a card, or none (RULES.md section 9)
                passes = [A.PASS_CARD[c][loner] for c in self.hands[seat]]
                return [A.PASS, *passes] if self.edition >= 2 else passes
            return [A.GIVE[c][loner] for c in self.hands[seat]]
        if phase is Phase.LONER_DISCARDS:
            return [A.DISCARD[c] for c in self.hands[seat]]
        if phase is Phase.LONER_EXCHANGES:
            return [A.PASS, *(A.DISCARD[c] for c in self.hands[seat])]
        if phase is Phase.BID_ROUND_2 or phase is Phase.DEALER_NAMES_TRUMP:
            barred = SUIT_INDEX[self.upcard] if phase is Phase.BID_ROUND_2 else -1
            out: list[Action] = []
            if phase is Phase.BID_ROUND_2 and not (
                seat == self.dealer and rules.stick_the_dealer
            ):
                out.append(A.PASS)
            with_alone = rules.who_may_go_alone is WhoMayGoAlone.MAKER_ONLY
            for s in range(4):
                if s != barred:
                    out.append(A.NAME_TRUMP[s])
                    if with_alone:
                        out.append(A.NAME_TRUMP_ALONE[s])
            return out
        return []

    # --- the one way to change state ----------------------------------------------

    def apply(self, action: Action, seat: int | None = None) -> None:
        """Applies the action of the seat to act; raises IllegalActionError otherwise."""
        legal = self._legal
        if legal is None:
            legal = self._compute_legal()
        if (seat is not None and seat != self.turn) or action not in legal:
            own = seat is None or seat == self.turn
            raise IllegalActionError(action, self.describe(own), self._why_illegal(action, seat))
        self._legal = None
        seat = self.turn
        self.history.append((seat, action))
        kind = action.kind
        if kind is ActionKind.PLAY:
            # Legal, so it carries a card; a check here would cost in the engine's hot path.
            self._play(seat, action.card)  # type: ignore[arg-type]
        elif self.phase is Phase.BID_ROUND_1:
            if kind is ActionKind.PASS:
                self._pass(seat)
            elif kind is ActionKind.NAME_TRUMP:  # a turned joker bid on
                self._trump_made(seat, action.suit, action.alone)  # type: ignore[arg-type]
            else:
                self._trump_made(seat, SUIT_INDEX[self.upcard], action.alone)
        elif self.phase is Phase.BID_ROUND_2:
            if kind is ActionKind.PASS:
                self._pass(seat)
            else:
                # Legal and not a pass: it names a suit.
                self._trump_made(seat, action.suit, action.alone)  # type: ignore[arg-type]
        elif self.phase is Phase.DEALER_NAMES_TRUMP:  # every legal action names a suit
            self._trump_made(seat, action.suit, action.alone)  # type: ignore[arg-type]
        elif self.phase is Phase.GOING_ALONE:
            if kind is ActionKind.GO_ALONE:
                self._declare_alone(seat)
            self._next_alone_question()
        elif self.phase is Phase.DEALER_PICKUP:
            if kind is ActionKind.ORDER_UP:
                self._take_upcard()
            else:
                self._start_play()
        elif self.phase is Phase.LONER_ASKS:
            if kind is ActionKind.ASK:
                self._ask(action.seat)  # type: ignore[arg-type]  # a legal ASK has its seat
            else:
                self._next_exchange(done=True)
        elif self.phase is Phase.PARTNER_GIVES and kind is ActionKind.PASS:
            self._next_exchange(done=True)  # railroading: the partner passes no card
        elif self.phase is Phase.PARTNER_GIVES:
            given: Card = action.card  # type: ignore[assignment]  # a legal GIVE has one
            self.hands[seat].remove(given)
            self.gave[seat] = given
            loner = self.exchange_queue[0]
            self.turn = loner
            if kind is ActionKind.GIVE:
                self.hands[loner].append(given)
                self.phase = Phase.LONER_DISCARDS
            else:
                self.passed_card = given
                self.phase = Phase.LONER_EXCHANGES
        elif self.phase is Phase.LONER_DISCARDS:
            self.hands[seat].remove(action.card)  # type: ignore[arg-type]
            self.set_aside[seat].append(action.card)  # type: ignore[arg-type]
            self._next_exchange(done=True)
        elif self.phase is Phase.LONER_EXCHANGES:
            passed: Card = self.passed_card  # type: ignore[assignment]  # set by PASS_CARD
            self.passed_card = None
            if kind is ActionKind.PASS:
                self.set_aside_unseen.append(passed)
            else:
                self.hands[seat].remove(action.card)  # type: ignore[arg-type]
                self.set_aside[seat].append(action.card)  # type: ignore[arg-type]
                self.hands[seat].append(passed)
            self._next_exchange(done=True)
        else:  # DEALER_DISCARD
            card: Card = action.card  # type: ignore[assignment]  # a legal discard has one
            self.hands[seat].remove(card)
            self.discarded = card
            self._start_play()

    def _why_illegal(self, action: Action, seat: int | None) -> str:
        if self.phase is Phase.HAND_OVER:
            return "the hand is over"
        if seat is not None and seat != self.turn:
            return f"it is seat {self.turn}'s turn, not seat {seat}'s"
        kinds = {a.kind for a in self.legal_actions()}
        if (
            action.kind is ActionKind.ORDER_UP
            and self.phase is Phase.BID_ROUND_1
            and self.turn == self.dealer
            and ActionKind.ORDER_UP not in kinds
        ):
            return "the dealer may pick up only holding a card of the upcard's suit"
        if action.kind not in kinds:
            allowed = ", ".join(sorted(k.name.lower() for k in kinds))
            return f"{action.kind.name.lower()} is not allowed now (allowed: {allowed})"
        if action.card is not None:
            if action.card not in self.hands[self.turn]:
                return f"seat {self.turn} does not hold {card_name(action.card)}"
            if self.phase is Phase.PLAY and self.trick_plays:
                led = SUITS[self._eff[self.trick_plays[0][1]]].name.lower()
                return f"must follow {led}"
        if action.kind is ActionKind.NAME_TRUMP and action.suit == SUIT_INDEX[self.upcard]:
            return "the turned-down suit may not be named in round 2"
        if action.alone:
            return "this seat may not go alone with this call"
        if (action.kind is ActionKind.NAME_TRUMP and self.phase is Phase.BID_ROUND_1
                and action.suit is not None and A.NAME_TRUMP_ALONE[action.suit] in self.legal_actions()):
            return "the dealer's partner must go alone to bid on the turned joker"
        if action.kind is ActionKind.ORDER_UP:
            return "the dealer's partner must go alone to order up"
        return "not among the legal actions"

    # --- transitions ------------------------------------------------------------

    def _pass(self, seat: int) -> None:
        self._passed.append(seat)
        if seat != self.dealer:
            self.turn = (seat + 1) % self.seats
            return
        if self.phase is Phase.BID_ROUND_1:
            self.phase = Phase.BID_ROUND_2
            self._passed = []
            self.turn = (seat + 1) % self.seats
        else:  # everyone passed twice, stick the dealer off: thrown in
            self._finish(thrown_in=True)

    def _trump_made(self, seat: int, suit: int, alone: bool) -> None:
        self.trump = suit
        self.maker = seat
        self.trump_from_upcard = self.phase is not Phase.BID_ROUND_2
        self._eff = EFFECTIVE_SUIT[suit]
        self._power = (
            TRICK_POWER_COLOURED_JOKERS if self.rules.coloured_jokers else TRICK_POWER
        )[suit]
        self.passed_in_deciding_round = frozenset(self._passed)
        if alone:
            self._declare_alone(seat)
        rules = self.rules
        queue: list[int] = []
        n = self.seats
        if rules.who_may_go_alone is WhoMayGoAlone.ANY_PLAYER:
            queue += [seat, *partners(seat, n)]
        if rules.lone_defender is not LoneDefender.NOT_ALLOWED:
            clockwise = ((self.dealer + i) % n for i in range(1, n + 1))
            queue += [s for s in clockwise if s % 2 != seat % 2]
        self.alone_queue = queue
        self._next_alone_question()

    def _may_go_alone(self, seat: int) -> bool:
        if self.sitting_out[seat] or seat in self.alone:
            return False
        rules = self.rules
        if not rules.passed_player_may_go_alone and seat in self.passed_in_deciding_round:
            return False
        # Asked only once trump is made, so there is a maker (hot path: no check).
        if seat % 2 == self.maker % 2:  # type: ignore[operator]
            return rules.who_may_go_alone is WhoMayGoAlone.ANY_PLAYER
        if rules.lone_defender is LoneDefender.AGAINST_LONE_MAKER:
            return any(s % 2 != seat % 2 for s in self.alone)
        return rules.lone_defender is LoneDefender.ALLOWED

    def _next_alone_question(self) -> None:
        queue = self.alone_queue
        while queue:
            seat = queue.pop(0)
            if self._may_go_alone(seat):
                self.phase = Phase.GOING_ALONE
                self.turn = seat
                return
        if (self.rules.lone_asks_partner or self.rules.railroading) and self.alone:
            self.exchange_queue = list(self.alone)
            self._next_exchange(done=False)
        else:
            self._to_pickup()

    def _next_exchange(self, done: bool) -> None:
        """The next lone player's exchange (`done`: the current one's is over), else on to
        the dealer's pickup."""
        queue = self.exchange_queue
        if done:
            queue.pop(0)
        if not queue:
            self._to_pickup()
            return
        loner = queue[0]
        mates = partners(loner, self.seats)
        if self.rules.railroading and len(mates) == 1:
            self._ask(mates[0])
        else:
            self.phase = Phase.LONER_ASKS
            self.turn = loner

    def _ask(self, partner: int) -> None:
        self.phase = Phase.PARTNER_GIVES
        self.turn = partner

    def _to_pickup(self) -> None:
        if self.trump_from_upcard and not self.sitting_out[self.dealer]:
            if (
                self.rules.dealer_may_decline
                and self.maker != self.dealer
                and not is_joker(self.upcard)
            ):
                self.phase = Phase.DEALER_PICKUP
                self.turn = self.dealer
            else:
                self._take_upcard()
        else:
            self._start_play()

    def _take_upcard(self) -> None:
        self.hands[self.dealer].append(self.upcard)
        self.dealer_took_upcard = True
        self.phase = Phase.DEALER_DISCARD
        self.turn = self.dealer

    def _declare_alone(self, seat: int) -> None:
        self.alone.append(seat)
        for p in partners(seat, self.seats):
            self.sitting_out[p] = True

    def _start_play(self) -> None:
        out = self.sitting_out
        seats = self.seats
        active = [s for s in range(seats) if not out[s]]
        nxt = [0] * seats
        for s in range(seats):
            n = (s + 1) % seats
            while out[n]:
                n = (n + 1) % seats
            nxt[s] = n
        self._next_active = nxt
        self._trick_size = len(active)
        leader = nxt[self.dealer]
        if self.alone and self.rules.first_lead is FirstLead.LEFT_OF_LONE_PLAYER:
            # Play starts only after trump is made: there is a maker.
            defenders_alone = [s for s in self.alone if s % 2 != self.maker % 2]  # type: ignore[operator]
            leader = defenders_alone[0] if len(self.alone) == 2 else nxt[self.alone[0]]
        self.phase = Phase.PLAY
        self.turn = self.trick_leader = leader
        self.trick_plays = []

    def _play(self, seat: int, card: Card) -> None:
        self.hands[seat].remove(card)
        plays = self.trick_plays
        plays.append((seat, card))
        if len(plays) < self._trick_size:
            self.turn = self._next_active[seat]
            return
        table = self._power[self._eff[plays[0][1]]]
        best = -1
        winner = seat
        for s, c in plays:
            p = table[c]
            if p >= best:  # of two equal cards (a double pack's copies) the second wins
                best, winner = p, s
        self.tricks.append(Trick(self.trick_leader, tuple(plays), winner))
        self.tricks_won[winner & 1] += 1
        if len(self.tricks) == self.rules.tricks_per_hand:
            self._finish(thrown_in=False)
            return
        self.trick_plays = []
        self.turn = self.trick_leader = winner

    def _finish(self, thrown_in: bool) -> None:
        if thrown_in:
            score = Score(Outcome.THROWN_IN, None, 0)
        else:
            makers = self.maker % 2  # type: ignore[operator]  # not thrown in: trump was made
            score = score_hand(
                self.rules,
                makers,
                self.tricks_won[makers],
                any(s % 2 == makers for s in self.alone),
                any(s % 2 != makers for s in self.alone),
            )
        self.result = HandResult(
            self.dealer,
            self.trump,
            self.maker,
            tuple(self.alone),
            (self.tricks_won[0], self.tricks_won[1]),
            score,
        )
        self.phase = Phase.HAND_OVER
