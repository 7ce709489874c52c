"""Perfect-information Monte Carlo: every decision by sampled deals, each played out.

For each decision the strategy draws deals of the hidden cards that agree with the seat's
view (sampling.py: the cards seen, the voids shown, the bids as soft evidence), scores
every candidate action on each deal, and takes the action of the best mean score: the
hand's points for its side as the rules score them (a made hand 1, a march 2 or 4 alone,
a euchre -2 or more), weighed by what they do to its chance of winning the game from the
current score (game_value.py). It samples until its time is spent: the clock is read
between deals, a deal is not begun when the mean time of one would overrun the deadline,
and a search still running at HARD_STOP budgets gives its deal up.

- Play: each legal card, then the rest of the hand double dummy (solver.py). Only the
  thresholds a score depends on are searched (3 and 5 tricks, and none when a super
  euchre or a lone defender's march scores more), each by one null-window search. Cards
  of equal mean score (the score moves only at those thresholds) go to the rules of
  thumb of playout.py, else to the cheapest.
- Calls (order up, name a suit, alone or not, pass), going alone and the dealer's discard:
  each candidate's contract is played out from the first lead by playout.py's rules, the
  dealer taking the upcard and putting down its cheapest card. Double dummy made the
  calls far too bold (measured: it lost 0.35 points a deal pair to the heuristic's
  bidding, where playouts break even), and a playout costs microseconds, so a call weighs
  hundreds of deals. Passing is played out too: the seats after this one bid by a quick
  count of their sampled hands (this seat, asked again in round 2, by the same count). A
  call must beat a pass by CALL_MARGIN, and alone must beat not alone by ALONE_MARGIN.
"""

from __future__ import annotations

import importlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from arena.sdk import (
    Action,
    ActionKind,
    Phase,
    RuleSet,
    SeatView,
    card_rank,
    outstanding_cards,
    score_hand,
)

try:  # imported as a package (tests, tools), or run where the arena is installed
    from sample_bots.pimc import game_value, playout, sampling, solver
except ImportError:  # started as `python bot.py` in this folder, package not importable
    game_value = importlib.import_module("game_value")
    playout = importlib.import_module("playout")
    sampling = importlib.import_module("sampling")
    solver = importlib.import_module("solver")

ACE = 14
MAX_SAMPLES = 400
"""Deals per play decision at most, however much time is left (late in a hand a deal
costs microseconds; more of them add nothing)."""
MAX_SAMPLES_CALLS = 2000
"""The same for calls, whose deals are played out in microseconds (CALLS_BY)."""
ORDER_NEED = 2.6
"""The quick count (quick_strength) at which the seats of a played-out pass call trump."""
HARD_STOP = 1.5
"""A search still running at this many budgets gives up its deal, so a decision never
takes much longer than its budget (with no deal solved, the cheapest card or a pass)."""
TIES_BY_RULES = True
"""Play: among cards of the same mean score, the one the rules of thumb of playout.py
would play (else the cheapest)."""
CALLS_BY = "playout"
"""How a call's deals are played: "playout" (playout.py) or "dd" (double dummy)."""
CALL_MARGIN = 0.2
"""What a call must gain over a pass, in points per hand: the best of several noisy means
is optimistic. (Against the heuristic's bidding, 0.2 and 0.5 scored +0.07 points a deal
pair and no margins +0.02, each +-0.22: a guard, not a measured gain.)"""
ALONE_MARGIN = 0.5
"""What going alone must gain over playing with the partner, besides."""
PLAY_FOR_GAME = True
"""Score each deal by the chance of winning the game from the score it leaves
(game_value.py), in points at the current score; off: by the hand's points."""
DEALER_TEAM_BONUS = 0.3
"""Round 1: the upcard goes to the caller's side (its partner or itself deals)."""


@dataclass
class Stats:
    """What one decision did: for benchmarks and tests."""

    samples: int = 0
    nodes: int = 0
    candidates: int = 0
    timeouts: int = 0
    """Deals dropped unsolved at the hard stop (HARD_STOP budgets)."""
    seconds: float = 0.0


Clock = Callable[[], float]


# --- scores -------------------------------------------------------------------------


def makers_points(rules: RuleSet, tricks: int, maker_alone: bool, defender_alone: bool) -> int:
    """The hand's points for the makers (negative: the defenders score), as the rules
    core scores it (the SDK's score_hand, with the makers as team 0)."""
    score = score_hand(rules, 0, tricks, maker_alone, defender_alone)
    return score.points if score.team == 0 else -score.points


def points_by_tests(rules: RuleSet, at_least: Callable[[int], bool], won: int,
                    maker_alone: bool, defender_alone: bool) -> int:
    """makers_points() of a position, asking only the thresholds the score depends on:
    at_least(t) says whether the makers take t more tricks; they have `won` already."""
    if at_least(3 - won):
        return makers_points(rules, 5 if at_least(5 - won) else 3, maker_alone, defender_alone)
    euchred = makers_points(rules, 1, maker_alone, defender_alone)
    if makers_points(rules, 0, maker_alone, defender_alone) != euchred and not at_least(1 - won):
        return makers_points(rules, 0, maker_alone, defender_alone)
    return euchred


# --- the hand's shape ---------------------------------------------------------------


def next_active(seat: int, out: Sequence[int]) -> int:
    n = (seat + 1) % 4
    while n in out:
        n = (n + 1) % 4
    return n


def first_leader(rules: RuleSet, dealer: int, maker: int, alone: Sequence[int]) -> int:
    """Who leads the first trick (the engine's rule, hand.py)."""
    out = [(s + 2) % 4 for s in alone]
    leader = next_active(dealer, out)
    if alone and getattr(rules.first_lead, "value", "") == "left_of_lone_player":
        defenders_alone = [s for s in alone if s % 2 != maker % 2]
        leader = defenders_alone[0] if len(alone) == 2 else next_active(alone[0], out)
    return leader


def quick_discard(hand: int, trump: int) -> int:
    """The cheapest card to put down: a low card of a short side suit, never a trump
    while it holds another card."""
    t = solver.tables(trump)
    cards = solver.cards_of(hand)
    counts = [0, 0, 0, 0]
    for c in cards:
        counts[t.eff[c]] += 1

    def keep(c: int) -> float:
        s = t.eff[c]
        if s == trump:
            return 100 + t.power[s][c]
        rank = card_rank(c) or 0
        if rank == ACE:
            return 50
        return rank - (3 if counts[s] == 1 else 0)

    return min(cards, key=keep)


# --- sampling and the clock ---------------------------------------------------------


class Search:
    """One decision: its deals, its solvers (one per trump, side and seats in play, each
    with its table of bounds), its clock."""

    def __init__(self, view: SeatView, rng: random.Random, budget: float, clock: Clock,
                 stats: Stats) -> None:
        self.view = view
        self.rng = rng
        self.clock = clock
        self.start = clock()
        self.deadline = self.start + budget
        self.hard_stop = self.start + HARD_STOP * budget
        self.stats = stats
        self.solvers: dict[tuple[int, int, tuple[int, ...]], solver.Solver] = {}
        self.sampler = sampling.Sampler(view)
        self.worth = game_value.HandWorth(view) if PLAY_FOR_GAME else None

    def solver_for(self, trump: int, maker_team: int, out: Sequence[int]) -> solver.Solver:
        active = tuple(s for s in range(4) if s not in out)
        key = (trump, maker_team, active)
        found = self.solvers.get(key)
        if found is None:
            found = self.solvers[key] = solver.Solver(trump, maker_team, active)
            found.clock = self.clock
            found.stop_at = self.hard_stop
        elif len(found.tt) > 300_000:  # keep memory in bounds on long searches
            found.clear()
        return found

    def run(self, n_candidates: int, score: Callable[[list[int]], list[float]],
            cap: int = MAX_SAMPLES) -> list[float]:
        """Mean score of each candidate over the deals drawn until the time is spent."""
        totals = [0.0] * n_candidates
        n = 0
        self.stats.candidates = n_candidates
        while n < cap:
            now = self.clock()
            if n and now + (now - self.start) / n > self.deadline:
                break
            hands = self.sampler.draw(self.rng)
            if hands is None:
                break
            try:
                values = score(hands)
            except solver.OutOfTime:  # a deal too long to solve in time: dropped
                self.stats.timeouts += 1
                break
            for i, v in enumerate(values):
                totals[i] += v
            n += 1
        self.stats.samples = n
        self.stats.nodes = sum(s.nodes for s in self.solvers.values())
        self.stats.seconds = self.clock() - self.start
        return [t / n for t in totals] if n else totals

    # --- contracts from the first lead -----------------------------------------------

    def contract(self, hands: list[int], trump: int, maker: int, alone: Sequence[int],
                 from_upcard: bool, discard: int | None = None) -> int:
        """The makers' points when the hand is played double dummy from the first lead:
        the dealer takes the upcard (from_upcard, unless sitting out) and puts down
        `discard`, or its cheapest card."""
        view = self.view
        rules = view.rules
        dealer = view.dealer
        hands = hands[:]
        out = [(s + 2) % 4 for s in alone]
        for s in out:
            hands[s] = 0
        if from_upcard and dealer not in out:
            h = hands[dealer] | (1 << view.upcard)
            d = discard if discard is not None else quick_discard(h, trump)
            hands[dealer] = h & ~(1 << d)
        mt = maker % 2
        leader = first_leader(rules, dealer, maker, alone)
        maker_alone = any(s % 2 == mt for s in alone)
        defender_alone = any(s % 2 != mt for s in alone)
        if CALLS_BY == "playout":
            active = [s for s in range(4) if s not in out]
            tricks = playout.playout(hands, trump, mt, leader, active)
            return makers_points(rules, tricks, maker_alone, defender_alone)
        solve = self.solver_for(trump, mt, out)
        return points_by_tests(
            rules, lambda t: solve.at_least(hands, leader, t), 0, maker_alone, defender_alone)

    def mine(self, points: int, maker: int) -> float:
        """The makers' points as this seat's score of the deal."""
        ours = maker % 2 == self.view.seat % 2
        if self.worth is not None:
            return self.worth(points, ours)
        return float(points if ours else -points)


# --- decisions ----------------------------------------------------------------------


def decide(view: SeatView, rng: random.Random, budget: float,
           clock: Clock = time.perf_counter, stats: Stats | None = None) -> Action:
    """The action of the best mean score over the deals sampled within `budget` seconds."""
    legal = view.legal_actions
    stats = stats if stats is not None else Stats()
    if len(legal) == 1:
        return legal[0]
    phase = view.phase
    if phase is Phase.DEALER_NAMES_TRUMP:
        # The dealer has not looked at its cards: every suit is alike. Not alone.
        return next(a for a in legal if not a.alone)
    search = Search(view, rng, budget, clock, stats)
    if phase is Phase.PLAY:
        return _play(view, search)
    if phase is Phase.DEALER_DISCARD:
        return _discard(view, search)
    if phase is Phase.GOING_ALONE:
        return _going_alone(view, search)
    return _bid(view, search)


def _best(legal: Sequence[Action], means: list[float]) -> Action:
    best = max(range(len(legal)), key=lambda i: (means[i], -i))
    return legal[best]


def _play(view: SeatView, search: Search) -> Action:
    legal = view.legal_actions
    rules = view.rules
    trump, maker = view.trump, view.maker
    assert trump is not None and maker is not None
    mt = maker % 2
    me = view.seat
    solve = search.solver_for(trump, mt, view.sitting_out)
    trick = view.current_trick.plays if view.current_trick else ()
    won = view.tricks_won[mt]
    maker_alone = any(s % 2 == mt for s in view.alone)
    defender_alone = any(s % 2 != mt for s in view.alone)
    # Cheapest first, so that ties go to the card that gives least away.
    t = solver.tables(trump)
    led = t.eff[trick[0][1]] if trick else None
    cards = [a.card for a in legal]
    assert all(c is not None for c in cards)
    order = sorted(range(len(legal)), key=lambda i: (
        t.power[led if led is not None else t.eff[cards[i]]][cards[i]]))  # type: ignore[index]
    # Ties (common: the score only changes at 3 and 5 tricks) go to the rules of thumb.
    if TIES_BY_RULES:
        hand = solver.mask_of(view.hand)
        unplayed = hand | solver.mask_of(outstanding_cards(view))
        if trick:
            table = t.power[led]  # type: ignore[index]
            win_seat, win_card = max(trick, key=lambda sc: table[sc[1]])
            rule = playout.follow(solver.mask_of(cards), t, trump, led, table[win_card],  # type: ignore[arg-type]
                                  win_seat % 2 == me % 2)
        else:
            rule = playout.lead(hand, unplayed, t, trump, me % 2 == mt)
        order.sort(key=lambda i: cards[i] != rule)
    ordered = [legal[i] for i in order]

    def score(hands: list[int]) -> list[float]:
        out = []
        for a in ordered:
            c = a.card
            assert c is not None
            out.append(search.mine(points_by_tests(
                rules, lambda k, c=c: solve.at_least_after(hands, trick, c, me, k),  # type: ignore[misc]
                won, maker_alone, defender_alone), maker))
        return out

    return _best(ordered, search.run(len(ordered), score))


def _discard(view: SeatView, search: Search) -> Action:
    legal = view.legal_actions
    trump, maker = view.trump, view.maker
    assert trump is not None and maker is not None
    me = view.seat

    def score(hands: list[int]) -> list[float]:
        out = []
        for a in legal:
            c = a.card
            assert c is not None
            h = hands[:]
            h[me] &= ~(1 << c)
            pts = search.contract(h, trump, maker, view.alone, False)
            out.append(search.mine(pts, maker))
        return out

    return _best(legal, search.run(len(legal), score, _calls_cap()))


def _going_alone(view: SeatView, search: Search) -> Action:
    legal = view.legal_actions
    trump, maker = view.trump, view.maker
    assert trump is not None and maker is not None
    me = view.seat
    from_upcard = any(a.kind is ActionKind.ORDER_UP for _, a in view.auction) or view.upcard == 32

    def score(hands: list[int]) -> list[float]:
        out = []
        for a in legal:
            alone = (*view.alone, me) if a.kind is ActionKind.GO_ALONE else view.alone
            out.append(search.mine(search.contract(hands, trump, maker, alone, from_upcard), maker))
        return out

    means = search.run(len(legal), score, _calls_cap())
    return _best(legal, [m - (ALONE_MARGIN if a.kind is ActionKind.GO_ALONE else 0.0)
                         for m, a in zip(means, legal, strict=True)])


def _bid(view: SeatView, search: Search) -> Action:
    legal = view.legal_actions
    me = view.seat
    round1 = view.phase is Phase.BID_ROUND_1
    upsuit = view.upcard >> 3

    def score(hands: list[int]) -> list[float]:
        out = []
        for a in legal:
            if a.kind is ActionKind.PASS:
                out.append(_pass_played_out(view, search, hands))
                continue
            trump = upsuit if a.kind is ActionKind.ORDER_UP else a.suit
            assert trump is not None
            alone = (me,) if a.alone else ()
            pts = search.contract(hands, trump, me, alone, round1)
            out.append(search.mine(pts, me))
        return out

    means = search.run(len(legal), score, _calls_cap())
    return _best(legal, [m - _call_margin(a) for m, a in zip(means, legal, strict=True)])


def _calls_cap() -> int:
    return MAX_SAMPLES_CALLS if CALLS_BY == "playout" else MAX_SAMPLES


def _call_margin(action: Action) -> float:
    """What a call must gain over passing (and alone over not), in points per hand."""
    if action.kind is ActionKind.PASS:
        return 0.0
    return CALL_MARGIN + (ALONE_MARGIN if action.alone or action.kind is ActionKind.GO_ALONE else 0.0)


def _pass_played_out(view: SeatView, search: Search, hands: list[int]) -> float:
    """This seat passes; the others (and this seat in round 2) bid by quick_strength."""
    rules = view.rules
    me, dealer = view.seat, view.dealer
    upsuit = view.upcard >> 3
    seat = me
    if view.phase is Phase.BID_ROUND_1:
        while seat != dealer:
            seat = (seat + 1) % 4
            if rules.dealer_partner_must_go_alone and seat == (dealer + 2) % 4:
                continue
            h = hands[seat]
            if seat == dealer:
                h |= 1 << view.upcard
                h &= ~(1 << quick_discard(h, upsuit))
            bonus = DEALER_TEAM_BONUS if seat % 2 == dealer % 2 else -DEALER_TEAM_BONUS
            if playout.quick_strength(h, upsuit) + bonus >= ORDER_NEED:
                return search.mine(search.contract(hands, upsuit, seat, (), True), seat)
        seat = dealer
    elif me == dealer:  # the last to pass in round 2: thrown in
        return 0.0
    stuck = rules.stick_the_dealer
    while True:
        seat = (seat + 1) % 4
        h = hands[seat]
        suit, strength = max(((s, playout.quick_strength(h, s)) for s in range(4) if s != upsuit),
                             key=lambda x: x[1])
        if strength >= ORDER_NEED or (seat == dealer and stuck):
            return search.mine(search.contract(hands, suit, seat, (), False), seat)
        if seat == dealer:
            return 0.0
