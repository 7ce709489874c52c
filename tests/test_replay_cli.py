"""`arena replay` and `arena verify` on record files: JSON round trip, tampering caught,
and a seat's view in the terminal that shows nothing that seat could not see."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest
from google.protobuf import json_format

from arena import records
from arena.core.actions import ActionKind
from arena.core.cards import card_label
from arena.core.rules import preset
from arena.wire.gen.euchre.v1 import record_pb2, types_pb2
from tests.helpers import play_random_game


def arena(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "160"})


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    log = play_random_game(21, preset("standard"), ("north", "east", "south", "west"))
    path = tmp_path_factory.mktemp("rec") / "game.pb"
    records.write(path, log)
    return path, log


def test_json_export_round_trips(record):
    path, _ = record
    proc = arena("replay", str(path), "--json")
    assert proc.returncode == 0, proc.stderr
    parsed = json_format.Parse(proc.stdout, record_pb2.GameRecord())
    assert parsed == record_pb2.GameRecord.FromString(path.read_bytes())
    json_path = path.with_suffix(".json")
    json_path.write_text(proc.stdout)
    assert arena("verify", str(json_path)).returncode == 0


def test_verify_passes_a_true_record_and_names_a_tampered_card(record, tmp_path):
    path, _ = record
    ok = arena("verify", str(path))
    assert ok.returncode == 0 and "1 record(s)" in ok.stdout
    msg = record_pb2.GameRecord.FromString(path.read_bytes())
    card = msg.hands[2].dealt[1].cards[0]
    card.rank = 9 if card.rank != 9 else 10
    bad = tmp_path / "card.pb"
    bad.write_bytes(msg.SerializeToString())
    proc = arena("verify", str(path), str(bad))
    assert proc.returncode == 1
    assert "hand 2" in proc.stdout and "seat 1" in proc.stdout


def test_verify_names_a_tampered_score(record, tmp_path):
    path, _ = record
    msg = record_pb2.GameRecord.FromString(path.read_bytes())
    msg.hands[0].scores_after[0] += 1
    bad = tmp_path / "score.pb"
    bad.write_bytes(msg.SerializeToString())
    proc = arena("verify", str(bad))
    assert proc.returncode == 1 and "hand 0: score" in proc.stdout


def test_verify_names_a_changed_action(record, tmp_path):
    path, _ = record
    msg = record_pb2.GameRecord.FromString(path.read_bytes())
    plays = [a for a in msg.hands[1].actions if a.action.kind == types_pb2.ACTION_KIND_PLAY]
    plays[-1].action.card.CopyFrom(plays[0].action.card)  # a card already played
    bad = tmp_path / "action.pb"
    bad.write_bytes(msg.SerializeToString())
    proc = arena("verify", str(bad))
    assert proc.returncode == 1 and "hand 1, action" in proc.stdout and "illegal" in proc.stdout


def test_terminal_view_from_a_seat_hides_other_hands_the_kitty_and_the_discard(record):
    path, log = record
    for number, hl in enumerate(log.hands[:3]):
        for seat in range(4):
            proc = arena("replay", str(path), "--seat", str(seat), "--hand", str(number))
            assert proc.returncode == 0, proc.stderr
            out = proc.stdout
            hidden = set(hl.kitty[1:])
            discard = next((a.action.card for a in hl.actions
                            if a.action.kind is ActionKind.DISCARD), None)
            if discard is not None and seat != hl.dealer and discard != hl.kitty[0]:
                hidden.add(discard)  # (a discarded upcard was public anyway)
            for card in hidden:
                assert card_label(card) not in out, (number, seat, card_label(card))
            for other in range(4):
                if other != seat:
                    assert f"seat {other} {log.seats[other].name}  " not in out.split("upcard")[1][:400]
        full = arena("replay", str(path), "--hand", str(number)).stdout
        for seat in range(4):
            for card in hl.dealt[seat]:
                assert card_label(card) in full


def test_html_export(record, tmp_path):
    path, _ = record
    out = tmp_path / "game.html"
    proc = arena("replay", str(path), "--html", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().lstrip().lower().startswith("<!doctype html")


@pytest.mark.parametrize("extra", [("--json", "--seat", "1"), ("--html", "x.html", "--seat", "2"),
                                   ("--json", "--hand", "0")])
def test_a_whole_game_file_is_never_made_as_if_for_one_seat(record, tmp_path, extra):
    """--json and --html write every seat's cards: asked for one seat, the command says so
    and writes nothing, instead of quietly writing the whole game."""
    extra = tuple(str(tmp_path / e) if e.endswith(".html") else e for e in extra)
    proc = arena("replay", str(record[0]), *extra)
    assert proc.returncode == 2 and "terminal view only" in proc.stderr, proc.stderr
    assert not proc.stdout.strip() and not (tmp_path / "x.html").exists()


def test_bad_inputs_are_one_line_errors(tmp_path):
    junk = tmp_path / "junk.pb"
    junk.write_bytes(b"\xff\xff not a record")
    for args in (("replay", str(junk)), ("verify", str(tmp_path / "missing.pb")),
                 ("replay", str(junk), "--hand", "1")):
        proc = arena(*args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert proc.stderr.startswith("arena: error:") and "Traceback" not in proc.stderr


def test_a_ladder_database_replays_verifies_and_catches_tampering(tmp_path):
    (tmp_path / "l.toml").write_text(
        'bots = ["random", { name = "random-b", bot = "random" }]\n'
        "games_per_pairing = 2\nconcurrency = 1\nseed = 5\n"
    )
    proc = subprocess.run([sys.executable, "-m", "ladder.cli", "run", str(tmp_path / "l.toml"),
                           "--quiet"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    db = tmp_path / "l.sqlite"
    assert arena("verify", str(db)).returncode == 0
    with sqlite3.connect(db) as conn:
        game_id, blob = conn.execute("SELECT game_id, record FROM games ORDER BY seq").fetchone()
    shown = arena("replay", str(db), game_id)
    assert shown.returncode == 0 and game_id in shown.stdout
    html = tmp_path / "g.html"
    assert arena("replay", str(db), game_id, "--html", str(html)).returncode == 0
    assert html.stat().st_size > 10_000
    msg = record_pb2.GameRecord.FromString(blob)
    msg.final_scores[1] += 3
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET record = ? WHERE game_id = ?",
                     (msg.SerializeToString(), game_id))
    proc = arena("verify", str(db))
    assert proc.returncode == 1
    assert game_id in proc.stdout and "final score" in proc.stdout
    missing = arena("replay", str(db), "no-such-game")
    assert missing.returncode == 2 and "no game" in missing.stderr


def test_the_header_says_who_was_unsealed_and_a_seat_view_hides_the_seed(record, capsys):
    from dataclasses import replace

    from rich.console import Console

    from arena.replay_cli import show_game

    _, log = record

    def header(log, seat=None) -> str:
        console = Console(width=160, record=True)
        show_game(log, seat=seat, hand=0, console=console)
        return console.export_text().split("upcard")[0]

    sealed = replace(log, seats=tuple(replace(s, sandboxed=True) for s in log.seats),
                     table_id="0123456789abcdef")
    text = header(sealed)
    assert "every seat sealed" in text and "0123456789abcdef" in text
    assert f"seed      {log.seed}" in text
    east_open = replace(sealed, seats=tuple(replace(s, sandboxed=s.seat != 1) for s in log.seats))
    assert "NOT sealed: seat 1 east" in header(east_open)
    assert "seed" not in header(sealed, seat=2)
