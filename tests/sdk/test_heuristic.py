"""The heuristic sample bot (sample_bots/heuristic): its rules of thumb on crafted deals,
legality over many random-seeded games in every preset, and its strength against random.

Everything runs in-process: the hand and game state machines are driven directly and the
bot is asked through the same SeatView a process would get.

    .venv/bin/python tests/sdk/test_heuristic.py [games]   # prints the win rate vs random
"""

from __future__ import annotations

import random
import sys

import pytest

from arena.core import (
    PRESETS,
    GameState,
    HandState,
    Phase,
    RuleSet,
    hand_view,
    parse_card,
    seat_view,
)
from arena.core import actions as A
from arena.core.actions import Action, ActionKind
from arena.core.cards import JOKER, Suit, build_deck
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.heuristic.strategy import choose, propose

STANDARD = PRESETS["standard"]
BRITISH = PRESETS["british"]
CANADIAN = PRESETS["canadian"]
ANY_ALONE = STANDARD.with_options(who_may_go_alone="any_player")
DECK_32 = RuleSet(deck=32, name="piquet-32")
DECK_33 = BRITISH.with_options(deck=33, name="british-33")


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def deal(rules: RuleSet, dealer: int, upcard: str, **seat_cards: str) -> HandState:
    """A hand with chosen cards: seat_cards as s0="JH AH ..." (up to five), the upcard on
    the kitty; the remaining cards, in deck order (clubs, diamonds, hearts, spades, joker),
    fill the hands by seat and then the kitty."""
    fixed = {int(k[1:]): cards(v) for k, v in seat_cards.items()}
    up = parse_card(upcard)
    used = {up, *(c for hand in fixed.values() for c in hand)}
    rest = [c for c in build_deck(rules.deck) if c not in used]
    hands = []
    for seat in range(4):
        hand = fixed.get(seat, [])
        need = 5 - len(hand)
        hands.append([*hand, *rest[:need]])
        rest = rest[need:]
    return HandState(rules, dealer, hands, [up, *rest])


def apply(hand: HandState, *actions: Action) -> HandState:
    for a in actions:
        hand.apply(a, hand.turn)
    return hand


def decide(hand: HandState) -> Action:
    view = hand_view(hand, hand.turn)
    action = choose(view)
    assert action in view.legal_actions
    return action


def play(card: str) -> Action:
    return A.play(parse_card(card))


# --- bidding ------------------------------------------------------------------------


def test_orders_up_a_strong_hand_and_passes_a_weak_one():
    strong = deal(STANDARD, 0, "9H", s1="JH AH KH AS 9C")
    assert decide(strong) is A.ORDER_UP  # three likely tricks, not enough to go alone
    weak = deal(STANDARD, 0, "9H", s1="9C TD QS KS 9D")
    assert decide(weak) is A.PASS


def test_needs_less_when_the_partner_deals():
    borderline = "JH TH 9C KC AS"
    # Left of the dealer, ordering up hands an opponent a trump: pass.
    assert decide(deal(STANDARD, 0, "9H", s1=borderline)) is A.PASS
    # The dealer's partner: the upcard comes to our team: order it up.
    hand = apply(deal(STANDARD, 0, "9H", s2=borderline), A.PASS)
    assert hand.turn == 2
    assert decide(hand) is A.ORDER_UP


def test_dealer_discards_a_singleton_to_void_a_suit():
    hand = apply(deal(STANDARD, 0, "9H", s0="JH QH AS KS TC"), A.PASS, A.PASS, A.PASS)
    assert hand.turn == 0
    assert decide(hand) is A.ORDER_UP
    apply(hand, A.ORDER_UP)
    assert hand.phase is Phase.DEALER_DISCARD
    assert decide(hand) is A.discard(parse_card("TC"))


def test_dealer_keeps_a_singleton_ace_and_discards_the_lowest():
    hand = apply(deal(STANDARD, 0, "9H", s0="JH QH AS 9S AC"), A.PASS, A.PASS, A.PASS)
    apply(hand, A.ORDER_UP)
    assert decide(hand) is A.discard(parse_card("9S"))


@pytest.mark.parametrize(("upcard", "next_suit"), [("9H", Suit.DIAMONDS), ("9C", Suit.SPADES)])
def test_names_next_in_round_2(upcard, next_suit):
    # As strong in diamonds as in spades: the suit of the turned-down card's colour wins.
    hand = apply(deal(STANDARD, 0, upcard, s1="JD 9D JS 9S AC"), *[A.PASS] * 4)
    assert hand.phase is Phase.BID_ROUND_2 and hand.turn == 1
    assert decide(hand) is A.name_trump(next_suit)


def test_stuck_dealer_names_its_best_suit():
    hand = apply(deal(STANDARD, 0, "9H", s0="9C TC KC AD 9S"), *[A.PASS] * 7)
    assert hand.phase is Phase.BID_ROUND_2 and hand.turn == 0
    assert A.PASS not in hand.legal_actions()
    assert decide(hand) is A.name_trump(Suit.CLUBS)


def test_goes_alone_with_right_left_and_ace_of_trump_and_an_off_ace():
    lock = "JH JD AH AS 9C"
    assert decide(deal(STANDARD, 0, "9H", s1=lock)) is A.ORDER_UP_ALONE
    # When any player may go alone, the call carries nothing and the alone round asks.
    hand = deal(ANY_ALONE, 0, "9H", s1=lock)
    assert decide(hand) is A.ORDER_UP
    apply(hand, A.ORDER_UP)
    assert hand.phase is Phase.GOING_ALONE and hand.turn == 1
    assert decide(hand) is A.GO_ALONE


def test_going_alone_counts_the_joker():
    # Right, left and ace are not sure while the joker is out; the joker and both bowers are.
    hand = apply(deal(BRITISH, 0, "9H", s1="JH JD AH AS 9C"), A.ORDER_UP)
    assert hand.phase is Phase.GOING_ALONE and hand.turn == 1
    assert decide(hand) is A.PASS
    hand = apply(deal(BRITISH, 0, "9H", s1="JKR JH JD AS 9C"), A.ORDER_UP)
    assert decide(hand) is A.GO_ALONE


def test_every_going_alone_question_gets_a_legal_answer():
    # British: the maker, the partner and both defenders (lone defender allowed) are asked.
    hand = apply(deal(BRITISH, 1, "9S", s2="JS JC AS KS QS"), A.ORDER_UP)
    asked = []
    while hand.phase is Phase.GOING_ALONE:
        asked.append(hand.turn)
        apply(hand, decide(hand))
    # Five trumps with both bowers: the maker goes alone (so the partner is not asked);
    # the defenders, without a trump between them, do not.
    assert asked == [2, 3, 1]
    assert hand.alone == [2]


def test_canadian_dealers_partner_orders_up_only_alone():
    weak = apply(deal(CANADIAN, 0, "9H", s2="JH TH 9C KC AS"), A.PASS)
    assert hand_view(weak, 2).legal_actions == (A.PASS, A.ORDER_UP_ALONE)
    assert decide(weak) is A.PASS
    strong = apply(deal(CANADIAN, 0, "9H", s2="JH JD AH KH AS"), A.PASS)
    assert decide(strong) is A.ORDER_UP_ALONE


def test_turned_up_joker_dealer_names_without_looking():
    for rules in (BRITISH, STANDARD.with_options(deck=25, joker=True)):
        hand = deal(rules, 3, "JKR")
        assert hand.upcard == JOKER
        assert hand.phase is Phase.DEALER_NAMES_TRUMP
        view = hand_view(hand, 3)
        assert view.hand == ()
        action = choose(view)
        assert action in view.legal_actions
        assert action.kind is ActionKind.NAME_TRUMP and not action.alone
        apply(hand, action)
        while hand.phase is Phase.GOING_ALONE:  # the dealer now looks at the cards
            apply(hand, decide(hand))
        assert hand.phase is Phase.DEALER_DISCARD
        assert decide(hand).kind is ActionKind.DISCARD


# --- play ---------------------------------------------------------------------------


def test_maker_leads_high_trump_defender_leads_an_off_ace():
    mine = "JH AH QS AC KD"
    hand = apply(deal(STANDARD, 0, "9H", s1=mine), A.ORDER_UP)
    apply(hand, decide(hand))  # the dealer's discard
    assert hand.phase is Phase.PLAY and hand.turn == 1
    assert decide(hand) is play("JH")
    # The same cards for a defender: no trump lead, the ace instead.
    hand = apply(deal(STANDARD, 0, "9H", s1=mine), A.PASS, A.ORDER_UP)
    apply(hand, decide(hand))
    assert hand.turn == 1
    assert decide(hand) is play("AC")


def test_does_not_trump_the_partners_ace_but_trumps_an_opponents():
    void_in_spades = "9H TH 9C TC QD"
    hand = apply(deal(STANDARD, 0, "KH", s1="AS 9D JD QC KC", s2="9S", s3=void_in_spades),
                 A.ORDER_UP)
    apply(hand, decide(hand))
    apply(hand, play("AS"), play("9S"))
    assert hand.turn == 3
    assert decide(hand) is play("9C")  # partner's ace stands: throw the lowest
    hand = apply(deal(STANDARD, 0, "KH", s1="9S 9D JD QC KC", s2="AS", s3=void_in_spades),
                 A.ORDER_UP)
    apply(hand, decide(hand))
    apply(hand, play("9S"), play("AS"))
    assert decide(hand) is play("9H")  # an opponent's ace: trump it, as low as wins


def test_last_to_play_does_not_overtake_a_winning_partner():
    hand = apply(deal(STANDARD, 3, "9D", s0="9S KD QC JC TH", s1="KS", s2="TS", s3="AS QS"),
                 A.ORDER_UP)
    apply(hand, decide(hand))
    assert hand.turn == 0
    apply(hand, play("9S"), play("KS"), play("TS"))
    assert hand.turn == 3
    assert decide(hand) is play("QS")


def test_follows_with_the_lowest_card_that_wins_else_the_lowest():
    hand = apply(deal(STANDARD, 0, "9H", s1="TS 9D JD QC KC", s2="AS QS KS"), A.ORDER_UP)
    apply(hand, decide(hand))
    apply(hand, play("TS"))
    assert hand.turn == 2
    assert decide(hand) is play("QS")
    hand = apply(deal(STANDARD, 0, "9H", s1="AS 9D JD QC KC", s2="KS 9S"), A.ORDER_UP)
    apply(hand, decide(hand))
    apply(hand, play("AS"))
    assert decide(hand) is play("9S")


def test_overtakes_a_beatable_partner_only_with_a_sure_winner():
    # Partner (seat 1) leads the queen, the king is out and an opponent plays after us:
    # the ace makes the trick sure.
    hand = apply(deal(STANDARD, 0, "9H", s1="QS 9D JD QC KC", s2="TS", s3="AS 9S"),
                 A.ORDER_UP)
    apply(hand, decide(hand))
    apply(hand, play("QS"), play("TS"))
    assert hand.turn == 3
    assert decide(hand) is play("AS")
    # The partner's ace (or king, the ace being ours) cannot be beaten: play low.
    hand = apply(deal(STANDARD, 0, "9H", s1="KS 9D JD QC KC", s2="TS", s3="AS 9S"),
                 A.ORDER_UP)
    apply(hand, decide(hand))
    apply(hand, play("KS"), play("TS"))
    assert decide(hand) is play("9S")


def test_bot_class_delegates_to_the_strategy():
    bot = HeuristicBot()
    assert (bot.name, bot.version, bot.author) == ("heuristic", "1.0", "Euchre Arena")
    hand = deal(STANDARD, 0, "9H", s1="JH AH KH AS 9C")
    assert bot.decide(hand_view(hand, 1)) is A.ORDER_UP


# --- whole games ----------------------------------------------------------------------


def play_game(rules: RuleSet, seed: int, heuristic_seats, first_dealer: int):
    """One game, heuristic seats asking choose(), the others choosing at random."""
    rng = random.Random(seed)
    game = GameState(rules, seed, first_dealer=first_dealer)
    while not game.over:
        seat = game.turn
        view = seat_view(game, seat)
        if seat in heuristic_seats:
            action = choose(view)
            # The rules themselves, not choose()'s fallback, must give a legal action.
            assert propose(view) is action, (rules.name, seed, view.phase, propose(view))
            assert action in view.legal_actions
        else:
            action = rng.choice(view.legal_actions)
        game.apply(action, seat)
    return game


VARIANTS = [
    *PRESETS.values(), DECK_32, DECK_33,
    RuleSet(deck=28, name="28"), BRITISH.with_options(deck=29, name="29"),
    RuleSet(deck=32, hand_size=7, name="seven cards"),
    STANDARD.with_options(dealer_may_decline=True, win_by_two=True),
    BRITISH.with_options(turned_joker_bid=True, dealer_may_decline=True),
    PRESETS["six-player"].with_options(turned_joker_bid=True, dealer_may_decline=True),
    PRESETS["six-player"].with_options(lone_asks_partner=False, railroading=True),
    BRITISH.with_options(railroading=True),
]


def test_always_legal_in_every_preset_and_deck():
    """Every preset, pack and option that changes what a seat decides (RULES.md sections
    7 to 9): the rules give a legal action in every phase, at four seats and six."""
    seatings = [{0, 2}, {1, 3}, {0, 1, 2, 3, 4, 5}, {0}, {1, 4}]
    phases_seen: set[str] = set()
    outcomes: set[tuple[int, str]] = set()
    for i in range(300):
        rules = VARIANTS[i % len(VARIANTS)]
        game = play_game(rules, 10_000 + i, seatings[i % len(seatings)], i % rules.seats)
        for r in game.results:
            phases_seen.add("alone" if r.alone else "partnered")
            outcomes.add((rules.seats, r.score.outcome.value))
    assert phases_seen == {"alone", "partnered"}
    assert {(6, "march"), (6, "euchred"), (4, "march")} <= outcomes


def test_the_dealer_takes_a_good_upcard_and_the_joker_is_bid_on():
    decline = STANDARD.with_options(dealer_may_decline=True)
    hand = deal(decline, 0, "JH", s0="AH KH QH TH 9C", s1="9D TD JD QD KD")
    hand.apply(A.ORDER_UP, 1)
    assert hand.phase is Phase.DEALER_PICKUP
    assert choose(hand_view(hand, 0)) is A.ORDER_UP  # the right bower joins four hearts
    joker_bid = BRITISH.with_options(turned_joker_bid=True)
    game_hand = deal(joker_bid, 0, "JKR", s1="JS JC AS KS QS")
    assert choose(hand_view(game_hand, 1)) is A.name_trump(Suit.SPADES)


def win_rate_vs_random(games: int, rules: RuleSet = STANDARD, seed0: int = 0) -> float:
    wins = 0
    for i in range(games):
        # first_dealer i % 4 alternates which team deals first.
        game = play_game(rules, seed0 + i, {0, 2}, i % 4)
        wins += game.winner == 0
    return wins / games


def test_beats_random_by_far():
    rate = win_rate_vs_random(400)
    print(f"heuristic vs random: {rate:.1%} of 400 games")
    assert rate >= 0.70


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for name, rules in [("standard", STANDARD), ("british", BRITISH), ("canadian", CANADIAN),
                        ("32-card", DECK_32), ("33-card", DECK_33)]:
        print(f"{name:9} heuristic (seats 0, 2) vs random: {win_rate_vs_random(n, rules):.1%}"
              f" of {n} games")


# --- the rules read again (RULES.md sections 7 and 9) ------------------------------

JOKER_BID_ALONE = RuleSet(deck=25, joker=True, turned_joker_bid=True,
                          dealer_partner_must_go_alone=True, name="joker-bid-alone")


def test_the_dealers_partner_goes_alone_on_a_turned_joker_with_a_strong_hand_and_else_passes():
    """Seed 000: the dealer's partner plays no hand with a partner, the turned joker's
    too; the heuristic bids it alone only holding enough, as it does an upcard."""
    strong = apply(deal(JOKER_BID_ALONE, 3, "JKR", s1="JH JD AH KH QH"), A.PASS)
    assert decide(strong) == A.name_trump(Suit.HEARTS, True)
    weak = apply(deal(JOKER_BID_ALONE, 3, "JKR", s1="9C TD QS KC 9H"), A.PASS)
    assert decide(weak) == A.PASS


RAILROAD = STANDARD.with_options(who_may_go_alone="any_player", railroading=True)


def railroad_to_partner(partner_cards: str) -> HandState:
    hand = apply(deal(RAILROAD, 3, "TH", s0="JH JD AH KH 9C", s2=partner_cards),
                 A.ORDER_UP, A.GO_ALONE)
    while hand.phase is not Phase.PARTNER_GIVES:
        hand.apply(A.PASS, hand.turn)
    return hand


def test_railroading_partner_passes_its_best_card_or_none_when_it_has_nothing_worth_it():
    """Seed 000: the partner MAY pass a card ("tu mejor carta"): a trump or an ace is
    worth the loner's blind swap, a low plain card is not."""
    assert decide(railroad_to_partner("AC 9S TS QS KS")) == A.pass_card(parse_card("AC"), 0)
    assert decide(railroad_to_partner("9S TS QS 9D TD")) == A.PASS
