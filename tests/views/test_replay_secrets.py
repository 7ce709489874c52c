"""Files made for one seat (`arena replay --seat N` with `--json` or `--html`) hold nothing
that seat could not see: no card of another seat's hand that was never played, no card of
the kitty under the upcard, no discard of another seat, no seed; and they do hold the
seat's own cards. Checked on games the sample bots played through the arena, and on
in-process games of six seats (Cornwall's ask: a card given to a lone player)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.core.actions import ActionKind
from arena.core.cards import NUM_CARD_IDS, card_label, card_name
from arena.core.rules import PRESETS
from arena.records import files as records
from arena.records.gamelog import GameLog, HandLog
from arena.views.replay_html import build_data, render_html
from arena.views.replay_json import build_json
from tests.helpers import play_random_game

CARD_NAMES = {card_name(c) for c in range(NUM_CARD_IDS)}


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "160"})


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> tuple[Path, GameLog]:
    """A game the sample bots played, as `arena match` records it."""
    out = tmp_path_factory.mktemp("match")
    proc = subprocess.run(
        [sys.executable, "-m", "arena.cli.main", "match", "heuristic", "random", "--games", "2",
         "--seed", "4", "--concurrency", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    path = max((out / "games").glob("*.pb"), key=lambda p: len(records.read(p).hands))
    log = records.read(path)
    assert len(log.hands) >= 3
    assert any(la.action.kind is ActionKind.DISCARD for hl in log.hands for la in hl.actions)
    return path, log


def hidden_from(hl: HandLog, seat: int) -> set[int]:
    """The cards of a hand `seat` may never see: the other seats' cards and the kitty, but
    for the cards played, the upcard, and a card a partner gave this seat playing alone."""
    others = {c for s, cards in enumerate(hl.dealt) if s != seat for c in cards}
    shown = {la.action.card for la in hl.actions if la.action.kind is ActionKind.PLAY}
    shown |= {la.action.card for la in hl.actions
              if la.action.kind is ActionKind.GIVE and la.action.seat == seat}
    return (others | set(hl.kitty)) - shown - {hl.kitty[0]}


def tokens(value: Any) -> set[str]:
    """Every word of every string in a JSON value (card names stand alone: "play JH")."""
    if isinstance(value, str):
        return set(value.split())
    if isinstance(value, dict):
        return set().union(*map(tokens, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(tokens, value)) if value else set()
    return set()


def check_seat_json(doc: dict[str, Any], log: GameLog, seat: int, own_cards: bool) -> None:
    assert doc["seat"] == seat and "seed" not in doc
    if str(log.seed) not in log.game_id:  # (a test game's id may be named after it)
        assert str(log.seed) not in json.dumps(doc)
    outside = {k: v for k, v in doc.items() if k != "hands"}
    assert not tokens(outside) & CARD_NAMES
    for f in doc["faults"]:
        assert "detail" not in f or f["seat"] == seat
    for h in doc["hands"]:
        hl = log.hands[h["hand"] - 1]  # hands are numbered from 1
        assert h["dealer"] == hl.dealer
        words = tokens(h)
        leaked = words & {card_name(c) for c in hidden_from(hl, seat)}
        assert not leaked, (seat, h["hand"], leaked)
        if own_cards:
            assert {card_name(c) for c in hl.dealt[seat]} <= words, (seat, h["hand"])
        assert card_name(hl.kitty[0]) in words  # the upcard is everyone's


def page_data(page: str) -> dict[str, Any]:
    raw = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S)
    assert raw is not None
    data: dict[str, Any] = json.loads(raw.group(1))
    return data


PUBLIC_KEYS = {"ph", "pt", "tu", "d", "sc", "up", "utd", "dtu", "au", "tr", "mk", "al", "so",
               "tk", "ct", "tw", "n", "ks", "end"}
PRIVATE_KEYS = {"h", "dc", "lg", "looked"}


def check_seat_page(page: str, log: GameLog, seat: int, own_cards: bool) -> None:
    data = page_data(page)
    assert data["perspectives"] == [str(seat)]
    assert "seed" not in data["game"]
    if str(log.seed) not in log.game_id:
        assert str(log.seed) not in page
    assert set(data) == {"v", "game", "perspectives", "seats", "faults", "cards", "pieces",
                         "steps", "hands", "error"}
    seen_own: dict[int, set[int]] = {}
    for h_index, _, persp in data["steps"]:
        assert len(persp) == 1  # the seat's perspective and nothing else
        pub, pri, last = (data["pieces"][i] for i in persp[0])
        assert set(pub) == PUBLIC_KEYS and set(pri) == PRIVATE_KEYS  # no "all cards" data
        number = data["hands"][h_index]["n"]
        hl = log.hands[number - 1]
        shown = {pub["up"], *pri["h"], *pri["lg"], *([pri["dc"]] if pri["dc"] is not None else [])}
        shown |= {c for t in pub["tk"] for c in t[1][1::2]}
        if pub["ct"]:
            shown |= set(pub["ct"][1][1::2])
        hidden = hidden_from(hl, seat)
        assert not shown & hidden, (seat, number, shown & hidden)
        assert not set(last.split()) & {card_label(c) for c in hidden}, last
        seen_own.setdefault(number, set()).update(pri["h"])
    if own_cards:
        for number, cards in seen_own.items():
            assert set(log.hands[number - 1].dealt[seat]) <= cards
    for f in data["faults"]:
        assert not f["detail"] or f["seat"] == seat


def test_a_seats_json_holds_its_own_cards_and_no_other(played, tmp_path):
    path, log = played
    for seat in range(4):
        if seat in (1, 2):  # through the command (one seat of each team), else in-process
            proc = arena("replay", str(path), "--seat", str(seat), "--json")
            assert proc.returncode == 0, proc.stderr
            doc = json.loads(proc.stdout)
        else:
            doc = build_json(log, seat=seat)
        assert [h["hand"] for h in doc["hands"]] == list(range(1, len(log.hands) + 1))
        check_seat_json(doc, log, seat, own_cards=True)
        # Its own turns: what it held and could do, from its view.
        turns = [e for h in doc["hands"] for e in h["events"] if "legal" in e]
        assert turns and all(e["seat"] == seat for e in turns)
    # The whole table's JSON (no --seat) does hold every card: the check above can fail.
    whole = json.loads(arena("replay", str(path), "--hand", "2", "--json").stdout)
    assert whole["seed"] == str(log.seed) and [h["hand"] for h in whole["hands"]] == [2]
    with pytest.raises(AssertionError):
        check_seat_json(whole | {"seat": 0}, log, 0, own_cards=True)


def test_hand_limits_a_seats_json_to_one_hand(played):
    path, log = played
    proc = arena("replay", str(path), "--seat", "1", "--hand", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [h["hand"] for h in doc["hands"]] == [3]
    deal = doc["hands"][0]["events"][0]
    assert deal["event"] == "deal" and set(deal) == {"event", "dealer", "upcard", "cards"}
    assert deal["cards"] == sorted(map(card_name, log.hands[2].dealt[1]),
                                   key=lambda n: [card_name(c) for c in range(NUM_CARD_IDS)].index(n))
    check_seat_json(doc, log, 1, own_cards=True)


def test_a_seats_page_holds_nothing_another_seat_held(played, tmp_path):
    path, log = played
    for seat in range(4):
        if seat in (0, 3):  # through the command (one seat of each team), else in-process
            out = tmp_path / f"seat{seat}.html"
            proc = arena("replay", str(path), "--seat", str(seat), "--html", str(out))
            assert proc.returncode == 0, proc.stderr
            page = out.read_text(encoding="utf-8")
        else:
            page = render_html(log, seat=seat)
        check_seat_page(page, log, seat, own_cards=True)
    # The page of every seat does hold them: the check can fail.
    with pytest.raises(AssertionError):
        check_seat_page(render_html(log), log, 0, own_cards=True)


def test_a_seats_page_for_one_hand(played, tmp_path):
    path, log = played
    out = tmp_path / "hand2.html"
    assert arena("replay", str(path), "--seat", "2", "--hand", "2", "--html", str(out)).returncode == 0
    data = page_data(out.read_text(encoding="utf-8"))
    assert [h["n"] for h in data["hands"]] == [2] and data["game"]["hands"] == len(log.hands)
    assert len(data["steps"]) == len(log.hands[1].actions) + 1
    check_seat_page(out.read_text(encoding="utf-8"), log, 2, own_cards=True)


@pytest.mark.parametrize("preset", ["six-player", "british", "almonte-league"])
def test_seat_files_of_other_rule_sets(preset):
    """Six seats (a lone player's partners sit out; Cornwall: a partner gives the lone
    player a card that only the two of them see), jokers and a turned joker named blind."""
    rules = PRESETS[preset]
    for seed in (2, 3):
        log = play_random_game(seed, rules, ("a", "b"))
        assert len(log.hands) >= 2
        for seat in range(rules.seats):
            # A dealer naming trump on a turned joker has not looked at its cards, and a
            # partner sitting out may never act: its own cards need not all show.
            check_seat_json(build_json(log, seat=seat), log, seat, own_cards=False)
            check_seat_page(render_html(log, seat=seat), log, seat, own_cards=False)
            assert build_data(log, seat=seat)["perspectives"] == [str(seat)]


def test_a_seats_outputs_of_a_diverging_record_name_no_card(played):
    """A record that disagrees with the rules (tampered, or from another engine) is said
    to disagree; from one seat, the message names where, never the cards it compared."""
    from dataclasses import replace

    _, log = played
    first = log.hands[0]
    tampered = replace(log, hands=[replace(first, kitty=tuple(reversed(first.kitty))),
                                   *log.hands[1:]])
    whole = build_json(tampered)["error"]
    assert whole.startswith("hand 1: kitty") and card_name(first.kitty[1]) in whole
    for seat in range(len(log.seats)):
        for out in (build_json(tampered, seat=seat), build_data(tampered, seat=seat)):
            assert out["error"] == "hand 1: the record disagrees with the rules", out["error"]
