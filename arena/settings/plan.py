"""The games of one pairing: seats, first dealers, duplicate halves and secret deals.

One planner for `arena match` and for ladders (ladder.schedule.pairings orders the pairings), so
that both play the same fair games:

- Duplicate mode: game 2k and 2k+1 of a pairing share deal k (one seed, one first dealer)
  with the teams swapped, so each bot plays the cards the other held and card luck cancels.
- Seats: bot A holds team 0 in even games and team 1 in odd ones (a team is two seats,
  both held by processes of the same bot), so each bot holds each seat equally often.
- First dealers: they rotate with the deal (duplicate) or every second game (single), so
  in every 8 games of a pairing each combination of A's team and first-dealing seat occurs
  exactly once: every seat deals first equally often for each bot, and the team that deals
  first is A's in exactly half the games.
- Deals are secret (arena.settings.deals): a game's seed is a keyed hash of its pairing and deal
  number under a deal key, and bots are told an opaque table id, never the game id, which
  names the schedule. Each pairing has deals of its own: a bot process kept between games
  must never meet a deal twice, or it would know the cards that were played against it
  the first time; and the two halves of a pair are played by different process families
  (arena.play.process_cache).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from arena.core.rules import RuleSet
from arena.settings.deals import deal_seed, table_id
from arena.settings.manifest import BotManifest
from arena.settings.spec import FaultPolicy, GameSpec, TimeControl, seat_assignment

_ID_SEPARATOR = "~"


@dataclass(frozen=True, slots=True)
class PlannedGame:
    seq: int
    """Its place in the schedule: Elo is replayed in this order."""
    game_id: str
    bot_a: str
    """The pairing's first bot (a ladder sorts the two by name)."""
    bot_b: str
    number: int
    """The game's number within its pairing, from 0."""
    deal: int
    """Games with the same deal number have the same seed (both of a duplicate pair)."""
    seed: int
    first_dealer: int
    a_team: int
    """bot_a holds the seats of this parity (a_team, a_team + 2, ...)."""
    table_id: str = ""
    """The opaque id bots are told."""
    family: int = 0
    """The process family that plays it: the half of its duplicate pair."""
    table_size: int = 4
    """Seats at the table: 4, or 6."""

    @property
    def seats(self) -> tuple[str, ...]:
        a, b = self.bot_a, self.bot_b
        even = a if self.a_team == 0 else b
        odd = a if self.a_team == 1 else b
        return tuple(odd if seat % 2 else even for seat in range(self.table_size))


def game_id(bot_a: str, bot_b: str, number: int) -> str:
    return f"{bot_a}{_ID_SEPARATOR}{bot_b}{_ID_SEPARATOR}{number:05d}"


def plan_game(bot_a: str, bot_b: str, number: int, *, key: bytes, duplicate: bool,
              seq: int = 0, seats: int = 4) -> PlannedGame:
    """Game `number` of the pairing (bot_a, bot_b) under the deal `key`. A ladder writes
    its pairings name-sorted, so that a game's id does not depend on the file's order."""
    if bot_a == bot_b:
        raise ValueError(f"a pairing is of two bots, not {bot_a!r} twice")
    deal = number // 2 if duplicate else number
    # The first dealer moves on every second game in both modes, round the table.
    dealer_round = number // 2
    gid = game_id(bot_a, bot_b, number)
    return PlannedGame(
        seq=seq,
        game_id=gid,
        bot_a=bot_a,
        bot_b=bot_b,
        number=number,
        deal=deal,
        seed=deal_seed(key, bot_a, bot_b, deal),
        first_dealer=dealer_round % seats,
        a_team=number % 2,
        table_id=table_id(key, gid),
        family=number % 2 if duplicate else 0,
        table_size=seats,
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
        seat_bots=seat_assignment(
            manifests[game.bot_a], manifests[game.bot_b], game.a_team, rules.seats
        ),
        time_control=time_control,
        fault_policy=fault_policy,
        table_id=game.table_id,
        family=game.family,
    )
