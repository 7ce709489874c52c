"""Scoring (RULES.md section 6 and the scoring options of section 7): every row of the
table through score_hand(), and the main rows played out through real hands."""

from __future__ import annotations

import pytest

from arena.core import actions as A
from arena.core.cards import build_deck, parse_card
from arena.core.hand import HandState, Phase
from arena.core.rules import LoneDefender, RuleSet
from arena.core.scoring import Outcome, Score, score_hand

STANDARD = RuleSet()
LD = LoneDefender.ALLOWED


# --- the table, directly ----------------------------------------------------------------


@pytest.mark.parametrize("makers", [0, 1])
@pytest.mark.parametrize(
    ("tricks", "alone", "outcome", "points", "to_makers"),
    [
        (3, False, Outcome.MADE, 1, True),
        (4, False, Outcome.MADE, 1, True),
        (5, False, Outcome.MARCH, 2, True),
        (5, True, Outcome.MARCH, 4, True),
        (3, True, Outcome.MADE, 1, True),
        (4, True, Outcome.MADE, 1, True),
        (2, False, Outcome.EUCHRED, 2, False),
        (1, False, Outcome.EUCHRED, 2, False),
        (0, False, Outcome.EUCHRED, 2, False),
        (2, True, Outcome.EUCHRED, 2, False),
        (0, True, Outcome.EUCHRED, 2, False),
    ],
)
def test_default_table(makers, tricks, alone, outcome, points, to_makers):
    team = makers if to_makers else 1 - makers
    assert score_hand(STANDARD, makers, tricks, alone, False) == Score(outcome, team, points)


@pytest.mark.parametrize(("super_points", "tricks", "points"),
                         [(2, 0, 2), (4, 0, 4), (4, 1, 2), (4, 2, 2)])
def test_super_euchre(super_points, tricks, points):
    rules = RuleSet(super_euchre_points=super_points)
    assert score_hand(rules, 0, tricks, False, False) == Score(Outcome.EUCHRED, 1, points)


@pytest.mark.parametrize(
    ("euchre_points", "march_points", "tricks", "points"),
    [
        (2, None, 2, 2), (2, None, 1, 2), (2, None, 0, 2),
        (4, None, 2, 4), (4, None, 1, 4), (4, None, 0, 4),  # "as above": 4 for a march too
        (2, 4, 2, 2), (2, 4, 1, 2), (2, 4, 0, 4),  # only the march (0 maker tricks) is 4
        (4, 4, 2, 4), (4, 4, 0, 4),
    ],
)
def test_lone_defender_euchre_and_march(euchre_points, march_points, tricks, points):
    rules = RuleSet(
        lone_defender=LD,
        lone_defender_euchre_points=euchre_points,
        lone_defender_march_points=march_points,
    )
    assert score_hand(rules, 1, tricks, False, True) == Score(Outcome.EUCHRED, 0, points)


def test_lone_defender_points_do_not_apply_without_a_lone_defender():
    rules = RuleSet(lone_defender=LD, lone_defender_euchre_points=4, lone_defender_march_points=4)
    assert score_hand(rules, 1, 0, False, False) == Score(Outcome.EUCHRED, 0, 2)
    assert score_hand(rules, 1, 2, True, False) == Score(Outcome.EUCHRED, 0, 2)


def test_lone_defender_and_super_euchre_score_the_larger():
    rules = RuleSet(lone_defender=LD, super_euchre_points=4)
    assert score_hand(rules, 0, 0, False, True) == Score(Outcome.EUCHRED, 1, 4)
    assert score_hand(rules, 0, 1, False, True) == Score(Outcome.EUCHRED, 1, 2)


def test_a_lone_defender_does_not_change_what_makers_score():
    rules = RuleSet(lone_defender=LD, lone_defender_euchre_points=4, lone_defender_march_points=4)
    assert score_hand(rules, 0, 5, True, True) == Score(Outcome.MARCH, 0, 4)
    assert score_hand(rules, 0, 5, False, True) == Score(Outcome.MARCH, 0, 2)
    assert score_hand(rules, 0, 3, True, True) == Score(Outcome.MADE, 0, 1)


# --- played out through real hands (dealer 0; seat 1 calls hearts on the TH) --------------


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def deal(rules: RuleSet, seat_hands: tuple[str, str, str, str], kitty: str) -> HandState:
    hands = [cards(h) for h in seat_hands]
    kit = cards(kitty)
    assert sorted([c for hand in hands for c in hand] + kit) == sorted(build_deck(rules.deck))
    return HandState(rules, 0, hands, kit)


def play_tricks(h: HandState, tricks: list[str]) -> list[int]:
    """Plays each trick's cards in order, each by the seat holding it; returns the winners."""
    for trick in tricks:
        for name in trick.split():
            card = parse_card(name)
            seat = next(s for s in range(4) if card in h.hands[s])
            h.apply(A.play(card), seat=seat)
    return [t.winner for t in h.tricks]


# Seat 1 holds the five best hearts.
STRONG = ("9D TD QD KD AD", "JH JD AH KH QH", "9C TC JC QC KC", "9S TS JS QS KS")
STRONG_KITTY = "TH 9H AC AS"
STRONG_PLAY = ["JH 9C 9S TH", "JD TC TS TD", "AH JC JS QD", "KH QC QS KD", "QH KC KS AD"]


def test_march_played_out_scores_2():
    h = deal(STANDARD, STRONG, STRONG_KITTY)
    h.apply(A.order_up(), seat=1)
    h.apply(A.discard(parse_card("9D")), seat=0)
    assert play_tricks(h, STRONG_PLAY) == [1, 1, 1, 1, 1]
    assert h.result is not None
    assert h.result.tricks_won == (0, 5)
    assert h.result.score == Score(Outcome.MARCH, 1, 2)


def test_lone_march_played_out_scores_4():
    h = deal(STANDARD, STRONG, STRONG_KITTY)
    h.apply(A.order_up(alone=True), seat=1)
    h.apply(A.discard(parse_card("9D")), seat=0)
    lone_play = [" ".join(t.split()[:2] + t.split()[3:]) for t in STRONG_PLAY]  # seat 3 out
    assert play_tricks(h, lone_play) == [1, 1, 1, 1, 1]
    assert h.result is not None
    assert h.result.alone == (1,)
    assert h.result.score == Score(Outcome.MARCH, 1, 4)


# Seat 1 holds three top trumps and two losers.
THREE = ("AS KD QD TD 9D", "JH JD AH 9C 9S", "AC KC QC JC TC", "KS QS JS TS AD")
THREE_KITTY = "TH 9H KH QH"


def test_makers_take_3_played_out_score_1():
    h = deal(STANDARD, THREE, THREE_KITTY)
    h.apply(A.order_up(), seat=1)
    h.apply(A.discard(parse_card("9D")), seat=0)
    winners = play_tricks(
        h, ["JH TC TS TH", "JD JC JS TD", "AH QC QS QD", "9C AC KS KD", "KC AD AS 9S"]
    )
    assert winners == [1, 1, 1, 2, 2]
    assert h.result is not None
    assert h.result.tricks_won == (2, 3)
    assert h.result.score == Score(Outcome.MADE, 1, 1)


def test_lone_maker_takes_3_played_out_scores_1():
    h = deal(STANDARD, THREE, THREE_KITTY)
    h.apply(A.order_up(alone=True), seat=1)
    h.apply(A.discard(parse_card("9D")), seat=0)
    winners = play_tricks(h, ["JH TC TH", "JD JC TD", "AH QC QD", "9C AC KD", "KC AS 9S"])
    assert winners == [1, 1, 1, 2, 2]
    assert h.result is not None
    assert h.result.score == Score(Outcome.MADE, 1, 1)


# Seat 1 calls hearts holding none; seat 2 (a defender) holds the five best.
WEAK = ("9D TD QD KD AD", "9C TC JC QC KC", "JH JD AH KH QH", "9S TS JS QS KS")
WEAK_KITTY = "TH 9H AC AS"
WEAK_PLAY = ["9C JH 9S TD", "JD TS TH TC", "AH JS QD JC", "KH QS KD QC", "QH KS AD KC"]


@pytest.mark.parametrize(("super_points", "points"), [(2, 2), (4, 4)])
def test_euchre_with_no_maker_trick_played_out(super_points, points):
    h = deal(RuleSet(super_euchre_points=super_points), WEAK, WEAK_KITTY)
    h.apply(A.order_up(), seat=1)
    h.apply(A.discard(parse_card("9D")), seat=0)
    assert play_tricks(h, WEAK_PLAY) == [2, 2, 2, 2, 2]
    assert h.result is not None
    assert h.result.tricks_won == (5, 0)
    assert h.result.score == Score(Outcome.EUCHRED, 0, points)


@pytest.mark.parametrize(
    ("euchre_points", "march_points", "super_points", "points"),
    [(2, None, 2, 2), (4, None, 2, 4), (2, 4, 2, 4), (2, None, 4, 4)],
)
def test_lone_defender_march_played_out(euchre_points, march_points, super_points, points):
    rules = RuleSet(
        lone_defender=LD,
        lone_defender_euchre_points=euchre_points,
        lone_defender_march_points=march_points,
        super_euchre_points=super_points,
    )
    h = deal(rules, WEAK, WEAK_KITTY)
    h.apply(A.order_up(), seat=1)
    assert (h.phase, h.turn) == (Phase.GOING_ALONE, 2)
    h.apply(A.GO_ALONE, seat=2)
    assert h.phase is Phase.PLAY  # the dealer sits out: no pick-up, no discard
    winners = play_tricks(h, ["9C JH 9S", "JD TS TC", "AH JS JC", "KH QS QC", "QH KS KC"])
    assert winners == [2, 2, 2, 2, 2]
    assert h.result is not None
    assert h.result.alone == (2,)
    assert h.result.score == Score(Outcome.EUCHRED, 0, points)
