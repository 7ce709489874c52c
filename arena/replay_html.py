"""A game record as one self-contained HTML page that steps through the game.

render_html(log) replays the record through the rules engine (arena.replay) and
precomputes, for every step, what each perspective shows: "all cards" from the engine's
state, and each seat's from seat_view() alone, so a card that seat could not see is not
in that perspective's data at all. The page embeds those states as JSON and draws them
with a small vanilla script: no network, no external files.

Steps: for each hand, one step before each recorded action, then one at the end of the
hand (the last trick and the result visible). Perspectives: index 0 is "all", 1 to 4 are
seats 0 to 3. The page reads and writes its position in the URL fragment,
``#step=12&seat=2`` (``seat=all`` for every card), so a link opens the same view.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass, field
from typing import Any

from arena.core.actions import Action, ActionKind
from arena.core.cards import JOKER, RANK_NAMES, SUITS, Card, card_label, card_name
from arena.core.game import GameState
from arena.core.hand import HandState, Phase
from arena.core.view import SeatView, hand_view, seat_view
from arena.gamelog import GameEnd, GameLog, HandLog
from arena.replay import Divergence, replay

PERSPECTIVES = ("all", 0, 1, 2, 3)

_PHASE_TEXT = {
    Phase.BID_ROUND_1: "Bidding, round 1",
    Phase.BID_ROUND_2: "Bidding, round 2",
    Phase.DEALER_NAMES_TRUMP: "Joker turned: dealer names trump",
    Phase.GOING_ALONE: "Going alone?",
    Phase.DEALER_DISCARD: "Dealer discards",
    Phase.PLAY: "Play",
    Phase.HAND_OVER: "Hand over",
}


# --- words for actions and results ------------------------------------------------------


def _suit_text(suit: int) -> str:
    s = SUITS[suit]
    return f"{s.symbol} {s.name.lower()}"


def action_text(action: Action) -> str:
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
    assert action.card is not None
    verb = "discards" if k is ActionKind.DISCARD else "plays"
    return f"{verb} {card_label(action.card)}"


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


def _trick_json(leader: int, plays, winner: int | None) -> list:
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
        "au": [[s, action_text(a)] for s, a in v.auction],
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
    if len(now.auction) > len(prev.auction):
        s, a = now.auction[-1]
        return f"Seat {s} {action_text(a)}"

    def plays(v: SeatView) -> list[tuple[int, Card]]:
        out = [p for t in v.tricks for p in t.plays]
        return out + (list(v.current_trick.plays) if v.current_trick else [])

    before, after = plays(prev), plays(now)
    if len(after) > len(before):
        s, c = after[-1]
        return f"Seat {s} plays {card_label(c)}"
    if now.discard is not None and prev.discard is None:
        return f"Seat {actor} discards {card_label(now.discard)}"
    if prev.phase is Phase.DEALER_DISCARD:
        return f"Seat {actor} discards a card face down"
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
        if game.hand is hand:
            views = [seat_view(game, s) for s in range(4)]
        else:  # the hand is over and the next one dealt: the same view, of this hand
            scores = (game.scores[0], game.scores[1])
            views = [hand_view(hand, s, hl.hand_number, scores) for s in range(4)]
        if a_index == 0:
            self._prev = None
        turn = views[0].turn
        seats = []
        for s, v in enumerate(views):
            last = "Cards dealt" if self._prev is None else _seen_action(self._prev[s], v)
            seats.append([
                self.pieces(_public(v) | {"end": end}),
                self.pieces(_private(v)),
                self.pieces(last),
            ])
        # "All cards": the table as every seat's view has it, the rest from the engine.
        everything = _everything(hand, views[turn] if turn is not None else None)
        persp = [[seats[0][0], self.pieces(everything), self.pieces(last_all)], *seats]
        self._prev = views
        self.steps.append([h_index, a_index, persp])


def build_data(log: GameLog) -> dict[str, Any]:
    """Everything the page shows, as JSON-able data (render_html embeds it)."""
    by_seat = {sb.seat: sb for sb in log.seats}
    names = [by_seat[s].name if s in by_seat else f"seat {s}" for s in range(4)]
    b = _Builder()
    hand_index = {id(hl): i for i, hl in enumerate(log.hands)}
    error: str | None = None
    cur: tuple[int, HandLog, HandState] | None = None
    game: GameState | None = None

    def finish(h_index: int, hl: HandLog, hand: HandState) -> None:
        assert game is not None
        last_action = hl.actions[-1] if hl.actions else None
        if hand.over:
            end = _result_text(hand)
        elif log.end is GameEnd.FORFEIT:
            end = f"Game forfeited: Team {log.winning_team} wins"
        else:
            return
        last = "" if last_action is None else _logged_text(last_action)
        b.step(h_index, len(hl.actions), game, hand, hl, last, end)
        b.hands[h_index]["result"] = end

    try:
        for pt in replay(log):
            h_index = hand_index[id(pt.hand_log)]
            if cur is None or cur[0] != h_index:
                if cur is not None:
                    finish(*cur)
                cur = (h_index, pt.hand_log, pt.game.hand)
                b.hands.append({
                    "n": pt.hand_log.hand_number,
                    "d": pt.hand_log.dealer,
                    "first": len(b.steps),
                    "result": None,
                })
            game = pt.game
            hl = pt.hand_log
            last = "Cards dealt" if pt.index == 0 else _logged_text(hl.actions[pt.index - 1])
            b.step(h_index, pt.index, game, cur[2], hl, last)
    except Divergence as d:
        error = str(d)
        if cur is not None and cur[2].over:
            finish(*cur)
    else:
        if cur is not None:
            finish(*cur)

    winner = log.winning_team
    if log.end is GameEnd.COMPLETED:
        summary = f"Game over: Team {winner} wins {log.final_scores[0]}–{log.final_scores[1]}"
    elif log.end is GameEnd.FORFEIT:
        summary = f"Forfeit: Team {winner} wins ({log.final_scores[0]}–{log.final_scores[1]})"
    else:
        summary = "Unfinished game"
    return {
        "v": 1,
        "game": {
            "id": log.game_id,
            "rules": log.rules.name,
            "seed": str(log.seed),
            "target": log.rules.target,
            "summary": summary,
            "final": list(log.final_scores),
        },
        "seats": [
            {"name": names[s], "version": by_seat[s].version if s in by_seat else "", "team": s % 2}
            for s in range(4)
        ],
        "faults": [
            {"seat": f.seat, "hand": f.hand_number, "kind": f.kind.value, "detail": f.detail,
             "sub": f.substituted}
            for f in log.faults
        ],
        "cards": _card_faces(),
        "pieces": b.pieces.items,
        "steps": b.steps,
        "hands": b.hands,
        "error": error,
    }


def _logged_text(la) -> str:
    sub = " (substituted by the arena)" if la.substituted else ""
    return f"Seat {la.seat} {action_text(la.action)}{sub}"


def _card_faces() -> list[list[Any]]:
    """For each card id: rank text, suit symbol, red, name."""
    faces: list[list[Any]] = []
    for c in range(JOKER + 1):
        if c == JOKER:
            faces.append(["Jkr", "★", False, "Joker"])
            continue
        rank = RANK_NAMES[(c & 7) + 7]
        suit = SUITS[c >> 3]
        faces.append(["10" if rank == "T" else rank, suit.symbol, suit.is_red, card_name(c)])
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


def render_html(log: GameLog) -> str:
    """The game as one self-contained HTML page (inline CSS and JS, no network)."""
    data = build_data(log)
    seats = data["seats"]
    teams = [" &amp; ".join(html.escape(seats[s]["name"]) for s in (t, t + 2)) for t in (0, 1)]
    parts = {
        "TITLE": f"Euchre replay {html.escape(log.game_id)}: {teams[0]} vs {teams[1]}",
        "CSS": _CSS,
        "JS": _JS,
        "DATA": _script_json(data),
    }
    # One pass over the template: a name holding "%DATA%" stays text.
    return re.sub(r"%(TITLE|CSS|JS|DATA)%", lambda m: parts[m.group(1)], _PAGE)


_CSS = """
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.35 system-ui, -apple-system, "Segoe UI", sans-serif;
  background: #1d2430; color: #e8ecf1; }
header { padding: 8px 14px 0; }
header h1 { font-size: 17px; margin: 0; font-weight: 600; }
header .sub { color: #9fb0c3; font-size: 12px; }
#controls { display: flex; gap: 6px; align-items: center; padding: 8px 14px; flex-wrap: wrap; }
#controls button { background: #34445a; color: #fff; border: 1px solid #4c6280; border-radius: 6px;
  padding: 5px 10px; font-size: 14px; cursor: pointer; }
#controls button:hover { background: #43587a; }
#controls button:disabled { opacity: .4; cursor: default; }
#controls select { background: #34445a; color: #fff; border: 1px solid #4c6280; border-radius: 6px;
  padding: 4px 6px; font-size: 14px; }
#slider { width: 200px; }
#perspective { max-width: 190px; }
#step-label { margin-left: 8px; color: #cfe0f3; font-variant-numeric: tabular-nums; }
#app { display: flex; gap: 14px; padding: 0 14px 14px; align-items: flex-start; }
#table { position: relative; width: 780px; height: 640px; flex: none;
  background: radial-gradient(ellipse at center, #2f8a4f 0%, #1f6b3b 60%, #18542f 100%);
  border: 10px solid #5b3a1e; border-radius: 190px / 150px; box-shadow: 0 6px 24px #0008 inset; }
.seat { position: absolute; display: flex; flex-direction: column; align-items: center; gap: 4px; }
.seat.pos-s { bottom: 14px; left: 50%; transform: translateX(-50%); }
.seat.pos-n { top: 14px; left: 50%; transform: translateX(-50%); }
.seat.pos-w { left: 22px; top: 50%; transform: translateY(-50%); }
.seat.pos-e { right: 22px; top: 50%; transform: translateY(-50%); }
.seat.pos-n { flex-direction: column-reverse; }
.plate { background: #0f1720d0; border: 2px solid #ffffff30; border-radius: 8px; padding: 3px 8px;
  text-align: center; min-width: 150px; max-width: 210px; }
.plate .nm { font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.plate .meta { font-size: 11px; color: #a9bcd0; }
.seat.t0 .plate { border-color: #5aa0ff; } .seat.t1 .plate { border-color: #ff9d4d; }
.seat.turn .plate { box-shadow: 0 0 0 3px #ffe45c; }
.seat.out { opacity: .55; }
.badge { display: inline-block; font-size: 10px; font-weight: 700; border-radius: 9px;
  padding: 0 6px; margin: 1px 2px 0; background: #ffffff25; }
.badge.dealer { background: #f5d142; color: #222; }
.badge.maker { background: #d94c4c; color: #fff; }
.badge.alone { background: #9b59d0; color: #fff; }
.badge.sit { background: #666; color: #fff; }
.badge.won { background: #2d7fd3; color: #fff; }
.bid { font-size: 12px; background: #fff; color: #222; border-radius: 10px; padding: 1px 8px;
  white-space: nowrap; }
.hand { display: flex; }
.hand .card + .card { margin-left: -14px; }
.pos-w .hand .card + .card, .pos-e .hand .card + .card { margin-left: -26px; }
.card { width: 46px; height: 66px; border-radius: 6px; background: #fdfdf8; color: #111;
  border: 1px solid #888; box-shadow: 1px 2px 3px #0006; display: flex; flex-direction: column;
  align-items: center; justify-content: center; position: relative; flex: none; user-select: none; }
.card .rk { font-weight: 700; font-size: 17px; line-height: 1; }
.card .st { font-size: 21px; line-height: 1.05; }
.card.red { color: #d01b1b; }
.card.joker { color: #6a2bb0; }
.card.back { background: repeating-linear-gradient(45deg, #23408f 0 5px, #2f55b5 5px 10px);
  border: 2px solid #fff; }
.card.legal { outline: 3px solid #ffe45c; outline-offset: -1px; }
.card.dim { opacity: .45; }
.card.win { box-shadow: 0 0 0 3px #ffe45c, 1px 2px 3px #0006; }
.card.small { width: 30px; height: 42px; border-radius: 4px; }
.card.small .rk { font-size: 12px; } .card.small .st { font-size: 13px; }
#trick { position: absolute; left: 50%; top: 50%; width: 250px; height: 230px;
  transform: translate(-50%, -50%); }
#trick .slot { position: absolute; }
#trick .slot.pos-s { bottom: 0; left: 50%; transform: translateX(-50%); }
#trick .slot.pos-n { top: 0; left: 50%; transform: translateX(-50%); }
#trick .slot.pos-w { left: 0; top: 50%; transform: translateY(-50%); }
#trick .slot.pos-e { right: 0; top: 50%; transform: translateY(-50%); }
#trick .caption { position: absolute; left: -80px; right: -80px; bottom: -28px;
  text-align: center; font-size: 12px; color: #e9f7ee; }
#kitty { position: absolute; left: 70px; top: 70px; text-align: center; }
#kitty .row { display: flex; gap: 4px; justify-content: center; }
#kitty .row .card.back.small + .card.back.small { margin-left: -22px; }
.lbl { font-size: 11px; color: #d5eedd; text-transform: uppercase; letter-spacing: .05em; }
#trump-box { position: absolute; right: 40px; top: 64px; text-align: center; width: 230px; }
#trump-box .sym { font-size: 40px; line-height: 1; background: #fdfdf8; border-radius: 10px;
  padding: 2px 10px; display: inline-block; color: #111; }
#trump-box .sym.red { color: #d01b1b; }
#trump-box .who { font-size: 12px; }
#discard-box { position: absolute; left: 70px; bottom: 70px; text-align: center; }
#banner { background: #000b; padding: 3px 12px; border-radius: 8px; font-weight: 600;
  font-size: 14px; white-space: nowrap; }
#side { width: 360px; flex: none; display: flex; flex-direction: column; gap: 10px; }
.panel { background: #273243; border-radius: 8px; padding: 8px 10px; }
.panel h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; margin: 0 0 4px;
  color: #9fb0c3; }
#score { display: flex; justify-content: space-between; font-size: 15px; }
#score b { font-size: 22px; font-variant-numeric: tabular-nums; }
#score .t0 { color: #8fc0ff; } #score .t1 { color: #ffbd85; }
#auction { margin: 0; padding-left: 18px; max-height: 130px; overflow: auto; font-size: 13px; }
#tricks-list .tr { display: flex; gap: 3px; align-items: center; margin-bottom: 3px;
  font-size: 12px; }
#tricks-list .tr .w { margin-left: 6px; color: #c8d6e6; }
#error { background: #7a1f1f; padding: 6px 10px; border-radius: 8px; }
#error:empty { display: none; }
#faults { font-size: 12px; color: #ffb3b3; }
.help { font-size: 11px; color: #8496aa; }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>%TITLE%</title>
<style>%CSS%</style>
</head>
<body>
<header><h1 id="title">%TITLE%</h1><div class="sub" id="subtitle"></div></header>
<div id="controls">
  <button id="prev-hand" title="Previous hand (↑)">« Hand</button>
  <button id="prev" title="Previous action (←)">◀ Prev</button>
  <button id="next" title="Next action (→)">Next ▶</button>
  <button id="next-hand" title="Next hand (↓)">Hand »</button>
  <input id="slider" type="range" min="0" value="0" aria-label="Step">
  <label>Perspective
    <select id="perspective">
      <option value="all">All cards</option>
      <option value="0">Seat 0</option><option value="1">Seat 1</option>
      <option value="2">Seat 2</option><option value="3">Seat 3</option>
    </select>
  </label>
  <span id="step-label"></span>
</div>
<div id="app">
  <div id="table"></div>
  <div id="side">
    <div id="error"></div>
    <div class="panel"><h2>Score</h2><div id="score"></div></div>
    <div class="panel"><h2>Hand</h2><div id="hand-info"></div><div id="last-action"></div>
      <div id="result"></div></div>
    <div class="panel"><h2>Auction</h2><ol id="auction"></ol></div>
    <div class="panel"><h2>Tricks</h2><div id="tricks-list"></div></div>
    <div class="panel" id="faults-panel"><h2>Faults</h2><div id="faults"></div></div>
    <div class="help">Keys: ←/→ action, ↑/↓ hand, A or 0–3 perspective.
      Link to this view: the address's #step=…&amp;seat=… part.</div>
  </div>
</div>
<script type="application/json" id="game-data">%DATA%</script>
<script>%JS%</script>
</body>
</html>
"""

_JS = r"""
(function () {
  "use strict";
  const D = JSON.parse(document.getElementById("game-data").textContent);
  const P = D.pieces, STEPS = D.steps, HANDS = D.hands, CARDS = D.cards, SEATS = D.seats;
  const $ = (id) => document.getElementById(id);
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;",
    ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
  const SYM = ["♣", "♦", "♥", "♠"], SUIT = ["clubs", "diamonds", "hearts", "spades"];
  const POS = ["s", "w", "n", "e"];
  let step = 0, persp = "all";

  function card(c, where, seat, cls) {
    const f = CARDS[c];
    const col = c === 32 ? " joker" : (f[2] ? " red" : "");
    const st = seat === null || seat === undefined ? "" : ` data-seat="${seat}"`;
    return `<div class="card${col}${cls ? " " + cls : ""}" data-card="${c}" data-face="up"` +
      ` data-where="${where}"${st} title="${esc(f[3])}"><span class="rk">${esc(f[0])}</span>` +
      `<span class="st">${esc(f[1])}</span></div>`;
  }
  function back(where, seat, cls) {
    const st = seat === null || seat === undefined ? "" : ` data-seat="${seat}"`;
    return `<div class="card back${cls ? " " + cls : ""}" data-face="down"` +
      ` data-where="${where}"${st}></div>`;
  }
  function seatName(s) { return esc(SEATS[s].name); }

  function read() {
    const q = new URLSearchParams(location.hash.replace(/^#/, ""));
    const n = parseInt(q.get("step"), 10);
    step = Number.isFinite(n) ? Math.max(0, Math.min(STEPS.length - 1, n)) : 0;
    const s = q.get("seat");
    persp = s !== null && /^[0-3]$/.test(s) ? s : "all";
  }
  function write() {
    const h = `#step=${step}&seat=${persp}`;
    if (location.hash === h) return;
    try { history.replaceState(null, "", h); } catch (e) { location.hash = h; }
  }
  function go(n) { step = Math.max(0, Math.min(STEPS.length - 1, n)); write(); render(); }
  function goHand(delta) {
    if (!STEPS.length) return;
    const h = STEPS[step][0] + delta;
    if (h < 0) return go(0);
    if (h >= HANDS.length) return go(STEPS.length - 1);
    go(HANDS[h].first);
  }
  function setPersp(p) { persp = p; write(); render(); }

  function render() {
    $("perspective").value = persp;
    $("slider").max = Math.max(0, STEPS.length - 1);
    $("slider").value = step;
    document.body.dataset.step = step;
    document.body.dataset.perspective = persp;
    if (!STEPS.length) { $("step-label").textContent = "No actions recorded"; return; }
    const [hi, ai, per] = STEPS[step];
    const pi = persp === "all" ? 0 : 1 + Number(persp);
    const pub = P[per[pi][0]], pri = P[per[pi][1]], last = P[per[pi][2]];
    const hand = HANDS[hi];
    const isEnd = pub.end !== null && pub.end !== undefined;
    document.body.dataset.hand = hi;
    document.body.dataset.kind = isEnd ? "end" : "action";
    const nActions = (hi + 1 < HANDS.length ? HANDS[hi + 1].first : STEPS.length) - hand.first - 1;
    $("step-label").textContent = `Step ${step + 1} / ${STEPS.length} · Hand ${hand.n + 1}` +
      ` of ${HANDS.length} · ` + (isEnd ? "end of hand" : `action ${ai + 1} of ${nActions}`);
    $("prev").disabled = step === 0;
    $("prev-hand").disabled = step === 0;
    $("next").disabled = step === STEPS.length - 1;
    $("next-hand").disabled = step === STEPS.length - 1;

    const bottom = persp === "all" ? 0 : Number(persp);
    const pos = (s) => POS[(s - bottom + 4) % 4];
    const known = (s) => {
      if (persp === "all") return pri.hs[s];
      if (Number(persp) === s && pri.looked) return pri.h;
      return [];
    };
    const legal = new Set(pri.lg);
    const mine = (s) => persp === "all" ? s === pub.tu : (Number(persp) === s && s === pub.tu);
    const lastBid = {};
    for (const [s, t] of pub.au) lastBid[s] = t;
    const won = [0, 0, 0, 0];
    for (const t of pub.tk) won[t[2]] += 1;

    let out = "";
    for (let s = 0; s < 4; s++) {
      const up = known(s), out_ = pub.so.includes(s);
      const cls = ["seat", "pos-" + pos(s), "t" + (s % 2)];
      if (pub.tu === s) cls.push("turn");
      if (out_) cls.push("out");
      let badges = "";
      if (pub.d === s) badges += `<span class="badge dealer" data-role="dealer">Dealer</span>`;
      if (pub.mk === s) badges += `<span class="badge maker" data-role="maker">Maker</span>`;
      if (pub.al.includes(s)) badges += `<span class="badge alone" data-role="alone">Alone</span>`;
      if (out_) badges += `<span class="badge sit" data-role="sitting-out">Sitting out</span>`;
      if (pub.tr !== null) badges += `<span class="badge won" data-role="won">${won[s]} won</span>`;
      let cards = "";
      for (const c of up) cards += card(c, "hand", s, mine(s) && legal.has(c) ? "legal" : "");
      for (let i = up.length; i < pub.n[s]; i++) cards += back("hand", s, "");
      const bid = pub.ph !== "play" && pub.ph !== "hand_over" && lastBid[s] !== undefined
        ? `<div class="bid">${esc(lastBid[s])}</div>` : "";
      out += `<div class="${cls.join(" ")}" data-seat="${s}" id="seat-${s}">` +
        `<div class="plate"><div class="nm">${seatName(s)}</div>` +
        `<div class="meta">Seat ${s} · Team ${s % 2}</div><div>${badges}</div></div>` +
        `${bid}<div class="hand" data-seat="${s}">${cards}</div></div>`;
    }

    /* The middle: the trick being played, else the last one finished. */
    let trick = "", caption = "";
    const shown = pub.ct || (pub.tk.length ? pub.tk[pub.tk.length - 1] : null);
    if (shown) {
      const [leader, flat, winner] = shown;
      for (let i = 0; i < flat.length; i += 2) {
        const s = flat[i], c = flat[i + 1];
        const cls = winner !== null && winner === s ? "win" : (pub.ct ? "" : "dim");
        trick += `<div class="slot pos-${pos(s)}">${card(c, "trick", s, cls)}</div>`;
      }
      caption = pub.ct ? `Trick ${pub.tk.length + 1} · led by ${seatName(leader)}`
        : `Trick ${pub.tk.length} won by ${seatName(winner)}`;
    } else if (pub.ph !== "hand_over") {
      caption = esc(pub.pt);
    }
    if (isEnd) caption = `<span id="banner">${esc(pub.end)}</span>`;
    out += `<div id="trick" data-trick="${pub.ct ? "current" : (shown ? "last" : "none")}">` +
      `${trick}<div class="caption">${caption}</div></div>`;

    /* Kitty and upcard. */
    let kitty = "";
    const rest = pub.ks - 1;
    if (persp === "all") {
      const kc = pri.k;
      const upCls = pub.dtu ? "dim" : (pub.utd ? "dim" : "");
      kitty += card(kc[0], "upcard", null, "small " + upCls);
      for (const c of kc.slice(1)) kitty += card(c, "kitty", null, "small");
    } else {
      if (!pub.dtu) kitty += card(pub.up, "upcard", null, "small" + (pub.utd ? " dim" : ""));
      else kitty += back("upcard", null, "small");
      for (let i = 0; i < rest; i++) kitty += back("kitty", null, "small");
    }
    const upNote = pub.dtu ? "upcard taken by the dealer"
      : (pub.utd ? "upcard turned down" : "upcard");
    out += `<div id="kitty"><div class="lbl">Kitty</div><div class="row">${kitty}</div>` +
      `<div class="lbl" style="text-transform:none">${upNote}</div></div>`;

    /* The dealer's discard: face up where the data has it, else a back once it is made. */
    let disc = "";
    if (pri.dc !== null && pri.dc !== undefined) {
      disc = card(pri.dc, "discard", pub.d, "small");
    } else if (pub.dtu && pub.ph !== "dealer_discard" && !pub.so.includes(pub.d)) {
      disc = back("discard", pub.d, "small");
    }
    if (disc) out += `<div id="discard-box"><div class="lbl">Discard</div>${disc}</div>`;

    /* Trump and makers. */
    if (pub.tr !== null) {
      const red = pub.tr === 1 || pub.tr === 2;
      const al = pub.al.length
        ? "alone: " + pub.al.map((s) => `${seatName(s)} (seat ${s})`).join(", ") : "";
      out += `<div id="trump-box" data-trump="${pub.tr}"><div class="lbl">Trump</div>` +
        `<div class="sym${red ? " red" : ""}" title="${SUIT[pub.tr]}">${SYM[pub.tr]}</div>` +
        `<div class="who">made by ${seatName(pub.mk)} (seat ${pub.mk}, team ${pub.mk % 2})` +
        `${al ? "<br>" + al : ""}</div></div>`;
    }
    $("table").innerHTML = out;

    /* Side panels. */
    const team = (t) => esc(SEATS[t].name) + " &amp; " + esc(SEATS[t + 2].name);
    $("score").dataset.team0 = pub.sc[0];
    $("score").dataset.team1 = pub.sc[1];
    $("score").innerHTML = `<div class="t0">Team 0<br><small>${team(0)}</small><br>` +
      `<b>${pub.sc[0]}</b></div><div style="text-align:center;align-self:center">to ` +
      `${D.game.target}<br><small>tricks ${pub.tw[0]}–${pub.tw[1]}</small></div>` +
      `<div class="t1" style="text-align:right">Team 1<br><small>${team(1)}</small><br>` +
      `<b>${pub.sc[1]}</b></div>`;
    $("hand-info").innerHTML = `Hand ${hand.n + 1} · dealer ${seatName(pub.d)} (seat ${pub.d})` +
      ` · <span id="phase">${esc(pub.pt)}</span>` +
      (pub.tu !== null ? ` · to act: ${seatName(pub.tu)} (seat ${pub.tu})` : "");
    $("last-action").innerHTML = last ? `Last: <span id="last-text">${esc(last)}</span>` : "";
    const gameOver = step === STEPS.length - 1 ? `<br><b>${esc(D.game.summary)}</b>` : "";
    $("result").innerHTML = isEnd ? `<b>${esc(pub.end)}</b>${gameOver}` : "";
    $("auction").innerHTML = pub.au.map(([s, t]) =>
      `<li>${seatName(s)} <small>(seat ${s})</small> ${esc(t)}</li>`).join("");
    $("tricks-list").innerHTML = pub.tk.map(([l, flat, w], i) => {
      let cs = "";
      for (let j = 0; j < flat.length; j += 2) cs += card(flat[j + 1], "history", flat[j], "small");
      return `<div class="tr">${i + 1}. ${cs}<span class="w">${seatName(w)}</span></div>`;
    }).join("") || "<small>none yet</small>";
    document.title = `Step ${step + 1} · ` + document.querySelector("h1").textContent;
  }

  function setup() {
    $("subtitle").textContent = `Game ${D.game.id} · rules ${D.game.rules} · seed ` +
      `${D.game.seed} · ${D.game.summary}`;
    $("error").textContent = D.error ? "This record diverges from the rules: " + D.error : "";
    if (D.faults.length) {
      $("faults").innerHTML = D.faults.map((f) => `<div>Hand ${f.hand + 1}, seat ${f.seat} ` +
        `(${seatName(f.seat)}): ${esc(f.kind)}${f.sub ? " (substituted)" : ""}: ` +
        `${esc(f.detail)}</div>`).join("");
    } else {
      $("faults-panel").style.display = "none";
    }
    for (let s = 0; s < 4; s++) {
      document.querySelector(`#perspective option[value="${s}"]`).textContent =
        `Seat ${s}: ${SEATS[s].name}`;
    }
    $("prev").onclick = () => go(step - 1);
    $("next").onclick = () => go(step + 1);
    $("prev-hand").onclick = () => {
      const h = STEPS[step][0];
      go(step === HANDS[h].first ? (h > 0 ? HANDS[h - 1].first : 0) : HANDS[h].first);
    };
    $("next-hand").onclick = () => goHand(1);
    $("slider").oninput = (e) => go(Number(e.target.value));
    $("perspective").onchange = (e) => setPersp(e.target.value);
    document.addEventListener("keydown", (e) => {
      if (e.target && e.target.tagName === "SELECT") return;
      if (e.key === "ArrowRight") { go(step + 1); e.preventDefault(); }
      else if (e.key === "ArrowLeft") { go(step - 1); e.preventDefault(); }
      else if (e.key === "ArrowDown" || e.key === "PageDown") {
        $("next-hand").click(); e.preventDefault();
      } else if (e.key === "ArrowUp" || e.key === "PageUp") {
        $("prev-hand").click(); e.preventDefault();
      }
      else if (e.key === "a" || e.key === "A") setPersp("all");
      else if (/^[0-3]$/.test(e.key)) setPersp(e.key);
    });
    window.addEventListener("hashchange", () => { read(); render(); });
    read();
    render();
  }
  setup();
})();
"""
