"""`arena match`: two bots, many games, balanced seats and deals, a table at the end.

Games come in duplicate pairs: the same seed and first dealer twice with the teams
swapped, so each bot plays the cards the other had and card luck cancels. First dealers
rotate across pairs, so over 8 games every seat deals first for both bots.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.core.game import derive_seed
from arena.core.rules import RuleSet
from arena.manifest import BotManifest
from arena.runner import FaultPolicy, GameSpec, seat_assignment
from arena.wire.transport import TimeControl


@dataclass(frozen=True)
class MatchConfig:
    bot_a: BotManifest
    bot_b: BotManifest
    games: int
    rules: RuleSet
    seed: int
    concurrency: int
    time_control: TimeControl
    fault_policy: FaultPolicy
    out_dir: Path
    transport: str = "unix"
    name: str = "match"


def match_specs(cfg: MatchConfig) -> Iterator[GameSpec]:
    for i in range(cfg.games):
        pair = i // 2
        yield GameSpec(
            game_id=f"{cfg.name}-{i:05d}",
            rules=cfg.rules,
            seed=derive_seed(cfg.seed, pair),
            first_dealer=pair % 4,
            seat_bots=seat_assignment(cfg.bot_a, cfg.bot_b, a_team=i % 2),
            time_control=cfg.time_control,
            fault_policy=cfg.fault_policy,
        )
