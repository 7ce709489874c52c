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
    """4, or 6 (two teams of three); seats alternate between the teams either way."""
    deck: int = 24
    """24 (9-A), 28 (8-A) or 32 (7-A), plus one for the joker; at six seats 33 (7-A and
    the joker) or 31 (the six-hand Almonte pack: 33 less the black sevens, so that five
    to each of six and one turned up is the whole pack), or 50 (the double pack: two
    25-card packs, each card twice)."""
    joker: bool = False
    hand_size: int = 5
    """5; or 7 with four seats and 32 or 33 cards. A hand has as many tricks."""
    target: int = 10
    win_by_two: bool = False
    """The game goes on until one team leads by 2 at or past the target."""
    hand_limit: int | None = None
    """League play: the game is exactly this many deals (thrown-in ones too), the target
    unused; the higher score wins and level scores are a draw."""
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
    march_points: int = 2
    """Makers taking every trick (partnered); 3 in six-player Euchre."""
    lone_march_points: int = 4
    """A lone maker taking every trick; 6 in six-player Euchre."""
    euchre_points: int = 2
    """Defenders when the makers fall short; 3 in six-player Euchre."""
    dealer_may_decline: bool = False
    """After another seat orders up, the dealer may leave the upcard in the kitty (its
    suit is trump all the same)."""
    turned_joker_bid: bool = False
    """A turned joker is bid on in round 1 like any upcard (the seat that makes names the
    suit) and may not be turned down: if the others pass, the dealer must make. Off: the
    dealer names trump at once, before looking."""
    lone_asks_partner: bool = False
    """Six-player Euchre (Cornwall): a lone player may ask a partner for a card (the
    partner chooses it; no one else sees it), then discards one face down."""
    coloured_jokers: bool = False
    """The double pack's two jokers differ in colour (the first black, the second red):
    the one of trump's colour is the higher. Off: they look alike, and of the two the one
    played second wins, as for any two equal cards."""
    two_of_spades_joker: bool = False
    """The joker is a two of spades (seed 000: a pack without a joker plays one): only
    its name changes, it is the joker in every rule."""
    railroading: bool = False
    """A lone player's partner passes a card face down (at six seats the loner picks which
    partner); without looking, the loner swaps it for a card of the hand or discards it."""
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
        return self.hand_size

    @property
    def tricks_per_hand(self) -> int:
        return self.hand_size

    @property
    def tricks_to_make(self) -> int:
        """The makers need a majority of the tricks: 3 of 5, 4 of 7."""
        return self.hand_size // 2 + 1

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
    "win_by_two",
    "dealer_may_decline",
    "turned_joker_bid",
    "lone_asks_partner",
    "railroading",
    "coloured_jokers",
    "two_of_spades_joker",
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
    if name in ("lone_defender_march_points", "hand_limit") and value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RuleSetError(f"rule option {name}={value!r}: expected a whole number", options=[name])
    return value


PLAIN_DECKS = frozenset({24, 28, 32})
JOKER_DECKS = frozenset({25, 29, 31, 33, 50})
DECKS_BY_SEATS = {4: (24, 25, 28, 29, 32, 33), 6: (31, 33, 50)}


def _either(values: tuple[int, ...]) -> str:
    return ", ".join(map(str, values[:-1])) + f" or {values[-1]}"


def _contradictions(r: RuleSet) -> list[tuple[str, tuple[str, ...]]]:
    """Each problem as its text and the options it names (both, for a contradiction)."""
    p: list[tuple[str, tuple[str, ...]]] = []
    if r.seats not in (4, 6):
        p.append((f"seats={r.seats}: expected 4 or 6", ("seats",)))
    decks = DECKS_BY_SEATS.get(r.seats, ())
    if r.seats in DECKS_BY_SEATS and r.deck not in decks:
        p.append((
            f"deck={r.deck}: expected {_either(decks)} with {r.seats} seats",
            ("deck", "seats") if r.deck in JOKER_DECKS | PLAIN_DECKS else ("deck",),
        ))
    elif r.joker != (r.deck in JOKER_DECKS):
        p.append((
            f"deck={r.deck} contradicts joker={str(r.joker).lower()}: "
            "a deck with the joker has 25, 29, 31, 33 or 50 cards, one without 24, 28 or 32",
            ("deck", "joker"),
        ))
    if r.hand_size not in (5, 7):
        p.append((f"hand_size={r.hand_size}: expected 5 or 7", ("hand_size",)))
    elif r.hand_size == 7 and not (r.seats == 4 and r.deck in (32, 33)):
        p.append((
            f"hand_size=7 contradicts deck={r.deck} with {r.seats} seats: seven cards each "
            "are dealt from 32 or 33 cards to four seats",
            ("hand_size", "deck", "seats"),
        ))
    if r.target < 1:
        p.append((f"target={r.target}: must be at least 1", ("target",)))
    if r.hand_limit is not None:
        if r.hand_limit < 1:
            p.append((f"hand_limit={r.hand_limit}: must be at least 1", ("hand_limit",)))
        if r.win_by_two:
            p.append((
                "hand_limit contradicts win_by_two: a game of a fixed number of hands "
                "ends level or not when they are played",
                ("hand_limit", "win_by_two"),
            ))
    for name in ("march_points", "euchre_points", "lone_march_points"):
        if getattr(r, name) < 1:
            p.append((f"{name}={getattr(r, name)}: must be at least 1", (name,)))
    if r.lone_march_points < r.march_points:
        p.append((
            f"lone_march_points={r.lone_march_points} is less than "
            f"march_points={r.march_points}: a lone march is worth at least a march",
            ("lone_march_points", "march_points"),
        ))
    if r.lone_defender_euchre_points not in (2, 4, 6):
        p.append((
            f"lone_defender_euchre_points={r.lone_defender_euchre_points}: expected 2, 4 or 6",
            ("lone_defender_euchre_points",),
        ))
    if r.lone_defender_march_points not in (None, 4, 6):
        p.append((
            f"lone_defender_march_points={r.lone_defender_march_points}: "
            "expected 4 or 6, or none for 'as a lone defender's euchre'",
            ("lone_defender_march_points",),
        ))
    if r.super_euchre_points not in (2, 4):
        p.append((
            f"super_euchre_points={r.super_euchre_points}: expected 2 or 4",
            ("super_euchre_points",),
        ))
    if r.lone_asks_partner and r.railroading:
        p.append((
            "lone_asks_partner contradicts railroading: a lone player gets one card from a "
            "partner, asked for (Cornwall) or passed face down (railroading)",
            ("lone_asks_partner", "railroading"),
        ))
    if r.coloured_jokers and r.deck != 50:
        p.append((
            f"coloured_jokers contradicts deck={r.deck}: only the double pack (50) has two",
            ("coloured_jokers", "deck"),
        ))
    if r.two_of_spades_joker and not r.joker:
        p.append((
            "two_of_spades_joker contradicts joker=false: there is no joker to stand for",
            ("two_of_spades_joker", "joker"),
        ))
    if r.turned_joker_bid and not r.joker:
        p.append((
            "turned_joker_bid contradicts joker=false: there is no joker to turn",
            ("turned_joker_bid", "joker"),
        ))
    if r.lone_defender is LoneDefender.NOT_ALLOWED:
        if r.lone_defender_euchre_points != 2:
            p.append((
                f"lone_defender_euchre_points={r.lone_defender_euchre_points} contradicts "
                "lone_defender='not_allowed': no defender can be alone",
                ("lone_defender_euchre_points", "lone_defender"),
            ))
        if r.lone_defender_march_points is not None:
            p.append((
                f"lone_defender_march_points={r.lone_defender_march_points} contradicts "
                "lone_defender='not_allowed': no defender can be alone",
                ("lone_defender_march_points", "lone_defender"),
            ))
    return p


RULES_EDITION = 2
"""The arena's reading of the rules, as its games are played now. Edition 1, before
RULES.md's corrections of sections 7 and 9: with a turned joker bid on and "dealer's
partner must go alone" both on, the dealer's partner could bid the joker with a partner.
Since edition 2 the rule holds there too (seed 000 states it without exception), and
railroading's partner may pass no card. A game is replayed and verified under the
edition it was played by, which its record keeps. The third correction of edition 2, the
six-seat presets' sending the dealer's teammate alone, is a preset's value, not a
reading: every record holds its rule set's values, so it needs no edition."""

_SIX_PLAYER: dict[str, Any] = {
    # RULES.md section 9 (seed 000): two teams of three, the British game's bidding and
    # lone play (a teammate of the dealer who orders up goes alone, as in the British
    # game: 000 describes Cornwall's game and its six-player form, and Almonte is
    # Canadian), and the six-player table of points.
    "seats": 6,
    "joker": True,
    "stick_the_dealer": False,
    "who_may_go_alone": WhoMayGoAlone.ANY_PLAYER,
    "lone_defender": LoneDefender.ALLOWED,
    "first_lead": FirstLead.LEFT_OF_LONE_PLAYER,
    "march_points": 3,
    "euchre_points": 3,
    "lone_march_points": 6,
    "lone_defender_euchre_points": 6,
    "lone_asks_partner": True,
    "dealer_partner_must_go_alone": True,
}
_SIX_PLAYER_PRESETS: dict[str, dict[str, Any]] = {
    "six-player": {"deck": 33, "target": 11},
    # Two 25-card packs (seed 000): 30 cards dealt, 20 in the kitty.
    "six-player-double": {"deck": 50, "target": 11},
    "almonte": {"deck": 31, "target": 15},
    "almonte-league": {"deck": 31, "hand_limit": 12},
}

_BRITISH = RuleSet(
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
)

PRESETS: dict[str, RuleSet] = {
    "standard": RuleSet(name="standard"),
    "british": _BRITISH,
    "canadian": RuleSet(name="canadian", dealer_partner_must_go_alone=True),
    # 32-card Euchre as played in New Zealand (seed 000): the British game without the
    # joker, on a pack that runs down to the sevens.
    "new-zealand": replace(_BRITISH, name="new-zealand", deck=32, joker=False),
    **{
        name: RuleSet(name=name, **_SIX_PLAYER, **options)
        for name, options in _SIX_PLAYER_PRESETS.items()
    },
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
