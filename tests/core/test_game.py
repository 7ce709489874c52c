"""A game (RULES.md sections 1 and 6): targets, the dealer's rotation (also after a
thrown-in hand), and deals as a pure function of (seed, hand number)."""

from __future__ import annotations

import random

import pytest

from arena.core import actions as A
from arena.core.cards import build_deck, parse_card
from arena.core.errors import IllegalActionError
from arena.core.game import (
    ActionTaken,
    GameEnded,
    GameState,
    HandDealt,
    HandEnded,
    TrickCompleted,
    deck_order,
    first_dealer_for,
)
from arena.core.hand import HandState, Phase
from arena.core.rules import PRESETS, RuleSet, preset
from arena.core.scoring import Outcome

STANDARD = preset("standard")


def play_random(game: GameState, rng: random.Random, max_decisions: int = 20_000) -> list:
    actions = []
    for _ in range(max_decisions):
        if game.over:
            return actions
        action = rng.choice(game.legal_actions())
        actions.append(action)
        game.apply(action)
    raise AssertionError("game did not end")


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def hand_ended(events) -> HandEnded | None:
    found = [e for e in events if isinstance(e, HandEnded)]
    assert len(found) <= 1
    return found[0] if found else None


# A hand (dealer 0) in which seat 1 orders up hearts and its team takes exactly 3 tricks.
THREE = ("AS KD QD TD 9D", "JH JD AH 9C 9S", "AC KC QC JC TC", "KS QS JS TS AD")
THREE_KITTY = "TH 9H KH QH"
THREE_PLAY = "JH TC TS TH JD JC JS TD AH QC QS QD 9C AC KS KD KC AD AS 9S"


def play_the_one_point_hand(game: GameState):
    """Replaces the dealt hand by THREE (dealer 0) and plays it: 1 point to team 1."""
    assert game.hand.dealer == 0
    game.hand = HandState(game.rules, 0, [cards(h) for h in THREE], cards(THREE_KITTY))
    assert game.apply(A.order_up()) == (ActionTaken(1, A.order_up(), A.ORDER_UP.kind),)
    game.apply(A.discard(parse_card("9D")))
    ended = None
    for name in THREE_PLAY.split():
        ended = hand_ended(game.apply(A.play(parse_card(name))))
    assert ended is not None
    result = ended.result
    assert result.score.points == 1 and result.score.team == 1
    assert ended.scores == tuple(game.scores)
    return result


# --- targets -----------------------------------------------------------------------------


@pytest.mark.parametrize("target", [5, 10, 11, 15])
def test_reaching_the_target_by_one_point_ends_the_game(target):
    game = GameState(RuleSet(target=target), seed=7, first_dealer=0)
    game.scores = [target - 1, target - 1]
    play_the_one_point_hand(game)
    assert game.over and game.winner == 1
    assert game.scores == [target - 1, target]  # no need to win by two
    assert game.legal_actions() == []


@pytest.mark.parametrize("target", [5, 10, 11, 15])
def test_one_short_of_the_target_the_game_goes_on(target):
    game = GameState(RuleSet(target=target), seed=7, first_dealer=0)
    game.scores = [target - 2, target - 2]
    play_the_one_point_hand(game)
    assert not game.over and game.winner is None
    assert game.scores == [target - 2, target - 1]
    assert (game.hand_number, game.hand.dealer) == (1, 1)


@pytest.mark.parametrize("target", [5, 10, 11, 15])
def test_random_games_end_as_soon_as_a_team_reaches_the_target(target):
    rules = RuleSet(target=target)
    for seed in range(8):
        game = GameState(rules, seed)
        play_random(game, random.Random(seed))
        scores = [0, 0]
        for i, r in enumerate(game.results):
            assert max(scores) < target, f"game went on after reaching {target}"
            if r.score.team is not None:
                scores[r.score.team] += r.score.points
            assert (max(scores) >= target) == (i == len(game.results) - 1)
        assert scores == game.scores
        assert game.scores[game.winner] >= target > game.scores[1 - game.winner]


def test_a_finished_game_refuses_actions():
    game = GameState(RuleSet(target=1), seed=3, first_dealer=0)
    play_the_one_point_hand(game)
    assert game.over and game.winner == 1 and game.scores == [0, 1]
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.apply(A.PASS)


def test_apply_returns_what_the_action_caused_in_order():
    game = GameState(STANDARD, seed=11)
    rng = random.Random(5)
    ended = []
    while not game.over:
        hand, seat, tricks = game.hand, game.turn, len(game.hand.tricks)
        results, scores = len(game.results), tuple(game.scores)
        action = rng.choice(game.legal_actions())
        events = game.apply(action)
        assert isinstance(events, tuple)
        assert events[0] == ActionTaken(seat, action, action.kind)
        rest = list(events[1:])
        if len(hand.tricks) > tricks:
            assert rest.pop(0) == TrickCompleted(hand.tricks[-1])
        if len(game.results) == results:
            assert rest == [] and tuple(game.scores) == scores
            continue
        assert rest.pop(0) == HandEnded(game.results[-1], tuple(game.scores))
        ended.append(game.results[-1])
        if game.over:
            assert rest == [GameEnded(tuple(game.scores), game.winner)]
        else:
            assert rest == [game.dealt]
            h = game.hand
            assert game.dealt == HandDealt(
                game.hand_number, h.dealer, tuple(tuple(x) for x in h.hands), h.kitty,
                h.phase is Phase.DEALER_NAMES_TRUMP,
            )
            assert game.dealt.upcard == h.upcard
    assert ended == game.results


def test_most_actions_return_a_shared_constant():
    """Performance: an action that completes no trick allocates no events."""
    first, second = GameState(STANDARD, seed=4), GameState(STANDARD, seed=4)
    one, two = first.apply(first.legal_actions()[0]), second.apply(second.legal_actions()[0])
    assert len(one) == 1 and one is two


# --- the dealer's rotation ------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1, 2, 3])
def test_first_dealer_is_honoured_and_the_deal_rotates(first):
    game = GameState(STANDARD, seed=99, first_dealer=first)
    assert game.hand.dealer == first
    play_random(game, random.Random(first))
    assert [r.dealer for r in game.results] == [
        (first + i) % 4 for i in range(len(game.results))
    ]


def test_first_dealer_out_of_range_is_refused():
    for bad in (-1, 4):
        with pytest.raises(ValueError, match="first dealer"):
            GameState(STANDARD, seed=1, first_dealer=bad)


def test_the_deal_rotates_after_a_thrown_in_hand():
    game = GameState(RuleSet(stick_the_dealer=False), seed=5, first_dealer=3)
    for _ in range(7):
        assert len(game.apply(A.PASS)) == 1
    taken, ended, dealt = game.apply(A.PASS)
    assert taken == ActionTaken(3, A.PASS, A.PASS.kind) and isinstance(ended, HandEnded)
    result = ended.result
    assert result.score.outcome is Outcome.THROWN_IN and ended.scores == (0, 0)
    assert dealt is game.dealt and (dealt.hand_number, dealt.dealer) == (1, 0)
    assert result.dealer == 3
    assert game.scores == [0, 0] and not game.over
    assert (game.hand_number, game.hand.dealer, game.turn) == (1, 0, 1)
    # The next hand is a new deal, the one of hand number 1.
    assert list(game.hand.kitty) == deck_order(game.rules, 5, 1)[20:]


# --- deals are a pure function of (seed, hand number) -----------------------------------


def test_first_dealer_is_drawn_from_the_seed():
    dealers = [first_dealer_for(seed) for seed in range(40)]
    assert dealers == [first_dealer_for(seed) for seed in range(40)]
    assert set(dealers) == {0, 1, 2, 3}
    for seed in range(10):
        assert GameState(STANDARD, seed).first_dealer == first_dealer_for(seed)


@pytest.mark.parametrize("size", [24, 25, 32, 33])
def test_deck_order_is_a_shuffle_of_the_deck(size):
    rules = RuleSet(deck=size, joker=size in (25, 33))
    order = deck_order(rules, 123, 4)
    assert sorted(order) == sorted(build_deck(size))
    assert order == deck_order(rules, 123, 4)
    assert order != list(build_deck(size))


def test_different_seeds_and_hands_give_different_deals():
    deals = {tuple(deck_order(STANDARD, seed, 0)) for seed in range(50)}
    assert len(deals) == 50
    per_hand = {tuple(deck_order(STANDARD, 77, n)) for n in range(50)}
    assert len(per_hand) == 50


def test_every_hand_of_a_game_is_dealt_from_its_own_seed_and_number():
    rules = STANDARD
    seed = 2024
    # Computed before the game: hand k needs no hand before it.
    expected = {k: deck_order(rules, seed, k) for k in range(6)}
    game = GameState(rules, seed)
    rng = random.Random(1)
    while not game.over and game.hand_number < 6:
        k = game.hand_number
        dealt = HandState.deal(rules, game.hand.dealer, expected[k])
        assert game.hand.hands == dealt.hands
        assert game.hand.kitty == dealt.kitty
        assert game.hand.dealer == (game.first_dealer + k) % 4
        while game.hand_number == k and not game.over:
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_same_seed_and_same_actions_give_the_same_game(name):
    rules = preset(name)
    first = GameState(rules, 31337)
    actions = play_random(first, random.Random(8))
    again = GameState(rules, 31337)
    for action in actions:
        again.apply(action)
    assert again.over
    assert again.results == first.results
    assert again.scores == first.scores and again.winner == first.winner
    # And the same choices from the same chooser reproduce it too.
    third = GameState(rules, 31337)
    assert play_random(third, random.Random(8)) == actions


def test_different_seeds_give_different_games():
    outcomes = set()
    for seed in range(6):
        game = GameState(STANDARD, seed)
        play_random(game, random.Random(0))
        outcomes.add(tuple(game.results))
    assert len(outcomes) == 6


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "1", None])
def test_bad_seeds_are_refused(seed):
    with pytest.raises(ValueError, match="seed"):
        deck_order(STANDARD, seed, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="seed"):
        GameState(STANDARD, seed)  # type: ignore[arg-type]


def test_largest_seed_is_accepted_and_bad_hand_numbers_refused():
    assert len(deck_order(STANDARD, 2**63 - 1, 0)) == 24
    with pytest.raises(ValueError, match="hand number"):
        deck_order(STANDARD, 1, -1)
    with pytest.raises(ValueError, match="hand number"):
        deck_order(STANDARD, 1, 0xFFFFFFFF)
