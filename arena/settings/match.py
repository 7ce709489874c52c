"""`arena match`: two bots, many games, balanced seats and deals, a table at the end.

One pairing, planned as a ladder plans each of its pairings (arena.settings.plan): duplicate pairs
(the same deal twice, teams swapped), balanced seats and first dealers, secret deals
drawn from a random key unless a seed is given, and the two halves of a pair played by
different process families (arena.play.process_cache).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from arena.core.rules import RuleSet
from arena.settings.deals import key_from_seed, new_key
from arena.settings.manifest import BotManifest
from arena.settings.plan import game_spec, plan_game
from arena.settings.process import ProcessSettings
from arena.settings.spec import FaultPolicy, GameSpec, TimeControl


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
    processes: ProcessSettings
    """How its bot processes are started, held and stopped (their logs, under out_dir)."""

    def __post_init__(self) -> None:
        # A bot against itself: the second team's processes are named apart, so that the
        # records, the table and the process families tell the two teams apart.
        if self.bot_b.name == self.bot_a.name:
            object.__setattr__(self, "bot_b", replace(self.bot_b, name=f"{self.bot_b.name}-2"))


def match_specs(cfg: MatchConfig) -> Iterator[GameSpec]:
    key = new_key() if cfg.seed is None else key_from_seed(cfg.seed)
    a, b = cfg.bot_a, cfg.bot_b
    for number in range(cfg.games):
        game = plan_game(a.name, b.name, number, key=key, duplicate=True, seq=number,
                         seats=cfg.rules.seats)
        yield game_spec(game, {a.name: a, b.name: b}, rules=cfg.rules,
                        time_control=cfg.time_control, fault_policy=cfg.fault_policy)
