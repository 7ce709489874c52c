"""One stream of what happens in a game: GameState.apply() returns the events each action
caused, with full information; the record is made from them whole, and each seat is told
them through arena.core.view, which hides another seat's discard and the cards of a dealer
naming trump on a turned joker."""

from __future__ import annotations

import random

import pytest

from arena.core import actions as A
from arena.core.actions import ActionKind
from arena.core.cards import JOKER
from arena.core.events import EventFeed
from arena.core.game import (
    ActionTaken,
    GameEnded,
    GameState,
    HandDealt,
    HandEnded,
    TrickCompleted,
    deck_order,
)
from arena.core.hand import HandState, Phase
from arena.core.rules import PRESETS, RuleSet, preset
from arena.core.view import HandStarted, seat_event, seat_events, seat_view
from arena.records.gamelog import GameEnd, GameLog, HandLog, LoggedAction, Recorder, SeatBot
from arena.records.replay import verify
from arena.wire import codec

STANDARD = preset("standard")
JOKER_RULES = RuleSet(deck=25, joker=True)


def new_log(game: GameState) -> GameLog:
    return GameLog(
        game_id="events",
        rules=game.rules,
        seed=game.seed,
        first_dealer=game.first_dealer,
        seats=tuple(SeatBot(s, f"bot{s}", "1") for s in range(game.rules.seats)),
    )


def hands_from(stream) -> list[HandLog]:
    """The record's hands, read from the stream independently of the Recorder (think
    times as the test gives them: the action's index)."""
    hands: list[HandLog] = []
    index = 0
    for e in stream:
        if isinstance(e, HandDealt):
            hands.append(HandLog(e.hand_number, e.dealer, e.hands, e.kitty))
        elif isinstance(e, ActionTaken):
            hands[-1].actions.append(LoggedAction(e.seat, e.action, index, index % 7 == 0))
            index += 1
        elif isinstance(e, TrickCompleted):
            hands[-1].trick_winners.append(e.trick.winner)
        elif isinstance(e, HandEnded):
            hands[-1].result, hands[-1].scores_after = e.result, e.scores
    return hands


def told_to(stream, seat: int) -> list:
    """What the seat must be told, read from the rules (not through arena.core.view): its
    own cards of each deal (none while, as dealer, it names trump on a turned joker), of
    another seat's discard only that it happened, and of a card given to a lone player
    (Cornwall) only that it was, unless it is the loner given it."""
    out = []
    for e in stream:
        if isinstance(e, HandDealt):
            blind = seat == e.dealer and e.dealer_names_blind
            own = () if blind else tuple(sorted(e.hands[seat]))
            out.append(HandStarted(e.hand_number, e.dealer, e.upcard, own))
        elif isinstance(e, ActionTaken) and e.seat != seat and (
            e.kind in (ActionKind.DISCARD, ActionKind.PASS_CARD)
            or (e.kind is ActionKind.GIVE and e.action.seat != seat)
        ):
            out.append(ActionTaken(e.seat, None, e.kind))
        else:
            out.append(e)
    return out


def play(rules: RuleSet, seed: int):
    """A game as the runner plays one: apply()'s events recorded and told to the feed,
    each seat's taken at its turn. Returns (game, stream, log, told by seat)."""
    game = GameState(rules, seed)
    log = new_log(game)
    recorder = Recorder(game, log)
    feed = EventFeed(game)
    stream = [game.dealt]
    told: list[list] = [[] for _ in range(rules.seats)]
    rng = random.Random(seed)
    index = 0
    while not game.over:
        seat = game.turn
        told[seat] += feed.take(seat)
        action = rng.choice(seat_view(game, seat).legal_actions)
        events = game.apply(action, seat)
        recorder.record(events, think_us=index, substituted=index % 7 == 0)
        feed.tell(events)
        stream += events
        index += 1
    recorder.finish(GameEnd.COMPLETED, game.winner)
    for seat in range(rules.seats):
        told[seat] += feed.take(seat)
    return game, stream, log, told


# The joker games turn it up in hand 0 (seed 2) and in hands 1, 3 and 5 (seed 9).
GAMES = [(name, seed) for name in sorted(PRESETS) for seed in (1, 2)] + [("joker", 2), ("joker", 9)]


@pytest.mark.parametrize(("name", "seed"), GAMES)
def test_the_stream_is_what_is_recorded_and_what_each_seat_is_told(name, seed):
    rules = JOKER_RULES if name == "joker" else preset(name)
    game, stream, log, told = play(rules, seed)
    if name == "joker":
        assert any(isinstance(e, HandDealt) and e.upcard == JOKER for e in stream)
    # The stream is the game: its deals, its results and scores, its end.
    deals = [e for e in stream if isinstance(e, HandDealt)]
    assert [d.hand_number for d in deals] == list(range(len(game.results)))
    for d in deals:
        dealt = HandState.deal(rules, d.dealer, deck_order(rules, seed, d.hand_number))
        assert d.hands == tuple(tuple(h) for h in dealt.hands) and d.kitty == dealt.kitty
    ended = [e for e in stream if isinstance(e, HandEnded)]
    assert [e.result for e in ended] == game.results
    assert stream[-1] == GameEnded(tuple(game.scores), game.winner)
    assert sum(isinstance(e, ActionTaken) for e in stream) == sum(len(h.actions) for h in log.hands)
    # What the recorder recorded, read back from the stream; and the engine agrees with it.
    assert log.hands == hands_from(stream)
    assert log.final_scores == tuple(game.scores) and log.winning_team == game.winner
    assert verify(log) is None
    # What each seat was told: the stream, filtered for it, in the same order.
    for seat in range(rules.seats):
        assert told[seat] == seat_events(stream, seat) == told_to(stream, seat)


def test_recording_through_apply_or_the_feed_gives_the_same_record_and_feed():
    """The older way in, Recorder.apply(game.apply or feed.apply, ...), writes the same."""
    _, stream, log, told = play(STANDARD, 9)
    actions = [e for e in stream if isinstance(e, ActionTaken)]
    for via_feed in (False, True):
        again = GameState(STANDARD, 9)
        again_log = new_log(again)
        recorder = Recorder(again, again_log)
        feed = EventFeed(again)
        apply = feed.apply if via_feed else again.apply
        returned = [again.dealt]
        for i, e in enumerate(actions):
            returned += recorder.apply(apply, e.action, e.seat, i, i % 7 == 0)
        recorder.finish(GameEnd.COMPLETED, again.winner)
        assert again_log == log and returned == stream
        if via_feed:
            assert [feed.take(s) for s in range(4)] == told


def _order_up_and_discard(game: GameState):
    """Seat left of the dealer orders up, nobody goes alone, the dealer discards: returns
    (the discard action, the events of the discard)."""
    hand = game.hand
    assert hand.phase is Phase.BID_ROUND_1
    game.apply(A.order_up(), (hand.dealer + 1) % 4)
    while hand.phase is Phase.GOING_ALONE:
        game.apply(A.PASS)
    assert hand.phase is Phase.DEALER_DISCARD and hand.turn == hand.dealer
    discard = hand.legal_actions()[0]
    return discard, game.apply(discard, hand.dealer)


@pytest.mark.parametrize("dealer", range(4))
def test_a_discard_is_shown_to_the_dealer_only(dealer):
    game = GameState(STANDARD, seed=21, first_dealer=dealer)
    log = new_log(game)
    recorder = Recorder(game, log)
    feed = EventFeed(game)
    for seat in range(4):
        feed.take(seat)
    discard, events = _order_up_and_discard(game)
    assert events == (ActionTaken(dealer, discard, ActionKind.DISCARD),)
    recorder.record(events)
    assert log.hands[0].actions[-1].action is discard  # the record keeps everything
    feed.tell(events)
    for seat in range(4):
        (told,) = feed.take(seat)
        view = seat_view(game, seat)
        if seat == dealer:
            assert told == events[0] and view.discard == discard.card
        else:
            assert told == ActionTaken(dealer, None, ActionKind.DISCARD)
            assert view.discard is None
            assert codec.event_to_pb(told).action_taken.hidden  # what the bot is sent
            assert not codec.event_to_pb(told).action_taken.action.HasField("card")
        assert seat_event(events[0], seat) == told


def _first_seed(rules: RuleSet, hand_number: int) -> int:
    """A seed whose hand `hand_number` turns up the joker."""
    return next(
        s for s in range(100_000)
        if deck_order(rules, s, hand_number)[4 * rules.cards_per_hand] == JOKER
    )


def test_a_dealer_naming_trump_on_a_turned_joker_is_dealt_no_cards():
    seed = _first_seed(JOKER_RULES, 0)
    game = GameState(JOKER_RULES, seed)
    hand, dealer = game.hand, game.hand.dealer
    assert hand.phase is Phase.DEALER_NAMES_TRUMP and game.dealt.upcard == JOKER
    log = new_log(game)
    Recorder(game, log)
    feed = EventFeed(game)
    assert log.hands[0].dealt[dealer] == tuple(hand.hands[dealer])  # recorded in full
    for seat in range(4):
        (started,) = feed.take(seat)
        own = () if seat == dealer else tuple(sorted(hand.hands[seat]))
        assert started == HandStarted(0, dealer, JOKER, own)
        assert seat_view(game, seat).hand == own
    events = feed.apply(A.name_trump(hand.legal_actions()[0].suit), dealer)
    for seat in range(4):
        assert feed.take(seat) == list(events)  # naming is public, and shows no card
    after = seat_view(game, dealer).hand  # having named trump, the dealer looks
    assert after and set(after) == set(hand.hands[dealer])


def test_a_joker_turned_in_a_later_hand_is_hidden_from_its_dealer_too():
    """A later deal comes in apply()'s events; the feed filters it the same way."""
    rng = random.Random(2)
    for seed in range(200):
        game = GameState(JOKER_RULES, seed)
        feed = EventFeed(game)
        while not game.over:
            events = feed.apply(rng.choice(game.legal_actions()))
            dealt = events[-1]
            if isinstance(dealt, HandDealt) and dealt.upcard == JOKER:
                for seat in range(4):
                    started = feed.take(seat)[-1]
                    assert isinstance(started, HandStarted)
                    assert started.hand_number == dealt.hand_number > 0
                    expected = () if seat == dealt.dealer else tuple(sorted(dealt.hands[seat]))
                    assert started.hand == expected
                return
    raise AssertionError("no later hand turned up the joker")


def test_a_forfeit_ends_every_seats_feed():
    game = GameState(STANDARD, 5)
    feed = EventFeed(game)
    feed.apply(game.legal_actions()[0])
    feed.forfeit(losing_team=1)
    for seat in range(4):
        assert feed.take(seat)[-1] == GameEnded((0, 0), 0, forfeit=True)


def test_a_stalled_game_ends_every_seats_feed_as_a_draw():
    game = GameState(STANDARD, 5)
    feed = EventFeed(game)
    feed.apply(game.legal_actions()[0])
    feed.stalled()
    for seat in range(4):
        told = feed.take(seat)[-1]
        assert told == GameEnded((0, 0), None)
        wire = codec.event_to_pb(told)
        assert wire.game_ended.draw and not wire.game_ended.forfeit
        assert codec.event_from_pb(wire) == told


def _passed_out(hands: int) -> GameLog:
    """A game of seats that always pass (no stick-the-dealer), stopped as stalled after
    `hands` hands thrown in."""
    game = GameState(preset("new-zealand"), 3)
    log = new_log(game)
    recorder = Recorder(game, log)
    while len(game.results) < hands:
        recorder.apply(game.apply, A.PASS, game.turn)
    return recorder.finish(GameEnd.STALLED, None)


def test_a_stalled_record_verifies_only_after_the_whole_run():
    from arena.records.gamelog import STALLED_AFTER

    assert verify(_passed_out(STALLED_AFTER)) is None
    assert f"stalled after {STALLED_AFTER - 1} hands" in (verify(_passed_out(STALLED_AFTER - 1)) or "")
