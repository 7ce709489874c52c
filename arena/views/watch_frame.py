"""One frame of a game being watched: the table as it stands, with every seat's cards or
with one seat's view.

A seat's frame is drawn from seat_view() (arena.core.view) alone, and each action in it
from seat_event(), the functions every bot is asked and told with: it cannot show what
that seat could not see. The whole table's frame adds, from the game itself, every hand
and the dealer's discard. Cards and actions are written as `arena replay` writes them.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from arena.core.actions import Action, ActionKind
from arena.core.cards import SUITS
from arena.core.game import ActionTaken, GameState, HandEnded, TrickCompleted
from arena.core.view import SeatView, seat_event, seat_view
from arena.play.live_files import LiveGame, LiveHeader
from arena.views.replay_text import action_text, card_text, cards_text

NAME_WIDTH = 24


def seat_names(header: LiveHeader) -> list[str]:
    return [f"seat {s.seat} {s.name}" for s in header.seats]


def frame(live: LiveGame, seat: int | None = None) -> RenderableType:
    """The table now: every seat's cards (seat None), or only what `seat` may see."""
    header, game = live.header, live.game
    assert header is not None and game is not None, "a frame needs the file's header"
    names = seat_names(header)
    two = header.rules.two_of_spades_joker
    # Public facts are the same in every seat's view; the whole table's frame reads them
    # from seat 0's and adds the hidden cards from the game itself.
    view = seat_view(game, 0 if seat is None else seat)
    parts: list[RenderableType] = [Rule(_title(live, view), align="left")]
    who = "every seat's cards" if seat is None else f"only what {names[seat]} may see"
    parts.append(Text(f"  {who}", style="dim"))
    parts += _hands(game, view, names, seat, two)
    parts.append(_contract(game, view, names, seat, two))
    parts += _tricks(live, view, names, seat, two)
    parts += _recent(live, names, seat, two)
    parts += _outcome(live)
    return Group(*parts)


def _title(live: LiveGame, view: SeatView) -> str:
    assert live.header is not None
    return (f"{live.header.game_id} · hand {view.hand_number} · score "
            f"{view.scores[0]}-{view.scores[1]} · action {live.actions}")


def _hands(game: GameState, view: SeatView, names: list[str], seat: int | None,
           two: bool) -> list[Text]:
    lines = []
    for s, name in enumerate(names):
        line = Text(f"  {name:<{NAME_WIDTH}} ")
        held = view.cards_in_hands[s]
        if seat is None and game.hand.hands[s]:
            line.append_text(cards_text(game.hand.hands[s], two))
        elif s == seat and view.hand:
            line.append_text(cards_text(view.hand, two))
        elif s == seat and held:
            line.append("(not looked at yet)", style="dim")
        elif s == seat or seat is None or not held:
            line.append("(no cards)", style="dim")
        else:
            line.append(f"({held} card{'s' if held != 1 else ''})", style="dim")
        if s == view.dealer:
            line.append("  dealer", style="dim")
        if s in view.sitting_out:
            line.append("  sits out", style="dim")
        if view.turn == s and not game.over:
            line.append("  ← to act", style="bold yellow")
        lines.append(line)
    return lines


def _contract(game: GameState, view: SeatView, names: list[str], seat: int | None,
              two: bool) -> Text:
    t = Text("  upcard ") + card_text(view.upcard, two)
    if view.upcard_turned_down:
        t.append(" (turned down)", style="dim")
    elif view.dealer_took_upcard:
        t.append(" (taken up by the dealer)", style="dim")
    if view.trump is not None and view.maker is not None:
        suit = SUITS[view.trump]
        t.append(f" · trump {suit.symbol} {suit.name.lower()}", style="bold")
        t.append(f", made by {names[view.maker]} (team {view.maker % 2})")
        if view.alone:
            t.append(f", alone: {', '.join(names[s] for s in view.alone)}")
    discard = game.hand.discarded if seat is None else view.discard
    if discard is not None:
        t.append(" · discarded ")
        t.append_text(card_text(discard, two))
    return t


def _tricks(live: LiveGame, view: SeatView, names: list[str], seat: int | None,
            two: bool) -> list[Text]:
    lines = []
    tricks = [(i + 1, t.plays, t.winner) for i, t in enumerate(view.tricks)]
    if view.current_trick is not None:
        tricks.append((len(tricks) + 1, view.current_trick.plays, None))
    elif not view.tricks and live.last_trick is not None:
        # A new hand: the trick that ended the last one, for a moment longer.
        told = seat_event(live.last_trick, seat) if seat is not None else live.last_trick
        if isinstance(told, TrickCompleted):
            tricks.append((0, told.trick.plays, told.trick.winner))
    for number, plays, winner in tricks:
        line = Text("  last trick of the hand before: " if number == 0 else f"  trick {number}: ")
        for i, (s, c) in enumerate(plays):
            if i:
                line.append("  ")
            line.append(f"{s}:")
            line.append_text(card_text(c, two))
        if winner is not None:
            line.append(f"  → {names[winner]}", style="green")
        lines.append(line)
    if view.tricks or view.current_trick is not None:
        lines.append(Text(f"  tricks won: team 0 {view.tricks_won[0]}, "
                          f"team 1 {view.tricks_won[1]}", style="dim"))
    return lines


def _recent(live: LiveGame, names: list[str], seat: int | None, two: bool) -> list[Text]:
    if not live.recent:
        return []
    lines = [Text("  last actions:", style="dim")]
    for taken, substituted in live.recent:
        assert taken.action is not None  # the game's own events: full information
        # What the seat was told of it: arena.core.view decides, as for its bot.
        told = seat_event(taken, seat) if seat is not None else taken
        hidden = isinstance(told, ActionTaken) and told.action is None
        text = Text("    ") + _action_line(names, taken.seat, taken.action, hidden, two)
        if substituted:
            text.append("  (played by the arena after a fault)", style="red")
        lines.append(text)
    return lines


def _action_line(names: list[str], seat: int, action: Action, hidden: bool, two: bool) -> Text:
    if action.kind is ActionKind.PLAY and action.card is not None:
        return Text(f"{names[seat]}: plays ") + card_text(action.card, two)
    return action_text(names, seat, action, hidden, two)


def _outcome(live: LiveGame) -> list[Text]:
    lines = []
    last: HandEnded | None = live.last_hand
    if last is not None:
        r = last.result
        if r.maker is None:
            said = "everyone passed: thrown in"
        else:
            said = (f"makers team {r.maker % 2} took {r.tricks_won[r.maker % 2]} tricks: "
                    f"{r.score.outcome.value}, {r.score.points} to team {r.score.team}")
        lines.append(Text(f"  last hand: {said} → {last.scores[0]}-{last.scores[1]}",
                          style="dim"))
    end = live.end
    if end is not None:
        lines.append(Text(f"  {ending(live)}", style="bold"))
    elif live.problem is not None:
        lines.append(Text(f"  cannot follow this game further: {live.problem}", style="red"))
    return lines


def ending(live: LiveGame) -> str:
    """How the game ended, in one line."""
    end = live.end
    assert live.header is not None
    gid = live.header.game_id
    if end is None:
        return f"{gid}: {live.problem or 'not over'}"
    if end.stopped:
        return f"{gid}: stopped before its end (the run was interrupted; it is played again)"
    score = f"{end.scores[0]}-{end.scores[1]}"
    if end.winner is None:
        return f"{gid}: over, a draw at {score} ({end.how})"
    return f"{gid}: over, team {end.winner} won {score} ({end.how})"
