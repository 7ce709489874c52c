"""Per-bot tables printed after a match or in a ladder report (rich)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.records.gamelog import GameLog
from arena.records.stats import BotStats, collect_stats, interval95, pair_scores
from arena.settings.faults import Fault

MATCH_LEGEND = (
    "won: games won (+ drawn; a draw counts half in win %). 95% CI: of win %, over {pairs} "
    "duplicate pairs (each deal's two games one unit, as ladder standings count them). "
    "calls: hands it made trump in; made %: of those, the ones it made; euchred: its calls "
    "the other side euchred; euchres: the other side's calls it euchred; alone: lone "
    "hands it took all five tricks in / lone hands it called; faults: its games' faults "
    "(listed below); mean, worst: its decision times in ms."
)


def bot_table(stats: Sequence[BotStats], title: str,
              intervals: dict[str, tuple[float, float] | None] | None = None,
              pairs: int = 0) -> Table:
    """A match's table: one row a bot, borderless (as the ladder's standings) and one
    space between columns, so that 14 columns and a long bot name fit 100, with the
    legend beneath it."""
    t = Table(title=title, caption=MATCH_LEGEND.format(pairs=pairs), caption_justify="left",
              box=None, pad_edge=False, padding=(0, 1, 0, 0), header_style="bold underline")
    for col in ("bot", "games", "won", "win %", "95% CI", "points", "calls", "made %",
                "euchred", "euchres", "alone", "faults", "mean", "worst"):
        # Narrower than 100, cells fold rather than lose their ends; a bot keeps its name.
        t.add_column(col, justify="left" if col == "bot" else
                     "center" if col == "95% CI" else "right", overflow="fold",
                     min_width=min(12, max(len(s.name) for s in stats)) if col == "bot" and stats
                     else None)
    intervals = intervals or {}
    for s in stats:
        ci = intervals.get(s.name)
        t.add_row(
            Text(s.name), str(s.games), str(s.wins) + (f"+{s.draws}" if s.draws else ""),
            f"{100 * s.win_rate:.1f}", "-" if ci is None else f"{100 * ci[0]:.0f}..{100 * ci[1]:.0f}",
            str(s.points), str(s.calls), f"{s.pct(s.makes, s.calls):.0f}", str(s.euchred),
            str(s.euchres), f"{s.alone_marches}/{s.alone_makers}",
            str(s.faults) if not s.faults else f"[red]{s.faults}",
            f"{s.mean_think_ms:.2f}", f"{s.max_think_ms:.1f}",
        )
    return t


def bot_figures_table(stats: Sequence[BotStats], title: str) -> Table:
    """How each bot plays, as rates a reader can compare across bots: of its calls, how
    many it made, marched or was euchred on; of its lone calls, how many took all five;
    its faults by kind and its decision times. Borderless, to fit 14 columns."""
    t = Table(title=title, box=None, pad_edge=False, header_style="bold underline")
    for col in ("bot", "games", "win %", "calls", "make %", "march %", "euchred %",
                "euchres", "alone", "alone %", "faults", "decisions", "mean ms", "worst ms"):
        t.add_column(col, justify="left" if col in ("bot", "faults") else "right",
                     no_wrap=col == "bot")
    for s in stats:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(s.fault_kinds.items()))
        t.add_row(
            s.name, str(s.games), f"{100 * s.win_rate:.1f}", str(s.calls),
            f"{s.pct(s.makes, s.calls):.1f}", f"{s.pct(s.marches, s.calls):.1f}",
            f"{s.pct(s.euchred, s.calls):.1f}", str(s.euchres),
            f"{s.alone_marches}/{s.alone_makers}",
            f"{s.pct(s.alone_marches, s.alone_makers):.0f}" if s.alone_makers else "-",
            f"[red]{s.faults} ({kinds})" if s.faults else "0", str(s.decisions),
            f"{s.mean_think_ms:.2f}", f"{s.max_think_ms:.1f}",
        )
    return t


def _wide_console() -> Console:
    """In a file or a pipe rich assumes 80 columns (or COLUMNS); the match table is
    made to fit 100, so that is the least it gets there."""
    c = Console()
    return c if c.is_terminal else Console(width=max(c.width, 100))


FAULT_TAIL_LINES = 5
"""Lines of a fault's detail shown after its first: the end of the bot's log, for a crash."""


def fault_lines(game_id: str, fault: Fault, who: str = "") -> list[Text]:
    """A fault as text (a bot's words are never markup): its first line, then the last
    lines of the rest of its detail, where a crash quotes the end of the bot's log."""
    lines = fault.detail.splitlines() if fault.detail else [""]
    out = [Text(f"  {game_id} seat {fault.seat}{who}: {fault.kind.value}: {lines[0]}")]
    rest = lines[1:]
    if len(rest) > FAULT_TAIL_LINES:
        out.append(Text(f"    | ... ({len(rest) - FAULT_TAIL_LINES} lines before)"))
    out += [Text(f"    | {line}") for line in rest[-FAULT_TAIL_LINES:]]
    return out


def print_match_table(logs: Iterable[GameLog], order: Sequence[str], elapsed: float,
                      console: Console | None = None) -> None:
    logs = list(logs)
    console = console or _wide_console()
    stats = collect_stats(logs)
    rows = [stats[n] for n in order if n in stats]
    units = {n: pair_scores(logs, n) for n in order}
    intervals = {n: interval95(u) for n, u in units.items()}
    pairs = max((len(u) for u in units.values()), default=0)
    rate = len(logs) / elapsed if elapsed > 0 else 0.0
    console.print(bot_table(rows, f"{len(logs)} games in {elapsed:.1f} s ({rate:.1f} games/s)",
                            intervals, pairs))
    unsealed = sorted({s.name for log in logs for s in log.seats if not s.sandboxed})
    if unsealed:
        console.print(f"[bold red]not sandboxed[/bold red]: {', '.join(unsealed)} ran without "
                      "a sandbox and could have seen hidden cards")
    faults = [(log.game_id, f) for log in logs for f in log.faults]
    if faults:
        console.print(f"[red]{len(faults)} fault(s)[/red]; the first few:")
        for game_id, f in faults[:5]:
            for line in fault_lines(game_id, f):
                console.print(line)
