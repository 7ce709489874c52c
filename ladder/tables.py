"""Rich tables of a ladder: standings, likelihood of superiority, crosstable, games.

Plain functions from values to tables, so the live view, `ladder standings` and `ladder
report` show the same thing the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rich.console import JustifyMethod
from rich.table import Table

from ladder.standings import BY_PAIRS, Standings
from ladder.store import GameRow

UNSEALED_MARK = "†"
"""Marks a bot some of whose games were played unsealed."""


def _num(x: float | None, fmt: str = ".0f") -> str:
    return "-" if x is None else format(x, fmt)


def standings_table(st: Standings, title: str | None = None) -> Table:
    """Best first. "LOS next" is the likelihood that a bot really is stronger than the one
    listed below it: the honest answer to "is this gap real?"."""
    unit = "pairs" if st.by == BY_PAIRS else "games"
    conf = round(100 * (st.fit.confidence if st.fit else 0.95))
    # No borders: the table fits an 80-column terminal with long bot names.
    t = Table(title=title, caption=_caption(st, unit), box=None, pad_edge=False,
              header_style="bold underline")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("bot", "left"), ("games", "right"), ("win %", "right"), ("Elo", "right"),
        ("rating", "right"), (f"{conf}% CI", "center"), ("LOS next", "right"), ("faults", "right"),
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
            f"{ln.name}{UNSEALED_MARK if ln.unsealed else ''}", str(ln.games),
            f"{ln.win_pct:.1f}", f"{ln.elo:.0f}", rating,
            interval, los, f"[red]{ln.faults}" if ln.faults else "0",
        )
    return t


def _caption(st: Standings, unit: str) -> str:
    if st.fit is None:
        text = f"{st.games} games; no maximum-likelihood ratings: {st.fit_problem}"
    else:
        text = (f"{st.games} games. Rating: Bradley-Terry over {unit}, prior "
                f"{st.fit.prior:g}, mean 1200. Elo: K=10, in schedule order.")
    unsealed = [f"{ln.name} in {ln.unsealed}" for ln in st.lines if ln.unsealed]
    if unsealed:
        text += (f"\n{UNSEALED_MARK} played without a sandbox, so it could have seen hidden "
                 f"cards: {', '.join(unsealed)} game(s)")
    return text


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
        t.add_column(col, justify="right" if col in ("seq", "dealer", "faults") else "left")
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
