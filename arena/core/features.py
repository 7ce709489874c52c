"""What a rule set asks of a player beyond the protocol's first revision.

The first revision of the protocol knew four seats, five-card hands, one pack with at most
one joker, and the phases and actions of bidding, the dealer's discard, going alone and
play. Every later rule option that changes the shape of a decision (new phases, new
actions, new fields an answer must carry, more seats or cards) is a feature here: a bot
says in its Hello which it understands, and the arena seats it only where the rules need
nothing more. Options that change only the scoring or the game's length are not
features: a bot that ignores them still plays legally.

This lives in the rules core because it is a property of the rules alone: the wire maps
it to the protocol's enum, the process layer refuses a bot that lacks one.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from arena.core.rules import RuleSet


class Feature(Enum):
    SIX_SEATS = "six_seats"
    SEVEN_CARD_HANDS = "seven_card_hands"
    DOUBLE_PACK = "double_pack"
    DEALER_DECLINE = "dealer_decline"
    TURNED_JOKER_BID = "turned_joker_bid"
    CORNWALL_ASK = "cornwall_ask"
    RAILROADING = "railroading"


DESCRIPTIONS: dict[Feature, str] = {
    Feature.SIX_SEATS: "six seats (two teams of three)",
    Feature.SEVEN_CARD_HANDS: "seven-card hands",
    Feature.DOUBLE_PACK: "the double pack (Card.copy; of two equal cards the second wins)",
    Feature.DEALER_DECLINE: "the dealer's decline (PHASE_DEALER_PICKUP)",
    Feature.TURNED_JOKER_BID: "a turned joker bid on (NAME_TRUMP in round 1)",
    Feature.CORNWALL_ASK: "Cornwall's ask and give (ASK, GIVE, Action.seat)",
    Feature.RAILROADING: "railroading (PASS_CARD, PHASE_LONER_EXCHANGES)",
}
"""Each feature in an author's words, with the protocol's names it brings."""

ALL_FEATURES = frozenset(Feature)


def features_needed(rules: RuleSet) -> frozenset[Feature]:
    """The features a bot must understand to be seated at a table of these rules."""
    needed = set()
    if rules.seats != 4:
        needed.add(Feature.SIX_SEATS)
    if rules.hand_size != 5:
        needed.add(Feature.SEVEN_CARD_HANDS)
    if rules.deck == 50:
        needed.add(Feature.DOUBLE_PACK)
    if rules.dealer_may_decline:
        needed.add(Feature.DEALER_DECLINE)
    if rules.turned_joker_bid:
        needed.add(Feature.TURNED_JOKER_BID)
    if rules.lone_asks_partner:
        needed.add(Feature.CORNWALL_ASK)
    if rules.railroading:
        needed.add(Feature.RAILROADING)
    return frozenset(needed)


def missing_features(rules: RuleSet, declared: Iterable[Feature]) -> list[Feature]:
    """What these rules need that a bot did not declare, in the protocol's order."""
    have = set(declared)
    return [f for f in Feature if f in features_needed(rules) and f not in have]


def lacking(rules: RuleSet, declared: Iterable[Feature]) -> str | None:
    """Why a bot may not sit at this table, in one line, or None when it may."""
    missing = missing_features(rules, declared)
    if not missing:
        return None
    what = "; ".join(DESCRIPTIONS[f] for f in missing)
    names = ", ".join(f"FEATURE_{f.name}" for f in missing)
    return f"the bot does not declare what these rules need: {what} (HelloResponse.features lacks {names})"
