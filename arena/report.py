"""Per-bot tables printed after a match or in a ladder report (rich)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.gamelog import GameLog
from arena.stats import BotStats, collect_stats


def bot_table(stats: Sequence[BotStats], title: str) -> Table:
    t = Table(title=title)
    for col in ("bot", "games", "won", "win %", "points", "calls", "made %", "euchred",
                "euchres", "alone", "faults", "mean ms", "worst ms"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for s in stats:
        t.add_row(
            s.name, str(s.games), str(s.wins) + (f" (+{s.draws} drawn)" if s.draws else ""),
            f"{100 * s.win_rate:.1f}", str(s.points),
            str(s.calls), f"{s.pct(s.makes, s.calls):.0f}", str(s.euchred), str(s.euchres),
            f"{s.alone_marches}/{s.alone_makers}", str(s.faults) if not s.faults else f"[red]{s.faults}",
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
    """Tables stay readable when output goes to a file or a pipe (rich assumes 80 columns)."""
    c = Console()
    return c if c.is_terminal else Console(width=max(c.width, 132))


def print_match_table(logs: Iterable[GameLog], order: Sequence[str], elapsed: float,
                      console: Console | None = None) -> None:
    logs = list(logs)
    console = console or _wide_console()
    stats = collect_stats(logs)
    rows = [stats[n] for n in order if n in stats]
    rate = len(logs) / elapsed if elapsed > 0 else 0.0
    console.print(bot_table(rows, f"{len(logs)} games in {elapsed:.1f} s ({rate:.1f} games/s)"))
    unsealed = sorted({s.name for log in logs for s in log.seats if not s.sandboxed})
    if unsealed:
        console.print(f"[bold red]not sandboxed[/bold red]: {', '.join(unsealed)} ran without "
                      "a sandbox and could have seen hidden cards")
    faults = [(log.game_id, f) for log in logs for f in log.faults]
    if faults:
        console.print(f"[red]{len(faults)} fault(s)[/red]; the first few:")
        for game_id, f in faults[:5]:
            first_line = f.detail.splitlines()[0] if f.detail else ""
            # A fault's detail quotes the bot: text, never markup.
            console.print(Text(f"  {game_id} seat {f.seat}: {f.kind.value}: {first_line}"))
