"""A game record as one self-contained HTML page that steps through the game.

render_html(log) replays the record through the rules engine (arena.records.replay) and
precomputes, for every step, what each perspective shows: "all cards" from the engine's
state, and each seat's from seat_view() alone, so a card that seat could not see is not
in that perspective's data at all. The page embeds those states as JSON and draws them
with a small vanilla script: no network, no external files. The page's template, style
sheet and script are package data in arena/views/replay_assets/ (viewer.html, viewer.css,
viewer.js), read with importlib.resources and inlined into the one file written.

Steps: for each hand, one step before each recorded action, then one at the end of the
hand (the last trick and the result visible). Perspectives: "all", then each seat. A page
made for one seat (render_html(log, seat=N), `arena replay --html --seat N`) has that
seat's perspective alone: no "all cards" state, no seed, no other seat's view or fault
detail is computed into it, so it can be handed to that bot's author. Hands are numbered
from 1, as in the terminal. The page reads and writes its position in the URL fragment,
``#step=12&seat=2`` (``seat=all`` for every card), so a link opens the same view.
"""

from __future__ import annotations

import functools
import html
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from arena.core.actions import Action, ActionKind
from arena.core.cards import (
    NUM_CARD_IDS,
    RANK_NAMES,
    SUITS,
    Card,
    card_label,
    card_name,
    card_rank,
    card_suit,
    copy_of,
)
from arena.core.game import GameState
from arena.core.hand import HandState, Phase
from arena.core.view import SeatView, hand_view, seat_view
from arena.records.gamelog import STALLED_AFTER, GameEnd, GameLog, HandLog, LoggedAction
from arena.records.replay import Divergence, replay

_PHASE_TEXT = {
    Phase.BID_ROUND_1: "Bidding, round 1",
    Phase.BID_ROUND_2: "Bidding, round 2",
    Phase.DEALER_NAMES_TRUMP: "Joker turned: dealer names trump",
    Phase.GOING_ALONE: "Going alone?",
    Phase.DEALER_DISCARD: "Dealer discards",
    Phase.DEALER_PICKUP: "Dealer takes the upcard or leaves it",
    Phase.LONER_ASKS: "Lone player asks a partner for a card",
    Phase.PARTNER_GIVES: "Partner gives the lone player a card",
    Phase.LONER_DISCARDS: "Lone player discards",
    Phase.LONER_EXCHANGES: "Lone player keeps the passed card or sets it aside",
    Phase.PLAY: "Play",
    Phase.HAND_OVER: "Hand over",
}


# --- words for actions and results ------------------------------------------------------


def _suit_text(suit: int) -> str:
    s = SUITS[suit]
    return f"{s.symbol} {s.name.lower()}"


def action_text(action: Action, two_of_spades_joker: bool = False) -> str:
    """An action as people read it ("orders up", "names ♥ hearts alone", "plays J♥")."""
    k = action.kind
    alone = " alone" if action.alone else ""
    if k is ActionKind.PASS:
        return "passes"
    if k is ActionKind.ORDER_UP:
        return f"orders up{alone}"
    if k is ActionKind.NAME_TRUMP:
        assert action.suit is not None
        return f"names {_suit_text(action.suit)}{alone}"
    if k is ActionKind.GO_ALONE:
        return "goes alone"
    if k is ActionKind.ASK:
        return f"asks seat {action.seat} for a card"
    assert action.card is not None
    if k is ActionKind.GIVE:
        return f"gives {card_label(action.card, two_of_spades_joker)} to seat {action.seat}"
    if k is ActionKind.PASS_CARD:
        return f"passes {card_label(action.card, two_of_spades_joker)} face down to seat {action.seat}"
    verb = "discards" if k is ActionKind.DISCARD else "plays"
    return f"{verb} {card_label(action.card, two_of_spades_joker)}"


def _result_text(hand: HandState) -> str | None:
    r = hand.result
    if r is None:
        return None
    s = r.score
    if s.team is None:
        return "Thrown in: everyone passed, no score"
    outcome = {"made": "made it", "march": "march", "euchred": "euchred"}[s.outcome.value]
    alone = " (alone)" if r.alone else ""
    points = "point" if s.points == 1 else "points"
    return (
        f"{outcome.capitalize()}{alone}: Team {s.team} scores {s.points} {points} "
        f"(tricks {r.tricks_won[0]}–{r.tricks_won[1]})"
    )


# --- states of one step -----------------------------------------------------------------


def _trick_json(leader: int, plays: Iterable[tuple[int, Card]], winner: int | None) -> list[Any]:
    flat: list[int] = []
    for seat, card in plays:
        flat += [seat, card]
    return [leader, flat, winner]


def _public(v: SeatView) -> dict[str, Any]:
    """What every seat's view holds alike (the table). Built from one seat's view."""
    return {
        "ph": v.phase.value,
        "pt": _PHASE_TEXT[v.phase],
        "tu": v.turn,
        "d": v.dealer,
        "sc": list(v.scores),
        "up": v.upcard,
        "utd": v.upcard_turned_down,
        "dtu": v.dealer_took_upcard,
        "au": [[s, action_text(a, v.rules.two_of_spades_joker)] for s, a in v.auction],
        "tr": v.trump,
        "mk": v.maker,
        "al": list(v.alone),
        "so": list(v.sitting_out),
        "tk": [_trick_json(t.leader, t.plays, t.winner) for t in v.tricks],
        "ct": _trick_json(v.current_trick.leader, v.current_trick.plays, None)
        if v.current_trick
        else None,
        "tw": list(v.tricks_won),
        "n": v.cards_held(),
        "ks": v.rules.kitty_size,
    }


def _legal_cards(v: SeatView) -> list[Card]:
    return sorted(
        a.card
        for a in v.legal_actions
        if a.kind in (ActionKind.PLAY, ActionKind.DISCARD) and a.card is not None
    )


def _private(v: SeatView) -> dict[str, Any]:
    """What only this seat's view holds: its hand, the discard (the dealer's), its moves."""
    return {
        "h": list(v.hand),
        "dc": v.discard,
        "lg": _legal_cards(v),
        "looked": v.phase is not Phase.DEALER_NAMES_TRUMP or v.seat != v.dealer,
    }


def _everything(hand: HandState, turn_view: SeatView | None) -> dict[str, Any]:
    """The "all cards" perspective: the engine's own state, every hand and the kitty."""
    return {
        "hs": [sorted(h) for h in hand.hands],
        "k": list(hand.kitty),
        "dc": hand.discarded,
        "lg": _legal_cards(turn_view) if turn_view is not None else [],
    }


def _seen_action(prev: SeatView, now: SeatView) -> str:
    """The action between two views of one seat, as much of it as that seat saw."""
    actor = prev.turn
    two = now.rules.two_of_spades_joker

    def label(card: Card) -> str:
        return card_label(card, two)

    if len(now.auction) > len(prev.auction):
        s, a = now.auction[-1]
        return f"Seat {s} {action_text(a, two)}"

    def plays(v: SeatView) -> list[tuple[int, Card]]:
        out = [p for t in v.tricks for p in t.plays]
        return out + (list(v.current_trick.plays) if v.current_trick else [])

    before, after = plays(prev), plays(now)
    if len(after) > len(before):
        s, c = after[-1]
        return f"Seat {s} plays {label(c)}"
    if now.discard is not None and prev.discard is None:
        return f"Seat {actor} discards {label(now.discard)}"
    if now.gave is not None and prev.gave is None:
        return f"Seat {actor} gives {label(now.gave)}"
    if len(now.set_aside) > len(prev.set_aside):
        return f"Seat {actor} puts {label(now.set_aside[-1])} face down"
    if prev.phase in (Phase.DEALER_DISCARD, Phase.LONER_DISCARDS, Phase.LONER_EXCHANGES):
        return f"Seat {actor} puts a card face down"
    if prev.phase is Phase.PARTNER_GIVES:
        return f"Seat {actor} gives a lone partner a card"
    return f"Seat {actor} acts"


class _Interner:
    """Stores each distinct JSON value once; states refer to them by index."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[str, int] = {}

    def __call__(self, value: Any) -> int:
        key = json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)
        i = self._index.get(key)
        if i is None:
            i = self._index[key] = len(self.items)
            self.items.append(value)
        return i


@dataclass
class _Builder:
    seat: int | None = None
    """The one seat the page is made for; None: every perspective, "all cards" first."""
    pieces: _Interner = field(default_factory=_Interner)
    steps: list[list[Any]] = field(default_factory=list)
    hands: list[dict[str, Any]] = field(default_factory=list)
    _prev: list[SeatView] | None = None

    def step(
        self,
        h_index: int,
        a_index: int,
        game: GameState,
        hand: HandState,
        hl: HandLog,
        last_all: str,
        end: str | None = None,
    ) -> None:
        """Records one step: each perspective as [public, private, last action] indices."""
        seat_range = range(game.rules.seats)
        if game.hand is hand:
            views = [seat_view(game, s) for s in seat_range]
        else:  # the hand is over and the next one dealt: the same view, of this hand
            scores = (game.scores[0], game.scores[1])
            views = [hand_view(hand, s, hl.hand_number, scores) for s in seat_range]
        if a_index == 0:
            self._prev = None
        turn = views[0].turn
        seats = []
        for s, v in enumerate(views):
            if self.seat is not None and s != self.seat:
                continue  # another seat's perspective is not in this page at all
            last = "Cards dealt" if self._prev is None else _seen_action(self._prev[s], v)
            seats.append([
                self.pieces(_public(v) | {"end": end}),
                self.pieces(_private(v)),
                self.pieces(last),
            ])
        self._prev = views
        if self.seat is not None:
            self.steps.append([h_index, a_index, seats])
            return
        # "All cards": the table as every seat's view has it, the rest from the engine.
        everything = _everything(hand, views[turn] if turn is not None else None)
        persp = [[seats[0][0], self.pieces(everything), self.pieces(last_all)], *seats]
        self.steps.append([h_index, a_index, persp])


def build_data(log: GameLog, seat: int | None = None, hand: int | None = None) -> dict[str, Any]:
    """Everything the page shows, as JSON-able data (render_html embeds it). For `seat`,
    only that seat's perspective (no "all cards", no seed, no other seat's fault detail);
    for `hand` (from 1), only that hand."""
    by_seat = {sb.seat: sb for sb in log.seats}
    seat_range = range(log.rules.seats)
    two = log.rules.two_of_spades_joker
    names = [by_seat[s].name if s in by_seat else f"seat {s}" for s in seat_range]
    b = _Builder(seat=seat)
    hand_index = {id(hl): i for i, hl in enumerate(log.hands)}
    error: str | None = None
    cur: tuple[int, HandLog, HandState] | None = None
    game: GameState | None = None

    def wanted(h_index: int) -> bool:
        return hand is None or h_index + 1 == hand

    def finish(h_index: int, hl: HandLog, hand_state: HandState) -> None:
        assert game is not None
        if not wanted(h_index):
            return
        last_action = hl.actions[-1] if hl.actions else None
        if hand_state.over:
            end = _result_text(hand_state)
        elif log.end is GameEnd.FORFEIT:
            end = f"Game forfeited: Team {log.winning_team} wins"
        else:
            return
        last = "" if last_action is None else _logged_text(last_action, two)
        b.step(len(b.hands) - 1, len(hl.actions), game, hand_state, hl, last, end)
        b.hands[-1]["result"] = end

    try:
        for pt in replay(log):
            h_index = hand_index[id(pt.hand_log)]
            if cur is None or cur[0] != h_index:
                if cur is not None:
                    finish(*cur)
                cur = (h_index, pt.hand_log, pt.game.hand)
                if wanted(h_index):
                    b.hands.append({
                        "n": pt.hand_log.hand_number + 1,
                        "d": pt.hand_log.dealer,
                        "first": len(b.steps),
                        "result": None,
                    })
            game = pt.game
            if not wanted(h_index):
                continue
            hl = pt.hand_log
            last = (
                "Cards dealt" if pt.index == 0 else _logged_text(hl.actions[pt.index - 1], two)
            )
            b.step(len(b.hands) - 1, pt.index, game, cur[2], hl, last)
    except Divergence as d:
        error = d.told_to(seat)
        if cur is not None and cur[2].over:
            finish(*cur)
    else:
        if cur is not None:
            finish(*cur)

    winner = log.winning_team
    if log.end is GameEnd.STALLED:
        summary = (f"Stalled: a draw at {log.final_scores[0]}–{log.final_scores[1]} "
                   f"({STALLED_AFTER} hands in a row thrown in)")
    elif log.drawn:
        summary = f"Game over: a draw {log.final_scores[0]}–{log.final_scores[1]}"
    elif log.end is GameEnd.COMPLETED:
        summary = f"Game over: Team {winner} wins {log.final_scores[0]}–{log.final_scores[1]}"
    elif log.end is GameEnd.FORFEIT:
        summary = f"Forfeit: Team {winner} wins ({log.final_scores[0]}–{log.final_scores[1]})"
    else:
        summary = "Unfinished game"
    game_info: dict[str, Any] = {
        "id": log.game_id,
        "rules": log.rules.name,
        "target": log.rules.target,
        "summary": summary,
        "final": list(log.final_scores),
        "hands": len(log.hands),
    }
    if seat is None:  # the seed deals every card
        game_info["seed"] = str(log.seed)
    return {
        "v": 1,
        "game": game_info,
        "perspectives": ["all", *map(str, seat_range)] if seat is None else [str(seat)],
        "seats": [
            {"name": names[s], "version": by_seat[s].version if s in by_seat else "", "team": s % 2}
            for s in seat_range
        ],
        "faults": [
            {"seat": f.seat, "hand": f.hand_number + 1, "kind": f.kind.value,
             # A fault's detail may quote a bot's output (its cards): a seat's own only.
             "detail": f.detail if seat is None or f.seat == seat else "",
             "sub": f.substituted}
            for f in log.faults
            if hand is None or f.hand_number + 1 == hand
        ],
        "cards": _card_faces(log.rules.two_of_spades_joker),
        "pieces": b.pieces.items,
        "steps": b.steps,
        "hands": b.hands,
        "error": error,
    }


def _logged_text(la: LoggedAction, two_of_spades_joker: bool = False) -> str:
    sub = " (substituted by the arena)" if la.substituted else ""
    return f"Seat {la.seat} {action_text(la.action, two_of_spades_joker)}{sub}"


def _card_faces(two_of_spades_joker: bool = False) -> list[list[Any]]:
    """For each card id: rank text, suit symbol, red, name, joker (a double pack's second
    copies are marked "²")."""
    faces: list[list[Any]] = []
    for c in range(NUM_CARD_IDS):
        mark = "²" if copy_of(c) else ""
        rank, suit = card_rank(c), card_suit(c)
        if rank is None or suit is None:
            if two_of_spades_joker:
                faces.append(["2" + mark, "♠", False, "2S" + mark.replace("²", "2"), True])
            else:
                faces.append(["Jkr" + mark, "★", False, card_name(c), True])
            continue
        text = "10" if rank == 10 else RANK_NAMES[rank]
        faces.append([text + mark, suit.symbol, suit.is_red, card_name(c), False])
    return faces


def _script_json(data: Any) -> str:
    """JSON safe inside a <script> element: no "<", ">" or "&" in the text at all."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def render_html(log: GameLog, seat: int | None = None, hand: int | None = None) -> str:
    """The game as one self-contained HTML page (inline CSS and JS, no network); from
    `seat`, a page that holds only what that seat could see; only hand `hand` (from 1)."""
    data = build_data(log, seat, hand)
    seats = data["seats"]
    teams = [  # each bot once: a team is often one bot in two or three seats
        " &amp; ".join(dict.fromkeys(html.escape(seat["name"]) for seat in seats[t::2]))
        for t in (0, 1)
    ]
    page, css, js = _assets()
    parts = {
        "TITLE": f"Euchre replay {html.escape(log.game_id)}: {teams[0]} vs {teams[1]}"
        + ("" if seat is None else f", seen from seat {seat}"),
        "CSS": css,
        "JS": js,
        "DATA": _script_json(data),
    }
    # One pass over the template: a name holding "%DATA%" stays text.
    return re.sub(r"%(TITLE|CSS|JS|DATA)%", lambda m: parts[m.group(1)], page)


@functools.cache
def _assets() -> tuple[str, str, str]:
    """The page template, its style sheet and its script, read once from replay_assets/.

    They are package data (pyproject.toml's [tool.setuptools.package-data]), so this works
    from an installed wheel as well as from a checkout. viewer.html holds the %TITLE%,
    %CSS%, %JS% and %DATA% slots that render_html fills.
    """
    folder = resources.files("arena.views") / "replay_assets"
    page, css, js = (
        (folder / name).read_text(encoding="utf-8") for name in ("viewer.html", "viewer.css", "viewer.js")
    )
    return page, css, js
