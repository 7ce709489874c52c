"""The PIMC sample bot (sample_bots/pimc): its solver against exhaustive minimax over the
arena's own engine, its sampling against what a seat has seen, its use of time, the rule
sets it refuses, and legal play in every preset.

Everything runs in-process on the engine's HandState and SeatView, as test_heuristic.py.
Time is measured with a fake clock where it matters: a budget is respected when the
deals sampled stop at the deadline, whatever the machine's load.
"""

from __future__ import annotations

import copy
import random
from types import SimpleNamespace

import pytest

from arena.core import PRESETS, GameState, HandState, Phase, RuleSet, hand_view, seat_view
from arena.core.actions import ActionKind
from arena.core.cards import EFFECTIVE_SUIT, build_deck
from arena.sdk import known_voids
from sample_bots.pimc import game_value, strategy
from sample_bots.pimc import solver as S
from sample_bots.pimc.bot import PimcBot, refusal
from sample_bots.pimc.sampling import NOWHERE, Sampler, read_bids

STANDARD = PRESETS["standard"]
BRITISH = PRESETS["british"]
CANADIAN = PRESETS["canadian"]
DECK_32 = RuleSet(deck=32, name="piquet-32")
DECK_33 = BRITISH.with_options(deck=33, name="british-33")
ANY_ALONE = STANDARD.with_options(who_may_go_alone="any_player", lone_defender="allowed")


def random_hand_in_play(rules: RuleSet, rng: random.Random, tricks_left: int) -> HandState:
    """A hand in its play phase with `tricks_left` whole tricks to go (and maybe a trick
    begun): bids and plays at random until then. Retries thrown-in hands."""
    while True:
        deck = list(build_deck(rules.deck))
        rng.shuffle(deck)
        hand = HandState.deal(rules, rng.randrange(4), deck)
        while not hand.over and (
            hand.phase is not Phase.PLAY
            or len(hand.tricks) < 5 - tricks_left
        ):
            hand.apply(rng.choice(hand.legal_actions()))
        if hand.over:
            continue
        for _ in range(rng.randrange(3)):  # sometimes part of a trick played
            if len(hand.trick_plays) + 1 < hand._trick_size:
                hand.apply(rng.choice(hand.legal_actions()))
        return hand


def engine_minimax(hand: HandState) -> int:
    """The makers' tricks from here with best play by both sides, by trying every legal
    card in the engine itself."""
    assert hand.maker is not None
    mt = hand.maker % 2
    if hand.over:
        return hand.tricks_won[mt]
    values = []
    for action in hand.legal_actions():
        child = copy.deepcopy(hand)
        child.apply(action)
        values.append(engine_minimax(child))
    return max(values) if hand.turn % 2 == mt else min(values)


def solver_position(hand: HandState) -> tuple[S.Solver, list[int], list[tuple[int, int]]]:
    assert hand.trump is not None and hand.maker is not None
    active = [s for s in range(4) if not hand.sitting_out[s]]
    solve = S.Solver(hand.trump, hand.maker % 2, active)
    hands = [S.mask_of(hand.hands[s]) if not hand.sitting_out[s] else 0 for s in range(4)]
    return solve, hands, list(hand.trick_plays)


@pytest.mark.parametrize("rules", [STANDARD, BRITISH, DECK_32, ANY_ALONE], ids=lambda r: r.name)
def test_solver_agrees_with_exhaustive_minimax_on_endgames(rules):
    rng = random.Random(13)
    for i in range(30):
        hand = random_hand_in_play(rules, rng, tricks_left=2 + (i % 3 == 0))
        mt = hand.maker % 2  # type: ignore[operator]
        expected = engine_minimax(hand) - hand.tricks_won[mt]
        solve, hands, trick = solver_position(hand)
        seat = hand.turn
        # Every card the seat may play, then best play: the maximum (or minimum) of them.
        got = [solve.after_play(hands, trick, a.card, seat, -1, 9) for a in hand.legal_actions()]
        best = max(got) if seat % 2 == mt else min(got)
        assert best == expected, (rules.name, i, hand.describe())
        for t in range(0, 6):
            by_test = any(solve.at_least_after(hands, trick, a.card, seat, t)
                          for a in hand.legal_actions()) if seat % 2 == mt else all(
                solve.at_least_after(hands, trick, a.card, seat, t) for a in hand.legal_actions())
            assert by_test == (expected >= t), (rules.name, i, t)
        if not trick:
            assert solve.exact(hands, seat) == expected


def test_solver_plays_tricks_as_the_engine_does():
    # Random play to the end in the engine and in the solver's own trick code: the same
    # legal cards at every turn, the same winner of every trick.
    rng = random.Random(7)
    for rules in (STANDARD, BRITISH, DECK_33, ANY_ALONE):
        for _ in range(25):
            hand = random_hand_in_play(rules, rng, tricks_left=5)
            solve, _, _ = solver_position(hand)
            while not hand.over:
                seat = hand.turn
                h = S.mask_of(hand.hands[seat])
                legal = S.mask_of([a.card for a in hand.legal_actions()])  # type: ignore[misc]
                assert solve.legal(h, hand.trick_plays) == legal
                before = len(hand.tricks)
                plays = list(hand.trick_plays)
                action = rng.choice(hand.legal_actions())
                hand.apply(action)
                if len(hand.tricks) > before:
                    done = [*plays, (seat, action.card)]
                    assert solve.winner(done) == hand.tricks[-1].winner


def test_solver_is_much_smaller_than_the_tree():
    # The whole point of bounds, equivalent cards and the table: a full hand in hundreds
    # of nodes, where the tree has (5!)^4 leaves at most.
    rng = random.Random(3)
    deck = list(build_deck(24))
    nodes = []
    for i in range(10):
        rng.shuffle(deck)
        hands = [S.mask_of(deck[j * 5:(j + 1) * 5]) for j in range(4)]
        solve = S.Solver(i % 4, 0, (0, 1, 2, 3))
        solve.exact(hands, 0)
        nodes.append(solve.nodes)
    assert sum(nodes) / len(nodes) < 5000


# --- sampling ---------------------------------------------------------------------------


def views_of_a_game(rules: RuleSet, seed: int):
    """Every decision's view in a game played at random."""
    rng = random.Random(seed)
    game = GameState(rules, seed, first_dealer=seed % 4)
    while not game.over:
        seat = game.turn
        view = seat_view(game, seat)
        yield view, game.hand
        game.apply(rng.choice(view.legal_actions), seat)


@pytest.mark.parametrize("rules", [STANDARD, BRITISH, DECK_32, CANADIAN], ids=lambda r: r.name)
def test_sampling_deals_only_unseen_cards_and_respects_voids(rules):
    rng = random.Random(1)
    checked = 0
    for seed in range(4):
        for view, hand in views_of_a_game(rules, seed):
            if not view.hand:  # a dealer naming trump blind: nothing is sampled
                continue
            sampler = Sampler(view)
            voids = known_voids(view)
            seen = set(view.hand) | {c for t in (*view.tricks, *(
                (view.current_trick,) if view.current_trick else ())) for _, c in t.plays}
            if view.discard is not None:
                seen.add(view.discard)
            if not view.dealer_took_upcard:
                seen.add(view.upcard)
            held = view.cards_held()
            # The truth itself is a deal the constraints allow (the voids are real).
            for s in range(4):
                if s != view.seat and s not in view.sitting_out and view.trump is not None:
                    assert not any(EFFECTIVE_SUIT[view.trump][c] in voids[s] for c in hand.hands[s])
            for _ in range(8):
                deal = sampler.draw(rng)
                assert deal is not None
                assert deal[view.seat] == S.mask_of(view.hand)
                dealt: set[int] = set()
                for s in range(4):
                    cards = S.cards_of(deal[s])
                    if s == view.seat:
                        continue
                    if s in view.sitting_out:
                        assert cards == []
                        continue
                    assert len(cards) == held[s]
                    assert not (set(cards) & seen), "a card the seat has seen"
                    assert not (set(cards) & dealt), "a card dealt twice"
                    dealt |= set(cards)
                    if view.trump is not None:
                        assert not any(EFFECTIVE_SUIT[view.trump][c] in voids[s] for c in cards)
                checked += 1
    assert checked > 500


def test_sampling_puts_the_taken_upcard_in_the_dealers_hand():
    rng = random.Random(2)
    found = 0
    for seed in range(20):
        for view, _ in views_of_a_game(STANDARD, seed):
            if (view.phase is Phase.PLAY and view.dealer_took_upcard and view.seat != view.dealer
                    and not view.tricks and not view.current_trick):
                deal = Sampler(view).draw(rng)
                assert deal is not None and deal[view.dealer] >> view.upcard & 1
                found += 1
    assert found > 5


def test_sampling_spreads_cards_over_the_seats():
    # No voids: every unseen card reaches every seat (and the kitty) some of the time.
    hand = HandState.deal(STANDARD, 0, list(build_deck(24)))
    view = hand_view(hand, 1)
    sampler = Sampler(view)
    rng = random.Random(0)
    where: dict[int, set[int]] = {}
    for _ in range(400):
        deal = sampler.draw(rng)
        assert deal is not None
        for s in (0, 2, 3):
            for c in S.cards_of(deal[s]):
                where.setdefault(c, set()).add(s)
    assert len(where) == 18 and all(len(v) == 3 for v in where.values())
    assert sampler.need[NOWHERE] == 3


def test_bids_as_soft_evidence():
    # Seats 1 and 2 pass the upcard, seat 3 orders it up. As seen by seat 1: seat 2
    # passed the suit, seat 3 called it; a deal that gives the caller no trump is
    # unlikely, one of five trumps is not.
    hand = HandState.deal(STANDARD, 0, list(build_deck(24)))
    hand.apply(hand.legal_actions()[0])  # seat 1 passes
    hand.apply(hand.legal_actions()[0])  # seat 2 passes
    hand.apply(next(a for a in hand.legal_actions() if a.kind is ActionKind.ORDER_UP and not a.alone))
    view = hand_view(hand, 1)
    up = view.upcard >> 3
    assert read_bids(view, [0, 2, 3]) == [(2, up, False), (3, up, True)]
    sampler = Sampler(view)
    sampler.bids = read_bids(view, sampler.others)
    no_trump = [0, 0, 0, S.mask_of([c for c in build_deck(24) if c >> 3 != up][:5])]
    assert sampler.likelihood(no_trump) < 1
    trumps = S.tables(up).order[up][:5]
    assert sampler.likelihood([0, 0, 0, S.mask_of(trumps)]) == 1


# --- time -------------------------------------------------------------------------------


class TickingClock:
    """A clock that moves `tick` seconds each time it is read: the number of deals a
    budget buys is then a fixed number, whatever the machine."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


@pytest.mark.parametrize("budget", [0.01, 0.05])
def test_decisions_stop_at_the_budget(budget):
    tick = 0.001
    rng = random.Random(4)
    seen_phases = set()
    for view, _ in views_of_a_game(STANDARD, 11):
        clock = TickingClock(tick)
        stats = strategy.Stats()
        action = strategy.decide(view, rng, budget, clock=clock, stats=stats)
        assert action in view.legal_actions
        if len(view.legal_actions) > 1 and view.phase is not Phase.DEALER_NAMES_TRUMP:
            seen_phases.add(view.phase)
            # The clock is read once per deal (and at the start and end, and by a long
            # search now and then): the deals stop at the deadline, and no search runs
            # past the hard stop.
            assert stats.samples <= budget / tick + 1
            assert stats.samples >= 1 or stats.timeouts == 1
            assert stats.seconds <= strategy.HARD_STOP * budget + 3 * tick
        if len(seen_phases) >= 3 and stats.samples:
            break
    assert Phase.PLAY in seen_phases


def test_more_time_buys_more_deals():
    hand = HandState.deal(STANDARD, 0, list(build_deck(24)))
    while hand.phase is not Phase.PLAY:
        hand.apply(hand.legal_actions()[1] if hand.phase is Phase.BID_ROUND_1 else hand.legal_actions()[0])
    view = hand_view(hand, hand.turn)
    counts = []
    for budget in (0.005, 0.05):
        stats = strategy.Stats()
        strategy.decide(view, random.Random(0), budget, clock=TickingClock(0.001), stats=stats)
        counts.append(stats.samples)
    assert counts[0] < counts[1]


# --- rules ------------------------------------------------------------------------------


def test_refuses_the_rules_it_does_not_play():
    for rules in (STANDARD, BRITISH, CANADIAN, DECK_32, DECK_33, ANY_ALONE):
        assert refusal(rules) is None
    assert "four seats" in (refusal(SimpleNamespace(seats=6)) or "")  # type: ignore[arg-type]
    assert "five-card" in (refusal(SimpleNamespace(cards_per_hand=7)) or "")  # type: ignore[arg-type]
    assert "48" in (refusal(SimpleNamespace(deck=48)) or "")  # type: ignore[arg-type]

    def variant(**extra):
        options = {**STANDARD.to_options(), **extra}
        return SimpleNamespace(**options, to_options=lambda: options)

    assert "railroad" in (refusal(variant(railroading=True)) or "")  # type: ignore[arg-type]
    assert "dealer_may_decline" in (refusal(variant(dealer_may_decline=True)) or "")  # type: ignore[arg-type]
    assert refusal(variant(railroading=False, dealer_may_decline=False)) is None  # type: ignore[arg-type]
    # Options it knows the meaning of, at any value: the game's length, the points.
    assert refusal(variant(hand_size=5, march_points=3, euchre_points=2, lone_march_points=4,
                           win_by_two=True, hand_limit=8)) is None  # type: ignore[arg-type]
    assert "five-card" in (refusal(variant(hand_size=7, cards_per_hand=7)) or "")  # type: ignore[arg-type]
    assert PimcBot().supports(STANDARD) is None


def test_scores_read_the_points_options():
    assert strategy.makers_points(STANDARD, 5, False, False) == 2
    assert strategy.makers_points(STANDARD, 5, True, False) == 4
    assert strategy.makers_points(STANDARD, 4, False, False) == 1
    assert strategy.makers_points(STANDARD, 2, False, False) == -2
    assert strategy.makers_points(BRITISH, 1, False, True) == -4
    six = RuleSet(march_points=3, lone_march_points=6, euchre_points=3)
    assert strategy.makers_points(six, 5, False, False) == 3
    assert strategy.makers_points(six, 5, True, False) == 6
    assert strategy.makers_points(six, 0, False, False) == -3


@pytest.mark.parametrize("rules", [STANDARD, BRITISH, CANADIAN, DECK_33, ANY_ALONE],
                         ids=lambda r: r.name)
def test_always_legal(rules):
    # A short budget: legality, not strength. PIMC seats 0 and 2, random seats 1 and 3.
    bot = PimcBot(budget=0.002)
    rng = random.Random(5)
    kinds = set()
    for seed in range(2):
        game = GameState(rules, 100 + seed, first_dealer=seed)
        while not game.over:
            seat = game.turn
            view = seat_view(game, seat)
            if seat % 2 == 0:
                action = bot.decide(view)
                kinds.add(action.kind)
            else:
                action = rng.choice(view.legal_actions)
            assert action in view.legal_actions
            game.apply(action, seat)
    assert ActionKind.PLAY in kinds


# --- playing for the game -------------------------------------------------------------


def test_game_value_is_a_chance_that_adds_up():
    table = game_value.GameValue(STANDARD)
    for mine in range(10):
        for theirs in range(10):
            for deal_next in (False, True):
                v = table.value(mine, theirs, deal_next)
                assert 0.0 < v < 1.0
                # Either side wins: our chance and theirs (seen from their side) add to 1.
                assert v + table.value(theirs, mine, not deal_next) == pytest.approx(1.0)
                if mine < 9:
                    assert table.value(mine + 1, theirs, deal_next) > v
    assert table.value(10, 3, True) == 1.0 and table.value(3, 11, False) == 0.0
    assert table.value(0, 0, True) > 0.5  # the dealing side has the upcard


def test_game_value_knows_win_by_two_and_fixed_hands():
    two = game_value.GameValue(STANDARD.with_options(win_by_two=True))
    assert two.won(10, 9) is None and two.won(11, 9) == 1.0
    # Past the target, only the lead counts.
    assert two.value(12, 12, True) == pytest.approx(two.value(9, 9, True))
    assert 0.5 < two.value(11, 10, False) < 1.0
    fixed = game_value.GameValue(STANDARD.with_options(hand_limit=8))
    assert fixed.value(3, 1, True, hands_left=0) == 1.0
    assert fixed.value(2, 2, True, hands_left=0) == 0.5  # a level game is a draw
    assert fixed.value(5, 0, False, hands_left=1) > fixed.value(5, 0, False, hands_left=4)


def _view_at(scores, seat=0, dealer=3):
    game = GameState(STANDARD, 21, first_dealer=dealer)
    game.scores = list(scores)
    return seat_view(game, seat)


def test_hand_worth_is_points_at_the_start_and_the_game_near_its_end():
    start = game_value.HandWorth(_view_at((0, 0)))
    for points in (1, 2, 4, -2):
        assert start(points, True) == pytest.approx(points, rel=0.2)
        assert start(points, False) == pytest.approx(-points, rel=0.2)
    # At 9, one point wins: a march or a lone march is worth no more than a made hand.
    nine = game_value.HandWorth(_view_at((9, 5)))
    assert nine(1, True) == nine(2, True) == nine(4, True)
    # The others at 9: a hand they make ends the game, however they make it.
    doomed = game_value.HandWorth(_view_at((4, 9)))
    assert doomed(1, False) == doomed(2, False) == doomed(-2, True)
    assert doomed(-2, False) > doomed(1, True) > 0


def test_strategy_scores_deals_by_the_game():
    view = _view_at((9, 5))
    search = strategy.Search(view, random.Random(1), 0.01, lambda: 0.0, strategy.Stats())
    assert search.mine(1, 0) == search.mine(2, 0)
    strategy.PLAY_FOR_GAME, saved = False, strategy.PLAY_FOR_GAME
    try:
        flat = strategy.Search(view, random.Random(1), 0.01, lambda: 0.0, strategy.Stats())
        assert flat.mine(2, 0) == 2.0 and flat.mine(2, 1) == -2.0
    finally:
        strategy.PLAY_FOR_GAME = saved


def test_hand_worth_on_the_last_hand_of_a_fixed_game():
    # Two points up with one hand left: one point more or less changes nothing, but a
    # euchre of its side (two to the others) turns the win into a draw.
    rules = STANDARD.with_options(hand_limit=4)
    game = GameState(rules, 21, first_dealer=3)
    game.scores, game.hand_number = [2, 0], 3
    worth = game_value.HandWorth(seat_view(game, 0))
    assert worth(1, True) == worth(2, True) == worth(1, False) == 0.0
    assert worth(-2, True) < 0.0 and worth(4, False) < worth(-2, True)
