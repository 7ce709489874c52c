"""Standings: ratings from stored games, the same whoever computes them and whenever.

The rating is the whole-history fit of ladder.rating.ratings on the pair model of ladder.rating.pairs:
each duplicate deal's two seat-swapped games are one unit whose halves may be correlated
(they share the cards), with a pair-level variance, so intervals, gaps and LOS keep their
stated confidence whatever that correlation is. A game whose other half is not stored
yet counts as a game of its own, with no bias. `by="games"` treats every game as
independent instead (what a ladder without duplicate is anyway): it is there to compare,
not to trust for a duplicate ladder.

Elo is replayed game by game in schedule order (seq), never in the order games happened
to finish, so a ladder run at concurrency 1 or 32, or interrupted and resumed, ends with
the same Elo; it is still order-dependent (another schedule would give another Elo) and
never settles, which is why it comes after the rating.

A gauntlet's challenger is also rated against its field (the mean of the others), and
with an SPRT its test is shown: frozen where a run decided it (ladder.schedule.sprt_watch),
otherwise over every stored pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ladder.rating.pairs import GameLike, HeadToHead, PairingTally, head_to_head, pair_units, tally_units
from ladder.rating.ratings import (
    DEFAULT_PRIOR,
    ELO_INITIAL,
    EloTable,
    Gap,
    RatingFit,
    Result,
    all_gaps,
    field_gap,
    fit_tallies,
    likelihood_of_superiority,
)
from ladder.rating.sprt import SprtState, SprtTest

BY_PAIRS = "pairs"
BY_GAMES = "games"
BY_CHOICES = (BY_PAIRS, BY_GAMES)


class ResultLike(GameLike, Protocol):
    """What standings read of a stored game (ladder.store.database.GameRow has it all): what the
    pair model reads, and more. Read-only members: a frozen dataclass such as GameRow, a
    named tuple or a plain object all fit."""

    @property
    def number(self) -> int: ...
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
    """Running Elo in schedule order (order-dependent; see the module)."""
    rating: float | None = None
    """The fit's rating; None when the bot has no games or no fit exists."""
    stderr: float | None = None
    low: float | None = None
    high: float | None = None
    results: int = 0
    """Games in the fit."""
    unsealed: int = 0
    """Its games in which some seat ran without a sandbox (or was given by address)."""
    score: float | None = None
    """Mean score per game."""
    pairs: int = 0
    """Its complete duplicate pairs."""
    draws: int = 0
    """Its drawn games (level at the end of a fixed-length variant, or stalled)."""

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
    units: int = 0
    """Units in the fit: complete pairs plus lone games (by games: games)."""
    pairs: int = 0
    gaps: tuple[Gap, ...] = ()
    """Every two rated bots, the better-rated first."""
    field_gap: Gap | None = None
    """A gauntlet challenger against the mean of its field."""
    head_to_head: Mapping[tuple[str, str], HeadToHead] = field(default_factory=dict)
    """(row, column) -> their own games' figures (normalized Elo...), where they met."""
    challenger: str | None = None
    field_h2h: HeadToHead | None = None
    """The challenger against its whole field, its games pooled (as fastchess does)."""
    sprt_test: SprtTest | None = None
    sprt: SprtState | None = None
    sprt_frozen: bool = False
    """True: a run decided the test and stored it (games after it do not count)."""

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
            "units": self.units,
            "pairs": self.pairs,
            "confidence": fit.confidence if fit else 0.95,
            "prior": fit.prior if fit else DEFAULT_PRIOR,
            "fit_problem": self.fit_problem,
            "bots": [
                {
                    "name": ln.name, "games": ln.games, "pairs": ln.pairs, "wins": ln.wins,
                    "draws": ln.draws, "win_pct": round(ln.win_pct, 3), "faults": ln.faults,
                    "unsealed_games": ln.unsealed,
                    "rating": _round(ln.rating), "stderr": _round(ln.stderr),
                    "low": _round(ln.low), "high": _round(ln.high),
                    "score": _round(ln.score, 5),
                    "elo_running": round(ln.elo, 3),
                }
                for ln in self.lines
            ],
            "gaps": [_gap_json(g) | self._h2h_json(g.bot, g.other) for g in self.gaps],
            "challenger": None if self.challenger is None else {
                "name": self.challenger,
                "field": None if self.field_gap is None else _gap_json(self.field_gap),
                "pooled": _h2h_json(self.field_h2h),
            },
            "sprt": self.sprt_json(),
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

    def sprt_json(self) -> dict[str, Any] | None:
        t, s = self.sprt_test, self.sprt
        if t is None or s is None:
            return None
        return {
            "elo0": t.elo0, "elo1": t.elo1, "alpha": t.alpha, "beta": t.beta, "model": t.model,
            "llr": round(s.llr, 4), "lower": round(s.lower, 4), "upper": round(s.upper, 4),
            "units": s.units, "result": s.result, "frozen": self.sprt_frozen,
        }

    def _h2h_json(self, a: str, b: str) -> dict[str, Any]:
        return {"head_to_head": _h2h_json(self.head_to_head.get((a, b)))}


def _gap_json(g: Gap) -> dict[str, Any]:
    return {"bot": g.bot, "other": g.other, "elo": round(g.elo, 3),
            "margin": round(g.margin, 3), "stderr": round(g.stderr, 3), "los": round(g.los, 5)}


def _h2h_json(h: HeadToHead | None) -> dict[str, Any] | None:
    if h is None:
        return None
    return {"by": h.by, "units": h.units, "score": round(h.score, 5),
            "elo": _round(h.elo), "elo_margin": _round(h.elo_margin),
            "nelo": _round(h.nelo), "nelo_margin": _round(h.nelo_margin),
            "los": _round(h.los, 5)}


def _round(x: float | None, digits: int = 3) -> float | None:
    return None if x is None else round(x, digits)


def in_schedule_order(rows: Iterable[ResultLike]) -> list[ResultLike]:
    return sorted(rows, key=lambda r: (r.seq, r.game_id))


def game_results(rows: Iterable[ResultLike]) -> list[Result]:
    return [(r.bot_a, r.bot_b, r.score_a) for r in in_schedule_order(rows)]


def elo_in_schedule_order(rows: Iterable[ResultLike]) -> EloTable:
    table = EloTable()
    table.update_all(game_results(rows))
    return table


def gauntlet_challenger(rows: Iterable[ResultLike]) -> str | None:
    """The one bot in every pairing, where there are at least two pairings and no other
    bot met another: a gauntlet's challenger, recognised from its games."""
    pairings = {(r.bot_a, r.bot_b) for r in rows}
    if len(pairings) < 2:
        return None
    common = set.intersection(*({a, b} for a, b in pairings))
    return next(iter(common)) if len(common) == 1 else None


def challenger_tally(tallies: Mapping[tuple[str, str], PairingTally], challenger: str
                     ) -> PairingTally:
    """Every unit of the challenger, from its side, pooled over its opponents."""
    pooled = PairingTally()
    for (a, b), t in tallies.items():
        if challenger == a:
            pooled.merge(t)
        elif challenger == b:
            pooled.merge(t.flipped())
    return pooled


def sprt_counts(tally: PairingTally, *, paired: bool) -> dict[float, int]:
    """A tally's units as the SPRT counts them: complete pairs by their mean per game, or
    (without duplicate) single games."""
    if paired:
        return {s / 2: n for s, n in tally.pairs.items()}
    return dict(tally.singles)


@dataclass
class BotCounts:
    """What standings count per bot and per pairing besides the fit: sums over games, so
    the same whatever order the games are counted in (ladder.rating.running counts them one at a
    time as a ladder runs, compute_standings all at once)."""

    games: dict[str, int] = field(default_factory=dict)
    wins: dict[str, int] = field(default_factory=dict)
    draws: dict[str, int] = field(default_factory=dict)
    faults: dict[str, int] = field(default_factory=dict)
    unsealed: dict[str, int] = field(default_factory=dict)
    cross: dict[tuple[str, str], tuple[float, int]] = field(default_factory=dict)
    """(bot, other) -> (bot's points, games) over their games."""

    def add(self, r: ResultLike) -> None:
        if not getattr(r, "sandboxed", True):  # rows made in memory may not say
            for me in (r.bot_a, r.bot_b):
                self.unsealed[me] = self.unsealed.get(me, 0) + 1
        for me, other, score, f in ((r.bot_a, r.bot_b, r.score_a, r.faults_a),
                                    (r.bot_b, r.bot_a, 1.0 - r.score_a, r.faults_b)):
            self.games[me] = self.games.get(me, 0) + 1
            self.wins[me] = self.wins.get(me, 0) + (score == 1.0)
            self.draws[me] = self.draws.get(me, 0) + (score == 0.5)
            self.faults[me] = self.faults.get(me, 0) + f
            pts, n = self.cross.get((me, other), (0.0, 0))
            self.cross[me, other] = (pts + score, n + 1)


def compute_standings(
    rows: Iterable[ResultLike],
    *,
    by: str = BY_PAIRS,
    bots: Sequence[str] = (),
    prior: float = DEFAULT_PRIOR,
    confidence: float = 0.95,
    challenger: str | None = None,
    sprt: SprtTest | None = None,
    sprt_decided: SprtState | None = None,
    duplicate: bool = True,
) -> Standings:
    """Standings over the given games; `bots` lists bots to show even without games.
    `challenger` names a gauntlet's challenger; `sprt` its test and `sprt_decided` the
    decision a run stored, if any. `duplicate` says whether the ladder was played in
    pairs (what the SPRT counts as a unit). Reads every game: a running ladder keeps
    ladder.rating.running's tallies instead, which give the same standings."""
    if by not in BY_CHOICES:
        raise ValueError(f"by must be {BY_PAIRS!r} or {BY_GAMES!r}, not {by!r}")
    rows = in_schedule_order(rows)
    counts = BotCounts()
    for r in rows:
        counts.add(r)
    units = pair_units(rows, paired=by == BY_PAIRS)
    pairs_of: dict[str, int] = {}
    for u in units:
        if u.paired:
            for me in (u.bot_a, u.bot_b):
                pairs_of[me] = pairs_of.get(me, 0) + 1
    own: Mapping[tuple[str, str], PairingTally] = {}
    if challenger is not None and sprt is not None and sprt_decided is None:
        # The test's own units: pairs in a duplicate ladder, whatever `by` says.
        own = tally_units(pair_units(rows, paired=duplicate))
    return assemble_standings(
        counts, tally_units(units), elo_in_schedule_order(rows), games=len(rows),
        units=len(units), pairs=sum(1 for u in units if u.paired), pairs_of=pairs_of,
        by=by, bots=bots, prior=prior, confidence=confidence, challenger=challenger,
        sprt=sprt, sprt_tallies=own, sprt_decided=sprt_decided, duplicate=duplicate,
    )


def assemble_standings(
    counts: BotCounts,
    tallies: Mapping[tuple[str, str], PairingTally],
    elo: EloTable,
    *,
    games: int,
    units: int,
    pairs: int,
    pairs_of: Mapping[str, int],
    by: str,
    bots: Sequence[str],
    prior: float,
    confidence: float,
    challenger: str | None,
    sprt: SprtTest | None,
    sprt_tallies: Mapping[tuple[str, str], PairingTally],
    sprt_decided: SprtState | None,
    duplicate: bool,
) -> Standings:
    """Standings from what was counted over the games: `tallies` of the units `by` says,
    `units` and complete `pairs` among them, `pairs_of` each bot, Elo replayed in
    schedule order, and the SPRT's own tallies (pairs in a duplicate ladder). Costs the
    fit's time, O(pairings + bots**3), whatever the number of games."""
    names = list(dict.fromkeys([*bots, *counts.games]))
    fit: RatingFit | None = None
    problem: str | None = None
    if not units:
        problem = "no games yet"
    else:
        try:
            fit = fit_tallies(tallies, prior=prior, confidence=confidence, bots=names)
        except (ValueError, RuntimeError) as e:
            problem = str(e)
    lines = []
    for name in names:
        rated = None
        if fit is not None and name in fit.names():
            rated = fit.get(name)
        lines.append(Line(
            name=name, games=counts.games.get(name, 0), wins=counts.wins.get(name, 0),
            faults=counts.faults.get(name, 0),
            elo=elo.rating(name),
            rating=rated.rating if rated else None,
            stderr=rated.stderr if rated else None,
            low=rated.low if rated else None,
            high=rated.high if rated else None,
            results=rated.games if rated else 0,
            score=rated.score if rated else None,
            unsealed=counts.unsealed.get(name, 0),
            pairs=pairs_of.get(name, 0),
            draws=counts.draws.get(name, 0),
        ))
    lines.sort(key=lambda ln: (ln.rating is None, -(ln.rating or 0.0), -ln.elo, ln.name))

    h2h: dict[tuple[str, str], HeadToHead] = {}
    for (a, b), t in tallies.items():
        for key, side in (((a, b), t), ((b, a), t.flipped())):
            found = head_to_head(side, by=by if t.pairs else BY_GAMES)
            if found is not None:
                h2h[key] = found
    field: Gap | None = None
    pooled_h2h: HeadToHead | None = None
    state: SprtState | None = None
    if challenger is not None:
        pooled = challenger_tally(tallies, challenger)
        pooled_h2h = head_to_head(pooled, by=by if pooled.pairs else BY_GAMES)
        if fit is not None and challenger in fit.names() and len(fit.ratings) > 1:
            field = field_gap(fit, challenger)
        if sprt is not None:
            if sprt_decided is not None:
                state = sprt_decided
            else:
                own = challenger_tally(sprt_tallies, challenger)
                state = sprt.state(sprt_counts(own, paired=duplicate), paired=duplicate)
    return Standings(
        lines=tuple(lines),
        games=games,
        by=by,
        fit=fit,
        fit_problem=problem,
        los=likelihood_of_superiority(fit) if fit is not None else {},
        crosstable=dict(counts.cross),
        units=units,
        pairs=pairs,
        gaps=tuple(all_gaps(fit)) if fit is not None else (),
        field_gap=field,
        head_to_head=h2h,
        challenger=challenger,
        field_h2h=pooled_h2h,
        sprt_test=sprt,
        sprt=state,
        sprt_frozen=sprt_decided is not None,
    )


def snapshot_lines(standings: Standings) -> list[tuple[str, float, float | None, float | None,
                                                       float | None]]:
    """(name, elo, rating, low, high) per bot with games: one rating-history snapshot."""
    return [(ln.name, ln.elo, ln.rating, ln.low, ln.high) for ln in standings.lines
            if ln.games or ln.elo != ELO_INITIAL]


def rating_curve(rows: Iterable[ResultLike], *, points: int = 24, by: str = BY_PAIRS,
                 prior: float = DEFAULT_PRIOR, confidence: float = 0.95
                 ) -> list[tuple[int, dict[str, tuple[float, float, float]]]]:
    """How the ratings settled: at up to `points` evenly spaced numbers of games (in
    schedule order, each ending on a whole pair where it can), the fit of the games so
    far: (games, {bot: (rating, low, high)}). Recomputed with today's model rather than
    read from the snapshots a run stored, so the curve and the standings agree."""
    rows = in_schedule_order(rows)
    if not rows:
        return []
    marks = sorted({max(1, round(len(rows) * k / points)) for k in range(1, points + 1)})
    out: list[tuple[int, dict[str, tuple[float, float, float]]]] = []
    for mark in marks:
        end = mark
        # Do not cut a pair in two: the lone half would be a unit of its own.
        if end < len(rows) and by == BY_PAIRS and (
            (rows[end].bot_a, rows[end].bot_b, rows[end].deal)
            == (rows[end - 1].bot_a, rows[end - 1].bot_b, rows[end - 1].deal)
        ):
            end += 1
        try:
            fit = fit_tallies(tally_units(pair_units(rows[:end], paired=by == BY_PAIRS)),
                              prior=prior, confidence=confidence)
        except (ValueError, RuntimeError):
            continue
        point = (end, {r.name: (r.rating, r.low, r.high) for r in fit.ratings})
        if not out or out[-1][0] != end:
            out.append(point)
    return out
