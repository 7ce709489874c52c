"""Maps the rules core's domain values to the bot protocol's protobuf messages and back.

Everything above the wire sees domain types only; everything a bot sends is decoded here
and a message that does not describe a real card, suit or action is refused with
MalformedMessage, which the arena rules a fault of the bot, not an error of its own.
Game records (record.proto) are mapped by arena.records.codec, from these pieces.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TypeVar

from arena.core.actions import Action, ActionKind
from arena.core.cards import (
    JOKER,
    PACK_IDS,
    Card,
    Suit,
    card_rank,
    card_suit,
    copy_of,
    make_card,
)
from arena.core.events import (
    ActionTaken,
    Event,
    GameEnded,
    HandEnded,
    HandStarted,
    TrickCompleted,
)
from arena.core.features import Feature
from arena.core.hand import HandResult, Phase, Trick
from arena.core.rules import FirstLead, LoneDefender, RuleSet, WhoMayGoAlone
from arena.core.scoring import Outcome, Score
from arena.core.view import SeatView, TrickView
from arena.settings.errors import BotError
from arena.wire.gen.euchre.v1 import bot_pb2
from arena.wire.gen.euchre.v1 import types_pb2 as pb


class MalformedMessage(BotError, ValueError):
    """A message from a bot that does not decode to a domain value (a record that does
    not is a RecordError: arena.records.files says so)."""


# --- cards and suits -------------------------------------------------------------


def _pair(values: Sequence[int]) -> tuple[int, int]:
    return (values[0], values[1]) if len(values) == 2 else (0, 0)


# The wire's suits are the rules core's plus one (0 is SUIT_UNSPECIFIED), and its ranks
# are the ranks themselves (7..14); these tables give the generated enums' typed values.
_SUIT_TO_PB = (pb.SUIT_CLUBS, pb.SUIT_DIAMONDS, pb.SUIT_HEARTS, pb.SUIT_SPADES)
_RANK_TO_PB = {
    7: pb.RANK_SEVEN, 8: pb.RANK_EIGHT, 9: pb.RANK_NINE, 10: pb.RANK_TEN,
    11: pb.RANK_JACK, 12: pb.RANK_QUEEN, 13: pb.RANK_KING, 14: pb.RANK_ACE,
}


def suit_to_pb(suit: int | None) -> pb.Suit:
    return pb.SUIT_UNSPECIFIED if suit is None else _SUIT_TO_PB[suit]


def suit_from_pb(value: int) -> Suit:
    if not pb.SUIT_CLUBS <= value <= pb.SUIT_SPADES:
        raise MalformedMessage(f"no such suit: {value}")
    return Suit(value - 1)


def card_to_pb(card: Card, out: pb.Card | None = None) -> pb.Card:
    msg = pb.Card() if out is None else out
    rank = card_rank(card)
    if rank is None:  # the joker, which has no suit
        msg.rank = pb.RANK_JOKER
    else:
        msg.suit = suit_to_pb(card_suit(card))
        msg.rank = _RANK_TO_PB[rank]
    if copy_of(card):
        msg.copy = 1
    return msg


def card_from_pb(msg: pb.Card) -> Card:
    if msg.copy > 1:
        raise MalformedMessage(f"no copy {msg.copy} of a card: 0, or 1 in the double pack")
    copy = PACK_IDS * msg.copy
    if msg.rank == pb.RANK_JOKER:
        if msg.suit != pb.SUIT_UNSPECIFIED:
            raise MalformedMessage("the joker has no suit")
        return JOKER + copy
    if not pb.RANK_SEVEN <= msg.rank <= pb.RANK_ACE:
        raise MalformedMessage(f"no such rank: {msg.rank}")
    return make_card(msg.rank, suit_from_pb(msg.suit)) + copy


def cards_from_pb(msgs: Iterable[pb.Card]) -> tuple[Card, ...]:
    return tuple(card_from_pb(m) for m in msgs)


# --- actions -----------------------------------------------------------------------

_KIND_TO_PB = {
    ActionKind.PASS: pb.ACTION_KIND_PASS,
    ActionKind.ORDER_UP: pb.ACTION_KIND_ORDER_UP,
    ActionKind.NAME_TRUMP: pb.ACTION_KIND_NAME_TRUMP,
    ActionKind.DISCARD: pb.ACTION_KIND_DISCARD,
    ActionKind.GO_ALONE: pb.ACTION_KIND_GO_ALONE,
    ActionKind.PLAY: pb.ACTION_KIND_PLAY,
    ActionKind.ASK: pb.ACTION_KIND_ASK,
    ActionKind.GIVE: pb.ACTION_KIND_GIVE,
    ActionKind.PASS_CARD: pb.ACTION_KIND_PASS_CARD,
}
_WITH_CARD = frozenset(
    {ActionKind.DISCARD, ActionKind.PLAY, ActionKind.GIVE, ActionKind.PASS_CARD}
)
_WITH_SEAT = frozenset({ActionKind.ASK, ActionKind.GIVE, ActionKind.PASS_CARD})
_KIND_FROM_PB = {v: k for k, v in _KIND_TO_PB.items()}


def action_to_pb(action: Action, out: pb.Action | None = None) -> pb.Action:
    msg = pb.Action() if out is None else out
    msg.kind = _KIND_TO_PB[action.kind]
    if action.suit is not None:
        msg.suit = suit_to_pb(action.suit)
    if action.card is not None:
        card_to_pb(action.card, msg.card)
    if action.alone:
        msg.alone = True
    if action.seat is not None:
        msg.seat = action.seat
    return msg


def action_from_pb(msg: pb.Action) -> Action:
    kind = _KIND_FROM_PB.get(msg.kind)
    if kind is None:
        raise MalformedMessage(f"no such action kind: {msg.kind}")
    suit = suit_from_pb(msg.suit) if kind is ActionKind.NAME_TRUMP else None
    if kind in _WITH_CARD:
        if not msg.HasField("card"):
            raise MalformedMessage(f"{kind.name.lower()} without a card")
        card: Card | None = card_from_pb(msg.card)
    else:
        card = None
    seat: int | None = None
    if kind in _WITH_SEAT:
        if not msg.HasField("seat"):
            raise MalformedMessage(f"{kind.name.lower()} without a seat")
        seat = msg.seat
    try:
        return Action(kind, suit, card, msg.alone, seat)
    except ValueError as e:
        raise MalformedMessage(str(e)) from None


# --- rules -------------------------------------------------------------------------

_WHO = {WhoMayGoAlone.MAKER_ONLY: pb.WHO_MAY_GO_ALONE_MAKER_ONLY,
        WhoMayGoAlone.ANY_PLAYER: pb.WHO_MAY_GO_ALONE_ANY_PLAYER}
_LONE = {LoneDefender.NOT_ALLOWED: pb.LONE_DEFENDER_NOT_ALLOWED,
         LoneDefender.ALLOWED: pb.LONE_DEFENDER_ALLOWED,
         LoneDefender.AGAINST_LONE_MAKER: pb.LONE_DEFENDER_AGAINST_LONE_MAKER}
_LEAD = {FirstLead.LEFT_OF_DEALER: pb.FIRST_LEAD_LEFT_OF_DEALER,
         FirstLead.LEFT_OF_LONE_PLAYER: pb.FIRST_LEAD_LEFT_OF_LONE_PLAYER}


_K = TypeVar("_K")


def _reverse(mapping: Mapping[_K, int], value: int, what: str) -> _K:
    for k, v in mapping.items():
        if v == value:
            return k
    raise MalformedMessage(f"no such {what}: {value}")


def rules_to_pb(rules: RuleSet, out: pb.RuleSet | None = None) -> pb.RuleSet:
    msg = pb.RuleSet() if out is None else out
    msg.name = rules.name
    msg.seats = rules.seats
    msg.deck_size = rules.deck
    msg.joker = rules.joker
    msg.target_score = rules.target
    msg.stick_the_dealer = rules.stick_the_dealer
    msg.who_may_go_alone = _WHO[rules.who_may_go_alone]
    msg.lone_defender = _LONE[rules.lone_defender]
    msg.lone_defender_euchre_points = rules.lone_defender_euchre_points
    msg.lone_defender_march_points = rules.lone_defender_march_points or 0
    msg.dealer_partner_must_go_alone = rules.dealer_partner_must_go_alone
    msg.first_lead = _LEAD[rules.first_lead]
    msg.passed_player_may_go_alone = rules.passed_player_may_go_alone
    msg.super_euchre_points = rules.super_euchre_points
    msg.dealer_needs_trump_to_pick_up = rules.dealer_needs_trump_to_pick_up
    msg.hand_size = rules.hand_size
    msg.win_by_two = rules.win_by_two
    msg.hand_limit = rules.hand_limit or 0
    msg.march_points = rules.march_points
    msg.lone_march_points = rules.lone_march_points
    msg.euchre_points = rules.euchre_points
    msg.dealer_may_decline = rules.dealer_may_decline
    msg.turned_joker_bid = rules.turned_joker_bid
    msg.lone_asks_partner = rules.lone_asks_partner
    msg.railroading = rules.railroading
    msg.coloured_jokers = rules.coloured_jokers
    msg.two_of_spades_joker = rules.two_of_spades_joker
    return msg


def rules_from_pb(msg: pb.RuleSet) -> RuleSet:
    """Raises MalformedMessage for enums out of range, RuleSetError for contradictions."""
    return RuleSet(
        name=msg.name or "custom",
        seats=msg.seats,
        deck=msg.deck_size,
        joker=msg.joker,
        target=msg.target_score,
        stick_the_dealer=msg.stick_the_dealer,
        who_may_go_alone=_reverse(_WHO, msg.who_may_go_alone, "who_may_go_alone"),
        lone_defender=_reverse(_LONE, msg.lone_defender, "lone_defender"),
        lone_defender_euchre_points=msg.lone_defender_euchre_points,
        lone_defender_march_points=msg.lone_defender_march_points or None,
        dealer_partner_must_go_alone=msg.dealer_partner_must_go_alone,
        first_lead=_reverse(_LEAD, msg.first_lead, "first_lead"),
        passed_player_may_go_alone=msg.passed_player_may_go_alone,
        super_euchre_points=msg.super_euchre_points,
        dealer_needs_trump_to_pick_up=msg.dealer_needs_trump_to_pick_up,
        # 0 is "not set" in proto3: a message from before these fields means the defaults.
        hand_size=msg.hand_size or 5,
        win_by_two=msg.win_by_two,
        hand_limit=msg.hand_limit or None,
        march_points=msg.march_points or 2,
        lone_march_points=msg.lone_march_points or 4,
        euchre_points=msg.euchre_points or 2,
        dealer_may_decline=msg.dealer_may_decline,
        turned_joker_bid=msg.turned_joker_bid,
        lone_asks_partner=msg.lone_asks_partner,
        railroading=msg.railroading,
        coloured_jokers=msg.coloured_jokers,
        two_of_spades_joker=msg.two_of_spades_joker,
    )


# --- views, tricks, results, events ---------------------------------------------

_FEATURE_TO_PB = {f: getattr(bot_pb2, f"FEATURE_{f.name}") for f in Feature}
_FEATURE_FROM_PB = {v: k for k, v in _FEATURE_TO_PB.items()}


def features_to_pb(features: Iterable[Feature]) -> list[bot_pb2.Feature]:
    return sorted(_FEATURE_TO_PB[f] for f in features)


def features_from_pb(values: Iterable[int]) -> frozenset[Feature]:
    """The features a bot declared; numbers this arena does not know (a newer protocol's)
    are left out, as a bot's declaring more than is asked of it changes nothing."""
    return frozenset(_FEATURE_FROM_PB[v] for v in values if v in _FEATURE_FROM_PB)


_PHASE_TO_PB = {p: getattr(pb, f"PHASE_{p.name}") for p in Phase}
_PHASE_FROM_PB = {v: k for k, v in _PHASE_TO_PB.items()}
_OUTCOME_TO_PB = {o: getattr(pb, f"OUTCOME_{o.name}") for o in Outcome}
_OUTCOME_FROM_PB = {v: k for k, v in _OUTCOME_TO_PB.items()}


def _trick_to_pb(
    leader: int, plays: Iterable[tuple[int, Card]], winner: int | None, msg: pb.Trick
) -> pb.Trick:
    msg.leader = leader
    for seat, card in plays:
        p = msg.plays.add()
        p.seat = seat
        card_to_pb(card, p.card)
    if winner is not None:
        msg.winner = winner
    return msg


def _trick_from_pb(msg: pb.Trick) -> TrickView:
    plays = tuple((p.seat, card_from_pb(p.card)) for p in msg.plays)
    return TrickView(msg.leader, plays, msg.winner if msg.HasField("winner") else None)


def view_to_pb(view: SeatView, out: pb.SeatView | None = None) -> pb.SeatView:
    msg = pb.SeatView() if out is None else out
    msg.seat = view.seat
    msg.hand_number = view.hand_number
    msg.dealer = view.dealer
    msg.scores.extend(view.scores)
    msg.phase = _PHASE_TO_PB[view.phase]
    if view.turn is not None:
        msg.turn = view.turn
    for c in view.hand:
        card_to_pb(c, msg.hand.add())
    card_to_pb(view.upcard, msg.upcard)
    msg.upcard_turned_down = view.upcard_turned_down
    msg.dealer_took_upcard = view.dealer_took_upcard
    for seat, action in view.auction:
        a = msg.auction.add()
        a.seat = seat
        action_to_pb(action, a.action)
    msg.trump = suit_to_pb(view.trump)
    if view.maker is not None:
        msg.maker = view.maker
    msg.alone.extend(view.alone)
    msg.sitting_out.extend(view.sitting_out)
    if view.discard is not None:
        card_to_pb(view.discard, msg.discard)
    for t in view.tricks:
        _trick_to_pb(t.leader, t.plays, t.winner, msg.tricks.add())
    if view.current_trick is not None:
        t = view.current_trick
        _trick_to_pb(t.leader, t.plays, None, msg.current_trick)
    msg.tricks_won.extend(view.tricks_won)
    msg.cards_in_hands.extend(view.cards_in_hands)
    if view.gave is not None:
        card_to_pb(view.gave, msg.gave)
    for c in view.set_aside:
        card_to_pb(c, msg.set_aside.add())
    return msg


def view_from_pb(msg: pb.SeatView, rules: RuleSet) -> SeatView:
    """The bot side's decoding (the SDK): the rules come from the handshake."""
    return SeatView(
        seat=msg.seat,
        rules=rules,
        hand_number=msg.hand_number,
        dealer=msg.dealer,
        scores=_pair(msg.scores),
        phase=_PHASE_FROM_PB[msg.phase],
        turn=msg.turn if msg.HasField("turn") else None,
        hand=cards_from_pb(msg.hand),
        upcard=card_from_pb(msg.upcard),
        upcard_turned_down=msg.upcard_turned_down,
        dealer_took_upcard=msg.dealer_took_upcard,
        auction=tuple((a.seat, action_from_pb(a.action)) for a in msg.auction),
        trump=None if msg.trump == pb.SUIT_UNSPECIFIED else suit_from_pb(msg.trump),
        maker=msg.maker if msg.HasField("maker") else None,
        alone=tuple(msg.alone),
        sitting_out=tuple(msg.sitting_out),
        discard=card_from_pb(msg.discard) if msg.HasField("discard") else None,
        tricks=tuple(_trick_from_pb(t) for t in msg.tricks),
        current_trick=_trick_from_pb(msg.current_trick) if msg.HasField("current_trick") else None,
        tricks_won=_pair(msg.tricks_won),
        cards_in_hands=tuple(msg.cards_in_hands),
        gave=card_from_pb(msg.gave) if msg.HasField("gave") else None,
        set_aside=cards_from_pb(msg.set_aside),
    )


def result_to_pb(result: HandResult, out: pb.HandResult | None = None) -> pb.HandResult:
    msg = pb.HandResult() if out is None else out
    msg.dealer = result.dealer
    msg.trump = suit_to_pb(result.trump)
    if result.maker is not None:
        msg.maker = result.maker
    msg.alone.extend(result.alone)
    msg.tricks_won.extend(result.tricks_won)
    msg.outcome = _OUTCOME_TO_PB[result.score.outcome]
    if result.score.team is not None:
        msg.scoring_team = result.score.team
    msg.points = result.score.points
    return msg


def result_from_pb(msg: pb.HandResult) -> HandResult:
    return HandResult(
        dealer=msg.dealer,
        trump=None if msg.trump == pb.SUIT_UNSPECIFIED else suit_from_pb(msg.trump),
        maker=msg.maker if msg.HasField("maker") else None,
        alone=tuple(msg.alone),
        tricks_won=_pair(msg.tricks_won),
        score=Score(
            _OUTCOME_FROM_PB.get(msg.outcome, Outcome.THROWN_IN),
            msg.scoring_team if msg.HasField("scoring_team") else None,
            msg.points,
        ),
    )


def event_to_pb(event: Event, out: pb.Event | None = None) -> pb.Event:
    msg = pb.Event() if out is None else out
    if isinstance(event, ActionTaken):
        m = msg.action_taken
        m.seat = event.seat
        if event.action is None:
            m.action.kind = _KIND_TO_PB[event.kind]
            m.hidden = True
        else:
            action_to_pb(event.action, m.action)
    elif isinstance(event, TrickCompleted):
        t = event.trick
        _trick_to_pb(t.leader, t.plays, t.winner, msg.trick_completed.trick)
    elif isinstance(event, HandStarted):
        m = msg.hand_started
        m.hand_number = event.hand_number
        m.dealer = event.dealer
        card_to_pb(event.upcard, m.upcard)
        for c in event.hand:
            card_to_pb(c, m.hand.add())
    elif isinstance(event, HandEnded):
        result_to_pb(event.result, msg.hand_ended.result)
        msg.hand_ended.scores.extend(event.scores)
    elif isinstance(event, GameEnded):
        msg.game_ended.scores.extend(event.scores)
        msg.game_ended.winning_team = event.winning_team or 0
        msg.game_ended.draw = event.winning_team is None
        msg.game_ended.forfeit = event.forfeit
    else:  # pragma: no cover - the union is closed
        raise TypeError(f"not an event: {event!r}")
    return msg


def event_from_pb(msg: pb.Event) -> Event:
    which = msg.WhichOneof("event")
    if which == "action_taken":
        m = msg.action_taken
        kind = _KIND_FROM_PB.get(m.action.kind)
        if kind is None:
            raise MalformedMessage(f"no such action kind: {m.action.kind}")
        return ActionTaken(m.seat, None if m.hidden else action_from_pb(m.action), kind)
    if which == "trick_completed":
        t = _trick_from_pb(msg.trick_completed.trick)
        return TrickCompleted(Trick(t.leader, t.plays, t.winner if t.winner is not None else -1))
    if which == "hand_started":
        m = msg.hand_started
        return HandStarted(m.hand_number, m.dealer, card_from_pb(m.upcard), cards_from_pb(m.hand))
    if which == "hand_ended":
        s = msg.hand_ended.scores
        return HandEnded(result_from_pb(msg.hand_ended.result), _pair(s))
    if which == "game_ended":
        m = msg.game_ended
        s = m.scores
        return GameEnded(_pair(s), None if m.draw else m.winning_team, m.forfeit)
    raise MalformedMessage("empty event")
