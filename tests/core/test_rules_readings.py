"""The rules read again (RULES.md sections 7 to 9, corrected from the seeds), each as a
worked hand; and a game played by the first reading still verifies by it."""

from __future__ import annotations

from random import Random

import pytest

from arena.core import actions as A
from arena.core.actions import ActionKind
from arena.core.cards import JOKER, parse_card
from arena.core.game import GameState
from arena.core.hand import HandState, Phase
from arena.core.rules import PRESETS, RULES_EDITION, FirstLead, RuleSet, WhoMayGoAlone
from arena.records import files as records
from arena.records.codec import gamelog_to_pb
from arena.records.gamelog import GameEnd, GameLog, Recorder, SeatBot
from arena.records.replay import verify

SIX_SEAT_PRESETS = ("six-player", "six-player-double", "almonte", "almonte-league")


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def joker_turned(rules: RuleSet, edition: int = RULES_EDITION) -> HandState:
    """Dealer 3; the joker turned up; seat 0 (left of the dealer) speaks first, seat 1
    (the dealer's partner) second."""
    hands = [cards("9C TC QC KC AC"), cards("JH JD AH KH QH"), cards("9D TD QD KD AD"),
             cards("9S TS QS KS AS")]
    return HandState(rules, 3, hands, [JOKER, *cards("TH 9H JC JS")], edition)


JOKER_BID_ALONE = RuleSet(deck=25, joker=True, turned_joker_bid=True,
                          dealer_partner_must_go_alone=True)


def test_a_turned_joker_bid_on_is_the_dealers_partners_alone():
    """Seed 000: "el socio del Distribuidor no puede hacer triunfos y jugar con un socio",
    without exception, so also on a turned joker bid on (RULES.md section 7)."""
    hand = joker_turned(JOKER_BID_ALONE)
    hand.apply(A.PASS)  # seat 0, an opponent of the dealer
    assert hand.turn == 1
    assert hand.legal_actions() == [A.PASS, *A.NAME_TRUMP_ALONE]
    hearts = next(a for a in A.NAME_TRUMP_ALONE if a.suit == parse_card("JH") >> 3)
    hand.apply(hearts)
    # The dealer sits out and does not take the joker: play begins at once.
    assert hand.alone == [1] and hand.sitting_out[3]
    assert not hand.dealer_took_upcard and JOKER not in hand.hands[3]
    assert hand.phase is Phase.PLAY


def test_the_first_reading_let_the_dealers_partner_bid_the_joker_with_a_partner():
    hand = joker_turned(JOKER_BID_ALONE, edition=1)
    hand.apply(A.PASS)
    assert A.NAME_TRUMP[2] in hand.legal_actions()  # hearts, with the dealer as partner


def test_an_opponent_still_bids_the_joker_with_a_partner():
    hand = joker_turned(JOKER_BID_ALONE)
    assert A.NAME_TRUMP[0] in hand.legal_actions() and A.PASS in hand.legal_actions()


@pytest.mark.parametrize("name", SIX_SEAT_PRESETS)
def test_the_six_seat_presets_send_either_teammate_of_the_dealer_alone(name):
    """Seed 000 describes Cornwall's game and its six-player form, which bids as the
    British game: a teammate of the dealer (either of the two) who orders up goes alone
    (RULES.md section 9)."""
    rules = PRESETS[name]
    assert rules.dealer_partner_must_go_alone
    n = rules.cards_per_hand
    pool = [c for c in range(32) if c != parse_card("AS")]  # any cards, the ace of spades up
    hands = [pool[seat * n:(seat + 1) * n] for seat in range(6)]
    hand = HandState(rules, 5, hands, [parse_card("AS")])
    seen = {}
    while hand.phase is Phase.BID_ROUND_1:
        seen[hand.turn] = hand.legal_actions()
        hand.apply(A.PASS)
    for seat in (1, 3):  # the dealer's (5) teammates
        assert A.ORDER_UP not in seen[seat] and A.ORDER_UP_ALONE in seen[seat], seat
    for seat in (0, 2, 4):  # its opponents
        assert A.ORDER_UP in seen[seat], seat


RAILROAD = RuleSet(who_may_go_alone=WhoMayGoAlone.ANY_PLAYER, railroading=True,
                   first_lead=FirstLead.LEFT_OF_DEALER)


def railroaded(edition: int = RULES_EDITION) -> HandState:
    """Seat 0 orders up and goes alone; seat 2, its partner, is asked for a card."""
    hands = [cards("JH JD AH KH 9C"), cards("9D TD QD KD AD"), cards("TC QC KC AC QH"),
             cards("9S TS QS KS AS")]
    hand = HandState(RAILROAD, 3, hands, cards("TH 9H JC JS"), edition)
    hand.apply(A.ORDER_UP)  # seat 0
    assert hand.phase is Phase.GOING_ALONE and hand.turn == 0
    hand.apply(A.GO_ALONE)
    while hand.phase is Phase.GOING_ALONE:
        hand.apply(A.PASS)
    assert hand.phase is Phase.PARTNER_GIVES and hand.turn == 2
    return hand


def test_railroading_lets_the_partner_pass_no_card():
    """Seed 000: "puedes pasarle una carta (tu mejor carta)": the partner MAY pass one
    card face down (RULES.md section 9)."""
    hand = railroaded()
    legal = hand.legal_actions()
    assert legal[0] == A.PASS
    assert {a.kind for a in legal[1:]} == {ActionKind.PASS_CARD}
    hand.apply(A.PASS)
    # No card, so nothing for the loner to take or set aside: on to the dealer's pickup.
    assert hand.gave[2] is None and hand.set_aside_unseen == []
    assert hand.phase is Phase.DEALER_DISCARD and hand.turn == 3
    assert len(hand.hands[0]) == 5


def test_railroading_passing_a_card_is_as_before():
    hand = railroaded()
    hand.apply(A.PASS_CARD[parse_card("AC")][0])
    assert hand.phase is Phase.LONER_EXCHANGES and hand.turn == 0


def test_the_first_reading_made_the_partner_pass_a_card():
    assert A.PASS not in railroaded(edition=1).legal_actions()


def _first_reading_game() -> GameLog:
    """A game of the first reading in which the dealer's partner bids a turned joker with
    a partner, recorded as records were written then (without rules_edition)."""
    rules = JOKER_BID_ALONE
    for seed in range(2000):
        game = GameState(rules, seed, 0, edition=1)
        rng = Random(seed)
        log = GameLog(game_id=f"old-{seed}", rules=rules, seed=seed, first_dealer=0,
                      seats=tuple(SeatBot(s, "r", "1") for s in range(4)), rules_edition=1)
        recorder = Recorder(game, log)
        bid_with_partner = False
        while not game.over:
            hand, legal = game.hand, game.legal_actions()
            mate = (hand.dealer + 2) % 4
            with_partner = [a for a in legal if a.kind is ActionKind.NAME_TRUMP and not a.alone]
            if hand.phase is Phase.BID_ROUND_1 and hand.turn == mate and with_partner:
                action, bid_with_partner = with_partner[0], True
            else:
                action = rng.choice(legal)
            recorder.apply(game.apply, action, game.turn, think_us=1)
        if bid_with_partner:
            recorder.finish(GameEnd.COMPLETED, game.winner)
            msg = gamelog_to_pb(log)
            msg.ClearField("rules_edition")  # as a record of the first reading has it
            return records.decode(msg.SerializeToString())
    raise AssertionError("no deal turned the joker to a bid of the dealer's partner")


def test_a_game_of_the_first_reading_verifies_by_it_and_not_by_todays():
    log = _first_reading_game()
    assert log.rules_edition == 1
    assert verify(log) is None
    log.rules_edition = RULES_EDITION
    problem = verify(log)
    assert problem is not None and "partner must go alone" in problem, problem


def test_a_replay_says_which_reading_an_old_game_was_played_by():
    from rich.console import Console

    from arena.views.replay_text import show_game

    console = Console(record=True, width=200)
    show_game(_first_reading_game(), console=console)
    assert "edition 1 of the rules' reading" in console.export_text()
