"""The schedule: every game a ladder will play, as a pure function of its settings.

Because the plan never depends on what has already happened, resuming is "the planned
games minus the finished ones", and a game replayed after a crash is the very game that was
lost: same id, same seed, same seats, same first dealer.

Fairness, by construction:

- Duplicate mode: game 2k and 2k+1 of a pairing share deal k (one seed, one first dealer)
  with the teams swapped, so each bot plays the cards the other held and card luck cancels.
- Seats: bot A holds team 0 in even games and team 1 in odd ones (a team is two seats,
  both held by processes of the same bot), so each bot holds each seat equally often.
- First dealers: they rotate with the deal (duplicate) or every second game (single), so
  in every 8 games of a pairing each combination of A's team and first-dealing seat occurs
  exactly once: every seat deals first equally often for each bot, and the team that deals
  first is A's in exactly half the games.
- Deals are secret (arena.deals): a game's seed is a keyed hash of its pairing and deal
  number under the ladder's deal key, and bots are told an opaque table id, never the
  game id, which names the schedule. Each pairing has deals of its own: a bot process
  kept between games must never meet a deal twice, or it would know the cards that were
  played against it the first time (see arena.runner on process families).
- A game's identity depends only on its two bots and its number, never on the order of
  the ladder file, so reordering the bots, adding one, or raising games_per_pairing keeps
  every finished game and plays only what is new.
- Order: round by round (deal 0 of every pairing, then deal 1, ...) with both games of a
  duplicate pair adjacent, so an interrupted ladder has an even sample of every pairing,
  and Elo is replayed in this order whatever order the games finished in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from arena.core.rules import RuleSet
from arena.deals import deal_seed, table_id
from arena.manifest import BotManifest
from arena.runner import FaultPolicy, GameSpec, seat_assignment
from arena.wire.transport import TimeControl
from ladder.config import GAUNTLET, LadderConfig

_ID_SEPARATOR = "~"


@dataclass(frozen=True, slots=True)
class PlannedGame:
    seq: int
    """Its place in the schedule: Elo is replayed in this order."""
    game_id: str
    bot_a: str
    """Of the pairing's two bots, the one whose name sorts first."""
    bot_b: str
    number: int
    """The game's number within its pairing, from 0."""
    deal: int
    """Games with the same deal number have the same seed (both of a duplicate pair)."""
    seed: int
    first_dealer: int
    a_team: int
    """bot_a holds seats a_team and a_team + 2."""
    table_id: str = ""
    """The opaque id bots are told."""
    family: int = 0
    """The process family that plays it: the half of its duplicate pair."""

    @property
    def seats(self) -> tuple[str, str, str, str]:
        a, b = self.bot_a, self.bot_b
        return tuple(a if seat % 2 == self.a_team else b for seat in range(4))  # type: ignore[return-value]


def game_id(bot_a: str, bot_b: str, number: int) -> str:
    return f"{bot_a}{_ID_SEPARATOR}{bot_b}{_ID_SEPARATOR}{number:05d}"


def pairings(
    names: Sequence[str], fmt: str, challenger: str | None = None
) -> list[tuple[str, str]]:
    """Each pairing once, name-sorted within, in the order of the ladder file."""
    if len(set(names)) != len(names):
        raise ValueError(f"bot names must be unique: {list(names)}")
    if fmt == GAUNTLET:
        if challenger not in names:
            raise ValueError(f"challenger {challenger!r} is not one of {list(names)}")
        pairs = [(challenger, other) for other in names if other != challenger]
    else:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return [(a, b) if a < b else (b, a) for a, b in pairs]  # type: ignore[misc]


def plan_game(bot_a: str, bot_b: str, number: int, *, key: bytes, duplicate: bool,
              seq: int = 0) -> PlannedGame:
    """Game `number` of the pairing (bot_a, bot_b), bot_a sorting first; `key` is the
    ladder's deal key."""
    if not bot_a < bot_b:
        raise ValueError(f"a pairing is written name-sorted: {bot_a!r} before {bot_b!r}")
    deal = number // 2 if duplicate else number
    dealer_round = number // 2  # the first dealer moves on every second game in both modes
    gid = game_id(bot_a, bot_b, number)
    return PlannedGame(
        seq=seq,
        game_id=gid,
        bot_a=bot_a,
        bot_b=bot_b,
        number=number,
        deal=deal,
        seed=deal_seed(key, bot_a, bot_b, deal),
        first_dealer=dealer_round % 4,
        a_team=number % 2,
        table_id=table_id(key, gid),
        family=number % 2 if duplicate else 0,
    )


def plan(
    names: Sequence[str],
    *,
    fmt: str,
    games_per_pairing: int,
    key: bytes,
    duplicate: bool,
    challenger: str | None = None,
) -> list[PlannedGame]:
    pairs = pairings(names, fmt, challenger)
    order = sorted(
        ((number // 2, p, number % 2) for p in range(len(pairs))
         for number in range(games_per_pairing)),
    )
    out = []
    for seq, (round_, p, half) in enumerate(order):
        a, b = pairs[p]
        out.append(plan_game(a, b, 2 * round_ + half, key=key, duplicate=duplicate, seq=seq))
    return out


def plan_ladder(cfg: LadderConfig, key: bytes, names: Sequence[str] | None = None
                ) -> list[PlannedGame]:
    """The plan of a ladder under its deal `key` (the store keeps it); `names` replaces the
    file's names (by position) with the names the store rates them under ("bot@v2")."""
    names = list(names or cfg.bot_names)
    challenger = cfg.challenger
    if challenger is not None and names != list(cfg.bot_names):
        challenger = names[list(cfg.bot_names).index(challenger)]
    return plan(
        names, fmt=cfg.format, games_per_pairing=cfg.games_per_pairing, key=key,
        duplicate=cfg.duplicate, challenger=challenger,
    )


def game_spec(
    game: PlannedGame,
    manifests: Mapping[str, BotManifest],
    *,
    rules: RuleSet,
    time_control: TimeControl,
    fault_policy: FaultPolicy,
) -> GameSpec:
    return GameSpec(
        game_id=game.game_id,
        rules=rules,
        seed=game.seed,
        first_dealer=game.first_dealer,
        seat_bots=seat_assignment(manifests[game.bot_a], manifests[game.bot_b], game.a_team),
        time_control=time_control,
        fault_policy=fault_policy,
        table_id=game.table_id,
        family=game.family,
    )
