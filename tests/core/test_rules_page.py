"""docs/rules.md, the rules page bot authors are sent to, stays true to the engine where
that can be checked mechanically: every option in the options table with its wire field,
its default and the features it can need; every named rule set with what it sets and
needs; the points of the scoring table; the decks; the features, phases and actions by
their wire names; the current edition of the reading; and the names and files it points
to. Nothing here runs a game: the page is read as text and compared with the rules core.
"""

from __future__ import annotations

import importlib
import re
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from arena.core.actions import ActionKind
from arena.core.errors import RuleSetError
from arena.core.features import Feature, features_needed
from arena.core.hand import Phase
from arena.core.rules import (
    DECKS_BY_SEATS,
    JOKER_DECKS,
    OPTION_NAMES,
    PRESETS,
    RULES_EDITION,
    LoneDefender,
    RuleSet,
)
from arena.core.scoring import score_hand
from arena.records.gamelog import STALLED_AFTER
from arena.settings.rule_sets import NAMED_RULES
from arena.wire.gen.euchre.v1 import bot_pb2, types_pb2

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
PROSE = " ".join(PAGE.split())
"""The page with its lines joined, for phrases that a line may break."""

WIRE_NAMES = {"deck": "deck_size", "target": "target_score"}
"""The options whose wire field (euchre.v1.RuleSet) is named otherwise; the rest match."""

_RULE = re.compile(r"\|(\s*:?-+:?\s*\|)+")


def section(number: int) -> str:
    found = re.search(rf"^## {number}\. .*?(?=^## |\Z)", PAGE, re.M | re.S)
    assert found, f"docs/rules.md has no section {number}"
    return found.group(0)


def table(text: str) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of the one Markdown table in `text`."""
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("|")]
    assert len(lines) >= 2 and _RULE.fullmatch(lines[1]), "expected one table"
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    assert not any(_RULE.fullmatch(line) for line in lines[2:]), "expected one table"
    return rows[0], rows[2:]


def ticked(cell: str) -> list[str]:
    """The `code` spans of a cell, in order."""
    return re.findall(r"`([^`]+)`", cell)


def features_in(text: str) -> set[str]:
    return set(re.findall(r"\bFEATURE_[A-Z_]+\b", text))


def wire(features: frozenset[Feature] | set[Feature]) -> set[str]:
    return {f"FEATURE_{f.name}" for f in features}


def render(value: Any) -> str:
    """A value as the page and a TOML file write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, Enum):
        return f'"{value.value}"'
    return str(value)


def options_table() -> dict[str, list[str]]:
    _, rows = table(section(9))
    by_option = {ticked(row[0])[0]: row for row in rows}
    assert len(by_option) == len(rows), "an option has two rows"
    return by_option


# --- section 9: every option ------------------------------------------------------------


def test_every_option_has_one_row_and_no_row_is_not_an_option() -> None:
    assert set(options_table()) == OPTION_NAMES - {"name"}


def test_each_row_names_the_wire_field() -> None:
    fields = set(types_pb2.RuleSet.DESCRIPTOR.fields_by_name)
    assert {WIRE_NAMES.get(o, o) for o in OPTION_NAMES} == fields, "a field was added or renamed"
    for option, row in options_table().items():
        assert ticked(row[1])[0] == WIRE_NAMES.get(option, option), option
    for python, on_wire in WIRE_NAMES.items():
        assert f"`{python}` is `{on_wire}`" in PROSE, python


def test_each_row_gives_the_default_first() -> None:
    defaults = RuleSet()
    for option, row in options_table().items():
        assert ticked(row[2])[0] == render(getattr(defaults, option)), option


_BASES = (
    RuleSet(), RuleSet(deck=25, joker=True), RuleSet(deck=32), RuleSet(deck=33, joker=True),
    RuleSet(seats=6, deck=33, joker=True), RuleSet(seats=6, deck=50, joker=True),
    *NAMED_RULES.values(),
)
_NUMBERS = (1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 15, 24, 25, 28, 29, 31, 32, 33, 50)


def _values(option: str) -> list[Any]:
    default = getattr(RuleSet(), option)
    if isinstance(default, Enum):
        return list(type(default))
    if isinstance(default, bool):
        return [False, True]
    return [None, *_NUMBERS]


def features_option_can_need(option: str) -> set[Feature]:
    """Every feature that changing this option alone, in some valid rule set, adds."""
    out: set[Feature] = set()
    for base in _BASES:
        for value in _values(option):
            try:
                changed = base.with_options(**{option: value})
            except RuleSetError:
                continue
            out |= features_needed(changed) - features_needed(base)
    return out


def test_each_row_names_the_features_its_option_can_need() -> None:
    for option, row in options_table().items():
        expected = wire(features_option_can_need(option))
        assert features_in(row[4]) == expected, option
        if not expected:
            assert row[4] == "none", option


# --- section 10: presets and named rule sets --------------------------------------------


def named_table() -> dict[str, list[str]]:
    _, rows = table(section(10))
    return {ticked(row[0])[0]: row for row in rows}


def test_every_named_rule_set_is_listed_and_each_preset_as_one() -> None:
    rows = named_table()
    assert set(rows) == set(NAMED_RULES)
    for name, row in rows.items():
        assert ("preset" in row[1]) == (name in PRESETS), name


def test_each_named_rule_set_says_exactly_what_it_sets() -> None:
    """`option=value` for every option that differs from the defaults, or from the rule
    set the row starts from ("as `british`, with ...")."""
    for name, row in named_table().items():
        based = re.match(r"as `([^`]+)`", row[2])
        base = NAMED_RULES[based.group(1)] if based else RuleSet()
        mine, theirs = NAMED_RULES[name].to_options(), base.to_options()
        expected = {f"{k}={render(getattr(NAMED_RULES[name], k))}"
                    for k in mine if k != "name" and mine[k] != theirs[k]}
        assert {t for t in ticked(row[2]) if "=" in t} == expected, name


def test_each_named_rule_set_lists_the_features_it_needs() -> None:
    for name, row in named_table().items():
        expected = wire(features_needed(NAMED_RULES[name]))
        assert features_in(row[3]) == expected, name
        if not expected:
            assert row[3] == "none", name


# --- section 7: scoring -----------------------------------------------------------------

_RESULTS: dict[str, list[tuple[int, bool, bool]]] = {
    # each row of the table: (the makers' tricks of five, a maker alone, a defender alone)
    "makers take a majority, not all": [(3, False, False), (4, False, False), (3, True, False),
                                        (4, False, True)],
    "makers take all, no maker alone (a march)": [(5, False, False), (5, False, True)],
    "makers take all, one of them alone": [(5, True, False), (5, True, True)],
    "makers take less than a majority (euchred)": [(2, False, False), (1, False, False),
                                                   (2, True, False)],
    "euchred by a lone defender": [(2, False, True), (1, True, True)],
    "makers take no trick (a super euchre)": [(0, False, False), (0, True, False)],
    "makers take no trick, a lone defender": [(0, False, True), (0, True, True)],
}


def _column_rules(header: str) -> list[RuleSet]:
    if header == "six-seat presets":
        return [r for r in PRESETS.values() if r.seats == 6]
    return [PRESETS[ticked(header)[0]]]


def test_the_scoring_table_gives_the_engines_points() -> None:
    header, rows = table(section(7))
    assert {row[0] for row in rows} == set(_RESULTS)
    columns = {i: _column_rules(h) for i, h in enumerate(header) if i >= 3}
    assert len(columns) == 3
    for row in rows:
        for tricks, maker_alone, defender_alone in _RESULTS[row[0]]:
            for i, rule_sets in columns.items():
                for rules in rule_sets:
                    assert rules.tricks_per_hand == 5
                    if row[i] == "—":
                        assert defender_alone and rules.lone_defender is LoneDefender.NOT_ALLOWED
                        continue
                    score = score_hand(rules, 0, tricks, maker_alone, defender_alone)
                    assert (score.points, score.team) == (int(row[i]), 0 if row[1] == "makers" else 1), (
                        row[0], rules.name, tricks, maker_alone, defender_alone)
        option = ticked(row[2])
        assert not option or option[0] in OPTION_NAMES, row[0]


# --- section 1: the decks ---------------------------------------------------------------


def test_the_decks_table_gives_the_seats_and_joker_of_every_deck() -> None:
    _, rows = table(section(1))
    listed = {int(row[0]): ({int(s) for s in row[2].split(",")}, row[3]) for row in rows}
    decks = {d for ds in DECKS_BY_SEATS.values() for d in ds}
    assert set(listed) == decks
    for deck, (seats, joker) in listed.items():
        assert seats == {s for s, ds in DECKS_BY_SEATS.items() if deck in ds}, deck
        assert joker == ("yes" if deck in JOKER_DECKS else "no"), deck


# --- names: features, phases, actions, the edition, the stall ---------------------------


def test_every_feature_is_named_by_its_wire_name_and_none_other() -> None:
    assert wire(set(Feature)) <= features_in(PAGE)
    assert features_in(PAGE) <= set(bot_pb2.Feature.keys())


def test_every_phase_and_action_is_in_the_phase_table() -> None:
    _, rows = table(section(3))
    phases = {ticked(row[0])[0] for row in rows}
    assert phases == {f"PHASE_{p.name}" for p in Phase}
    assert set(re.findall(r"\bPHASE_[A-Z0-9_]+\b", PAGE)) <= set(types_pb2.Phase.keys())
    actions = " ".join(row[2] for row in rows)
    for kind in ActionKind:
        assert re.search(rf"\b{kind.name}\b", actions), kind.name


def test_the_page_says_the_current_edition() -> None:
    found = re.findall(r"The current edition is (\d+)\.", PROSE)
    assert found == [str(RULES_EDITION)]


def test_the_stall_is_the_arenas_number() -> None:
    assert f"After {STALLED_AFTER} hands in a row thrown in" in PROSE


# --- what the page points to ------------------------------------------------------------


def test_every_path_the_page_names_exists() -> None:
    paths = {t for t in ticked(PAGE) if "/" in t and " " not in t and "=" not in t}
    assert "proto/card_vectors.json" in paths
    for path in paths:
        assert (ROOT / path).exists(), path


@pytest.mark.parametrize("dotted", sorted({t for t in ticked(PAGE) if re.fullmatch(r"arena(\.\w+)+", t)}))
def test_every_python_name_the_page_names_exists(dotted: str) -> None:
    module, _, attribute = dotted.rpartition(".")
    try:
        importlib.import_module(dotted)
    except ImportError:
        assert hasattr(importlib.import_module(module), attribute), dotted
