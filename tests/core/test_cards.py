"""Cards and decks (RULES.md sections 1 and 2): deck contents, colours, the effective suit
and the order of cards once trump is known, and card names."""

from __future__ import annotations

import itertools

import pytest

from arena.core.cards import (
    JOKER,
    Suit,
    build_deck,
    card_label,
    card_name,
    card_rank,
    card_suit,
    effective_suit,
    is_trump,
    make_card,
    parse_card,
    trick_winner_index,
)

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def names(deck) -> set[str]:
    return {card_name(c) for c in deck}


# --- decks -------------------------------------------------------------------------


def test_24_card_deck_is_nine_to_ace_in_four_suits():
    deck = build_deck(24)
    assert len(deck) == 24
    assert len(set(deck)) == 24
    assert names(deck) == {r + s for r in "9TJQKA" for s in "CDHS"}
    assert JOKER not in deck


def test_25_card_deck_adds_the_joker_only():
    deck = build_deck(25)
    assert len(deck) == 25
    assert names(deck) == {r + s for r in "9TJQKA" for s in "CDHS"} | {"JKR"}


def test_32_card_deck_is_seven_to_ace():
    deck = build_deck(32)
    assert len(deck) == len(set(deck)) == 32
    assert names(deck) == {r + s for r in "789TJQKA" for s in "CDHS"}
    assert JOKER not in deck


def test_33_card_deck_is_seven_to_ace_plus_joker():
    deck = build_deck(33)
    assert len(deck) == len(set(deck)) == 33
    assert names(deck) == {r + s for r in "789TJQKA" for s in "CDHS"} | {"JKR"}


@pytest.mark.parametrize("size", [0, 20, 23, 26, 30, 34, 52])
def test_no_other_deck_size(size):
    with pytest.raises(ValueError, match=str(size)):
        build_deck(size)


def test_make_card_refuses_a_rank_outside_the_deck():
    with pytest.raises(ValueError, match="6"):
        make_card(6, C)
    with pytest.raises(ValueError):
        make_card(15, C)


def test_printed_suit_and_rank():
    assert card_suit(parse_card("JH")) is H
    assert card_rank(parse_card("JH")) == 11
    assert card_rank(parse_card("AS")) == 14
    assert card_rank(parse_card("7C")) == 7
    assert card_suit(JOKER) is None
    assert card_rank(JOKER) is None


# --- colours -------------------------------------------------------------------------


def test_colours():
    assert [s.is_red for s in (C, D, H, S)] == [False, True, True, False]


def test_same_colour_suit():
    assert H.same_colour is D
    assert D.same_colour is H
    assert C.same_colour is S
    assert S.same_colour is C


# --- effective suit -------------------------------------------------------------------


def test_left_bower_follows_trump_not_its_printed_suit():
    # Trump hearts: the jack of diamonds is a heart for every purpose.
    assert effective_suit(parse_card("JD"), H) is H
    assert is_trump(parse_card("JD"), H)
    # The other jacks keep their suits.
    assert effective_suit(parse_card("JH"), H) is H
    assert effective_suit(parse_card("JC"), H) is C
    assert effective_suit(parse_card("JS"), H) is S
    # Other diamonds stay diamonds.
    assert effective_suit(parse_card("AD"), H) is D
    assert not is_trump(parse_card("AD"), H)


@pytest.mark.parametrize(("trump", "left"), [(C, "JS"), (S, "JC"), (D, "JH"), (H, "JD")])
def test_left_bower_of_each_trump(trump, left):
    jack = parse_card(left)
    printed = card_suit(jack)
    assert effective_suit(jack, trump) is trump
    # Under a trump of the other colour the same jack is a plain card of its suit.
    for other in Suit:
        if other.is_red != trump.is_red:
            assert effective_suit(jack, other) is printed
            assert not is_trump(jack, other)


@pytest.mark.parametrize("trump", list(Suit))
def test_joker_is_trump_in_every_hand(trump):
    assert effective_suit(JOKER, trump) is trump
    assert is_trump(JOKER, trump)


# --- card order under trump ----------------------------------------------------------

TRUMP_ORDER_HEARTS = "JKR JH JD AH KH QH TH 9H 8H 7H"


@pytest.mark.parametrize("i", range(9))
def test_trump_order_each_adjacent_pair(i):
    """Joker > right bower > left bower > A K Q 10 9 8 7, whichever is led."""
    order = cards(TRUMP_ORDER_HEARTS)
    higher, lower = order[i], order[i + 1]
    assert trick_winner_index([lower, higher], H) == 1
    assert trick_winner_index([higher, lower], H) == 0


def test_highest_trump_wins_among_four():
    assert trick_winner_index(cards("AH JD 9H KH"), H) == 1
    assert trick_winner_index(cards("AH JD JH KH"), H) == 2
    assert trick_winner_index(cards("AH JD JH JKR"), H) == 3


def test_lowest_trump_beats_ace_of_the_led_suit():
    assert trick_winner_index(cards("AC KC 9H QC"), H) == 2
    # The left bower trumps its own printed suit when that suit is led.
    assert trick_winner_index(cards("AD KD JD QD"), H) == 2


def test_without_trump_highest_of_the_led_suit_wins_and_off_suits_never_do():
    assert trick_winner_index(cards("9S AC AD TS"), H) == 3
    assert trick_winner_index(cards("QC AC KC JC"), H) == 1
    # Nothing follows spades: the led 9 wins over bigger off-suit cards.
    assert trick_winner_index(cards("9S AC AD KC"), H) == 0


def test_non_trump_order_with_jack_in_place():
    # Trump hearts, clubs led: A K Q J 10 9 8 7 of clubs.
    order = cards("AC KC QC JC TC 9C 8C 7C")
    for higher, lower in itertools.pairwise(order):
        assert trick_winner_index([lower, higher], H) == 1
        assert trick_winner_index([higher, lower], H) == 0


def test_same_colour_suit_has_no_jack():
    # Trump hearts, diamonds led: the jack of diamonds is not a diamond, it trumps.
    assert trick_winner_index(cards("9D JD"), H) == 1
    assert trick_winner_index(cards("TD 9D"), H) == 0
    assert trick_winner_index(cards("QD TD"), H) == 0


def test_left_bower_led_is_a_trump_lead():
    # JD led under hearts: the led suit is hearts, so a heart 9 does not "follow
    # diamonds" and the ace of diamonds is an off-suit card.
    assert trick_winner_index(cards("JD AD"), H) == 0
    assert trick_winner_index(cards("JD JH"), H) == 1
    assert trick_winner_index(cards("JD AH AD"), H) == 0


def test_joker_led_is_a_trump_lead():
    assert trick_winner_index(cards("JKR JS AS AC"), C) == 0


# --- names ---------------------------------------------------------------------------


def test_name_parse_round_trip_every_card():
    for c in build_deck(33):
        assert parse_card(card_name(c)) == c
    assert len(names(build_deck(33))) == 33


def test_names_and_labels():
    assert card_name(parse_card("JH")) == "JH"
    assert card_name(parse_card("10c")) == "TC"
    assert card_name(JOKER) == "JKR"
    assert card_label(parse_card("JH")) == "J♥"
    assert card_label(parse_card("TC")) == "10♣"
    assert card_label(JOKER) == "Joker"


@pytest.mark.parametrize(
    ("text", "name"),
    [("jh", "JH"), (" JH ", "JH"), ("10h", "TH"), ("th", "TH"), ("J♥", "JH"), ("A♠", "AS"),
     ("7d", "7D"), ("joker", "JKR"), ("Benny", "JKR"), ("jkr", "JKR")],
)
def test_parse_aliases(text, name):
    assert card_name(parse_card(text)) == name


@pytest.mark.parametrize("text", ["", "J", "1H", "JX", "ZZ", "11H", "6C", "JHH"])
def test_parse_refuses_and_names_the_text(text):
    with pytest.raises(ValueError) as err:
        parse_card(text)
    assert repr(text) in str(err.value)
