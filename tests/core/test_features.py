"""What each rule set needs of a bot beyond the protocol's first revision."""

from arena.core.features import ALL_FEATURES, Feature, features_needed, lacking
from arena.core.rules import RuleSet
from arena.settings.rule_sets import NAMED_RULES
from arena.wire import codec
from arena.wire.gen.euchre.v1 import bot_pb2


def test_the_first_revisions_tables_need_nothing():
    # The first revision knew four seats, five cards, one pack of 24, 25, 32 or 33 cards.
    for name in ("standard", "british", "canadian", "new-zealand", "32-card", "33-card"):
        assert features_needed(NAMED_RULES[name]) == frozenset(), name


def test_each_later_option_needs_its_feature():
    assert features_needed(NAMED_RULES["six-player"]) == {Feature.SIX_SEATS, Feature.CORNWALL_ASK}
    assert features_needed(NAMED_RULES["six-player-double"]) == {
        Feature.SIX_SEATS, Feature.CORNWALL_ASK, Feature.DOUBLE_PACK}
    assert features_needed(NAMED_RULES["seven-card"]) == {Feature.SEVEN_CARD_HANDS}
    assert features_needed(NAMED_RULES["29-card"]) == {
        Feature.DEALER_DECLINE, Feature.TURNED_JOKER_BID}
    assert features_needed(NAMED_RULES["railroading"]) == {Feature.RAILROADING}
    # scoring and length alone need nothing
    assert features_needed(RuleSet(target=15, win_by_two=True, march_points=3)) == frozenset()
    assert features_needed(RuleSet(hand_limit=12)) == frozenset()


def test_lacking_names_what_is_missing_and_nothing_else():
    rules = NAMED_RULES["six-player-double"]
    assert lacking(rules, ALL_FEATURES) is None
    why = lacking(rules, {Feature.SIX_SEATS})
    assert why is not None
    assert "FEATURE_DOUBLE_PACK, FEATURE_CORNWALL_ASK" in why and "FEATURE_SIX_SEATS" not in why


def test_the_wire_names_every_feature_and_skips_unknown_numbers():
    assert len(bot_pb2.Feature.values()) == len(Feature) + 1  # and UNSPECIFIED
    numbers = codec.features_to_pb(Feature)
    assert codec.features_from_pb(numbers) == ALL_FEATURES
    assert codec.features_from_pb([*numbers[:2], 999]) == frozenset(
        codec.features_from_pb(numbers[:2]))
