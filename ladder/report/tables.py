"""Rich tables of a ladder: standings, likelihood of superiority, crosstable, games.

Plain functions from values to tables, so the live view, `ladder standings` and `ladder
report` show the same thing the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from rich.console import JustifyMethod
from rich.table import Table

from ladder.rating.pairs import HeadToHead
from ladder.rating.ratings import FIELD
from ladder.rating.standings import BY_PAIRS, Standings
from ladder.store.database import GameRow

UNSEALED_MARK = "†"
"""Marks a bot some of whose games were played unsealed."""


def _num(x: float | None, fmt: str = ".0f") -> str:
    return "-" if x is None else format(x, fmt)


def standings_table(st: Standings, title: str | None = None) -> Table:
    """Best first. "rating" and its interval are the whole-history fit on the pair model:
    the numbers to read. "LOS next" is the likelihood that a bot really is stronger than
    the one listed below it. "Elo (running)" comes last: the `elo` package's game-by-game
    figure, order-dependent and never settled, kept for those who know it."""
    conf = round(100 * (st.fit.confidence if st.fit else 0.95))
    # No borders: the table fits an 80-column terminal with long bot names.
    t = Table(title=title, caption=_caption(st), box=None, pad_edge=False,
              header_style="bold underline")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("bot", "left"), ("games", "right"), ("pairs", "right"), ("win %", "right"),
        ("rating", "right"), (f"{conf}% CI", "center"), ("LOS next", "right"),
        ("faults", "right"), ("Elo (running)", "right"),
    )
    for col, justify in columns:
        t.add_column(col, justify=justify, no_wrap=True)
    lines = st.lines
    for i, ln in enumerate(lines):
        los = "-"
        below = lines[i + 1] if i + 1 < len(lines) else None
        if below is not None and (ln.name, below.name) in st.los:
            los = f"{100 * st.los[ln.name, below.name]:.1f}%"
        interval = "-"
        if ln.low is not None and ln.high is not None and ln.stderr is not None:
            interval = f"{ln.low:.0f}..{ln.high:.0f}"
        rating = "-" if ln.rating is None else f"{ln.rating:.0f}"
        t.add_row(
            f"{ln.name}{UNSEALED_MARK if ln.unsealed else ''}", str(ln.games), str(ln.pairs),
            f"{ln.win_pct:.1f}", rating, interval, los,
            f"[red]{ln.faults}" if ln.faults else "0", f"[dim]{ln.elo:.0f}",
        )
    return t


def _caption(st: Standings) -> str:
    if st.fit is None:
        text = f"{st.games} games; no ratings: {st.fit_problem}"
    else:
        model = (f"{st.pairs} duplicate pairs and {st.units - st.pairs} lone games, "
                 "pair-level variance" if st.by == BY_PAIRS else
                 "every game independent (--by games)")
        text = (f"{st.games} games. Rating: Bradley-Terry over {model}; prior "
                f"{st.fit.prior:g} virtual games per bot; mean 1200. Elo (running): K=10, "
                "game by game in schedule order: order-dependent, never settles.")
    sprt = sprt_text(st)
    if sprt:
        text += "\n" + sprt
    unsealed = [f"{ln.name} in {ln.unsealed}" for ln in st.lines if ln.unsealed]
    if unsealed:
        text += (f"\n{UNSEALED_MARK} played without a sandbox, so it could have seen hidden "
                 f"cards: {', '.join(unsealed)} game(s)")
    return text


def plain_caption(st: Standings) -> str:
    """The caption without its markup or the SPRT line (for the HTML page)."""
    return _caption(replace(st, sprt_test=None, sprt=None))


def sprt_text(st: Standings) -> str:
    """The gauntlet's test in one line: its hypotheses, LLR, bounds and decision."""
    t, s = st.sprt_test, st.sprt
    if t is None or s is None:
        return ""
    unit = "pairs" if st.pairs or not st.games else "games"
    if s.result is None:
        verdict = "running"
    else:
        verdict = f"[bold]{s.result} accepted[/bold]" + (" (stopped there)" if st.sprt_frozen else "")
    hyp = "normalized Elo" if t.model == "normalized" else "Elo"
    return (f"SPRT {st.challenger} v field: H0 {hyp} <= {t.elo0:g}, H1 >= {t.elo1:g} "
            f"(alpha {t.alpha:g}, beta {t.beta:g}): LLR {s.llr:.2f} in ({s.lower:.2f}, "
            f"{s.upper:.2f}) after {s.units} {unit}: {verdict}")


NO_SPREAD = "no spread"
"""The nElo of two bots every one of whose units scored the same."""

NO_SPREAD_NOTE = (f"{NO_SPREAD}: every unit of the two scored the same, so there is no "
                  "spread to measure their score against, and no nElo (fastchess's "
                  "formulas give nan)")


def nelo_text(h: HeadToHead | None) -> str:
    """nElo ± its margin; "-" where the two never met, NO_SPREAD where every unit they
    played scored the same (pairs.HeadToHead)."""
    if h is None:
        return "-"
    if not h.spread or h.nelo is None or h.nelo_margin is None:
        return NO_SPREAD
    return f"{h.nelo:+.0f} ± {h.nelo_margin:.0f}"


def gaps_table(st: Standings) -> Table:
    """Every two bots: the fitted gap with its margin and LOS; where they met, their own
    games' normalized Elo (fastchess's, on pairs). A gauntlet's challenger against its
    field comes first."""
    conf = round(100 * (st.fit.confidence if st.fit else 0.95))
    t = Table(title=f"gaps (rating difference ± {conf}% margin; LOS: the first is stronger)")
    for col in ("", "gap", "LOS", "head to head", "nElo"):
        t.add_column(col, justify="left" if col == "" else "right", no_wrap=True)
    rows = []
    if st.field_gap is not None:
        h = st.field_h2h
        rows.append((f"{st.challenger} v {FIELD}", st.field_gap, h))
    for g in st.gaps:
        rows.append((f"{g.bot} v {g.other}", g, st.head_to_head.get((g.bot, g.other))))
    for label, g, h in rows:
        style = "green" if g.los >= 0.95 else "red" if g.los <= 0.05 else ""
        los = f"{100 * g.los:.1f}%"
        meeting = "-" if h is None else f"{100 * h.score:.1f}% of {h.units} {h.by}"
        t.add_row(label, g.text(), f"[{style}]{los}" if style else los, meeting, nelo_text(h))
    if any(nelo_text(h) == NO_SPREAD for _, _, h in rows):
        t.caption = NO_SPREAD_NOTE
    return t


def los_table(st: Standings) -> Table:
    """LOS(row > column): the probability that the row bot is the stronger."""
    names = [ln.name for ln in st.lines if ln.rating is not None]
    t = Table(title="likelihood of superiority (row stronger than column)")
    t.add_column("", justify="left")
    for n in names:
        t.add_column(n, justify="right")
    for a in names:
        cells = []
        for b in names:
            if a == b:
                cells.append("")
                continue
            p = st.los[a, b]
            style = "green" if p >= 0.95 else "red" if p <= 0.05 else ""
            text = f"{100 * p:.1f}"
            cells.append(f"[{style}]{text}" if style else text)
        t.add_row(a, *cells)
    return t


def crosstable(st: Standings) -> Table:
    """Each cell: the row bot's points against the column bot over the games they played."""
    names = [ln.name for ln in st.lines]
    t = Table(title="crosstable (row's points / games against column)")
    t.add_column("", justify="left")
    for name in names:
        t.add_column(name, justify="right")
    t.add_column("total", justify="right")
    for a in names:
        cells = []
        total_pts, total_n = 0.0, 0
        for b in names:
            pts, n = st.crosstable.get((a, b), (0.0, 0))
            total_pts += pts
            total_n += n
            cells.append("" if a == b else (f"{pts:g}/{n} ({100 * pts / n:.0f}%)" if n else "-"))
        total = f"{total_pts:g}/{total_n}" if total_n else "-"
        t.add_row(a, *cells, total)
    return t


def games_table(rows: Sequence[GameRow], title: str) -> Table:
    t = Table(title=title)
    for col in ("game", "seq", "team 0 (even seats)", "team 1 (odd seats)", "dealer",
                "score", "winner", "end", "faults", "finished"):
        # A game id is what `ladder replay` is given: never cut short, whatever the width.
        t.add_column(col, justify="right" if col in ("seq", "dealer", "faults") else "left",
                     no_wrap=col == "game")
    for r in rows:
        winner = "draw" if r.winning_team is None else r.seats[r.winning_team]
        faults = f"[red]{r.faults} {r.fault_kinds}" if r.faults else ""
        score = f"{r.points_a}-{r.points_b}" if r.a_team == 0 else f"{r.points_b}-{r.points_a}"
        t.add_row(
            r.game_id, str(r.seq), r.seats[0], r.seats[1], str(r.first_dealer), score, winner,
            r.outcome, faults, datetime.fromtimestamp(r.finished_ms / 1000).strftime("%H:%M:%S"),
        )
    return t


def history_table(history: Sequence[tuple[int, int, str, float, float | None]],
                  names: Sequence[str], last: int = 12) -> Table:
    """How the ratings settled: the fitted rating (Elo when there was no fit yet) of each
    bot at the last few checkpoints."""
    snapshots: dict[tuple[int, int], dict[str, str]] = {}
    for taken_ms, games, label, elo, rating in history:
        cell = f"{rating:.0f}" if rating is not None else f"({elo:.0f})"
        snapshots.setdefault((taken_ms, games), {})[label] = cell
    t = Table(title="rating history (Elo in brackets before there was a fit)")
    t.add_column("games", justify="right")
    t.add_column("taken", justify="left")
    for n in names:
        t.add_column(n, justify="right")
    for (taken_ms, games), cells in list(snapshots.items())[-last:]:
        when = datetime.fromtimestamp(taken_ms / 1000).strftime("%m-%d %H:%M:%S")
        t.add_row(str(games), when, *(cells.get(n, "") for n in names))
    return t
