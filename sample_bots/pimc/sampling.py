"""Deals of the hidden cards that agree with everything a seat knows.

What the seat knows, from its view alone:

- its own cards, and every card played;
- the upcard: in the kitty while nobody took it; in the dealer's hand once the dealer
  took it, until played (or discarded: a dealer who showed void in its suit put it down);
- its own discard, when it is the dealer (then out of play);
- the suits each seat showed void in (it did not follow them);
- how many cards each seat holds.

A deal gives each other seat in play exactly its number of cards from the cards nobody
has shown, none of a suit it showed void in; what is left over is the kitty (with another
dealer's discard) and the hand of a seat sitting out, which play no part. Cards are dealt
most constrained first, each to a seat drawn in proportion to the room it has left (with
no voids that is a uniform deal), and a dead end starts the deal over.
"""

from __future__ import annotations

import importlib
import random

from arena.sdk import JOKER, ActionKind, SeatView, known_voids, outstanding_cards

try:  # imported as a package (tests, tools), or run where the arena is installed
    from sample_bots.pimc import playout, solver
except ImportError:  # started as `python bot.py` in this folder, package not importable
    playout = importlib.import_module("playout")
    solver = importlib.import_module("solver")

STRONG = 3.2
"""A quick count (playout.quick_strength) at which a seat would surely have called: a
deal giving such a hand to a seat that passed is kept only now and then."""
WEAK = 1.6
"""...and one below which it would hardly have called: the same for the maker."""
UNLIKELY = 0.25
"""The chance of keeping a deal the bids speak against (soft: never ruled out)."""

NOWHERE = 4
"""The slot of the kitty and a sitting-out hand: cards out of play."""


class Sampler:
    """Draws deals for one view: hands as bitmasks, by seat (0 for seats not in play)."""

    def __init__(self, view: SeatView) -> None:
        me = view.seat
        self.seat = me
        self.hands_known = [0, 0, 0, 0]
        self.hands_known[me] = solver.mask_of(view.hand)
        held = view.cards_held()
        out = set(view.sitting_out)
        pool = outstanding_cards(view)
        upcard = view.upcard
        dealer = view.dealer
        voids = known_voids(view)
        trump = view.trump
        eff = solver.tables(trump).eff if trump is not None else None
        played = {c for t in (*view.tricks, *((view.current_trick,) if view.current_trick else ()))
                  for _, c in t.plays}
        if view.dealer_took_upcard and dealer != me and upcard not in played:
            # The dealer holds it, or put it down: only a void in its suit says the latter.
            pool.remove(upcard)
            void_in_it = eff is not None and eff[upcard] in voids[dealer]
            if not void_in_it and dealer not in out and held[dealer] > 0:
                self.hands_known[dealer] |= 1 << upcard
        self.others = [s for s in range(4) if s != me and s not in out]
        self.need = [0, 0, 0, 0, 0]
        for s in self.others:
            self.need[s] = held[s] - self.hands_known[s].bit_count()
        self.need[NOWHERE] = len(pool) - sum(self.need[:4])
        if self.need[NOWHERE] < 0 or any(n < 0 for n in self.need):
            raise ValueError(f"inconsistent view: {len(pool)} unseen cards for {self.need}")
        # The seats each card may go to (NOWHERE always may).
        self.cards: list[tuple[int, tuple[int, ...]]] = []
        for c in pool:
            seats = tuple(
                s for s in self.others
                if eff is None or not voids[s] or eff[c] not in voids[s]
            )
            self.cards.append((c, (*seats, NOWHERE)))
        self.failures = 0
        self.bids = read_bids(view, self.others) if EVIDENCE else []
        self.played = [0, 0, 0, 0]
        for t in (*view.tricks, *((view.current_trick,) if view.current_trick else ())):
            for seat, c in t.plays:
                self.played[seat] |= 1 << c
        self.upsuit = upcard >> 3

    def draw(self, rng: random.Random, tries: int = 200) -> list[int] | None:
        """One deal: every seat's hand as a bitmask; None if none was found in `tries`.
        A deal the bids speak against is kept with a small chance (self.likelihood)."""
        for _ in range(tries):
            hands = self._try(rng)
            if hands is None:
                self.failures += 1
            elif not self.bids or rng.random() < self.likelihood(hands):
                return hands
        return None

    def likelihood(self, hands: list[int]) -> float:
        """How well the bids fit the deal, from 1 (they fit) down, as each seat would have
        bid by a quick count of the cards it was dealt (those it holds and has played)."""
        p = 1.0
        for seat, suit, called in self.bids:
            dealt = hands[seat] | self.played[seat]
            if called:
                if playout.quick_strength(dealt, suit) < WEAK:
                    p *= UNLIKELY
            else:
                suits = [suit] if suit >= 0 else [s for s in range(4) if s != self.upsuit]
                if max(playout.quick_strength(dealt, s) for s in suits) >= STRONG:
                    p *= UNLIKELY
        return p

    def _try(self, rng: random.Random) -> list[int] | None:
        cards = self.cards[:]
        rng.shuffle(cards)
        cards.sort(key=lambda cs: len(cs[1]))  # stable: random among equals
        room = self.need[:]
        hands = [*self.hands_known, 0]
        for c, seats in cards:
            total = 0
            for s in seats:
                total += room[s]
            if total == 0:
                return None
            x = rng.randrange(total)
            for s in seats:
                x -= room[s]
                if x < 0:
                    break
            room[s] -= 1
            hands[s] |= 1 << c
        return hands[:4]


EVIDENCE = False
"""Whether the bids weigh on the deals. Off: measured over the same 200 deals played twice
against the heuristic (pimc's card play only, 30 ms a decision), on scored +0.02 and off
-0.03 points a deal pair, each +-0.16: no help shown beyond the noise."""


def read_bids(view: SeatView, others: list[int]) -> list[tuple[int, int, bool]]:
    """The bids of the seats in `others` before trump was made: (seat, suit, called),
    the suit -1 for a round-2 pass (of every suit but the turned one). A dealer naming
    trump on a turned joker had not seen its cards, and says nothing."""
    out: list[tuple[int, int, bool]] = []
    upsuit = view.upcard >> 3
    round2 = False
    for seat, action in view.auction:
        kind = action.kind
        if kind is ActionKind.PASS:
            if seat in others:
                out.append((seat, -1 if round2 else upsuit, False))
            if seat == view.dealer:
                round2 = True
        elif kind is ActionKind.ORDER_UP or kind is ActionKind.NAME_TRUMP:
            if seat in others and view.upcard != JOKER:
                suit = upsuit if kind is ActionKind.ORDER_UP else action.suit
                out.append((seat, int(suit), True))  # type: ignore[arg-type]
            break  # trump is made: the alone round follows
    return out
