"""Worked examples of the Euchres of RULES.md sections 7 and 9, each naming the seed it
comes from: six seats (seed 000, Cornwall and Almonte), seven-card hands (002), the 28-
and 29-card packs (000, 002, 004), win by two (001), league play of a fixed number of
hands (000, Almonte), the dealer who declines the upcard (004) and a turned joker bid on
(000, Almonte)."""

from __future__ import annotations

import random

import pytest

from arena.core import actions as A
from arena.core.cards import JOKER, TRICK_POWER, build_deck, card_name, parse_card
from arena.core.game import GameEnded, GameState, HandEnded
from arena.core.hand import HandState, Phase, partners
from arena.core.rules import RuleSet, preset
from arena.core.scoring import Outcome, score_hand
from arena.core.view import hand_view

SIX = preset("six-player")


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def deal(rules: RuleSet, seat_hands: list[str], kitty: str, dealer: int = 0) -> HandState:
    """A hand from cards chosen by hand (checked to be exactly the pack)."""
    hands = [cards(h) for h in seat_hands]
    kit = cards(kitty)
    assert sorted([c for hand in hands for c in hand] + kit) == sorted(build_deck(rules.deck))
    return HandState(rules, dealer, hands, kit)


# --- six seats (seed 000: "Euchre para seis jugadores") ------------------------------------


def test_six_seats_alternate_teams_and_a_seat_has_two_partners():
    assert partners(1, 6) == (3, 5) and partners(4, 6) == (0, 2)
    assert partners(1, 4) == (3,)
    hand = HandState.deal(SIX, 5, list(build_deck(33)))
    assert [len(h) for h in hand.hands] == [5] * 6 and len(hand.kitty) == 3
    assert hand.turn == 0  # left of dealer 5


def lone_march_at_six() -> HandState:
    """Seat 1 holds the five best hearts, orders up and goes alone: seats 3 and 5 lay
    down, four play, and seat 1 takes every trick."""
    h = deal(SIX, [
        "QH TH 9H 8H 7C",      # seat 0, the dealer
        "JKR JH JD AH KH",     # seat 1: joker, both bowers, ace, king
        "AC KC QC JC TC",
        "AD KD QD TD 9D",
        "AS KS QS JS TS",
        "9C 8C 8D 9S 8S",
    ], "7H 7D 7S")
    h.apply(A.ORDER_UP, 1)
    # The alone round asks the maker first (then its partners, then the defenders).
    assert (h.phase, h.turn) == (Phase.GOING_ALONE, 1)
    h.apply(A.GO_ALONE, 1)
    assert h.sitting_out == [False, False, False, True, False, True]
    for defender in (2, 4, 0):  # clockwise from the dealer's left; 3 and 5 are out
        assert (h.phase, h.turn) == (Phase.GOING_ALONE, defender)
        h.apply(A.PASS, defender)
    # Cornwall: the loner may ask either partner for a card; holding the best five, no.
    assert (h.phase, h.turn) == (Phase.LONER_ASKS, 1)
    assert set(h.legal_actions()) == {A.PASS, A.ask(3), A.ask(5)}
    h.apply(A.PASS, 1)
    assert (h.phase, h.turn) == (Phase.DEALER_DISCARD, 0)
    h.apply(A.discard(parse_card("7C")), 0)
    assert (h.phase, h.turn) == (Phase.PLAY, 2)  # left of the lone player (British lead)
    while h.phase is Phase.PLAY:
        legal = h.legal_actions()
        if h.turn == 1:
            power = TRICK_POWER[2][2]
            legal = sorted(legal, key=lambda a: -power[a.card])  # its best trump
        seats_before = len(h.trick_plays)
        h.apply(legal[0], h.turn)
        assert seats_before < 4
    assert all(len(t.plays) == 4 for t in h.tricks)
    return h


def test_six_player_lone_march_scores_six_with_both_partners_laid_down():
    h = lone_march_at_six()
    assert h.result is not None
    assert h.result.tricks_won == (0, 5)
    assert (h.result.score.outcome, h.result.score.team, h.result.score.points) == (
        Outcome.MARCH, 1, 6,
    )
    # The laid-down partners' cards are never shown to anyone else.
    for seat in (0, 2, 4):
        assert not set(hand_view(h, seat).visible_cards()) & set(h.hands[3] + h.hands[5])


@pytest.mark.parametrize(
    ("tricks", "maker_alone", "defender_alone", "expected"),
    [
        (5, False, False, (Outcome.MARCH, 0, 3)),   # "la marcha ... 3 puntos"
        (5, True, False, (Outcome.MARCH, 0, 6)),    # alone: "6 en lugar de 4"
        (4, True, False, (Outcome.MADE, 0, 1)),
        (3, False, False, (Outcome.MADE, 0, 1)),
        (2, False, False, (Outcome.EUCHRED, 1, 3)),  # a euchre: 3
        (1, False, True, (Outcome.EUCHRED, 1, 6)),   # by a lone defender: 6
        (0, False, False, (Outcome.EUCHRED, 1, 3)),  # super euchre 2 < 3: still 3
    ],
)
def test_the_six_player_table_of_points(tricks, maker_alone, defender_alone, expected):
    s = score_hand(SIX, 0, tricks, maker_alone, defender_alone)
    assert (s.outcome, s.team, s.points) == expected


def test_a_dealers_partner_at_six_is_either_of_the_dealers_teammates():
    rules = SIX.with_options(dealer_partner_must_go_alone=True)
    h = HandState.deal(rules, 0, list(build_deck(33)))
    h.apply(A.PASS, 1)
    assert A.ORDER_UP not in h.legal_actions() and A.ORDER_UP_ALONE in h.legal_actions()
    h.apply(A.PASS, 2)
    h.apply(A.PASS, 3)
    assert A.ORDER_UP not in h.legal_actions()  # seat 4, the other teammate of dealer 0


def test_almonte_turns_the_last_card_so_nothing_stays_hidden():
    """Six Hand Almonte: five to each of six and the last card turned. The seed gives no
    pack size; the arena's is 31 cards (7 to ace and the joker, less the black sevens)."""
    rules = preset("almonte")
    pack = build_deck(31)
    assert len(pack) == 31 and JOKER in pack
    assert {"7C", "7S"}.isdisjoint(card_name(c) for c in pack)
    assert {"7D", "7H"} <= {card_name(c) for c in pack}
    hand = HandState.deal(rules, 2, list(pack))
    assert hand.kitty == (hand.upcard,)


# --- the packs and hand sizes of section 7 -------------------------------------------------


def test_28_and_29_card_packs_run_from_the_eights():
    """Seeds 000, 002 and 004: 8 to ace (28), with the joker 29."""
    names = {card_name(c) for c in build_deck(28)}
    assert len(names) == 28 and "8S" in names and not any(n.startswith("7") for n in names)
    assert set(build_deck(29)) == set(build_deck(28)) | {JOKER}
    rules = RuleSet(deck=28)
    hand = HandState.deal(rules, 0, list(build_deck(28)))
    assert len(hand.kitty) == 8


def test_seven_card_hands_need_four_tricks_and_march_with_seven():
    """Seed 002: "o siete si se juega con 32 naipes"."""
    rules = RuleSet(deck=32, hand_size=7)
    hand = HandState.deal(rules, 3, list(build_deck(32)))
    assert [len(h) for h in hand.hands] == [7] * 4 and len(hand.kitty) == 4
    made = [score_hand(rules, 0, t, False, False) for t in range(8)]
    assert [s.outcome for s in made] == [Outcome.EUCHRED] * 4 + [Outcome.MADE] * 3 + [Outcome.MARCH]
    assert made[7].points == 2 and score_hand(rules, 0, 7, True, False).points == 4


def test_a_seven_card_game_plays_seven_tricks_a_hand():
    rules = RuleSet(deck=33, joker=True, hand_size=7)
    game = GameState(rules, 5)
    rng = random.Random(5)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    played = [r for r in game.results if r.score.outcome is not Outcome.THROWN_IN]
    assert played and all(sum(r.tricks_won) == 7 for r in played)


# --- the end of a game ------------------------------------------------------------------


def play_hand(game: GameState, rng: random.Random) -> list:
    events: list = []
    hand = game.hand
    while game.hand is hand and not game.over:
        events += game.apply(rng.choice(game.legal_actions()))
    return events


def test_win_by_two_plays_on_from_a_one_point_lead():
    """Seed 001: the game goes on until one team leads by 2 at or past the target."""
    for seed in range(200):
        plain, by_two = GameState(RuleSet(), seed), GameState(RuleSet(win_by_two=True), seed)
        for g in (plain, by_two):
            g.scores = [9, 9]
        e1 = play_hand(plain, random.Random(seed))
        e2 = play_hand(by_two, random.Random(seed))
        ended = [e for e in e1 if isinstance(e, HandEnded)]
        if ended and ended[0].result.score.points == 1:
            break
    else:  # pragma: no cover - 200 deals always hold a made hand
        raise AssertionError("no hand worth one point")
    team = ended[0].result.score.team
    assert plain.over and plain.winner == team and isinstance(e1[-1], GameEnded)
    assert not by_two.over and sorted(by_two.scores) == [9, 10]  # 10-9: play on
    assert not any(isinstance(e, GameEnded) for e in e2)


def test_league_play_is_twelve_deals_and_may_end_level():
    """Seed 000, Almonte: "in league play, a fixed 12 hands (twice round the table)"."""
    rules = preset("almonte-league")
    drawn = decided = 0
    for seed in range(60):
        game = GameState(rules, seed)
        rng = random.Random(seed)
        events: list = []
        while not game.over:
            events += game.apply(rng.choice(game.legal_actions()))
        assert len(game.results) == 12  # thrown-in deals count
        end = events[-1]
        assert isinstance(end, GameEnded) and end.scores == tuple(game.scores)
        if game.scores[0] == game.scores[1]:
            assert game.winner is None and end.winning_team is None
            drawn += 1
        else:
            assert game.winner == end.winning_team == int(game.scores[1] > game.scores[0])
            decided += 1
    assert drawn and decided


# --- the dealer's pickup and the turned joker -----------------------------------------------


STANDARD_DEAL = (["9C TC JC QC KC", "AC 9D TD JD QD", "KD AD 9H TH JH",
                  "QH KH AH 9S TS"], "JS QS KS AS")


@pytest.mark.parametrize("takes", [True, False])
def test_the_dealer_may_decline_the_upcard_after_an_order_up(takes):
    """Seed 004: the dealer may leave the upcard (it is trump all the same)."""
    h = deal(RuleSet(dealer_may_decline=True), *STANDARD_DEAL)
    h.apply(A.ORDER_UP, 1)
    assert (h.phase, h.turn) == (Phase.DEALER_PICKUP, 0)
    assert set(h.legal_actions()) == {A.ORDER_UP, A.PASS}
    h.apply(A.ORDER_UP if takes else A.PASS, 0)
    assert h.trump == 3 and h.dealer_took_upcard is takes  # spades either way
    if takes:
        assert h.phase is Phase.DEALER_DISCARD and len(h.hands[0]) == 6
    else:
        assert h.phase is Phase.PLAY and len(h.hands[0]) == 5
        assert h.kitty[0] == parse_card("JS") and parse_card("JS") not in h.hands[0]


def test_a_dealer_who_orders_up_or_a_default_rule_set_is_never_asked():
    h = deal(RuleSet(dealer_may_decline=True), *STANDARD_DEAL)
    for seat in (1, 2, 3):
        h.apply(A.PASS, seat)
    h.apply(A.ORDER_UP, 0)
    assert h.phase is Phase.DEALER_DISCARD
    plain = deal(RuleSet(), *STANDARD_DEAL)
    plain.apply(A.ORDER_UP, 1)
    assert plain.phase is Phase.DEALER_DISCARD


JOKER_DEAL = (["9C TC JC QC KC", "AC 9D TD JD QD", "KD AD 9H TH JH",
               "QH KH AH 9S TS"], "JKR JS QS KS AS")


def test_a_turned_joker_bid_on_names_a_suit_and_the_dealer_must_make():
    """Seed 000 (Almonte): a turned joker may not be turned down; if the others pass the
    dealer must take it and make."""
    rules = RuleSet(deck=25, joker=True, turned_joker_bid=True)
    h = deal(rules, *JOKER_DEAL)
    assert (h.phase, h.turn) == (Phase.BID_ROUND_1, 1)
    assert A.PASS in h.legal_actions() and A.name_trump(0) in h.legal_actions()
    assert A.ORDER_UP not in h.legal_actions()
    for seat in (1, 2, 3):
        h.apply(A.PASS, seat)
    assert A.PASS not in h.legal_actions()  # the dealer may not turn it down
    h.apply(A.name_trump(2), 0)
    assert (h.trump, h.maker, h.phase) == (2, 0, Phase.DEALER_DISCARD)
    assert JOKER in h.hands[0]
    # The dealer looked at its cards to bid: its view holds them.
    assert len(hand_view(h, 0).hand) == 6


def test_without_the_option_a_turned_joker_is_named_blind():
    h = deal(RuleSet(deck=25, joker=True), *JOKER_DEAL)
    assert (h.phase, h.turn) == (Phase.DEALER_NAMES_TRUMP, 0)
    assert hand_view(h, 0).hand == ()


# --- a lone player's card from a partner: Cornwall's ask (000) and railroading (000, 004) ---

CORNWALL_DEAL = [
    "QH TH 9H 8H 7C",      # seat 0, the dealer
    "JKR JH JD AC KC",     # seat 1: three top trumps and two clubs
    "AH 9C TC QC 7D",      # seat 2
    "AD KD QD TD 9D",      # seat 3: a partner of seat 1
    "AS KS QS JS TS",
    "KH 8C JC 8D 9S",      # seat 5: the other partner, with the king of hearts
]


def loner_at_six(rules: RuleSet) -> HandState:
    h = deal(rules, CORNWALL_DEAL, "7H 8S 7S")
    h.apply(A.ORDER_UP, 1)
    h.apply(A.GO_ALONE, 1)
    for defender in (2, 4, 0):
        h.apply(A.PASS, defender)
    return h


def test_cornwall_the_loner_asks_a_partner_who_chooses_the_card_then_discards():
    """Seed 000: "el jugador solo puede pedir una carta a uno de sus compañeros" and
    discards one; nobody else sees either card."""
    h = loner_at_six(SIX)
    h.apply(A.ask(5), 1)
    assert (h.phase, h.turn) == (Phase.PARTNER_GIVES, 5)  # sitting out, it still gives
    kh = parse_card("KH")
    assert A.give(kh, 1) in h.legal_actions() and len(h.legal_actions()) == 5
    h.apply(A.give(kh, 1), 5)
    assert (h.phase, h.turn) == (Phase.LONER_DISCARDS, 1) and kh in h.hands[1]
    assert hand_view(h, 1).cards_held()[1] == 6 and hand_view(h, 3).cards_held()[5] == 4
    h.apply(A.discard(parse_card("KC")), 1)
    assert (h.phase, h.turn) == (Phase.DEALER_DISCARD, 0)
    # Who may see what: the giver knows the king, the loner knows both cards, others none.
    views = {s: hand_view(h, s) for s in range(6)}
    assert views[5].gave == kh and views[1].set_aside == (parse_card("KC"),)
    for s in (0, 2, 3, 4):
        assert kh not in views[s].visible_cards() and parse_card("KC") not in views[s].visible_cards()


def test_railroading_at_four_the_partner_passes_face_down_and_the_loner_decides_blind():
    """Seeds 000 and 004: the partner passes one card face down; before looking, the loner
    swaps it for a card of the hand or discards it."""
    rules = RuleSet(railroading=True)
    h = deal(rules, *STANDARD_DEAL)
    h.apply(A.ORDER_UP_ALONE, 1)  # seat 1 orders spades up alone; seat 3 lays down
    assert (h.phase, h.turn) == (Phase.PARTNER_GIVES, 3)  # one partner: no asking
    qh = parse_card("QH")
    assert A.pass_card(qh, 1) in h.legal_actions()
    h.apply(A.pass_card(qh, 1), 3)
    assert (h.phase, h.turn) == (Phase.LONER_EXCHANGES, 1)
    view = hand_view(h, 1)
    assert qh not in view.visible_cards() and A.PASS in view.legal_actions  # not seen yet
    h.apply(A.discard(parse_card("9D")), 1)  # swap: 9D face down, the passed card taken
    assert qh in h.hands[1] and parse_card("9D") not in h.hands[1]
    assert h.phase is Phase.DEALER_DISCARD


def test_railroading_at_six_the_loner_names_the_partner_and_may_set_the_card_aside():
    rules = SIX.with_options(lone_asks_partner=False, railroading=True)
    h = loner_at_six(rules)
    assert set(h.legal_actions()) == {A.ask(3), A.ask(5)}  # a card must come
    h.apply(A.ask(3), 1)
    ad = parse_card("AD")
    h.apply(A.pass_card(ad, 1), 3)
    h.apply(A.PASS, 1)  # set aside unseen
    assert ad not in h.hands[1] and h.set_aside_unseen == [ad]
    assert ad not in hand_view(h, 1).visible_cards() and hand_view(h, 3).gave == ad


# --- the double pack (seed 000: "dos barajas de 25 cartas") ---------------------------------

DOUBLE = preset("six-player-double")


def test_the_double_pack_holds_every_card_of_a_25_card_pack_twice():
    pack = build_deck(50)
    assert len(pack) == 50 and len(set(pack)) == 50
    names = [card_name(c) for c in pack]
    assert names.count("JH") == 1 and names.count("JH2") == 1 and "JKR2" in names
    hand = HandState.deal(DOUBLE, 0, list(pack))
    assert len(hand.kitty) == 20


@pytest.mark.parametrize("order", [("AH", "AH2"), ("AH2", "AH")])
def test_of_two_equal_cards_the_one_played_second_wins(order):
    from arena.core.cards import trick_winner_index

    trick = [parse_card("9H"), parse_card(order[0]), parse_card("KH"), parse_card(order[1])]
    assert trick_winner_index(trick, trump=0) == 3  # clubs trump; hearts led


@pytest.mark.parametrize(("trump", "winner"), [(2, "JKR2"), (1, "JKR2"), (0, "JKR"), (3, "JKR")])
def test_coloured_jokers_the_one_of_trumps_colour_wins(trump, winner):
    """Copy 0 of the joker is the black one, copy 1 the red one."""
    from arena.core.cards import trick_winner_index

    for first, second in (("JKR", "JKR2"), ("JKR2", "JKR")):
        trick = [parse_card(first), parse_card("AS"), parse_card(second)]
        won = trick[trick_winner_index(trick, trump, coloured_jokers=True)]
        assert card_name(won) == winner
        # Alike, the second played wins whatever the trump.
        assert trick_winner_index(trick, trump) == 2


def test_a_double_pack_game_plays_and_replays():
    game = GameState(DOUBLE, 3)
    rng = random.Random(3)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.winner is not None and max(game.scores) >= 11


def test_the_two_of_spades_as_the_joker_is_the_joker_by_another_name():
    """Seed 000: a pack without a joker plays the two of spades as one. The rules do not
    change (the same games); replays name it 2♠."""
    from rich.console import Console

    from arena.views.replay_html import render_html
    from arena.views.replay_text import show_game
    from tests.helpers import play_random_game

    with pytest.raises(Exception, match="two_of_spades_joker contradicts joker=false"):
        RuleSet(two_of_spades_joker=True)
    rules = preset("british").with_options(two_of_spades_joker=True)
    seed = next(s for s in range(100)
                if any(JOKER in h.dealt[0] for h in play_random_game(s, rules, ("a", "b")).hands))
    log = play_random_game(seed, rules, ("a", "b"))
    plain = play_random_game(seed, preset("british"), ("a", "b"))
    assert [h.actions for h in log.hands] == [h.actions for h in plain.hands]
    console = Console(record=True, width=120)
    show_game(log, console=console)
    text = console.export_text()
    assert "2♠" in text and "Joker" not in text
    page = render_html(log)
    assert '["2","♠",false,"2S",true]' in page and '"Jkr"' not in page
