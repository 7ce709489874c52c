"""Per-bot figures over recorded games: what a match prints and a ladder reports.

Figures are counted per bot, over the seats it held, from game logs alone, so the same
numbers come out of a live match, a ladder database, or a folder of records.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from statistics import NormalDist

from arena.core.scoring import Outcome
from arena.records.gamelog import GameLog


@dataclass
class BotStats:
    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    """Games of a fixed number of hands that ended level."""
    points: int = 0
    hands: int = 0
    calls: int = 0
    """Hands in which this bot made trump."""
    makes: int = 0
    marches: int = 0
    euchred: int = 0
    """Its calls that were euchred (suffered)."""
    euchres: int = 0
    """Opponents' calls it defended and euchred (inflicted)."""
    alone: int = 0
    """Lone hands it played, on either side."""
    alone_makers: int = 0
    """Lone hands it played on the makers' side."""
    alone_marches: int = 0
    """Of those, the ones that took all five tricks (the point of going alone)."""
    faults: int = 0
    decisions: int = 0
    think_us_total: int = 0
    think_us_max: int = 0
    fault_kinds: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        """Wins over games, a draw counting half (as ratings count it)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def mean_think_ms(self) -> float:
        return self.think_us_total / self.decisions / 1000 if self.decisions else 0.0

    @property
    def max_think_ms(self) -> float:
        return self.think_us_max / 1000

    def pct(self, part: int, whole: int) -> float:
        return 100.0 * part / whole if whole else 0.0

    def add(self, other: BotStats) -> None:
        """Adds another tally of the same bot (e.g. one stored game's) into this one, so
        figures can be kept per game and summed without re-reading records."""
        for f in fields(self):
            if f.name in ("name", "think_us_max", "fault_kinds"):
                continue
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        self.think_us_max = max(self.think_us_max, other.think_us_max)
        for kind, n in other.fault_kinds.items():
            self.fault_kinds[kind] = self.fault_kinds.get(kind, 0) + n


def collect_stats(logs: Iterable[GameLog]) -> dict[str, BotStats]:
    stats: dict[str, BotStats] = {}

    def get(name: str) -> BotStats:
        s = stats.get(name)
        if s is None:
            s = stats[name] = BotStats(name)
        return s

    for log in logs:
        names = {sb.seat: sb.name for sb in log.seats}
        if sorted(names) != list(range(log.rules.seats)):
            continue
        teams = [{n for seat, n in names.items() if seat % 2 == team} for team in (0, 1)]
        for team, members in enumerate(teams):
            for name in members:
                s = get(name)
                s.games += 1
                s.wins += log.winning_team == team
                s.draws += log.drawn
                s.points += log.final_scores[team]
        for h in log.hands:
            for la in h.actions:
                if la.substituted:
                    continue
                b = get(names[la.seat])
                b.decisions += 1
                b.think_us_total += la.think_us
                b.think_us_max = max(b.think_us_max, la.think_us)
            for name in set(names.values()):
                get(name).hands += 1
            r = h.result
            if r is None or r.maker is None:
                continue
            maker = get(names[r.maker])
            maker.calls += 1
            outcome = r.score.outcome
            if outcome in (Outcome.MADE, Outcome.MARCH):
                maker.makes += 1
            if outcome is Outcome.MARCH:
                maker.marches += 1
            if outcome is Outcome.EUCHRED:
                maker.euchred += 1
                for name in {names[s] for s in names if s % 2 != r.maker % 2}:
                    get(name).euchres += 1
            for seat in r.alone:
                a = get(names[seat])
                a.alone += 1
                if seat % 2 == r.maker % 2:
                    a.alone_makers += 1
                    if outcome is Outcome.MARCH:
                        a.alone_marches += 1
        for f in log.faults:
            b = get(names[f.seat])
            b.faults += 1
            b.fault_kinds[f.kind.value] = b.fault_kinds.get(f.kind.value, 0) + 1
    return stats


Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95% quantile of the normal distribution."""


def pair_scores(logs: Iterable[GameLog], name: str) -> list[float]:
    """The bot's score in each duplicate pair it played (the games of one seed: both
    halves of a deal), as the mean of its games' scores (a win 1, a draw 1/2): the unit
    whose result card luck does not decide, as ladder standings count them. A game
    without its other half is a unit of its own."""
    units: dict[int, list[float]] = {}
    for log in logs:
        teams = {sb.seat % 2 for sb in log.seats if sb.name == name}
        if len(teams) != 1:
            continue
        (team,) = teams
        units.setdefault(log.seed, []).append(log.points_of_team(team))
    return [sum(u) / len(u) for u in units.values()]


def interval95(scores: list[float]) -> tuple[float, float] | None:
    """A 95% interval of the mean score over units (pairs): the mean plus or minus 1.96
    standard errors of the units' own spread (population variance, as fastchess and the
    ladder's head-to-head figures), within 0..1. When every unit scored alike the spread
    says nothing, so the Wilson score interval of that mean over the units stands in:
    a clean sweep of 10 pairs is not a certainty. None for fewer than two units."""
    n = len(scores)
    if n < 2:
        return None
    mean = sum(scores) / n
    variance = sum((x - mean) ** 2 for x in scores) / n
    if variance > 0:
        half = Z95 * math.sqrt(variance / n)
        return max(0.0, mean - half), min(1.0, mean + half)
    z2 = Z95 * Z95
    centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)
