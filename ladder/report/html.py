"""A ladder's report as one self-contained HTML page: charts a person can read at a glance.

The page is a single file with its style, its charts (inline SVG drawn here, so the page
needs no script to show them) and a few lines of script that only check the drawing, so it
can be mailed or archived and opened anywhere, offline. What it shows:

- each bot's rating with its 95% interval against the games played: a line with a band,
  so one sees how the ratings settled and how fast the intervals narrowed;
- the standings, every gap with its margin and LOS, and a gauntlet's SPRT;
- the crosstable as a heat map (the row's score against the column, red to green) and
  the LOS matrix, coloured the same way;
- the per-bot figures (make %, euchred %, lone hands, faults, decision times).

Every name is escaped: a bot's name is text its author chose.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

from arena.records.stats import BotStats
from ladder.rating.ratings import FIELD
from ladder.rating.standings import Standings
from ladder.report.export import Curve, figures
from ladder.report.tables import NO_SPREAD, NO_SPREAD_NOTE, nelo_text

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")

_CSS = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; max-width: 72em; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
p.note { color: #555; margin: 0.3em 0; }
table { border-collapse: collapse; margin: 0.5em 0; }
th, td { padding: 0.2em 0.6em; text-align: right; border: 1px solid #ddd; }
th:first-child, td:first-child { text-align: left; }
td.self { background: #eee; }
.sprt { font-weight: bold; }
svg.chart { background: #fcfcfc; border: 1px solid #ddd; }
svg.chart text { font-size: 11px; fill: #444; }
.legend span { display: inline-block; margin-right: 1em; }
.legend i { display: inline-block; width: 1.5em; height: 0.6em; margin-right: 0.3em; }
"""

# Checks that the charts were laid out with a real size (a browser's own measure), and
# says so on the body for whoever looks; nothing on the page depends on it.
_SCRIPT = """
(function () {
  var drawn = 0, bands = 0;
  document.querySelectorAll("svg.chart path.line").forEach(function (p) {
    var box = p.getBBox();
    if (box.width > 0 && p.getTotalLength() > 0) drawn++;
  });
  document.querySelectorAll("svg.chart path.band").forEach(function (p) {
    var box = p.getBBox();
    if (box.width > 0 && box.height > 0) bands++;
  });
  document.body.dataset.lines = String(drawn);
  document.body.dataset.bands = String(bands);
  document.body.dataset.cells = String(document.querySelectorAll("td.heat").length);
})();
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _num(x: float | None, fmt: str = ".0f") -> str:
    return "-" if x is None else format(x, fmt)


def _heat(value: float) -> str:
    """0 -> red, 1/2 -> white, 1 -> green, as an rgb() background."""
    v = min(max(value, 0.0), 1.0)
    if v < 0.5:
        k = v / 0.5
        return f"rgb(230,{int(120 + 135 * k)},{int(120 + 135 * k)})"
    k = (v - 0.5) / 0.5
    return f"rgb({int(255 - 135 * k)},{int(255 - 35 * k)},{int(255 - 135 * k)})"


def rating_chart(curve: Curve, names: Sequence[str], *, width: int = 760, height: int = 360
                 ) -> str:
    """Each bot's rating against games played, a line inside its interval's band."""
    points = [(g, bot, v) for g, by_bot in curve for bot, v in by_bot.items() if bot in names]
    if not points:
        return "<p class=\"note\">Not enough games for a chart yet.</p>"
    left, right, top, bottom = 56, 16, 12, 36
    max_games = max(g for g, _, _ in points)
    low = min(v[1] for _, _, v in points)
    high = max(v[2] for _, _, v in points)
    if high - low < 1:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad

    def x(games: float) -> float:
        return left + (width - left - right) * games / max_games

    def y(rating: float) -> float:
        return top + (height - top - bottom) * (high - rating) / (high - low)

    parts = [f'<svg class="chart" id="rating-chart" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="ratings against games">']
    for k in range(6):  # grid and axis labels
        r = low + (high - low) * k / 5
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{y(r):.1f}" y2="{y(r):.1f}" '
                     'stroke="#e4e4e4"/>')
        parts.append(f'<text x="{left - 6}" y="{y(r) + 4:.1f}" text-anchor="end">{r:.0f}</text>')
        g = max_games * k / 5
        parts.append(f'<text x="{x(g):.1f}" y="{height - bottom + 16}" '
                     f'text-anchor="middle">{g:.0f}</text>')
    parts.append(f'<text x="{(left + width - right) / 2:.0f}" y="{height - 4}" '
                 'text-anchor="middle">games played</text>')
    for i, name in enumerate(names):
        colour = PALETTE[i % len(PALETTE)]
        series = [(g, by_bot[name]) for g, by_bot in curve if name in by_bot]
        if not series:
            continue
        upper = " ".join(f"{x(g):.1f},{y(v[2]):.1f}" for g, v in series)
        lower = " ".join(f"{x(g):.1f},{y(v[1]):.1f}" for g, v in reversed(series))
        line = " ".join(f"{x(g):.1f},{y(v[0]):.1f}" for g, v in series)
        if len(series) == 1:  # one point: a short tick, so there is a line to see
            g, v = series[0]
            line = f"{x(g) - 3:.1f},{y(v[0]):.1f} {x(g):.1f},{y(v[0]):.1f}"
        parts.append(f'<path class="band" data-bot="{_e(name)}" d="M{upper} L{lower} Z" '
                     f'fill="{colour}" fill-opacity="0.15" stroke="none"/>')
        parts.append(f'<path class="line" data-bot="{_e(name)}" d="M{line}" fill="none" '
                     f'stroke="{colour}" stroke-width="2"><title>{_e(name)}</title></path>')
    parts.append("</svg>")
    legend = "".join(f'<span><i style="background:{PALETTE[i % len(PALETTE)]}"></i>{_e(n)}</span>'
                     for i, n in enumerate(names))
    return "".join(parts) + f'<div class="legend">{legend}</div>'


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "") -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(rows_cell for rows_cell in row) + "</tr>" for row in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _td(text: object, style: str = "", cls: str = "") -> str:
    attrs = (f' class="{cls}"' if cls else "") + (f' style="{style}"' if style else "")
    return f"<td{attrs}>{_e(text)}</td>"


def render_report(name: str, st: Standings, stats: Mapping[str, BotStats], curve: Curve, *,
                  caption: str = "") -> str:
    """The whole report as one HTML document."""
    names = [ln.name for ln in st.lines]
    conf = round(100 * (st.fit.confidence if st.fit else 0.95))
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           f"<title>{_e(name)}: ladder report</title><style>{_CSS}</style></head><body>",
           f"<h1>{_e(name)}</h1>"]
    if caption:
        out.append(f'<p class="note">{_e(caption)}</p>')
    if st.sprt_test is not None and st.sprt is not None:
        t, s = st.sprt_test, st.sprt
        verdict = "running" if s.result is None else f"{s.result} accepted"
        out.append(f'<p class="sprt" id="sprt">SPRT {_e(st.challenger)} v field: H0 '
                   f"{t.elo0:g}, H1 {t.elo1:g} ({_e(t.model)}; alpha {t.alpha:g}, beta "
                   f"{t.beta:g}): LLR {s.llr:.2f} in ({s.lower:.2f}, {s.upper:.2f}) after "
                   f"{s.units} units: {_e(verdict)}</p>")

    out.append("<h2>Ratings against games played</h2>")
    out.append(f'<p class="note">The fit of the games so far at each point, with its {conf}% '
               "interval as a band: how the ratings settled.</p>")
    out.append(rating_chart(curve, names))

    out.append("<h2>Standings</h2>")
    rows = []
    for i, ln in enumerate(st.lines):
        below = st.lines[i + 1].name if i + 1 < len(st.lines) else None
        los = st.los.get((ln.name, below)) if below else None
        rows.append([_td(ln.name), _td(ln.games), _td(ln.pairs), _td(f"{ln.win_pct:.1f}"),
                     _td(_num(ln.rating)),
                     _td("-" if ln.low is None or ln.high is None
                         else f"{ln.low:.0f}..{ln.high:.0f}"),
                     _td("-" if los is None else f"{100 * los:.1f}%"), _td(ln.faults),
                     _td(f"{ln.elo:.0f}")])
    out.append(_table(["bot", "games", "pairs", "win %", "rating", f"{conf}% CI", "LOS next",
                       "faults", "Elo (running)"], rows, "standings"))
    out.append('<p class="note">Read the rating and its interval; Elo (running) is the '
               "game-by-game figure of the elo package, order-dependent and never settled."
               "</p>")

    out.append("<h2>Gaps</h2>")
    rows = []
    listed = ([(st.field_gap, st.field_h2h)] if st.field_gap is not None else []) + [
        (g, st.head_to_head.get((g.bot, g.other))) for g in st.gaps]
    for g, h in listed:
        other = FIELD if g.other == FIELD else g.other
        rows.append([_td(f"{g.bot} v {other}"), _td(g.text()),
                     _td(f"{100 * g.los:.1f}%", f"background:{_heat(g.los)}", "heat"),
                     _td("-" if h is None else f"{100 * h.score:.1f}% of {h.units} {h.by}"),
                     _td(nelo_text(h))])
    out.append(_table(["", f"gap ± {conf}%", "LOS", "head to head", "nElo"], rows, "gaps"))
    if any(nelo_text(h) == NO_SPREAD for _, h in listed):
        out.append(f'<p class="note">{_e(NO_SPREAD_NOTE)}.</p>')

    out.append("<h2>Crosstable</h2>")
    out.append('<p class="note">The row bot\'s score against the column bot: red below '
               "half, green above.</p>")
    rows = []
    for a in names:
        row = [_td(a)]
        for b in names:
            pts, n = st.crosstable.get((a, b), (0.0, 0))
            if a == b:
                row.append(_td("", cls="self"))
            elif n:
                row.append(_td(f"{pts:g}/{n} ({100 * pts / n:.0f}%)",
                               f"background:{_heat(pts / n)}", "heat"))
            else:
                row.append(_td("-"))
        rows.append(row)
    out.append(_table(["", *names], rows, "crosstable"))

    rated = [n for n in names if any((n, m) in st.los for m in names)]
    if len(rated) > 1:
        out.append("<h2>Likelihood of superiority</h2>")
        out.append('<p class="note">The chance that the row bot is stronger than the column '
                   "bot.</p>")
        rows = []
        for a in rated:
            row = [_td(a)]
            for b in rated:
                p = st.los.get((a, b))
                row.append(_td("", cls="self") if p is None else
                           _td(f"{100 * p:.1f}", f"background:{_heat(p)}", "heat"))
            rows.append(row)
        out.append(_table(["", *rated], rows, "los"))

    out.append("<h2>Per bot</h2>")
    rows = []
    for bot in names:
        if bot not in stats:
            continue
        f = figures(stats[bot])
        rows.append([_td(bot), _td(f["games"]), _td(f"{f['win_pct']:.1f}"), _td(f["calls"]),
                     _td(f"{f['make_pct']:.1f}"), _td(f"{f['march_pct']:.1f}"),
                     _td(f"{f['euchred_pct']:.1f}"), _td(f["euchres"]),
                     _td(f"{f['alone_marches']}/{f['alone_calls']}"), _td(f["faults"]),
                     _td(f"{f['mean_ms']:.2f}"), _td(f"{f['worst_ms']:.1f}")])
    out.append(_table(["bot", "games", "win %", "calls", "make %", "march %", "euchred %",
                       "euchres", "alone", "faults", "mean ms", "worst ms"], rows, "figures"))
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out)
