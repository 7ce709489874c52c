"""Rule sets (RULES.md sections 7, 8 and 9): defaults, the presets exactly, every option
settable one by one, contradictions refused with messages that name the options."""

from __future__ import annotations

from dataclasses import fields

import pytest

from arena.core.errors import RuleSetError
from arena.core.rules import (
    OPTION_NAMES,
    PRESETS,
    FirstLead,
    LoneDefender,
    RuleSet,
    WhoMayGoAlone,
    preset,
    rules_from_options,
)

DEFAULTS = {
    "seats": 4,
    "deck": 24,
    "joker": False,
    "target": 10,
    "stick_the_dealer": True,
    "who_may_go_alone": "maker_only",
    "lone_defender": "not_allowed",
    "lone_defender_euchre_points": 2,
    "lone_defender_march_points": None,
    "dealer_partner_must_go_alone": False,
    "first_lead": "left_of_dealer",
    "passed_player_may_go_alone": True,
    "super_euchre_points": 2,
    "dealer_needs_trump_to_pick_up": False,
    "hand_size": 5,
    "win_by_two": False,
    "hand_limit": None,
    "march_points": 2,
    "lone_march_points": 4,
    "euchre_points": 2,
    "dealer_may_decline": False,
    "turned_joker_bid": False,
    "lone_asks_partner": False,
    "railroading": False,
    "coloured_jokers": False,
    "two_of_spades_joker": False,
    "name": "custom",
}


def test_defaults_are_the_first_value_of_each_option():
    assert RuleSet().to_options() == DEFAULTS


def test_rule_sets_are_frozen_values():
    r = RuleSet()
    with pytest.raises(AttributeError):
        r.target = 5  # type: ignore[misc]
    assert RuleSet(target=11) == RuleSet(target=11)
    assert hash(RuleSet(target=11)) == hash(RuleSet(target=11))
    assert RuleSet(target=11) != RuleSet(target=15)


def test_preset_names():
    assert set(PRESETS) == {
        "standard", "british", "canadian", "new-zealand", "six-player", "six-player-double",
        "almonte", "almonte-league",
    }
    for name, rules in PRESETS.items():
        assert rules.name == name
        assert preset(name) is rules


def test_standard_preset():
    """24 cards, target 10, stick the dealer on, maker alone only, no lone defender,
    dealer's partner may play with partner."""
    assert preset("standard").to_options() == DEFAULTS | {"name": "standard"}


def test_british_preset():
    """25 cards with the joker, target 11, stick the dealer off, any player may go alone
    (lone defender allowed, 4 points for euchring), dealer's partner must go alone,
    first lead left of the lone player."""
    assert preset("british").to_options() == DEFAULTS | {
        "name": "british",
        "deck": 25,
        "joker": True,
        "target": 11,
        "stick_the_dealer": False,
        "who_may_go_alone": "any_player",
        "lone_defender": "allowed",
        "lone_defender_euchre_points": 4,
        "dealer_partner_must_go_alone": True,
        "first_lead": "left_of_lone_player",
    }


def test_canadian_preset():
    """Standard, but the dealer's partner must go alone when ordering up."""
    assert preset("canadian").to_options() == DEFAULTS | {
        "name": "canadian",
        "dealer_partner_must_go_alone": True,
    }


BRITISH = {
    "stick_the_dealer": False,
    "who_may_go_alone": "any_player",
    "lone_defender": "allowed",
    "first_lead": "left_of_lone_player",
}
SIX_PLAYER = BRITISH | {
    # RULES.md section 9, seed 000: march or euchre 3, a lone march or a lone defender's
    # euchre 6 ("si el ganador esta jugando solo, 6 en lugar de 4").
    "seats": 6,
    "joker": True,
    "march_points": 3,
    "euchre_points": 3,
    "lone_march_points": 6,
    "lone_defender_euchre_points": 6,
    "lone_asks_partner": True,
    # RULES.md section 9: Cornwall's game bids as the British one does (either teammate
    # of the dealer who orders up goes alone).
    "dealer_partner_must_go_alone": True,
}


def test_new_zealand_preset():
    """32-card Euchre as played in New Zealand (seed 000): the British game on 7 to ace,
    without the joker."""
    assert preset("new-zealand").to_options() == DEFAULTS | BRITISH | {
        "name": "new-zealand", "deck": 32, "target": 11, "lone_defender_euchre_points": 4,
        "dealer_partner_must_go_alone": True,
    }


def test_six_player_presets():
    """Cornwall six-player (33 cards, to 11) and six-hand Almonte (31 cards, to 15, or a
    league game of exactly 12 hands): seed 000 and RULES.md section 9."""
    assert preset("six-player").to_options() == DEFAULTS | SIX_PLAYER | {
        "name": "six-player", "deck": 33, "target": 11,
    }
    assert preset("six-player-double").to_options() == DEFAULTS | SIX_PLAYER | {
        "name": "six-player-double", "deck": 50, "target": 11,
    }
    assert preset("six-player-double").kitty_size == 20
    assert preset("almonte").to_options() == DEFAULTS | SIX_PLAYER | {
        "name": "almonte", "deck": 31, "target": 15,
    }
    assert preset("almonte-league").to_options() == DEFAULTS | SIX_PLAYER | {
        "name": "almonte-league", "deck": 31, "hand_limit": 12,
    }
    # Almonte's pack: five to each of six and the last card turned, so nothing is hidden.
    assert preset("almonte").kitty_size == 1 and preset("six-player").kitty_size == 3


def test_unknown_preset_is_named():
    with pytest.raises(RuleSetError, match="'australian'") as err:
        preset("australian")
    assert "standard" in str(err.value)


# --- every option settable ----------------------------------------------------------

NON_DEFAULT_VALUES = {
    "seats": (6, {"deck": 33, "joker": True}),
    "deck": (32, {}),
    "joker": (True, {"deck": 25}),
    "target": (15, {}),
    "stick_the_dealer": (False, {}),
    "who_may_go_alone": (WhoMayGoAlone.ANY_PLAYER, {}),
    "lone_defender": (LoneDefender.AGAINST_LONE_MAKER, {}),
    "lone_defender_euchre_points": (4, {"lone_defender": LoneDefender.ALLOWED}),
    "lone_defender_march_points": (4, {"lone_defender": LoneDefender.ALLOWED}),
    "dealer_partner_must_go_alone": (True, {}),
    "first_lead": (FirstLead.LEFT_OF_LONE_PLAYER, {}),
    "passed_player_may_go_alone": (False, {}),
    "super_euchre_points": (4, {}),
    "dealer_needs_trump_to_pick_up": (True, {}),
    "hand_size": (7, {"deck": 32}),
    "win_by_two": (True, {}),
    "hand_limit": (12, {}),
    "march_points": (3, {}),
    "lone_march_points": (6, {}),
    "euchre_points": (3, {}),
    "dealer_may_decline": (True, {}),
    "turned_joker_bid": (True, {"deck": 25, "joker": True}),
    "lone_asks_partner": (True, {}),
    "railroading": (True, {}),
    "coloured_jokers": (True, {"seats": 6, "deck": 50, "joker": True}),
    "two_of_spades_joker": (True, {"deck": 25, "joker": True}),
    "name": ("my table", {}),
}


def test_the_settable_table_lists_every_option():
    assert set(NON_DEFAULT_VALUES) == OPTION_NAMES == {f.name for f in fields(RuleSet)}


@pytest.mark.parametrize("option", sorted(k for k, v in NON_DEFAULT_VALUES.items() if v))
def test_every_option_settable_one_by_one(option):
    value, needs = NON_DEFAULT_VALUES[option]
    assert getattr(RuleSet(), option) != value
    changed = RuleSet().with_options(**needs, **{option: value})
    assert getattr(changed, option) == value
    # Only that option (and what it needs) changed.
    expected = RuleSet().to_options()
    for k, v in {**needs, option: value}.items():
        expected[k] = v.value if hasattr(v, "value") else v
    if option != "name":
        expected["name"] = "custom"
    assert changed.to_options() == expected
    # The same through a config mapping, enums as their strings.
    given_options = {**needs, option: value}
    plain = {k: (v.value if hasattr(v, "value") else v) for k, v in given_options.items()}
    assert rules_from_options(plain) == changed


@pytest.mark.parametrize("target", [5, 10, 11, 15])
def test_each_target_of_the_table(target):
    assert rules_from_options({"target": target}).target == target


@pytest.mark.parametrize(
    "deck,joker", [(24, False), (25, True), (28, False), (29, True), (32, False), (33, True)]
)
def test_each_deck(deck, joker):
    r = rules_from_options({"deck": deck, "joker": joker})
    assert (r.deck, r.joker) == (deck, joker)


def test_with_options_keeps_a_given_name_and_otherwise_says_custom():
    assert preset("british").with_options(target=15).name == "custom"
    assert preset("british").with_options(target=15, name="brit15").name == "brit15"
    # The preset itself is untouched.
    assert preset("british").target == 11


def test_six_seats_take_their_own_packs():
    with pytest.raises(RuleSetError, match="deck=24: expected 31, 33 or 50 with 6 seats") as err:
        RuleSet(seats=6)
    assert err.value.options == ("deck", "seats")
    with pytest.raises(RuleSetError, match="deck=31: expected 24, 25, 28, 29, 32 or 33 with 4"):
        RuleSet(deck=31, joker=True)


def test_seven_cards_each_only_from_32_or_33_cards_at_four_seats():
    assert RuleSet(deck=33, joker=True, hand_size=7).kitty_size == 5
    assert RuleSet(deck=32, hand_size=7).tricks_to_make == 4
    for options in ({"hand_size": 7}, {"seats": 6, "deck": 33, "joker": True, "hand_size": 7}):
        with pytest.raises(RuleSetError, match="hand_size=7 contradicts"):
            RuleSet(**options)
    with pytest.raises(RuleSetError, match="hand_size=6: expected 5 or 7"):
        RuleSet(hand_size=6)


def test_one_card_from_a_partner_asked_for_or_railroaded_not_both():
    with pytest.raises(RuleSetError, match="lone_asks_partner contradicts railroading") as e:
        RuleSet(lone_asks_partner=True, railroading=True)
    assert e.value.options == ("lone_asks_partner", "railroading")


def test_league_play_and_win_by_two_contradict():
    with pytest.raises(RuleSetError, match="hand_limit contradicts win_by_two") as err:
        RuleSet(hand_limit=12, win_by_two=True)
    assert err.value.options == ("hand_limit", "win_by_two")
    with pytest.raises(RuleSetError, match="hand_limit=0"):
        RuleSet(hand_limit=0)


def test_a_turned_joker_bid_needs_a_joker_and_points_must_make_sense():
    with pytest.raises(RuleSetError, match="turned_joker_bid contradicts joker=false"):
        RuleSet(turned_joker_bid=True)
    with pytest.raises(RuleSetError, match="lone_march_points=2 is less than march_points=3"):
        RuleSet(march_points=3, lone_march_points=2)
    with pytest.raises(RuleSetError, match="euchre_points=0: must be at least 1"):
        RuleSet(euchre_points=0)


# --- contradictions and bad values --------------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"deck": 25}, ["deck=25", "joker=false"]),
        ({"deck": 33}, ["deck=33", "joker=false"]),
        ({"joker": True}, ["deck=24", "joker=true"]),
        ({"deck": 32, "joker": True}, ["deck=32", "joker=true"]),
        ({"lone_defender_euchre_points": 4}, ["lone_defender_euchre_points=4", "not_allowed"]),
        ({"lone_defender_march_points": 4}, ["lone_defender_march_points=4", "not_allowed"]),
    ],
)
def test_contradictory_options_are_refused_naming_both(options, named):
    with pytest.raises(RuleSetError) as err:
        RuleSet().with_options(**options)
    for text in named:
        assert text in str(err.value)
    with pytest.raises(RuleSetError):
        RuleSet(**options)


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"deck": 30}, "deck=30"),
        ({"deck": 52}, "deck=52"),
        ({"target": 0}, "target=0"),
        ({"target": -3}, "target=-3"),
        ({"super_euchre_points": 3}, "super_euchre_points=3"),
        ({"lone_defender": LoneDefender.ALLOWED, "lone_defender_euchre_points": 3},
         "lone_defender_euchre_points=3"),
        ({"lone_defender": LoneDefender.ALLOWED, "lone_defender_march_points": 2},
         "lone_defender_march_points=2"),
        ({"lone_defender": LoneDefender.ALLOWED, "lone_defender_euchre_points": 5},
         "lone_defender_euchre_points=5: expected 2, 4 or 6"),
        ({"seats": 5}, "seats=5"),
    ],
)
def test_bad_values_are_refused_naming_the_option(options, named):
    with pytest.raises(RuleSetError, match=named.replace("-", r"\-")):
        RuleSet(**options)


def test_every_problem_is_named_at_once():
    with pytest.raises(RuleSetError) as err:
        RuleSet(deck=30, target=0, super_euchre_points=5)
    msg = str(err.value)
    assert "deck=30" in msg and "target=0" in msg and "super_euchre_points=5" in msg


@pytest.mark.parametrize(
    ("make", "options"),
    [
        (lambda: RuleSet().with_options(deck=25), ("deck", "joker")),
        (lambda: RuleSet().with_options(joker=True), ("deck", "joker")),
        (lambda: RuleSet(lone_defender_march_points=4),
         ("lone_defender_march_points", "lone_defender")),
        (lambda: RuleSet(target=0), ("target",)),
        (lambda: RuleSet(deck=30, target=0, super_euchre_points=5),
         ("deck", "target", "super_euchre_points")),
        (lambda: rules_from_options({"target": "10"}), ("target",)),
        (lambda: rules_from_options({"first_lead": "dealer"}), ("first_lead",)),
        (lambda: rules_from_options({"targett": 1, "stick_dealer": 1}), ("stick_dealer", "targett")),
        (lambda: rules_from_options({"preset": "euchre500"}), ()),
    ],
)
def test_the_error_carries_the_options_it_names(make, options):
    with pytest.raises(RuleSetError) as err:
        make()
    assert err.value.options == options
    assert err.value.option == (options[0] if options else None)
    for name in options:
        assert name in str(err.value)


def test_lone_defender_points_are_fine_once_a_lone_defender_is_allowed():
    for ld in (LoneDefender.ALLOWED, LoneDefender.AGAINST_LONE_MAKER):
        r = RuleSet(lone_defender=ld, lone_defender_euchre_points=4, lone_defender_march_points=4)
        assert r.lone_defender_euchre_points == 4


def test_rule_set_errors_are_value_errors():
    assert issubclass(RuleSetError, ValueError)


# --- rules_from_options: the config path ---------------------------------------------


def test_no_options_is_the_standard_preset():
    assert rules_from_options({}) is preset("standard")


def test_preset_key_picks_the_base():
    assert rules_from_options({"preset": "canadian"}) is preset("canadian")
    r = rules_from_options({"preset": "british", "target": 15})
    assert r.target == 15 and r.deck == 25 and r.dealer_partner_must_go_alone
    assert r.name == "custom"


def test_unknown_preset_in_options_is_named():
    with pytest.raises(RuleSetError, match="'euchre500'"):
        rules_from_options({"preset": "euchre500"})


def test_unknown_keys_are_named():
    with pytest.raises(RuleSetError, match="stick_dealer") as err:
        rules_from_options({"stick_dealer": True, "targett": 10, "target": 11})
    assert "targett" in str(err.value)
    assert "unknown" in str(err.value)


@pytest.mark.parametrize(
    ("key", "value"),
    [("who_may_go_alone", "anyone"), ("lone_defender", "sometimes"),
     ("first_lead", "dealer"), ("lone_defender", True)],
)
def test_bad_enum_strings_name_the_key_and_the_choices(key, value):
    with pytest.raises(RuleSetError) as err:
        rules_from_options({key: value})
    msg = str(err.value)
    assert key in msg and repr(value) in msg
    # The message lists what is allowed.
    enum = type(getattr(RuleSet(), key))
    for member in enum:
        assert repr(member.value) in msg


@pytest.mark.parametrize(
    ("key", "value"),
    [("stick_the_dealer", "yes"), ("joker", 1), ("dealer_needs_trump_to_pick_up", "true"),
     ("target", "10"), ("target", 10.5), ("target", True), ("deck", "24"),
     ("super_euchre_points", None), ("name", 7)],
)
def test_bad_types_name_the_key(key, value):
    with pytest.raises(RuleSetError, match=key):
        rules_from_options({key: value})


def test_contradiction_via_config_names_both():
    with pytest.raises(RuleSetError) as err:
        rules_from_options({"preset": "british", "joker": False})
    assert "deck=25" in str(err.value) and "joker=false" in str(err.value)


def test_lone_defender_march_points_may_be_none_in_config():
    r = rules_from_options(
        {"lone_defender": "allowed", "lone_defender_march_points": None}
    )
    assert r.lone_defender_march_points is None


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_to_options_round_trips(name):
    r = preset(name)
    assert rules_from_options(r.to_options()) == r
    custom = r.with_options(target=5, super_euchre_points=4)
    assert rules_from_options(custom.to_options()) == custom
