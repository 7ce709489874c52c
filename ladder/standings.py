"""Standings: ratings from stored games, the same whoever computes them and whenever.

Elo is replayed game by game in schedule order (seq), never in the order games happened to
finish, so a ladder run at concurrency 1 or 32, or interrupted and resumed, ends with the
same table. The maximum-likelihood fit (ladder.ratings.fit_ratings) is order-free anyway.

The fit can count games or duplicate pairs. Over games (the default), each game is one
result. Over pairs, the two seat-swapped games of a deal make one result (1, 0.5 or 0):
that is the unit whose outcome does not depend on the cards, and it gives wider, more
cautious intervals, since the model then sees half as many results. Only complete pairs
count in that mode.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ladder.ratings import (
    DEFAULT_PRIOR,
    ELO_INITIAL,
    EloTable,
    RatingFit,
    Result,
    fit_ratings,
    likelihood_of_superiority,
)

BY_GAMES = "games"
BY_PAIRS = "pairs"


class ResultLike(Protocol):
    """What standings read of a stored game (ladder.store.GameRow has it all). Read-only
    members: a frozen dataclass such as GameRow, a named tuple or a plain object all fit."""

    @property
    def seq(self) -> int: ...
    @property
    def game_id(self) -> str: ...
    @property
    def bot_a(self) -> str: ...
    @property
    def bot_b(self) -> str: ...
    @property
    def number(self) -> int: ...
    @property
    def deal(self) -> int: ...
    @property
    def score_a(self) -> float: ...
    @property
    def faults_a(self) -> int: ...
    @property
    def faults_b(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Line:
    name: str
    games: int
    wins: int
    faults: int
    elo: float
    rating: float | None = None
    """Maximum-likelihood rating; None when the bot has no games or no fit exists."""
    stderr: float | None = None
    low: float | None = None
    high: float | None = None
    results: int = 0
    unsealed: int = 0
    """Its games in which some seat ran without a sandbox (or was given by address)."""
    """Results in the fit: games, or complete duplicate pairs."""
    score: float | None = None
    """Mean score over those results."""

    @property
    def win_pct(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Standings:
    lines: tuple[Line, ...]
    """Best first: by fitted rating, then Elo."""
    games: int
    by: str
    fit: RatingFit | None
    fit_problem: str | None = None
    """Why there is no fit (no games yet, bots that never met...)."""
    los: Mapping[tuple[str, str], float] = field(default_factory=dict)
    crosstable: Mapping[tuple[str, str], tuple[float, int]] = field(default_factory=dict)
    """(row, column) -> (row's points, games) over the games they played each other."""

    def line(self, name: str) -> Line:
        for line in self.lines:
            if line.name == name:
                return line
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        fit = self.fit
        return {
            "games": self.games,
            "by": self.by,
            "confidence": fit.confidence if fit else 0.95,
            "prior": fit.prior if fit else DEFAULT_PRIOR,
            "fit_problem": self.fit_problem,
            "bots": [
                {
                    "name": ln.name, "games": ln.games, "wins": ln.wins,
                    "win_pct": round(ln.win_pct, 3), "faults": ln.faults,
                    "unsealed_games": ln.unsealed,
                    "elo": round(ln.elo, 3),
                    "rating": _round(ln.rating), "stderr": _round(ln.stderr),
                    "low": _round(ln.low), "high": _round(ln.high),
                    "results": ln.results, "score": _round(ln.score, 5),
                }
                for ln in self.lines
            ],
            "los": {
                a.name: {b.name: round(self.los[a.name, b.name], 5)
                         for b in self.lines if (a.name, b.name) in self.los}
                for a in self.lines
            },
            "crosstable": {
                a.name: {b.name: {"points": pts, "games": n}
                         for b in self.lines
                         for pts, n in [self.crosstable.get((a.name, b.name), (0.0, 0))] if n}
                for a in self.lines
            },
        }


def _round(x: float | None, digits: int = 3) -> float | None:
    return None if x is None else round(x, digits)


def in_schedule_order(rows: Iterable[ResultLike]) -> list[ResultLike]:
    return sorted(rows, key=lambda r: (r.seq, r.game_id))


def game_results(rows: Iterable[ResultLike]) -> list[Result]:
    return [(r.bot_a, r.bot_b, r.score_a) for r in in_schedule_order(rows)]


def pair_results(rows: Iterable[ResultLike]) -> list[Result]:
    """One result per complete duplicate pair: the mean of its two games."""
    halves: dict[tuple[str, str, int], list[ResultLike]] = {}
    for r in in_schedule_order(rows):
        halves.setdefault((r.bot_a, r.bot_b, r.number // 2), []).append(r)
    out = []
    for (a, b, _), games in halves.items():
        if len(games) == 2:
            out.append((a, b, (games[0].score_a + games[1].score_a) / 2))
    return out


def elo_in_schedule_order(rows: Iterable[ResultLike]) -> EloTable:
    table = EloTable()
    table.update_all(game_results(rows))
    return table


def compute_standings(
    rows: Iterable[ResultLike],
    *,
    by: str = BY_GAMES,
    bots: Sequence[str] = (),
    prior: float = DEFAULT_PRIOR,
    confidence: float = 0.95,
) -> Standings:
    """Standings over the given games; `bots` lists bots to show even without games."""
    if by not in (BY_GAMES, BY_PAIRS):
        raise ValueError(f"by must be {BY_GAMES!r} or {BY_PAIRS!r}, not {by!r}")
    rows = in_schedule_order(rows)
    elo = elo_in_schedule_order(rows)
    games: dict[str, int] = dict.fromkeys(bots, 0)
    wins: dict[str, int] = dict.fromkeys(bots, 0)
    faults: dict[str, int] = dict.fromkeys(bots, 0)
    unsealed: dict[str, int] = {}
    cross: dict[tuple[str, str], tuple[float, int]] = {}
    for r in rows:
        if not getattr(r, "sandboxed", True):  # rows made in memory may not say
            for me in (r.bot_a, r.bot_b):
                unsealed[me] = unsealed.get(me, 0) + 1
        for me, other, score, f in ((r.bot_a, r.bot_b, r.score_a, r.faults_a),
                                    (r.bot_b, r.bot_a, 1.0 - r.score_a, r.faults_b)):
            games[me] = games.get(me, 0) + 1
            wins[me] = wins.get(me, 0) + (score == 1.0)
            faults[me] = faults.get(me, 0) + f
            pts, n = cross.get((me, other), (0.0, 0))
            cross[me, other] = (pts + score, n + 1)

    results = pair_results(rows) if by == BY_PAIRS else game_results(rows)
    fit: RatingFit | None = None
    problem: str | None = None
    if not results:
        problem = "no complete duplicate pairs yet" if rows else "no games yet"
    else:
        try:
            fit = fit_ratings(results, prior=prior, confidence=confidence, bots=games)
        except (ValueError, RuntimeError) as e:
            problem = str(e)
    lines = []
    for name in games:
        rated = None
        if fit is not None and name in fit.names():
            rated = fit.get(name)
        lines.append(Line(
            name=name, games=games[name], wins=wins[name], faults=faults[name],
            elo=elo.rating(name),
            rating=rated.rating if rated else None,
            stderr=rated.stderr if rated else None,
            low=rated.low if rated else None,
            high=rated.high if rated else None,
            results=rated.games if rated else 0,
            score=rated.score if rated else None,
            unsealed=unsealed.get(name, 0),
        ))
    lines.sort(key=lambda ln: (ln.rating is None, -(ln.rating or 0.0), -ln.elo, ln.name))
    return Standings(
        lines=tuple(lines),
        games=len(rows),
        by=by,
        fit=fit,
        fit_problem=problem,
        los=likelihood_of_superiority(fit) if fit is not None else {},
        crosstable=cross,
    )


def snapshot_lines(standings: Standings) -> list[tuple[str, float, float | None, float | None,
                                                       float | None]]:
    """(name, elo, rating, low, high) per bot with games: one rating-history snapshot."""
    return [(ln.name, ln.elo, ln.rating, ln.low, ln.high) for ln in standings.lines
            if ln.games or ln.elo != ELO_INITIAL]
