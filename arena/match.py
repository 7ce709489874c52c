"""`arena match`: two bots, many games, balanced seats and deals, a table at the end.

Games come in duplicate pairs: the same seed and first dealer twice with the teams
swapped, so each bot plays the cards the other had and card luck cancels. First dealers
rotate across pairs, so over 8 games every seat deals first for both bots. Deals are
secret (arena.deals): drawn from a random key unless a seed is given, and the two halves
of a pair are played by different process families (arena.runner).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.core.rules import RuleSet
from arena.deals import deal_seed, key_from_seed, new_key, table_id
from arena.manifest import BotManifest
from arena.runner import FaultPolicy, GameSpec, seat_assignment
from arena.wire.transport import TimeControl


@dataclass(frozen=True)
class MatchConfig:
    bot_a: BotManifest
    bot_b: BotManifest
    games: int
    rules: RuleSet
    seed: int | None
    """None: a random, secret deal key."""
    concurrency: int
    time_control: TimeControl
    fault_policy: FaultPolicy
    out_dir: Path
    transport: str = "unix"
    name: str = "match"
    sandbox: bool = True
    fresh_processes: bool = False


def match_specs(cfg: MatchConfig) -> Iterator[GameSpec]:
    key = new_key() if cfg.seed is None else key_from_seed(cfg.seed)
    for i in range(cfg.games):
        pair = i // 2
        gid = f"{cfg.name}-{i:05d}"
        yield GameSpec(
            game_id=gid,
            rules=cfg.rules,
            seed=deal_seed(key, "match", pair),
            first_dealer=pair % 4,
            seat_bots=seat_assignment(cfg.bot_a, cfg.bot_b, a_team=i % 2),
            time_control=cfg.time_control,
            fault_policy=cfg.fault_policy,
            table_id=table_id(key, gid),
            family=i % 2,
        )
