"""One hand as a state machine (RULES.md sections 3, 4 and 5, and the options that change
them), on hands dealt by hand. Seats 0..3 clockwise, team = seat % 2; every deal below
has dealer 0, so the bidding order is 1, 2, 3, 0."""

from __future__ import annotations

import pytest

from arena.core import actions as A
from arena.core.actions import Action, ActionKind
from arena.core.cards import JOKER, Suit, build_deck, card_name, parse_card
from arena.core.errors import IllegalActionError
from arena.core.hand import HandState, Phase
from arena.core.rules import FirstLead, LoneDefender, RuleSet, WhoMayGoAlone, preset
from arena.core.scoring import Outcome, Score
from arena.core.view import hand_view

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES
STANDARD = preset("standard")
ANY = RuleSet(who_may_go_alone=WhoMayGoAlone.ANY_PLAYER)
WITH_JOKER = RuleSet(deck=25, joker=True)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def deal(rules: RuleSet, seat_hands: tuple[str, str, str, str], kitty: str) -> HandState:
    """A hand with dealer 0 from cards chosen by hand (checked to be exactly the deck)."""
    hands = [cards(h) for h in seat_hands]
    kit = cards(kitty)
    assert sorted([c for hand in hands for c in hand] + kit) == sorted(build_deck(rules.deck))
    return HandState(rules, 0, hands, kit)


def names(cs) -> list[str]:
    return sorted(card_name(c) for c in cs)


def holder(h: HandState, name: str) -> int:
    card = parse_card(name)
    return next(s for s in range(4) if card in h.hands[s])


def play_cards(h: HandState, text: str) -> None:
    """Plays the cards in order, each by the seat holding it (which must be the seat to act)."""
    for name in text.split():
        h.apply(A.play(parse_card(name)), seat=holder(h, name))


def passes(h: HandState, n: int) -> None:
    for _ in range(n):
        h.apply(A.PASS)


def legal_names(h: HandState) -> list[str]:
    return [str(a) for a in h.legal_actions()]


# D1: upcard TH.
D1 = ("9C TC QD KD AS", "JH AH KH 9S TS", "JD QH 9D TD QS", "AC KC QC JC KS")
D1_KITTY = "TH 9H JS AD"

# D2: seat 2's only trump (hearts) is the left bower; seat 2 holds no diamond.
D2 = ("KH QH JH QD AS", "TD AH 9C 9S TS", "JD AC KC QS KS", "AD KD QC JC 9D")
D2_KITTY = "TH 9H JS TC"

# D3: seat 2 holds the left bower of hearts and other diamonds.
D3 = ("KH QH JH QD AS", "TD AH 9C 9S TS", "JD AD KD QS KS", "AC KC QC JC 9D")
D3_KITTY = "TH 9H JS TC"


def hearts_ordered_by_seat_1(seat_hands, kitty, rules=STANDARD, discard="AS") -> HandState:
    h = deal(rules, seat_hands, kitty)
    h.apply(A.order_up(), seat=1)
    h.apply(A.discard(parse_card(discard)), seat=0)
    assert h.phase is Phase.PLAY and h.turn == 1
    return h


# --- dealing --------------------------------------------------------------------------


def test_deal_gives_five_each_from_the_dealers_left_and_turns_the_kitty_top():
    deck = build_deck(24)
    h = HandState.deal(STANDARD, 2, deck)
    assert h.hands[3] == list(deck[0:5])
    assert h.hands[0] == list(deck[5:10])
    assert h.hands[1] == list(deck[10:15])
    assert h.hands[2] == list(deck[15:20])
    assert h.kitty == tuple(deck[20:])
    assert h.upcard == deck[20]
    assert (h.phase, h.turn) == (Phase.BID_ROUND_1, 3)


def test_32_card_deck_leaves_a_kitty_of_12():
    rules = RuleSet(deck=32)
    deck = build_deck(32)
    h = HandState.deal(rules, 0, deck)
    assert [len(x) for x in h.hands] == [5, 5, 5, 5]
    assert len(h.kitty) == 12
    assert h.upcard == deck[20]
    assert sorted([c for hand in h.hands for c in hand] + list(h.kitty)) == sorted(deck)


def test_32_card_hand_plays_sevens_and_eights():
    rules = RuleSet(deck=32)
    h = deal(
        rules,
        ("7H 8D AS KS QS", "8H AC 7D 8C 9D", "9H KC 7S 8S 9S", "TH QC 7C 9C TC"),
        "JH JD AH KH QH JC JS TS AD KD QD TD",
    )
    assert len(h.kitty) == 12 and h.upcard == parse_card("JH")
    h.apply(A.order_up(), seat=1)  # hearts
    h.apply(A.discard(parse_card("AS")), seat=0)
    assert names(h.hands[0]) == names(cards("7H 8D KS QS JH"))
    play_cards(h, "AC KC 7C")
    assert "play 7H" in legal_names(h)  # the dealer has no club
    play_cards(h, "7H")
    play_cards(h, "KS 8C 7S 9C")
    play_cards(h, "8D")
    assert sorted(legal_names(h)) == ["play 7D", "play 9D"]
    play_cards(h, "7D 8S TC")
    play_cards(h, "JH 8H 9H TH")
    play_cards(h, "QS 9D 9S QC")
    # The 7 of trump beat the ace of clubs; the 8 of diamonds beat the 7.
    assert [t.winner for t in h.tricks] == [0, 0, 0, 0, 0]
    assert h.result is not None
    assert h.result.score == Score(Outcome.EUCHRED, 0, 2)
    assert h.result.tricks_won == (5, 0)


def test_every_card_of_a_32_card_hand_is_conserved_through_play():
    rules = RuleSet(deck=32)
    h = HandState.deal(rules, 1, build_deck(32))
    while not h.over:
        h.apply(h.legal_actions()[0])
    played = [c for t in h.tricks for _, c in t.plays]
    in_kitty = [c for c in h.kitty if not (h.dealer_took_upcard and c == h.upcard)]
    assert sorted(played + in_kitty + ([h.discarded] if h.discarded is not None else [])) == \
        sorted(build_deck(32))
    assert len(h.tricks) == 5


# --- round 1 ------------------------------------------------------------------------


def test_round_1_first_seat_orders_up_and_dealer_adds_the_upcard():
    h = deal(STANDARD, D1, D1_KITTY)
    assert (h.phase, h.turn) == (Phase.BID_ROUND_1, 1)
    assert legal_names(h) == ["pass", "order up", "order up alone"]
    h.apply(A.order_up(), seat=1)
    assert h.trump == H and h.maker == 1 and h.makers_team == 1
    assert (h.phase, h.turn) == (Phase.DEALER_DISCARD, 0)
    assert h.dealer_took_upcard
    assert names(h.hands[0]) == names(cards("9C TC QD KD AS TH"))
    assert sorted(legal_names(h)) == sorted(
        f"discard {n}" for n in ("9C", "TC", "QD", "KD", "AS", "TH")
    )
    h.apply(A.discard(parse_card("9C")), seat=0)
    assert names(h.hands[0]) == names(cards("TC QD KD AS TH"))
    assert h.discarded == parse_card("9C")
    assert (h.phase, h.turn) == (Phase.PLAY, 1)
    assert h.kitty == tuple(cards(D1_KITTY))


def test_dealer_picks_it_up_after_three_passes_and_may_discard_the_upcard():
    h = deal(STANDARD, D1, D1_KITTY)
    passes(h, 3)
    assert h.turn == 0
    assert legal_names(h) == ["pass", "order up", "order up alone"]
    h.apply(A.order_up(), seat=0)
    assert (h.maker, h.trump, h.phase) == (0, H, Phase.DEALER_DISCARD)
    h.apply(A.discard(parse_card("TH")), seat=0)
    assert names(h.hands[0]) == names(cards(D1[0]))
    assert h.discarded == parse_card("TH")


def test_the_discard_is_seen_by_the_dealer_only():
    h = hearts_ordered_by_seat_1(D1, D1_KITTY, discard="9C")
    nine = parse_card("9C")
    assert hand_view(h, 0).discard == nine
    for seat in (1, 2, 3):
        v = hand_view(h, seat)
        assert v.discard is None
        assert nine not in v.visible_cards()
        assert all(a.kind is not ActionKind.DISCARD for _, a in v.auction)


# --- round 2 and stick the dealer ---------------------------------------------------


def test_round_2_cannot_name_the_turned_down_suit():
    h = deal(STANDARD, D1, D1_KITTY)
    passes(h, 4)
    assert (h.phase, h.turn) == (Phase.BID_ROUND_2, 1)
    assert legal_names(h) == [
        "pass", "name clubs", "name clubs alone", "name diamonds", "name diamonds alone",
        "name spades", "name spades alone",
    ]
    with pytest.raises(IllegalActionError, match="turned-down suit"):
        h.apply(A.name_trump(H))
    with pytest.raises(IllegalActionError, match="turned-down suit"):
        h.apply(A.name_trump(H, alone=True))
    h.apply(A.name_trump(S), seat=1)
    assert (h.trump, h.maker, h.phase, h.turn) == (S, 1, Phase.PLAY, 1)
    # Nobody took the upcard: the dealer keeps five cards and there is no discard.
    assert not h.dealer_took_upcard and h.discarded is None
    assert names(h.hands[0]) == names(cards(D1[0]))


def test_stick_the_dealer_on_the_dealer_cannot_pass_in_round_2():
    h = deal(STANDARD, D1, D1_KITTY)
    passes(h, 7)
    assert (h.phase, h.turn) == (Phase.BID_ROUND_2, 0)
    assert legal_names(h) == [
        "name clubs", "name clubs alone", "name diamonds", "name diamonds alone",
        "name spades", "name spades alone",
    ]
    with pytest.raises(IllegalActionError, match="pass is not allowed"):
        h.apply(A.PASS)
    h.apply(A.name_trump(D), seat=0)
    assert (h.maker, h.trump) == (0, D)


def test_stick_the_dealer_off_eight_passes_throw_the_hand_in():
    h = deal(RuleSet(stick_the_dealer=False), D1, D1_KITTY)
    passes(h, 7)
    assert legal_names(h)[0] == "pass"
    h.apply(A.PASS, seat=0)
    assert h.over and h.phase is Phase.HAND_OVER
    r = h.result
    assert r is not None
    assert r.score == Score(Outcome.THROWN_IN, None, 0)
    assert (r.trump, r.maker, r.alone, r.tricks_won) == (None, None, (), (0, 0))
    assert h.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the hand is over"):
        h.apply(A.PASS)


# --- following suit, the left bower --------------------------------------------------


def test_holding_only_the_left_bower_you_must_play_it_when_trump_is_led():
    h = hearts_ordered_by_seat_1(D2, D2_KITTY)
    play_cards(h, "AH")
    assert legal_names(h) == ["play JD"]
    with pytest.raises(IllegalActionError, match="must follow hearts"):
        h.apply(A.play(parse_card("AC")), seat=2)
    play_cards(h, "JD")
    # Seat 3 has no trump (its 9D and JC are no hearts under hearts): anything goes.
    assert sorted(legal_names(h)) == sorted(f"play {n}" for n in D2[3].split())
    play_cards(h, "9D")
    # The dealer holds KH QH JH TH: it must follow, not throw the QD.
    assert sorted(legal_names(h)) == ["play JH", "play KH", "play QH", "play TH"]
    play_cards(h, "TH")
    assert h.tricks[-1].winner == 2  # the left bower beats the ace
    play_cards(h, "AC")  # seat 2 leads again
    assert h.turn == 3


def test_the_left_bower_does_not_follow_its_printed_suit():
    h = hearts_ordered_by_seat_1(D3, D3_KITTY)
    play_cards(h, "TD")
    # Seat 2 holds JD AD KD: only the real diamonds follow diamonds.
    assert sorted(legal_names(h)) == ["play AD", "play KD"]
    with pytest.raises(IllegalActionError, match="must follow diamonds"):
        h.apply(A.play(parse_card("JD")), seat=2)
    play_cards(h, "KD 9D QD")
    assert h.tricks[0].winner == 2


def test_left_bower_is_free_to_trump_a_lead_of_its_printed_suit():
    h = hearts_ordered_by_seat_1(D2, D2_KITTY)
    play_cards(h, "TD")
    # Seat 2 holds no diamond (JD is a heart): every card is legal.
    assert sorted(legal_names(h)) == sorted(f"play {n}" for n in D2[2].split())
    play_cards(h, "JD AD QD")
    assert h.tricks[0].winner == 2  # trumped with the left bower
    assert h.tricks_won == [1, 0]


def test_a_card_you_lack_is_illegal_and_named():
    h = hearts_ordered_by_seat_1(D1, D1_KITTY)
    with pytest.raises(IllegalActionError) as err:
        h.apply(A.play(parse_card("AS")))  # the dealer's card, seat 1 to act
    assert "does not hold AS" in str(err.value)
    assert err.value.action is A.play(parse_card("AS"))


def test_not_following_suit_is_illegal():
    h = hearts_ordered_by_seat_1(D3, D3_KITTY)
    play_cards(h, "9C QS")
    with pytest.raises(IllegalActionError, match="must follow clubs"):
        h.apply(A.play(parse_card("9D")), seat=3)
    assert sorted(legal_names(h)) == ["play AC", "play JC", "play KC", "play QC"]


# --- wrong phase, wrong seat, the error's message -----------------------------------


@pytest.mark.parametrize(
    ("action", "kind"),
    [(A.play(parse_card("JH")), "play"), (A.discard(parse_card("JH")), "discard"),
     (A.GO_ALONE, "go_alone"), (A.name_trump(C), "name_trump")],
)
def test_wrong_phase_is_illegal_in_round_1(action, kind):
    h = deal(STANDARD, D1, D1_KITTY)
    with pytest.raises(IllegalActionError) as err:
        h.apply(action)
    msg = str(err.value)
    assert msg.startswith(f"illegal action {action} in bid_round_1, dealer 0, seat 1 to act")
    assert f"{kind} is not allowed now (allowed: order_up, pass)" in msg
    # Nothing changed.
    assert (h.phase, h.turn, h.history) == (Phase.BID_ROUND_1, 1, [])


def test_bidding_actions_are_illegal_in_play_and_discard_phases():
    h = deal(STANDARD, D1, D1_KITTY)
    h.apply(A.order_up())
    for action in (A.PASS, A.order_up(), A.play(parse_card("AS"))):
        with pytest.raises(IllegalActionError, match="dealer_discard"):
            h.apply(action)
    h.apply(A.discard(parse_card("9C")))
    for action in (A.PASS, A.order_up(), A.name_trump(S), A.discard(parse_card("JH"))):
        with pytest.raises(IllegalActionError, match=r"in play, dealer 0, seat 1 to act"):
            h.apply(action)


def test_error_carries_action_state_and_reason():
    h = deal(STANDARD, D1, D1_KITTY)
    with pytest.raises(IllegalActionError) as err:
        h.apply(A.GO_ALONE)
    e = err.value
    assert e.action is A.GO_ALONE
    assert e.state.startswith("bid_round_1")
    assert "go_alone" in e.reason
    assert str(e) == f"illegal action go alone in {e.state}: {e.reason}"


def test_acting_out_of_turn_is_illegal_and_does_not_show_the_actors_cards():
    h = deal(STANDARD, D1, D1_KITTY)
    with pytest.raises(IllegalActionError) as err:
        h.apply(A.order_up(), seat=2)
    msg = str(err.value)
    assert "it is seat 1's turn, not seat 2's" in msg
    # The message may reach seat 2's bot: seat 1's cards must not be in it.
    for name in D1[1].split():
        assert name not in msg
    assert h.history == []


def test_the_seat_to_act_sees_its_own_hand_in_the_message():
    h = deal(STANDARD, D1, D1_KITTY)
    with pytest.raises(IllegalActionError) as err:
        h.apply(A.play(parse_card("JH")), seat=1)
    assert "hand [JH AH KH 9S TS]" in str(err.value)


def test_malformed_actions_are_refused_when_made():
    with pytest.raises(ValueError):
        Action(ActionKind.PLAY, card=True)
    with pytest.raises(ValueError):
        Action(ActionKind.PLAY, card=1.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Action(ActionKind.PLAY, card=66)  # one past the double pack's second joker
    with pytest.raises(ValueError):
        Action(ActionKind.NAME_TRUMP)
    with pytest.raises(ValueError):
        Action(ActionKind.PASS, alone=True)
    assert Action(ActionKind.PLAY, card=1) is A.play(1)
    assert Action(ActionKind.NAME_TRUMP, suit=2, alone=True) is A.name_trump(H, alone=True)


# --- going alone: the lone dealer's partner -----------------------------------------


def test_dealer_sits_out_and_does_not_take_the_upcard_when_partner_goes_alone():
    h = deal(STANDARD, D1, D1_KITTY)
    h.apply(A.PASS, seat=1)
    h.apply(A.order_up(alone=True), seat=2)
    assert h.alone == [2] and h.sitting_out == [True, False, False, False]
    assert (h.phase, h.turn) == (Phase.PLAY, 1)  # no discard phase
    assert not h.dealer_took_upcard and h.discarded is None
    assert names(h.hands[0]) == names(cards(D1[0]))
    assert h.upcard == parse_card("TH") and parse_card("TH") in h.kitty
    play_cards(h, "JH QH AC")  # three players; the dealer is skipped
    assert len(h.tricks) == 1
    assert [s for s, _ in h.tricks[0].plays] == [1, 2, 3]
    assert h.tricks[0].winner == 1


def test_any_player_alone_the_dealer_sits_out_if_its_partner_goes_alone_later():
    h = deal(ANY, D1, D1_KITTY)
    h.apply(A.PASS, seat=1)
    h.apply(A.order_up(), seat=2)
    assert (h.phase, h.turn) == (Phase.GOING_ALONE, 2)
    h.apply(A.GO_ALONE, seat=2)
    assert (h.phase, h.turn) == (Phase.PLAY, 1)
    assert not h.dealer_took_upcard and names(h.hands[0]) == names(cards(D1[0]))


# --- the joker as the upcard ---------------------------------------------------------

D5 = ("9C TC QD KD AS", "JH AH KH 9S TS", "JD QH 9D TD QS", "AC KC QC JC KS")
D5_KITTY = "JKR TH 9H JS AD"


def test_joker_upcard_dealer_names_trump_blind_then_takes_it_and_discards():
    h = deal(WITH_JOKER, D5, D5_KITTY)
    assert h.upcard == JOKER
    assert (h.phase, h.turn) == (Phase.DEALER_NAMES_TRUMP, 0)
    assert legal_names(h) == [
        "name clubs", "name clubs alone", "name diamonds", "name diamonds alone",
        "name hearts", "name hearts alone", "name spades", "name spades alone",
    ]
    with pytest.raises(IllegalActionError) as err:
        h.apply(A.PASS)
    # Not even an error message shows the dealer the cards it has not looked at.
    assert "hand [" not in str(err.value)
    assert not any(name in str(err.value) for name in D5[0].split())
    # The dealer has not looked: its own cards are hidden in its view; others see theirs.
    assert hand_view(h, 0).hand == ()
    assert hand_view(h, 0).visible_cards() == {JOKER}
    assert names(hand_view(h, 1).hand) == names(cards(D5[1]))
    h.apply(A.name_trump(S), seat=0)
    assert (h.maker, h.makers_team, h.trump) == (0, 0, S)
    assert (h.phase, h.turn) == (Phase.DEALER_DISCARD, 0)
    assert JOKER in h.hands[0] and h.dealer_took_upcard
    assert JOKER in hand_view(h, 0).hand
    h.apply(A.discard(parse_card("9C")), seat=0)
    assert (h.phase, h.turn) == (Phase.PLAY, 1)
    # The joker is the highest trump; the left bower (JC) must follow spades.
    play_cards(h, "9S QS")
    assert sorted(legal_names(h)) == ["play JC", "play KS"]
    play_cards(h, "JC")
    assert sorted(legal_names(h)) == ["play AS", "play JKR"]
    play_cards(h, "JKR")
    assert h.tricks[0].winner == 0


def test_joker_upcard_any_player_alone_names_without_alone_then_asks():
    h = deal(preset("british"), D5, D5_KITTY)
    assert legal_names(h) == ["name clubs", "name diamonds", "name hearts", "name spades"]
    h.apply(A.name_trump(H), seat=0)
    turns = []
    while h.phase is Phase.GOING_ALONE:
        turns.append(h.turn)
        h.apply(A.PASS)
    assert turns == [0, 2, 1, 3]  # maker, maker's partner, defenders from dealer's left
    assert h.phase is Phase.DEALER_DISCARD and JOKER in h.hands[0]


def test_joker_led_must_be_followed_with_trump():
    h = deal(WITH_JOKER, D5, D5_KITTY)
    h.apply(A.name_trump(H), seat=0)
    h.apply(A.discard(parse_card("9C")), seat=0)
    play_cards(h, "9S")  # seat 1 leads a spade, nobody else wins with it
    play_cards(h, "QS KS")
    assert sorted(legal_names(h)) == ["play AS"]  # the dealer must follow spades
    play_cards(h, "AS")
    assert h.tricks[0].winner == 0
    play_cards(h, "JKR")
    # Seat 1 holds JH AH KH: must follow the joker's suit, which is trump.
    assert sorted(legal_names(h)) == ["play AH", "play JH", "play KH"]


# --- who may go alone -----------------------------------------------------------------


def alone_round_turns(h: HandState) -> list[int]:
    turns = []
    while h.phase is Phase.GOING_ALONE:
        assert legal_names(h) == ["pass", "go alone"]
        turns.append(h.turn)
        h.apply(A.PASS)
    return turns


def test_maker_only_the_alone_flag_comes_with_the_call_and_no_alone_round():
    h = deal(STANDARD, D1, D1_KITTY)
    h.apply(A.order_up(), seat=1)
    assert h.phase is Phase.DEALER_DISCARD and h.alone == []
    h2 = deal(STANDARD, D1, D1_KITTY)
    h2.apply(A.order_up(alone=True), seat=1)
    assert h2.alone == [1] and h2.sitting_out == [False, False, False, True]
    assert h2.phase is Phase.DEALER_DISCARD
    with pytest.raises(IllegalActionError):
        h2.apply(A.GO_ALONE)


def test_maker_only_round_2_name_alone():
    h = deal(STANDARD, D1, D1_KITTY)
    passes(h, 5)
    h.apply(A.name_trump(C, alone=True), seat=2)
    assert (h.maker, h.trump, h.alone) == (2, C, [2])
    assert h.sitting_out == [True, False, False, False]
    assert (h.phase, h.turn) == (Phase.PLAY, 1)


def test_any_player_calls_carry_no_alone_flag():
    h = deal(ANY, D1, D1_KITTY)
    assert legal_names(h) == ["pass", "order up"]
    with pytest.raises(IllegalActionError, match="may not go alone"):
        h.apply(A.order_up(alone=True))
    passes(h, 4)
    assert legal_names(h) == ["pass", "name clubs", "name diamonds", "name spades"]
    with pytest.raises(IllegalActionError, match="may not go alone"):
        h.apply(A.name_trump(C, alone=True))


def test_any_player_alone_round_asks_maker_then_partner():
    h = deal(ANY, D1, D1_KITTY)
    h.apply(A.PASS, seat=1)
    h.apply(A.order_up(), seat=2)
    assert alone_round_turns(h) == [2, 0]  # no lone defenders in this rule set
    assert h.phase is Phase.DEALER_DISCARD and h.alone == []


def test_any_player_with_lone_defenders_asks_maker_partner_then_defenders():
    rules = ANY.with_options(lone_defender=LoneDefender.ALLOWED)
    h = deal(rules, D1, D1_KITTY)
    h.apply(A.PASS, seat=1)
    h.apply(A.order_up(), seat=2)
    assert alone_round_turns(h) == [2, 0, 1, 3]


def test_any_player_the_makers_partner_may_go_alone():
    h = deal(ANY, D1, D1_KITTY)
    h.apply(A.order_up(), seat=1)  # maker 1, partner 3
    assert h.turn == 1
    h.apply(A.PASS, seat=1)
    h.apply(A.GO_ALONE, seat=3)
    assert h.alone == [3] and h.sitting_out == [False, True, False, False]
    assert h.maker == 1
    assert h.phase is Phase.DEALER_DISCARD  # the dealer (a defender) still picks up
    h.apply(A.discard(parse_card("9C")))
    assert h.turn == 2  # left of the dealer, skipping seat 1 who sits out


# --- lone defender ----------------------------------------------------------------------


def test_lone_defender_not_allowed_no_question_after_a_lone_call():
    h = deal(STANDARD, D1, D1_KITTY)
    h.apply(A.order_up(alone=True), seat=1)
    assert h.phase is Phase.DEALER_DISCARD


def test_lone_defender_allowed_is_asked_after_a_plain_call():
    h = deal(RuleSet(lone_defender=LoneDefender.ALLOWED), D1, D1_KITTY)
    h.apply(A.order_up(), seat=1)
    assert (h.phase, h.turn) == (Phase.GOING_ALONE, 2)
    assert legal_names(h) == ["pass", "go alone"]
    h.apply(A.GO_ALONE, seat=2)
    # Seat 2's partner is the dealer: the dealer sits out and does not pick up.
    assert h.alone == [2] and h.sitting_out == [True, False, False, False]
    assert (h.phase, h.turn) == (Phase.PLAY, 1)
    assert not h.dealer_took_upcard


def test_lone_defender_allowed_both_defenders_asked_in_order():
    h = deal(RuleSet(lone_defender=LoneDefender.ALLOWED), D1, D1_KITTY)
    h.apply(A.order_up(), seat=1)
    assert alone_round_turns(h) == [2, 0]
    assert h.phase is Phase.DEALER_DISCARD


def test_lone_defender_against_lone_maker_only():
    rules = RuleSet(lone_defender=LoneDefender.AGAINST_LONE_MAKER)
    h = deal(rules, D1, D1_KITTY)
    h.apply(A.order_up(), seat=1)
    assert h.phase is Phase.DEALER_DISCARD  # maker not alone: nobody asked
    h = deal(rules, D1, D1_KITTY)
    h.apply(A.order_up(alone=True), seat=1)
    assert (h.phase, h.turn) == (Phase.GOING_ALONE, 2)
    h.apply(A.PASS)
    h.apply(A.GO_ALONE, seat=0)
    assert h.alone == [1, 0]
    assert h.phase is Phase.DEALER_DISCARD


def test_lone_defender_against_lone_maker_with_any_player_alone():
    rules = ANY.with_options(lone_defender=LoneDefender.AGAINST_LONE_MAKER)
    h = deal(rules, D1, D1_KITTY)
    h.apply(A.order_up(), seat=1)
    assert alone_round_turns(h) == [1, 3]  # makers declined: no defender asked
    h = deal(rules, D1, D1_KITTY)
    h.apply(A.order_up(), seat=1)
    h.apply(A.GO_ALONE, seat=1)
    assert alone_round_turns(h) == [2, 0]


# --- first lead with players alone ------------------------------------------------------


@pytest.mark.parametrize(
    ("first_lead", "lone", "leader"),
    [
        (FirstLead.LEFT_OF_DEALER, 1, 1),
        (FirstLead.LEFT_OF_DEALER, 3, 2),  # seat 1 sits out: next active
        (FirstLead.LEFT_OF_LONE_PLAYER, 1, 2),
        (FirstLead.LEFT_OF_LONE_PLAYER, 3, 0),
    ],
)
def test_first_lead_with_one_player_alone(first_lead, lone, leader):
    h = deal(RuleSet(first_lead=first_lead), D1, D1_KITTY)
    passes(h, lone - 1)
    h.apply(A.order_up(alone=True), seat=lone)
    h.apply(A.discard(parse_card("9C")), seat=0)
    assert (h.phase, h.turn, h.trick_leader) == (Phase.PLAY, leader, leader)


@pytest.mark.parametrize(
    ("first_lead", "leader"),
    [(FirstLead.LEFT_OF_DEALER, 1), (FirstLead.LEFT_OF_LONE_PLAYER, 0)],
)
def test_first_lead_with_both_sides_alone(first_lead, leader):
    rules = RuleSet(first_lead=first_lead, lone_defender=LoneDefender.ALLOWED)
    h = deal(rules, D1, D1_KITTY)
    h.apply(A.order_up(alone=True), seat=1)
    h.apply(A.PASS, seat=2)
    h.apply(A.GO_ALONE, seat=0)  # the dealer defends alone
    assert h.alone == [1, 0] and h.sitting_out == [False, False, True, True]
    h.apply(A.discard(parse_card("9C")), seat=0)
    assert h.turn == leader
    # Two players: a trick has two cards.
    first = "JH" if leader == 1 else "AS"
    second = "TH" if leader == 1 else "9S"
    play_cards(h, f"{first} {second}")
    assert len(h.tricks) == 1 and len(h.tricks[0].plays) == 2


@pytest.mark.parametrize("first_lead", list(FirstLead))
def test_first_lead_nobody_alone_is_left_of_dealer(first_lead):
    h = hearts_ordered_by_seat_1(D1, D1_KITTY, rules=RuleSet(first_lead=first_lead))
    assert h.turn == 1


# --- dealer's partner must go alone, passed players, dealer needs trump -----------------


def test_dealer_partner_must_go_alone_has_only_order_up_alone():
    rules = RuleSet(dealer_partner_must_go_alone=True)
    h = deal(rules, D1, D1_KITTY)
    assert legal_names(h) == ["pass", "order up", "order up alone"]
    h.apply(A.PASS, seat=1)
    assert legal_names(h) == ["pass", "order up alone"]
    with pytest.raises(IllegalActionError) as err:
        h.apply(A.order_up(), seat=2)
    assert "partner" in str(err.value) and "alone" in str(err.value)
    h.apply(A.PASS, seat=2)
    assert legal_names(h) == ["pass", "order up", "order up alone"]
    h.apply(A.PASS, seat=3)
    assert legal_names(h) == ["pass", "order up", "order up alone"]  # the dealer
    h.apply(A.PASS, seat=0)
    h.apply(A.PASS, seat=1)
    # Round 2: the dealer's partner may name with or without going alone.
    assert "name clubs" in legal_names(h) and "name clubs alone" in legal_names(h)


def test_dealer_partner_must_go_alone_with_any_player_alone():
    h = deal(preset("british").with_options(deck=24, joker=False), D1, D1_KITTY)
    assert legal_names(h) == ["pass", "order up"]
    h.apply(A.PASS, seat=1)
    assert legal_names(h) == ["pass", "order up alone"]
    h.apply(A.order_up(alone=True), seat=2)
    assert h.alone == [2] and h.sitting_out[0]
    # Lone defenders allowed: defenders 1 then 3 are asked; nobody else.
    assert alone_round_turns(h) == [1, 3]
    assert h.phase is Phase.PLAY and not h.dealer_took_upcard


@pytest.mark.parametrize(("allowed", "turns"), [(True, [2, 0, 1, 3]), (False, [2, 0, 3])])
def test_passed_player_may_go_alone(allowed, turns):
    rules = ANY.with_options(
        lone_defender=LoneDefender.ALLOWED, passed_player_may_go_alone=allowed
    )
    h = deal(rules, D1, D1_KITTY)
    h.apply(A.PASS, seat=1)
    h.apply(A.order_up(), seat=2)
    assert h.passed_in_deciding_round == frozenset({1})
    assert alone_round_turns(h) == turns


def test_passed_player_only_counts_passes_of_the_deciding_round():
    rules = ANY.with_options(lone_defender=LoneDefender.ALLOWED, passed_player_may_go_alone=False)
    h = deal(rules, D1, D1_KITTY)
    passes(h, 4)  # everyone passed round 1
    h.apply(A.PASS, seat=1)
    h.apply(A.PASS, seat=2)
    h.apply(A.name_trump(C), seat=3)
    # Seats 1 and 2 passed in round 2; the dealer passed in round 1 only.
    assert alone_round_turns(h) == [3, 0]


D6 = ("JD 9C TC QD KD", "JH AH KH 9S TS", "AD QH 9D TD QS", "AC KC QC JC KS")
D6_KITTY = "TH 9H JS AS"


def test_dealer_needs_trump_left_bower_does_not_count():
    rules = RuleSet(dealer_needs_trump_to_pick_up=True)
    h = deal(rules, D6, D6_KITTY)
    # Seat 1 holds hearts, seat 2 and 3 may order up with or without: only the dealer is bound.
    passes(h, 1)
    assert legal_names(h) == ["pass", "order up", "order up alone"]
    passes(h, 1)
    assert legal_names(h) == ["pass", "order up", "order up alone"]  # seat 3: no hearts
    passes(h, 1)
    assert legal_names(h) == ["pass"]  # the dealer holds only the left bower
    with pytest.raises(IllegalActionError, match="only holding a card of the upcard's suit"):
        h.apply(A.order_up(), seat=0)


def test_dealer_needs_trump_a_nine_of_the_suit_is_enough():
    rules = RuleSet(dealer_needs_trump_to_pick_up=True)
    h = deal(rules, ("JD 9C TC QD 9H", *D6[1:]), "TH KD JS AS")
    passes(h, 3)
    assert legal_names(h) == ["pass", "order up", "order up alone"]


def test_dealer_needs_trump_the_joker_counts():
    rules = RuleSet(deck=25, joker=True, dealer_needs_trump_to_pick_up=True)
    h = deal(rules, ("JD 9C TC QD JKR", *D6[1:]), "TH 9H JS AS KD")
    passes(h, 3)
    assert legal_names(h) == ["pass", "order up", "order up alone"]


def test_dealer_needs_trump_off_the_dealer_may_pick_up_without_trump():
    h = deal(STANDARD, D6, D6_KITTY)
    passes(h, 3)
    assert legal_names(h) == ["pass", "order up", "order up alone"]
