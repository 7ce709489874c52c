"""A double-dummy solver for the tricks left in a hand of Euchre: every hand face up.

Hands are bitmasks over the card ids (bit c for card c, the joker's id included), so a
position is five small ints and a trick is a handful of shifts. The search is alpha-beta
over single card plays with

- a transposition table at trick boundaries, keyed by the four hands and the leader and
  holding a lower and an upper bound on the makers' tricks from there;
- equivalent cards played once: cards of one seat that are neighbours in their suit's
  order, with no card between them left in another hand or in the trick, win and lose
  the same tricks, so only the highest of each run is tried;
- move ordering: leaders try their strongest cards first (trumps, then aces); the others
  try the cheapest card that takes the trick when an opponent holds it, and otherwise
  their cheapest card first (the moves of a hand in a position are computed once);
- the last trick counted, not searched (every seat has one card left).

The value is the number of tricks the makers take from here. Scores are monotone in it
(a made hand, a march, a euchre), so the position's value in points follows from its
value in tricks, and a null-window search ("at least t tricks?") tells the few
thresholds a score needs.

The card tables are the SDK's (effective suits, trick power), read once per trump; the
play itself is this module's own code, checked against the arena's engine in the tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from arena.sdk import build_deck, effective_suit, trick_power

CHECK_EVERY = 2000
"""Nodes between two looks at the clock (a look costs about as much as a node)."""


class Tables:
    """Per trump: each card's effective suit, its power by led suit, and each suit's cards
    from highest to lowest."""

    __slots__ = ("eff", "order", "power", "suit_mask", "trump")

    def __init__(self, trump: int) -> None:
        self.trump = trump
        cards = sorted(build_deck(33))  # every card id, the joker included
        self.eff = [0] * 33
        self.power = [[0] * 33 for _ in range(4)]
        self.suit_mask = [0, 0, 0, 0]
        for c in cards:
            s = int(effective_suit(c, trump))
            self.eff[c] = s
            self.suit_mask[s] |= 1 << c
            for led in range(4):
                self.power[led][c] = trick_power(c, trump, led)
        self.order = [
            sorted((c for c in cards if self.eff[c] == s), key=lambda c, s=s: -self.power[s][c])  # type: ignore[misc]
            for s in range(4)
        ]


@cache
def tables(trump: int) -> Tables:
    return Tables(trump)


def mask_of(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class OutOfTime(Exception):
    """The search passed its stop time (Solver.stop_at): its result is lost."""


def _never() -> float:
    return 0.0


class Solver:
    """Solves positions of one trump with one side as makers, over the seats in play.

    The table of bounds lives as long as the solver: positions of different deals never
    share a key (the key is every hand), so one solver serves many sampled deals."""

    def __init__(self, trump: int, maker_team: int, active: Sequence[int]) -> None:
        t = tables(trump)
        self.trump = trump
        self.eff = t.eff
        self.power = t.power
        self.suit_mask = t.suit_mask
        self.order = t.order
        self.trump_order = t.order[trump]
        self.mt = maker_team
        self.active = tuple(sorted(active))
        self.n = len(self.active)
        self.nxt = [0, 0, 0, 0]
        for s in range(4):
            n = (s + 1) % 4
            while n not in self.active:
                n = (n + 1) % 4
            self.nxt[s] = n
        self.tt: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        self.move_cache: dict[tuple[int, int, int], list[int]] = {}
        self.nodes = 0
        self.stop_at = float("inf")
        """A time on `clock` after which the search gives up (raises OutOfTime)."""
        self.clock: Callable[[], float] = _never
        self._check_at = CHECK_EVERY

    def _check_time(self) -> None:
        self._check_at = self.nodes + CHECK_EVERY
        if self.clock() > self.stop_at:
            raise OutOfTime

    # --- the search ---------------------------------------------------------------

    def tricks(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        """The makers' tricks from a trick boundary (leader to lead), within (alpha, beta):
        a result <= alpha is an upper bound, >= beta a lower bound, else exact."""
        r = hands[leader].bit_count()
        if r == 0:
            return 0
        if r == 1:
            return self._last_trick(hands, leader)
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        tt = self.tt
        ent = tt.get(key)
        if ent is None:
            lo, hi = self._sure_tricks(hands, r)
        else:
            lo, hi = ent
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        a = alpha if alpha > lo else lo
        b = beta if beta < hi else hi
        v = self._play(hands, leader, 0, 0, -1, leader, 0, a, b)
        if v <= a:
            if v < hi:
                hi = v
        elif v >= b:
            if v > lo:
                lo = v
        else:
            lo = hi = v
        tt[key] = (lo, hi)
        return v

    def _sure_tricks(self, hands: list[int], r: int) -> tuple[int, int]:
        """Bounds on the makers' tricks from the top trumps: the seat holding the highest
        trump left wins a trick with each trump of its unbroken run from the top."""
        live = hands[0] | hands[1] | hands[2] | hands[3]
        owner = -1
        run = 0
        for c in self.trump_order:
            b = 1 << c
            if live & b:
                if hands[0] & b:
                    seat = 0
                elif hands[1] & b:
                    seat = 1
                elif hands[2] & b:
                    seat = 2
                else:
                    seat = 3
                if owner < 0:
                    owner = seat
                elif seat != owner:
                    break
                run += 1
        if owner < 0 or run == 0:
            return 0, r
        if (owner & 1) == self.mt:
            return run, r
        return 0, r - run

    def _last_trick(self, hands: list[int], leader: int) -> int:
        self.nodes += 1
        card = hands[leader].bit_length() - 1
        led = self.eff[card]
        table = self.power[led]
        best, winner = table[card], leader
        s = self.nxt[leader]
        while s != leader:
            c = hands[s].bit_length() - 1
            p = table[c]
            if p > best:
                best, winner = p, s
            s = self.nxt[s]
        return 1 if (winner & 1) == self.mt else 0

    def _play(self, hands: list[int], seat: int, k: int, led: int, win_pow: int,
              win_seat: int, trick: int, alpha: int, beta: int) -> int:
        """The seat plays the trick's k-th card (led suit `led` once k > 0; the best power
        so far and its seat; `trick`, the cards on the table)."""
        self.nodes += 1
        if self.nodes >= self._check_at:
            self._check_time()
        h = hands[seat]
        live = hands[0] | hands[1] | hands[2] | hands[3] | trick
        power = self.power
        if k:
            legal = h & self.suit_mask[led] or h
            key = (legal, live, led)
            moves = self.move_cache.get(key)
            if moves is None:
                moves = self.move_cache[key] = sorted(self._runs(legal, live),
                                                      key=power[led].__getitem__)
            if (win_seat ^ seat) & 1 and len(moves) > 1:
                # An opponent holds the trick: the cheapest card that takes it first.
                table = power[led]
                for c in moves:
                    if table[c] > win_pow:
                        if c != moves[0]:
                            moves = [c, *(m for m in moves if m != c)]
                        break
        else:
            key = (h, live, 4)
            moves = self.move_cache.get(key)
            if moves is None:
                eff = self.eff
                moves = self.move_cache[key] = sorted(
                    self._runs(h, live), key=lambda c: -power[eff[c]][c])
        maximizing = (seat & 1) == self.mt
        best = -1 if maximizing else 99
        last = k + 1 == self.n
        nxt = self.nxt[seat]
        mt = self.mt
        eff = self.eff
        for c in moves:
            lsuit = led if k else eff[c]
            p = power[lsuit][c]
            if p > win_pow:
                ws, wp = seat, p
            else:
                ws, wp = win_seat, win_pow
            hands[seat] = h ^ (1 << c)
            if last:
                w = 1 if (ws & 1) == mt else 0
                v = w + self.tricks(hands, ws, alpha - w, beta - w)
            else:
                v = self._play(hands, nxt, k + 1, lsuit, wp, ws, trick | (1 << c), alpha, beta)
            hands[seat] = h
            if maximizing:
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
            elif v < best:
                best = v
                if v < beta:
                    beta = v
                    if alpha >= beta:
                        break
        return best

    def _runs(self, legal: int, live: int) -> list[int]:
        """One card of each run of equivalent legal cards: the top of the run."""
        runs: list[int] = []
        order = self.order
        mask = self.suit_mask
        for s in range(4):
            if not legal & mask[s]:
                continue
            inside = False
            for c in order[s]:
                b = 1 << c
                if legal & b:
                    if not inside:
                        runs.append(c)
                        inside = True
                elif live & b:
                    inside = False
        return runs

    def clear(self) -> None:
        """Forgets the bounds and moves learnt (to keep memory in bounds)."""
        self.tt.clear()
        self.move_cache.clear()

    # --- questions from outside the search ---------------------------------------------

    def legal(self, hand: int, trick: Sequence[tuple[int, int]]) -> int:
        """The cards of `hand` (a bitmask) that may be played to the trick: those of the
        led suit when it holds one, else any."""
        if not trick:
            return hand
        return hand & self.suit_mask[self.eff[trick[0][1]]] or hand

    def winner(self, trick: Sequence[tuple[int, int]]) -> int:
        """The seat whose card takes the trick: the greatest power under the led suit."""
        table = self.power[self.eff[trick[0][1]]]
        return max(trick, key=lambda sc: table[sc[1]])[0]

    def at_least(self, hands: list[int], leader: int, t: int) -> bool:
        """Do the makers take at least t of the remaining tricks from this trick boundary?"""
        if t <= 0:
            return True
        if t > hands[leader].bit_count():
            return False
        return self.tricks(hands, leader, t - 1, t) >= t

    def exact(self, hands: list[int], leader: int) -> int:
        """The makers' tricks from this trick boundary."""
        return self.tricks(hands, leader, -1, hands[leader].bit_count() + 1)

    def after_play(self, hands: list[int], trick: Sequence[tuple[int, int]], card: int,
                   seat: int, alpha: int, beta: int) -> int:
        """The makers' tricks from the current trick on (this one included), once `seat`
        plays `card` after the plays of `trick` (seat, card); in (alpha, beta) as tricks()."""
        led = -1
        win_pow, win_seat = -1, seat
        tbits = 0
        for s, c in trick:
            if led < 0:
                led = self.eff[c]
            p = self.power[led][c]
            if p > win_pow:
                win_pow, win_seat = p, s
            tbits |= 1 << c
        if led < 0:
            led = self.eff[card]
        p = self.power[led][card]
        if p > win_pow:
            win_pow, win_seat = p, seat
        h = hands[seat]
        hands[seat] = h ^ (1 << card)
        try:
            k = len(trick) + 1
            if k == self.n:
                w = 1 if (win_seat & 1) == self.mt else 0
                return w + self.tricks(hands, win_seat, alpha - w, beta - w)
            return self._play(hands, self.nxt[seat], k, led, win_pow, win_seat,
                              tbits | (1 << card), alpha, beta)
        finally:
            hands[seat] = h

    def at_least_after(self, hands: list[int], trick: Sequence[tuple[int, int]], card: int,
                       seat: int, t: int) -> bool:
        """after_play() >= t, by one null-window search."""
        if t <= 0:
            return True
        remaining = hands[seat].bit_count()  # tricks left, the current one included
        if t > remaining:
            return False
        return self.after_play(hands, trick, card, seat, t - 1, t) >= t
