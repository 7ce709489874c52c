"""A recorded game in the terminal: `arena replay`'s view and the cards, actions and hands
`arena watch` draws its frames with. The game is replayed through the rules engine, so
what a seat's view shows is exactly what seat_view() let that seat see. Hands are numbered
from 1 wherever people read them (the records and the protocol count from 0).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table
from rich.text import Text

from arena.core.actions import Action, ActionKind
from arena.core.cards import SUITS, Card, card_label, card_suit, is_joker
from arena.core.game import ActionTaken
from arena.core.rules import RULES_EDITION
from arena.core.view import seat_event, seat_view
from arena.records.gamelog import STALLED_AFTER, GameEnd, GameLog
from arena.records.replay import Divergence, Point, replay


def card_text(card: int, two_of_spades_joker: bool = False) -> Text:
    label = card_label(card, two_of_spades_joker)
    if is_joker(card):
        return Text(label, style="bold magenta")
    suit = card_suit(card)
    red = suit is not None and suit.is_red
    return Text(label, style="bold red" if red else "bold")


def cards_text(cards: Iterable[Card], two_of_spades_joker: bool = False) -> Text:
    t = Text()
    for i, c in enumerate(sorted(cards)):
        if i:
            t.append(" ")
        t.append_text(card_text(c, two_of_spades_joker))
    return t


def action_text(
    seat_names: list[str], seat: int, action: Action, hidden: bool, two_of_spades_joker: bool
) -> Text:
    who = Text(f"{seat_names[seat]}: ")
    k = action.kind
    if k in (ActionKind.GIVE, ActionKind.PASS_CARD) and hidden:
        return who + Text(f"gives seat {action.seat} a card face down", style="dim")
    if k is ActionKind.DISCARD:
        if hidden:
            return who + Text("discards a card face down", style="dim")
        assert action.card is not None  # every discard has its card (Action refuses one without)
        return who + Text("discards ") + card_text(action.card, two_of_spades_joker)
    if k is ActionKind.PASS:
        return who + Text("pass", style="dim")
    return who + Text(str(action), style="bold cyan")


def show_game(log: GameLog, seat: int | None = None, hand: int | None = None,
              console: Console | None = None) -> None:
    """The game in the terminal; from `seat`, only what it could see; only hand `hand`
    (counted from 1, as everywhere people read hand numbers) when given."""
    console = console or Console()
    n = log.rules.seats
    names = [f"seat {s.seat} {s.name}" for s in sorted(log.seats, key=lambda s: s.seat)]
    if len(names) != n:
        names = [f"seat {s}" for s in range(n)]
    header = Table.grid(padding=(0, 2))
    header.add_row("game", log.game_id)
    r = log.rules
    length = f"{r.hand_limit} hands" if r.hand_limit else f"to {r.target}"
    header.add_row("rules", f"{r.name} ({r.seats} seats, deck {r.deck}, {length})")
    if log.rules_edition != RULES_EDITION:  # played, and replayed, by an earlier reading
        header.add_row("reading", f"edition {log.rules_edition} of the rules' reading, as "
                       f"it was played (today's is {RULES_EDITION}: docs/rules.md)")
    if seat is None:  # the seed deals every hidden card
        header.add_row("seed", str(log.seed))
    if log.table_id:
        header.add_row("table id", f"{log.table_id} (what the bots were told)")
    unsealed = [names[s.seat] for s in log.seats if not s.sandboxed]
    header.add_row("sandbox", "every seat sealed" if not unsealed else Text(
        f"NOT sealed: {', '.join(unsealed)} (could have seen hidden cards)", style="bold red"))
    for s in sorted(log.seats, key=lambda s: s.seat):
        if s.limits is not None and s.seat < len(names):
            header.add_row("limits", f"{names[s.seat]}: {s.limits.text()}")
    for team in (0, 1):
        header.add_row(f"team {team}", " + ".join(names[team::2]))
    verdict = "a draw" if log.drawn else f"team {log.winning_team} won"
    if log.end is GameEnd.STALLED:
        verdict = f"a draw, stopped after {STALLED_AFTER} hands in a row thrown in"
    header.add_row("result", f"{log.final_scores[0]}-{log.final_scores[1]}, {verdict} "
                   f"({log.end.value if log.end else '?'})")
    if seat is not None:
        header.add_row("view", f"only what {names[seat]} could see")
    console.print(header)

    printer: _HandPrinter | None = None
    try:
        for point in replay(log):
            hl = point.hand_log
            if hand is not None and hl.hand_number + 1 != hand:
                continue
            if printer is None or printer.hand_log is not hl:
                if printer is not None:
                    printer.end()
                printer = _HandPrinter(console, point, names, seat)
            printer.action(point)
        if printer is not None:
            printer.end()
    except Divergence as d:
        console.print(Text(f"the record diverges from the rules: {d.told_to(seat)}",
                           style="bold red"))
    if log.faults:
        console.print("[bold red]faults:")
        for f in log.faults:
            # A fault's detail may quote a bot's output (its cards, say): from a seat,
            # only that seat's own faults show it.
            own = seat is None or seat == f.seat
            detail = f": {f.detail.splitlines()[0]}" if f.detail and own else ""
            console.print(f"  hand {f.hand_number + 1}, {names[f.seat]}: {f.kind.value}{detail}")


class _HandPrinter:
    """Prints one hand as the replay goes through it. Tricks are printed from the engine's
    own finished tricks (with their winners) as they appear, never worked out here."""

    def __init__(self, console: Console, point: Point, names: list[str], seat: int | None) -> None:
        self.console, self.names, self.seat = console, names, seat
        self.hand_log = point.hand_log
        game = point.game
        self.hand = h = game.hand  # kept: the game moves on to the next hand at the end
        self.printed = 0
        self.trump_shown = False
        console.rule(f"hand {self.hand_log.hand_number + 1} · dealer {names[h.dealer]} · "
                     f"score {game.scores[0]}-{game.scores[1]}")
        self.two = game.rules.two_of_spades_joker
        console.print(Text("upcard ") + card_text(h.upcard, self.two))
        if seat is None:
            for s in range(len(h.hands)):
                console.print(Text(f"  {names[s]:<28}") + cards_text(h.hands[s], self.two))
        else:
            view = seat_view(game, seat)
            shown = cards_text(view.hand, self.two) if view.hand else Text("(not looked at yet)", style="dim")
            console.print(Text(f"  {names[seat]:<28}") + shown)

    def _flush_tricks(self) -> None:
        for number, trick in enumerate(self.hand.tricks[self.printed:], start=self.printed + 1):
            line = Text(f"  trick {number}: ")
            for i, (s, c) in enumerate(trick.plays):
                if i:
                    line.append("  ")
                line.append(f"{s}:")
                line.append_text(card_text(c, self.two))
            line.append(f"  → {self.names[trick.winner]}", style="green")
            self.console.print(line)
        self.printed = len(self.hand.tricks)

    def _flush(self) -> None:
        """What the engine decided since the last action: trump made, tricks finished."""
        h = self.hand
        if h.trump is not None and not self.trump_shown:
            assert h.maker is not None  # trump and its maker are made together
            self.trump_shown = True
            suit = SUITS[h.trump]
            self.console.print(f"  [bold]trump {suit.symbol} {suit.name.lower()}[/bold], made by "
                               f"{self.names[h.maker]} (team {h.makers_team})")
        self._flush_tricks()

    def action(self, point: Point) -> None:
        self._flush()
        game, la, seat, names = point.game, point.logged, self.seat, self.names
        kind = la.action.kind
        if kind is ActionKind.PLAY:
            if seat is not None and la.seat == seat:
                held = seat_view(game, seat).hand
                self.console.print(Text(f"  {names[seat]} holds ", style="dim") + cards_text(held, self.two))
            return
        # What this seat was told of the action: arena.core.view decides, as for its bot.
        told = seat_event(ActionTaken(la.seat, la.action, kind), seat) if seat is not None else None
        hidden = isinstance(told, ActionTaken) and told.action is None
        text = action_text(names, la.seat, la.action, hidden, self.two)
        if la.substituted:
            text.append("  (played by the arena after a fault)", style="red")
        self.console.print(Text("  ") + text)

    def end(self) -> None:
        self._flush()
        hl, names = self.hand_log, self.names
        r = hl.result
        if r is None:
            self.console.print("[red]  the hand was not finished (the game was forfeited)")
        elif r.maker is None:
            self.console.print("  [dim]everyone passed: thrown in[/dim]")
        else:
            alone = f", alone: {', '.join(names[s] for s in r.alone)}" if r.alone else ""
            self.console.print(
                f"  makers team {r.maker % 2} took {_tricks(r.tricks_won[r.maker % 2])}{alone}: "
                f"[bold]{r.score.outcome.value}[/bold], {r.score.points} to team {r.score.team} "
                f"→ {hl.scores_after[0]}-{hl.scores_after[1]}"
            )


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"
