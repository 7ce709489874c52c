"""Property tests over random games: every preset in every deck size its seats allow,
and random option combinations at four and six seats. At every decision: cards are
conserved, the legal list is exactly what the follow-suit rule allows, a non-legal action
is refused without changing anything, and no seat view reveals a card that seat may not
see, nor does any event a seat is told (the events apply() returns, through
seat_event()). At every hand's end: the trick winners and the points agree with an
independent reading of RULES.md. Every game ends, and replaying its actions reproduces
it."""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.core import actions as A
from arena.core.cards import JOKER, Suit, build_deck, card_rank, card_suit
from arena.core.errors import IllegalActionError
from arena.core.game import (
    MAX_SEED,
    ActionTaken,
    GameEnded,
    GameState,
    HandEnded,
    TrickCompleted,
)
from arena.core.hand import HandResult, HandState, Phase
from arena.core.rules import PRESETS, FirstLead, LoneDefender, RuleSet, WhoMayGoAlone
from arena.core.scoring import Outcome
from arena.core.view import HandStarted, hand_view, seat_events

ALL_ACTIONS = (
    A.PASS, A.ORDER_UP, A.ORDER_UP_ALONE, A.GO_ALONE,
    *A.NAME_TRUMP, *A.NAME_TRUMP_ALONE, *A.DISCARD, *A.PLAY, *A.ASK,
    *(a for row in A.GIVE for a in row), *(a for row in A.PASS_CARD for a in row),
)
DECKS = {24: False, 25: True, 28: False, 29: True, 31: True, 32: False, 33: True, 50: True}
DECKS_AT = {4: (24, 25, 28, 29, 32, 33), 6: (31, 33, 50)}
MAX_DECISIONS = 20_000

# --- an independent reading of the rules -------------------------------------------


def ref_suit(card: int, trump: int) -> int:
    if card_rank(card) is None:  # a joker, of either pack
        return trump
    suit, rank = card_suit(card), card_rank(card)
    if rank == 11 and suit == Suit(trump).same_colour:
        return trump
    return int(suit)


def ref_power(card: int, trump: int, led: int, coloured: bool = False) -> int:
    if card_rank(card) is None:  # a joker: with coloured jokers the second is the red one
        red = card != JOKER
        return 1000 + (coloured and red == (trump in (Suit.DIAMONDS, Suit.HEARTS)))
    suit, rank = card_suit(card), card_rank(card)
    assert rank is not None
    if rank == 11 and suit == trump:
        return 900
    if rank == 11 and suit == Suit(trump).same_colour:
        return 800
    if suit == trump:
        return 700 + rank
    return rank if suit == led else 0


def ref_points(rules: RuleSet, maker: int, tricks: tuple[int, int], alone) -> tuple[int, int]:
    """(team, points) by RULES.md sections 6, 7 and 9: a majority of the tricks makes, all
    of them march; six-player Euchre's 3 and 6 come from the rule set's points."""
    makers = maker % 2
    taken = tricks[makers]
    maker_alone = any(s % 2 == makers for s in alone)
    defender_alone = any(s % 2 != makers for s in alone)
    if taken == rules.hand_size:
        return makers, rules.lone_march_points if maker_alone else rules.march_points
    if 2 * taken > rules.hand_size:
        return makers, 1
    candidates = [rules.euchre_points]
    if defender_alone:
        candidates.append(rules.lone_defender_euchre_points)
        if taken == 0 and rules.lone_defender_march_points is not None:
            candidates.append(rules.lone_defender_march_points)
    if taken == 0:
        candidates.append(rules.super_euchre_points)
    return 1 - makers, max(candidates)


# --- checks ---------------------------------------------------------------------------


def played_cards(h: HandState) -> list[int]:
    done = [c for t in h.tricks for _, c in t.plays]
    if h.phase is not Phase.PLAY:  # (after the last trick, trick_plays still holds it)
        return done
    return done + [c for _, c in h.trick_plays]


def check_conservation(h: HandState) -> None:
    kitty = [c for c in h.kitty if not (h.dealer_took_upcard and c == h.upcard)]
    discard = [] if h.discarded is None else [h.discarded]
    aside = [c for cs in h.set_aside for c in cs] + h.set_aside_unseen
    pending = [] if h.passed_card is None else [h.passed_card]
    everything = ([c for hand in h.hands for c in hand] + kitty + discard + played_cards(h)
                  + aside + pending)
    assert sorted(everything) == sorted(build_deck(h.rules.deck))
    assert h.upcard == h.kitty[0]
    assert (h.upcard in h.hands[h.dealer] or h.discarded == h.upcard
            or h.upcard in played_cards(h)) == h.dealer_took_upcard


def own_knowledge(h: HandState, seat: int) -> set[int]:
    """What a seat has seen of its own: its hand, what it gave a lone partner, what it set
    aside as a lone player (not a railroaded card it never looked at)."""
    known = set(h.hands[seat]) | set(h.set_aside[seat])
    if h.gave[seat] is not None:
        known.add(h.gave[seat])
    return known


def check_views(h: HandState) -> None:
    played = set(played_cards(h))
    for seat in range(h.rules.seats):
        v = hand_view(h, seat)
        allowed = own_knowledge(h, seat) | {h.upcard} | played
        if seat == h.dealer and h.discarded is not None:
            allowed.add(h.discarded)
        assert h.passed_card not in v.visible_cards() or h.gave[seat] == h.passed_card
        assert v.cards_held() == [len(x) for x in h.hands]
        assert v.visible_cards() <= allowed, (seat, v)
        if seat != h.dealer:
            assert v.discard is None


def shown_cards(event) -> set[int]:
    """Every card an event told to a seat shows (read independently of the view module)."""
    if isinstance(event, HandStarted):
        return set(event.hand) | {event.upcard}
    if isinstance(event, ActionTaken):
        card = None if event.action is None else event.action.card
        return set() if card is None else {card}
    if isinstance(event, TrickCompleted):
        return {c for _, c in event.trick.plays}
    assert isinstance(event, HandEnded | GameEnded), f"a seat was told {event!r}"
    return set()


def check_hand_started(event, h: HandState, seat: int) -> None:
    """A seat is told of a deal its own cards, but the dealer who names trump blind."""
    assert isinstance(event, HandStarted)
    blind = seat == h.dealer and h.phase is Phase.DEALER_NAMES_TRUMP
    assert blind == (seat == h.dealer and card_rank(h.upcard) is None and not h.rules.turned_joker_bid)
    assert event.hand == (() if blind else tuple(sorted(h.hands[seat]))), (seat, event)
    assert (event.dealer, event.upcard) == (h.dealer, h.upcard)


def check_events(h: HandState, events, game: GameState) -> None:
    """What each seat is told of the events of one action (on hand h) shows no card it
    may not see: its own, the upcard, the cards played, and the discard for the dealer.
    A new deal shows each seat its own cards only (game.hand is that new hand)."""
    played = set(played_cards(h))
    for seat in range(h.rules.seats):
        allowed = own_knowledge(h, seat) | {h.upcard} | played
        if seat == h.dealer and h.discarded is not None:
            allowed.add(h.discarded)
        for event in seat_events(events, seat):
            if isinstance(event, HandStarted):
                check_hand_started(event, game.hand, seat)
                continue
            assert shown_cards(event) <= allowed, (seat, event)
            if isinstance(event, ActionTaken) and event.kind is A.DISCARD[0].kind:
                assert (event.action is None) == (seat != event.seat), (seat, event)


def check_legal_list(h: HandState, legal) -> None:
    assert legal, h.describe()
    # Only a partner giving a lone player a card acts while sitting out.
    assert not h.sitting_out[h.turn] or h.phase is Phase.PARTNER_GIVES
    if h.phase is Phase.PLAY:
        hand = h.hands[h.turn]
        if h.trick_plays:
            led = ref_suit(h.trick_plays[0][1], h.trump)
            follow = [c for c in hand if ref_suit(c, h.trump) == led]
            expected = follow or hand
        else:
            expected = hand
        assert sorted(a.card for a in legal) == sorted(expected)
    elif h.phase is Phase.BID_ROUND_2:
        assert all(a.suit != card_suit(h.upcard) for a in legal if a.suit is not None)
    elif h.phase is Phase.DEALER_PICKUP:
        assert h.rules.dealer_may_decline and h.turn == h.dealer != h.maker
        assert set(legal) == {A.ORDER_UP, A.PASS}
    elif h.phase is Phase.BID_ROUND_1 and card_rank(h.upcard) is None:  # a turned joker bid on
        assert h.rules.turned_joker_bid
        assert (A.PASS in legal) == (h.turn != h.dealer)


def check_refusals(h: HandState, legal, rng: random.Random) -> None:
    before = (h.phase, h.turn, len(h.history), list(legal))
    others = [a for a in ALL_ACTIONS if a not in legal]
    for action in rng.sample(others, 2):
        try:
            h.apply(action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"{action} was accepted in {h.describe()}")
    try:
        h.apply(legal[0], seat=(h.turn + rng.randrange(1, h.rules.seats)) % h.rules.seats)
    except IllegalActionError:
        pass
    else:
        raise AssertionError("an action out of turn was accepted")
    assert (h.phase, h.turn, len(h.history), h.legal_actions()) == before


def check_result(h: HandState, result: HandResult) -> None:
    assert result is h.result
    check_conservation(h)
    if result.score.outcome is Outcome.THROWN_IN:
        assert not h.rules.stick_the_dealer
        assert (result.score.team, result.score.points, result.tricks_won) == (None, 0, (0, 0))
        assert len(h.history) == 2 * h.rules.seats
        return
    seats = h.rules.seats
    active = seats - sum(h.sitting_out)
    won = [0, 0]
    for trick in h.tricks:
        assert len(trick.plays) == active
        led = ref_suit(trick.plays[0][1], result.trump)
        powers = [ref_power(c, result.trump, led, h.rules.coloured_jokers) for _, c in trick.plays]
        # The highest card; of two equal ones (the double pack's copies) the later.
        winner = trick.plays[max(range(len(powers)), key=lambda i: (powers[i], i))][0]
        assert trick.winner == winner
        won[winner % 2] += 1
    assert tuple(won) == result.tricks_won and sum(won) == h.rules.hand_size
    for previous, trick in itertools.pairwise(h.tricks):
        assert trick.leader == previous.winner
    assert (result.score.team, result.score.points) == ref_points(
        h.rules, result.maker, result.tricks_won, result.alone
    )
    # A lone player's partners (every other seat of its team) sit out, and nobody else.
    out = {(s + k) % seats for s in result.alone for k in range(2, seats, 2)}
    assert {s for s in range(seats) if h.sitting_out[s]} == out


def play_checked_game(rules: RuleSet, seed: int, chooser: int) -> GameState:
    game = GameState(rules, seed)
    rng = random.Random(chooser)
    actions = []
    for seat in range(rules.seats):
        (opening,) = seat_events((game.dealt,), seat)
        check_hand_started(opening, game.hand, seat)
    for _ in range(MAX_DECISIONS):
        if game.over:
            break
        h = game.hand
        legal = game.legal_actions()
        check_legal_list(h, legal)
        check_conservation(h)
        check_views(h)
        check_refusals(h, legal, rng)
        action = rng.choice(legal)
        actions.append(action)
        events = game.apply(action)
        check_events(h, events, game)
        ended = [e for e in events if isinstance(e, HandEnded)]
        if ended:
            check_result(h, ended[0].result)
            check_views(h)
    assert game.over, "game did not end"
    a, b = game.scores
    if rules.hand_limit is not None:  # league play: exactly so many deals, maybe level
        assert len(game.results) == rules.hand_limit
        assert game.winner == (None if a == b else int(b > a))
    else:
        assert game.winner is not None
        win, lose = game.scores[game.winner], game.scores[1 - game.winner]
        assert win >= rules.target and win - lose >= (2 if rules.win_by_two else 1)
        if not rules.win_by_two:
            assert lose < rules.target
    totals = [0, 0]
    for r in game.results:
        if r.score.team is not None:
            totals[r.score.team] += r.score.points
    assert totals == game.scores
    # Same seed, same actions: the same game.
    again = GameState(rules, seed)
    for action in actions:
        again.apply(action)
    assert again.results == game.results
    return game


# --- strategies -----------------------------------------------------------------------

seeds = st.integers(0, MAX_SEED)
choosers = st.integers(0, 2**32)


@st.composite
def preset_any_deck(draw) -> RuleSet:
    base = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    deck = draw(st.sampled_from(DECKS_AT[base.seats]))
    hand_size = draw(st.sampled_from([5, 7] if deck in (32, 33) and base.seats == 4 else [5]))
    return base.with_options(deck=deck, joker=DECKS[deck], hand_size=hand_size)


@st.composite
def random_rules(draw) -> RuleSet:
    seats = draw(st.sampled_from([4, 6]))
    deck = draw(st.sampled_from(DECKS_AT[seats]))
    lone_defender = draw(st.sampled_from(list(LoneDefender)))
    if lone_defender is LoneDefender.NOT_ALLOWED:
        ld_euchre, ld_march = 2, None
    else:
        ld_euchre = draw(st.sampled_from([2, 4, 6]))
        ld_march = draw(st.sampled_from([None, 4, 6]))
    march = draw(st.sampled_from([2, 3]))
    hand_limit = draw(st.sampled_from([None, None, 1, 12]))
    return RuleSet(
        seats=seats,
        deck=deck,
        joker=DECKS[deck],
        hand_size=draw(st.sampled_from([5, 7] if deck in (32, 33) and seats == 4 else [5])),
        target=draw(st.sampled_from([5, 10, 11, 15])),
        win_by_two=hand_limit is None and draw(st.booleans()),
        hand_limit=hand_limit,
        march_points=march,
        lone_march_points=2 * march,
        euchre_points=draw(st.sampled_from([2, 3])),
        dealer_may_decline=draw(st.booleans()),
        turned_joker_bid=DECKS[deck] and draw(st.booleans()),
        coloured_jokers=deck == 50 and draw(st.booleans()),
        **draw(st.sampled_from([{}, {"lone_asks_partner": True}, {"railroading": True}])),
        stick_the_dealer=draw(st.booleans()),
        who_may_go_alone=draw(st.sampled_from(list(WhoMayGoAlone))),
        lone_defender=lone_defender,
        lone_defender_euchre_points=ld_euchre,
        lone_defender_march_points=ld_march,
        dealer_partner_must_go_alone=draw(st.booleans()),
        first_lead=draw(st.sampled_from(list(FirstLead))),
        passed_player_may_go_alone=draw(st.booleans()),
        super_euchre_points=draw(st.sampled_from([2, 4])),
        dealer_needs_trump_to_pick_up=draw(st.booleans()),
    )


PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(rules=preset_any_deck(), seed=seeds, chooser=choosers)
def test_presets_in_every_deck_size(rules, seed, chooser):
    play_checked_game(rules, seed, chooser)


@PROPERTY_SETTINGS
@given(rules=random_rules(), seed=seeds, chooser=choosers)
def test_random_option_combinations(rules, seed, chooser):
    play_checked_game(rules, seed, chooser)


def test_every_preset_and_deck_size_is_exercised():
    """The strategies above draw from these; a fixed sweep makes sure each is played."""
    for name in sorted(PRESETS):
        for deck in DECKS_AT[PRESETS[name].seats]:
            rules = PRESETS[name].with_options(deck=deck, joker=DECKS[deck])
            game = play_checked_game(rules, seed=deck * 1000 + len(name), chooser=deck)
            assert game.results
