"""Rule sets: every option of RULES.md section 7, the presets, and their validation.

A rule set is a frozen value so that it can be shared by every game of a ladder, hashed
into a record, and sent to a bot once at the handshake. Presets are only named rule sets.
Options that contradict each other are refused here, once, so the state machine never
has to guess which one wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from arena.core.errors import RuleSetError


class WhoMayGoAlone(Enum):
    MAKER_ONLY = "maker_only"
    """Only the player who makes trump, and only together with the call."""
    ANY_PLAYER = "any_player"
    """Anyone, after trump is made and before the first lead (an alone round)."""


class LoneDefender(Enum):
    NOT_ALLOWED = "not_allowed"
    ALLOWED = "allowed"
    AGAINST_LONE_MAKER = "against_lone_maker"
    """A defender may go alone only when a maker already has."""


class FirstLead(Enum):
    LEFT_OF_DEALER = "left_of_dealer"
    """Left of the dealer, skipping players who sit out."""
    LEFT_OF_LONE_PLAYER = "left_of_lone_player"
    """Left of a lone player; when both sides are alone, the lone defender leads."""


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules of one game. Defaults are RULES.md's defaults (the `standard` preset)."""

    seats: int = 4
    deck: int = 24
    joker: bool = False
    target: int = 10
    stick_the_dealer: bool = True
    who_may_go_alone: WhoMayGoAlone = WhoMayGoAlone.MAKER_ONLY
    lone_defender: LoneDefender = LoneDefender.NOT_ALLOWED
    lone_defender_euchre_points: int = 2
    lone_defender_march_points: int | None = None
    """None: as for a lone defender's euchre; 4: a lone defender's march scores 4."""
    dealer_partner_must_go_alone: bool = False
    first_lead: FirstLead = FirstLead.LEFT_OF_DEALER
    passed_player_may_go_alone: bool = True
    """Whether a player who passed in the round that made trump may still go alone."""
    super_euchre_points: int = 2
    dealer_needs_trump_to_pick_up: bool = False
    """Round 1: the dealer may accept only holding a card of the upcard's suit (the left
    bower, of the other printed suit, does not count; the joker does, being a trump)."""
    name: str = "custom"

    def __post_init__(self) -> None:
        problems = _contradictions(self)
        if problems:
            raise RuleSetError(
                "; ".join(text for text, _ in problems),
                options=[o for _, named in problems for o in named],
            )

    @property
    def cards_per_hand(self) -> int:
        return 5

    @property
    def tricks_per_hand(self) -> int:
        return 5

    @property
    def kitty_size(self) -> int:
        """Cards left after the deal (the upcard among them)."""
        return self.deck - self.seats * self.cards_per_hand

    def with_options(self, **options: Any) -> RuleSet:
        """A copy with some options changed (named "custom" unless a name is given)."""
        unknown = sorted(set(options) - OPTION_NAMES)
        if unknown:
            raise RuleSetError(f"unknown rule option(s): {', '.join(unknown)}", options=unknown)
        options.setdefault("name", "custom")
        return replace(self, **{k: _coerce(k, v) for k, v in options.items()})

    def to_options(self) -> dict[str, Any]:
        """Plain values (enums as their strings): for TOML, JSON and the wire."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out


OPTION_NAMES = frozenset(f.name for f in fields(RuleSet))

_ENUM_OPTIONS: dict[str, type[Enum]] = {
    "who_may_go_alone": WhoMayGoAlone,
    "lone_defender": LoneDefender,
    "first_lead": FirstLead,
}
_BOOL_OPTIONS = {
    "joker",
    "stick_the_dealer",
    "dealer_partner_must_go_alone",
    "passed_player_may_go_alone",
    "dealer_needs_trump_to_pick_up",
}


def _coerce(name: str, value: Any) -> Any:
    """Accepts the plain values of a config file and names the option when one is wrong."""
    if name in _ENUM_OPTIONS:
        enum = _ENUM_OPTIONS[name]
        if isinstance(value, enum):
            return value
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in enum)
            raise RuleSetError(
                f"rule option {name}={value!r}: expected one of {allowed}", options=[name]
            ) from None
    if name in _BOOL_OPTIONS:
        if not isinstance(value, bool):
            raise RuleSetError(f"rule option {name}={value!r}: expected true or false", options=[name])
        return value
    if name == "name":
        if not isinstance(value, str):
            raise RuleSetError(f"rule option name={value!r}: expected a string", options=["name"])
        return value
    if name == "lone_defender_march_points" and value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleSetError(f"rule option {name}={value!r}: expected a whole number", options=[name])
    return value


def _contradictions(r: RuleSet) -> list[tuple[str, tuple[str, ...]]]:
    """Each problem as its text and the options it names (both, for a contradiction)."""
    p: list[tuple[str, tuple[str, ...]]] = []
    if r.seats != 4:
        p.append((
            f"seats={r.seats}: only 4 seats are played so far (six-player is later work)",
            ("seats",),
        ))
    if r.deck not in (24, 25, 32, 33):
        p.append((f"deck={r.deck}: expected 24, 25, 32 or 33", ("deck",)))
    elif r.joker != (r.deck in (25, 33)):
        p.append((
            f"deck={r.deck} contradicts joker={str(r.joker).lower()}: "
            "a deck with the joker has 25 or 33 cards, one without 24 or 32",
            ("deck", "joker"),
        ))
    if r.target < 1:
        p.append((f"target={r.target}: must be at least 1", ("target",)))
    if r.lone_defender_euchre_points not in (2, 4):
        p.append((
            f"lone_defender_euchre_points={r.lone_defender_euchre_points}: expected 2 or 4",
            ("lone_defender_euchre_points",),
        ))
    if r.lone_defender_march_points not in (None, 4):
        p.append((
            f"lone_defender_march_points={r.lone_defender_march_points}: "
            "expected 4, or none for 'as a lone defender's euchre'",
            ("lone_defender_march_points",),
        ))
    if r.super_euchre_points not in (2, 4):
        p.append((
            f"super_euchre_points={r.super_euchre_points}: expected 2 or 4",
            ("super_euchre_points",),
        ))
    if r.lone_defender is LoneDefender.NOT_ALLOWED:
        if r.lone_defender_euchre_points != 2:
            p.append((
                "lone_defender_euchre_points=4 contradicts lone_defender='not_allowed': "
                "no defender can be alone",
                ("lone_defender_euchre_points", "lone_defender"),
            ))
        if r.lone_defender_march_points is not None:
            p.append((
                "lone_defender_march_points=4 contradicts lone_defender='not_allowed': "
                "no defender can be alone",
                ("lone_defender_march_points", "lone_defender"),
            ))
    return p


PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(name="standard"),
    "british": RuleSet(
        name="british",
        deck=25,
        joker=True,
        target=11,
        stick_the_dealer=False,
        who_may_go_alone=WhoMayGoAlone.ANY_PLAYER,
        lone_defender=LoneDefender.ALLOWED,
        lone_defender_euchre_points=4,
        dealer_partner_must_go_alone=True,
        first_lead=FirstLead.LEFT_OF_LONE_PLAYER,
    ),
    "canadian": RuleSet(name="canadian", dealer_partner_must_go_alone=True),
}


def preset(name: str) -> RuleSet:
    try:
        return PRESETS[name]
    except KeyError:
        raise RuleSetError(
            f"unknown rule preset {name!r}: expected one of {', '.join(PRESETS)}"
        ) from None


def rules_from_options(options: Mapping[str, Any]) -> RuleSet:
    """A rule set from a config mapping: an optional "preset" key plus single options."""
    opts = dict(options)
    base = preset(opts.pop("preset", "standard"))
    if not opts:
        return base
    return base.with_options(**opts)
