"""The seat view: what one seat may know. Never another seat's cards, never the kitty
(but the public upcard), the discard only for the dealer, no discard in the auction."""

from __future__ import annotations

import pytest

from arena.core import actions as A
from arena.core.actions import ActionKind
from arena.core.cards import JOKER, Suit, build_deck, parse_card
from arena.core.game import GameState
from arena.core.hand import HandState, Phase
from arena.core.rules import LoneDefender, RuleSet, WhoMayGoAlone
from arena.core.view import TrickView, hand_view, seat_view

H, S = Suit.HEARTS, Suit.SPADES
STANDARD = RuleSet()

D1 = ("9C TC QD KD AS", "JH AH KH 9S TS", "JD QH 9D TD QS", "AC KC QC JC KS")
D1_KITTY = "TH 9H JS AD"


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def deal(rules=STANDARD, seat_hands=D1, kitty=D1_KITTY) -> HandState:
    hands = [cards(h) for h in seat_hands]
    kit = cards(kitty)
    assert sorted([c for hand in hands for c in hand] + kit) == sorted(build_deck(rules.deck))
    return HandState(rules, 0, hands, kit)


def hidden_from(h: HandState, seat: int) -> set[int]:
    """Every card the seat may not see right now."""
    hidden = set(h.kitty) - {h.upcard}
    for other in range(4):
        if other != seat:
            hidden |= set(h.hands[other])
    if seat != h.dealer and h.discarded is not None:
        hidden.add(h.discarded)
    return hidden - {h.upcard}  # the upcard was seen by all, wherever it went


def assert_nothing_hidden_leaks(h: HandState) -> None:
    for seat in range(4):
        v = hand_view(h, seat)
        assert not (v.visible_cards() & hidden_from(h, seat)), seat
        assert set(v.hand) <= set(h.hands[seat])


def test_a_seat_sees_its_own_hand_sorted_and_no_other():
    h = deal()
    for seat in range(4):
        v = hand_view(h, seat)
        assert v.seat == seat
        assert v.hand == tuple(sorted(cards(D1[seat])))
        assert v.visible_cards() == set(cards(D1[seat])) | {parse_card("TH")}
    assert_nothing_hidden_leaks(h)


def test_the_kitty_is_never_seen_but_for_the_upcard():
    h = deal()
    h.apply(A.PASS)
    h.apply(A.order_up(alone=True), seat=2)  # the dealer sits out; the upcard stays put
    for seat in range(4):
        v = hand_view(h, seat)
        assert v.upcard == parse_card("TH")
        for name in ("9H", "JS", "AD"):
            assert parse_card(name) not in v.visible_cards()
    assert_nothing_hidden_leaks(h)
    assert hand_view(h, 1).sitting_out == (0,)
    assert hand_view(h, 1).alone == (2,)


def test_the_discard_is_in_the_dealers_view_only_and_never_in_the_auction():
    h = deal()
    h.apply(A.order_up(), seat=1)
    h.apply(A.discard(parse_card("KD")), seat=0)
    assert hand_view(h, 0).discard == parse_card("KD")
    for seat in range(4):
        v = hand_view(h, seat)
        assert v.dealer_took_upcard
        assert v.auction == ((1, A.order_up()),)
        assert all(a.kind is not ActionKind.DISCARD for _, a in v.auction)
        if seat != 0:
            assert v.discard is None
            assert parse_card("KD") not in v.visible_cards()
    # The upcard is now the dealer's; everyone saw it turned up.
    assert parse_card("TH") in hand_view(h, 0).hand
    assert parse_card("TH") not in hand_view(h, 1).hand
    assert_nothing_hidden_leaks(h)


def test_tricks_and_the_current_trick_are_public():
    h = deal()
    h.apply(A.order_up(), seat=1)
    h.apply(A.discard(parse_card("KD")), seat=0)
    h.apply(A.play(parse_card("JH")))
    h.apply(A.play(parse_card("QH")))
    v = hand_view(h, 0)
    assert v.current_trick == TrickView(1, ((1, parse_card("JH")), (2, parse_card("QH"))), None)
    assert v.tricks == ()
    assert v.auction == ((1, A.order_up()),)  # plays are not in the auction
    h.apply(A.play(parse_card("AC")))
    h.apply(A.play(parse_card("TH")))
    v = hand_view(h, 3)
    assert v.current_trick is None
    assert v.tricks == (TrickView(1, tuple(h.tricks[0].plays), 1),)
    assert v.tricks_won == (0, 1)
    assert (v.trump, v.maker, v.turn) == (H, 1, 1)
    assert_nothing_hidden_leaks(h)


def test_upcard_turned_down_only_in_round_2_and_after():
    h = deal(RuleSet(stick_the_dealer=False))
    assert not hand_view(h, 2).upcard_turned_down
    for _ in range(4):
        h.apply(A.PASS)
    assert hand_view(h, 2).upcard_turned_down
    for _ in range(4):
        h.apply(A.PASS)
    assert h.over and hand_view(h, 2).upcard_turned_down
    assert hand_view(h, 2).turn is None


def test_upcard_stays_up_when_the_dealer_declines_to_go_alone():
    rules = RuleSet(who_may_go_alone=WhoMayGoAlone.ANY_PLAYER, lone_defender=LoneDefender.ALLOWED)
    h = deal(rules)
    h.apply(A.order_up(), seat=1)
    while h.phase is Phase.GOING_ALONE:
        h.apply(A.PASS)  # seats 1, 3, 2 and the dealer decline
    assert h.phase is Phase.DEALER_DISCARD and h.dealer_took_upcard
    for seat in range(4):
        v = hand_view(h, seat)
        assert not v.upcard_turned_down
        assert v.dealer_took_upcard


def test_dealer_naming_trump_on_the_joker_sees_no_card_of_its_own():
    rules = RuleSet(deck=25, joker=True)
    h = deal(rules, D1, "JKR TH 9H JS AD")
    assert h.phase is Phase.DEALER_NAMES_TRUMP
    v = hand_view(h, 0)
    assert v.hand == () and v.visible_cards() == {JOKER}
    assert not v.upcard_turned_down
    assert hand_view(h, 3).hand == tuple(sorted(cards(D1[3])))
    h.apply(A.name_trump(S))
    v = hand_view(h, 0)
    assert set(v.hand) == set(cards(D1[0])) | {JOKER}
    assert not v.upcard_turned_down


def test_seat_view_adds_the_games_score_and_hand_number():
    game = GameState(RuleSet(stick_the_dealer=False), seed=4, first_dealer=2)
    for _ in range(8):
        game.apply(A.PASS)  # thrown in
    game.scores = [3, 7]
    v = seat_view(game, 1)
    assert (v.hand_number, v.dealer, v.scores) == (1, 3, (3, 7))
    assert v.hand == tuple(sorted(game.hand.hands[1]))
    assert v.rules is game.rules
    assert v.phase is Phase.BID_ROUND_1 and v.turn == 0


@pytest.mark.parametrize("seat", range(4))
def test_no_view_leaks_during_a_whole_hand(seat):
    h = deal()
    h.apply(A.PASS)
    h.apply(A.order_up(), seat=2)
    h.apply(A.discard(parse_card("9C")), seat=0)
    while not h.over:
        v = hand_view(h, seat)
        assert not (v.visible_cards() & hidden_from(h, seat))
        h.apply(h.legal_actions()[-1])
    v = hand_view(h, seat)
    assert len(v.tricks) == 5
    assert (v.discard is not None) == (seat == 0)
