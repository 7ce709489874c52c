"""A quick play of a whole hand by simple rules, every seat seeing only its own cards.

The calls are judged by playing sampled deals out. Played double dummy, a deal flatters
the makers (they find every card of the defence and every finesse), and the bids that
follow from it are far too bold; played out by honest rules of thumb it is not, and it
costs a few dozen microseconds, so a call weighs hundreds of deals in its budget.

The rules: the makers lead trump from the top while they hold two or the best one left;
otherwise a seat leads its best off-suit card when it is the best left of its suit, else
its cheapest card. A seat whose partner holds the trick plays its cheapest card; one that
can take the trick takes it as cheaply as it can; otherwise the cheapest card.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

try:  # imported as a package (tests, tools), or run where the arena is installed
    from sample_bots.pimc import solver
except ImportError:  # started as `python bot.py` in this folder, package not importable
    solver = importlib.import_module("solver")


def _cheapest(cards: int, t: solver.Tables, trump: int) -> int:
    """The card a seat minds least giving up: the lowest non-trump, else the lowest trump."""
    best, key = -1, 1 << 30
    power = t.power
    eff = t.eff
    while cards:
        low = cards & -cards
        c = low.bit_length() - 1
        cards ^= low
        s = eff[c]
        k = 1000 + power[trump][c] if s == trump else power[s][c]
        if k < key:
            best, key = c, k
    return best


def _top(cards: int, t: solver.Tables, suit: int) -> int:
    """The strongest of these cards in its suit's order (-1 if none of the suit)."""
    for c in t.order[suit]:
        if cards >> c & 1:
            return c
    return -1


def lead(mine: int, live: int, t: solver.Tables, trump: int, makers: bool) -> int:
    """The card to lead from `mine`, `live` being every card not yet played."""
    mask = t.suit_mask
    trumps = mine & mask[trump]
    if trumps and makers:
        top = _top(trumps, t, trump)
        if trumps.bit_count() >= 2 or top == _top(live, t, trump):
            return top
    for s in range(4):
        if s != trump and mine & mask[s]:
            top = _top(mine & mask[s], t, s)
            if top == _top(live, t, s):
                return top
    return _cheapest(mine, t, trump)


def follow(legal: int, t: solver.Tables, trump: int, led: int, win_pow: int,
           partner_holds: bool) -> int:
    """The card to play to a trick (`win_pow`: the power of the card holding it)."""
    if not partner_holds:  # an opponent holds the trick: take it as cheaply as it can
        table = t.power[led]
        card = -1
        best = 1 << 30
        cards = legal
        while cards:
            low = cards & -cards
            c = low.bit_length() - 1
            cards ^= low
            p = table[c]
            if win_pow < p < best:
                best, card = p, c
        if card >= 0:
            return card
    return _cheapest(legal, t, trump)


def playout(hands: list[int], trump: int, maker_team: int, leader: int,
            active: Sequence[int]) -> int:
    """The makers' tricks when the hand is played out from `leader` by the rules above.
    `hands` is not changed."""
    t = solver.tables(trump)
    eff, power, mask = t.eff, t.power, t.suit_mask
    h = hands[:]
    nxt = [0, 0, 0, 0]
    for s in range(4):
        n = (s + 1) % 4
        while n not in active:
            n = (n + 1) % 4
        nxt[s] = n
    n_active = len(active)
    live = h[0] | h[1] | h[2] | h[3]
    made = 0
    while h[leader]:
        card = lead(h[leader], live, t, trump, (leader & 1) == maker_team)
        led = eff[card]
        table = power[led]
        win_seat, win_pow = leader, table[card]
        h[leader] ^= 1 << card
        live ^= 1 << card
        seat = nxt[leader]
        for _ in range(n_active - 1):
            mine = h[seat]
            card = follow(mine & mask[led] or mine, t, trump, led, win_pow,
                          not (win_seat ^ seat) & 1)
            p = table[card]
            if p > win_pow:
                win_seat, win_pow = seat, p
            h[seat] ^= 1 << card
            live ^= 1 << card
            seat = nxt[seat]
        if (win_seat & 1) == maker_team:
            made += 1
        leader = win_seat
    return made


def quick_strength(hand: int, trump: int) -> float:
    """A quick count of a hand's tricks with this trump: for the other seats' bids when
    a pass is played out."""
    t = solver.tables(trump)
    order = t.order[trump]
    score = 0.0
    trumps = 0
    suits = set()
    for c in solver.cards_of(hand):
        s = t.eff[c]
        if s == trump:
            trumps += 1
            score += max(0.45, 1.0 - 0.12 * order.index(c))
        else:
            suits.add(s)
            if (c & 7) == 7:  # an ace (the joker, 32, is a trump)
                score += 0.55
    if trumps >= 2:
        score += 0.25 * (3 - len(suits))
    return score
