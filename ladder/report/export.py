"""A ladder's report as data: every table as rows of plain values, for JSON and CSV.

The same numbers `ladder report` prints, unrounded where rounding would lose something a
spreadsheet could use, so that nobody has to scrape a terminal table.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from arena.records.stats import BotStats
from ladder.rating.ratings import FIELD
from ladder.rating.standings import Standings

Curve = Sequence[tuple[int, Mapping[str, tuple[float, float, float]]]]
"""(games, {bot: (rating, low, high)}): ladder.rating.standings.rating_curve."""

TABLES = ("standings", "gaps", "los", "crosstable", "bots", "curve")


def figures(s: BotStats) -> dict[str, Any]:
    """One bot's per-game figures, as `ladder report` shows them."""
    return {
        "bot": s.name, "games": s.games, "win_pct": round(100 * s.win_rate, 3),
        "calls": s.calls, "make_pct": round(s.pct(s.makes, s.calls), 3),
        "march_pct": round(s.pct(s.marches, s.calls), 3),
        "euchred_pct": round(s.pct(s.euchred, s.calls), 3), "euchres": s.euchres,
        "alone_calls": s.alone_makers, "alone_marches": s.alone_marches,
        "faults": s.faults, "fault_kinds": dict(sorted(s.fault_kinds.items())),
        "decisions": s.decisions, "mean_ms": round(s.mean_think_ms, 4),
        "worst_ms": round(s.max_think_ms, 4),
    }


def report_tables(st: Standings, stats: Mapping[str, BotStats], curve: Curve
                  ) -> dict[str, list[dict[str, Any]]]:
    """Each of TABLES as a list of rows (dicts with the same keys)."""
    standings = [
        {"bot": ln.name, "games": ln.games, "pairs": ln.pairs, "wins": ln.wins,
         "draws": ln.draws, "win_pct": round(ln.win_pct, 3), "rating": ln.rating,
         "stderr": ln.stderr, "low": ln.low, "high": ln.high, "score": ln.score,
         "faults": ln.faults, "unsealed_games": ln.unsealed, "elo_running": ln.elo}
        for ln in st.lines
    ]
    gaps = []
    pairs = ([(st.field_gap, st.field_h2h)] if st.field_gap is not None else []) + [
        (g, st.head_to_head.get((g.bot, g.other))) for g in st.gaps
    ]
    for g, h in pairs:
        gaps.append({
            "bot": g.bot, "other": g.other, "gap": g.elo, "margin": g.margin,
            "stderr": g.stderr, "los": g.los,
            "h2h_units": None if h is None else h.units, "h2h_by": None if h is None else h.by,
            "h2h_score": None if h is None else h.score,
            "nelo": None if h is None else h.nelo,
            "nelo_margin": None if h is None else h.nelo_margin,
        })
    names = [ln.name for ln in st.lines]
    los = [{"bot": a, **{b: st.los.get((a, b)) for b in names if b != a}} for a in names]
    cross = []
    for a in names:
        row: dict[str, Any] = {"bot": a}
        for b in names:
            if b != a:
                pts, n = st.crosstable.get((a, b), (0.0, 0))
                row[b] = f"{pts:g}/{n}" if n else ""
        cross.append(row)
    bots = [figures(stats[n]) | {"fault_kinds": _kinds(stats[n])} for n in names if n in stats]
    points = [{"games": games, "bot": bot, "rating": r, "low": lo, "high": hi}
              for games, by_bot in curve for bot, (r, lo, hi) in sorted(by_bot.items())]
    return {"standings": standings, "gaps": gaps, "los": los, "crosstable": cross,
            "bots": bots, "curve": points}


def _kinds(s: BotStats) -> str:
    return " ".join(f"{k}:{n}" for k, n in sorted(s.fault_kinds.items()))


def report_json(name: str, database: str, st: Standings, stats: Mapping[str, BotStats],
                curve: Curve, unverified: Sequence[str]) -> dict[str, Any]:
    """The standings' own JSON (ratings, gaps, SPRT, LOS, crosstable) with the per-bot
    figures and the rating curve."""
    return {
        "ladder": name, "database": database, **st.to_json(),
        "field": FIELD,
        "figures": [figures(stats[ln.name]) for ln in st.lines if ln.name in stats],
        "curve": [{"games": games, "ratings": {bot: {"rating": round(r, 3), "low": round(lo, 3),
                                                     "high": round(hi, 3)}
                                               for bot, (r, lo, hi) in sorted(by_bot.items())}}
                  for games, by_bot in curve],
        "unverified": list(unverified),
    }


def write_csv(folder: Path, tables: Mapping[str, list[dict[str, Any]]]) -> list[Path]:
    """One file per table (TABLE.csv) in `folder`, made if missing; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, rows in tables.items():
        path = folder / f"{name}.csv"
        columns: list[str] = []
        for row in rows:
            columns += [k for k in row if k not in columns]
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=columns or ["empty"])
            writer.writeheader()
            for row in rows:
                writer.writerow({k: "" if v is None else v for k, v in row.items()})
        written.append(path)
    return written
