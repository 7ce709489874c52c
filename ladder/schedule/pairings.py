"""The schedule of a ladder: every game it will play, as a pure function of its settings.

Because the plan never depends on what has already happened, resuming is "the planned
games minus the finished ones", and a game replayed after a crash is the very game that was
lost: same id, same seed, same seats, same first dealer. The games of one pairing are
planned by arena.settings.plan (which `arena match` uses too: seats, first dealers, duplicate
halves, secret deals); this module decides which pairings there are and their order:

- A game's identity depends only on its two bots and its number, never on the order of
  the ladder file, so reordering the bots, adding one, or raising games_per_pairing keeps
  every finished game and plays only what is new.
- Order: round by round (deal 0 of every pairing, then deal 1, ...) with both games of a
  duplicate pair adjacent, so an interrupted ladder has an even sample of every pairing,
  and Elo is replayed in this order whatever order the games finished in.
"""
from __future__ import annotations

from collections.abc import Sequence

from arena.settings.plan import PlannedGame, plan_game
from ladder.config.ladder_file import GAUNTLET, LadderConfig


def pairings(
    names: Sequence[str], fmt: str, challenger: str | None = None
) -> list[tuple[str, str]]:
    """Each pairing once, name-sorted within, in the order of the ladder file."""
    if len(set(names)) != len(names):
        raise ValueError(f"bot names must be unique: {list(names)}")
    if fmt == GAUNTLET:
        if challenger is None or challenger not in names:
            raise ValueError(f"challenger {challenger!r} is not one of {list(names)}")
        pairs = [(challenger, other) for other in names if other != challenger]
    else:
        pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    return [(a, b) if a < b else (b, a) for a, b in pairs]


def plan(
    names: Sequence[str],
    *,
    fmt: str,
    games_per_pairing: int,
    key: bytes,
    duplicate: bool,
    challenger: str | None = None,
    seats: int = 4,
) -> list[PlannedGame]:
    pairs = pairings(names, fmt, challenger)
    order = sorted(
        ((number // 2, p, number % 2) for p in range(len(pairs))
         for number in range(games_per_pairing)),
    )
    out = []
    for seq, (round_, p, half) in enumerate(order):
        a, b = pairs[p]
        out.append(plan_game(a, b, 2 * round_ + half, key=key, duplicate=duplicate, seq=seq,
                             seats=seats))
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
        duplicate=cfg.duplicate, challenger=challenger, seats=cfg.rules.seats,
    )
