"""`arena replay` and `arena verify` on record files: JSON round trip, tampering caught,
and a seat's view in the terminal that shows nothing that seat could not see."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest
from google.protobuf import json_format

from arena.core.actions import ActionKind
from arena.core.cards import card_label
from arena.core.rules import preset
from arena.records import files as records
from arena.wire.gen.euchre.v1 import record_pb2, types_pb2
from tests.helpers import play_random_game


def arena(*args: str, command: str = "arena") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", f"{command}.cli", *args], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "160"})


def ladder(*args: str) -> subprocess.CompletedProcess:
    return arena(*args, command="ladder")


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
    assert "hand 3" in proc.stdout and "seat 1" in proc.stdout  # hands counted from 1


def test_verify_names_a_tampered_score(record, tmp_path):
    path, _ = record
    msg = record_pb2.GameRecord.FromString(path.read_bytes())
    msg.hands[0].scores_after[0] += 1
    bad = tmp_path / "score.pb"
    bad.write_bytes(msg.SerializeToString())
    proc = arena("verify", str(bad))
    assert proc.returncode == 1 and "hand 1: score" in proc.stdout


def test_verify_names_a_changed_action(record, tmp_path):
    path, _ = record
    msg = record_pb2.GameRecord.FromString(path.read_bytes())
    plays = [a for a in msg.hands[1].actions if a.action.kind == types_pb2.ACTION_KIND_PLAY]
    plays[-1].action.card.CopyFrom(plays[0].action.card)  # a card already played
    bad = tmp_path / "action.pb"
    bad.write_bytes(msg.SerializeToString())
    proc = arena("verify", str(bad))
    assert proc.returncode == 1 and "hand 2, action" in proc.stdout and "illegal" in proc.stdout


def test_terminal_view_from_a_seat_hides_other_hands_the_kitty_and_the_discard(record):
    path, log = record
    for number, hl in enumerate(log.hands[:3]):
        for seat in range(4):
            proc = arena("replay", str(path), "--seat", str(seat), "--hand", str(number + 1))
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
        full = arena("replay", str(path), "--hand", str(number + 1)).stdout
        for seat in range(4):
            for card in hl.dealt[seat]:
                assert card_label(card) in full


def test_html_export(record, tmp_path):
    path, _ = record
    out = tmp_path / "game.html"
    proc = arena("replay", str(path), "--html", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.read_text().lstrip().lower().startswith("<!doctype html")


def test_hands_are_counted_from_one_in_the_terminal_and_by_hand(record):
    path, log = record
    last = len(log.hands)
    proc = arena("replay", str(path), "--hand", str(last))
    assert proc.returncode == 0, proc.stderr
    assert f"hand {last} · dealer" in proc.stdout and f"hand {last - 1} · dealer" not in proc.stdout
    assert "hand 1 · dealer" in arena("replay", str(path)).stdout
    for bad in ("0", str(last + 1)):
        proc = arena("replay", str(path), "--hand", bad, "--json")
        assert proc.returncode == 2 and f"the game has hands 1 to {last}" in proc.stderr
        assert not proc.stdout


def test_bad_inputs_are_one_line_errors(tmp_path):
    junk = tmp_path / "junk.pb"
    junk.write_bytes(b"\xff\xff not a record")
    (tmp_path / "l.toml").write_text('bots = ["random", "heuristic"]\n')
    db = tmp_path / "db.sqlite"
    sqlite3.connect(db).execute("CREATE TABLE t (x)").connection.close()
    missing = {
        ("arena", "verify", str(tmp_path / "missing.pb")): "missing.pb: no such file",
        ("ladder", "replay", str(tmp_path / "missing.sqlite"), "a~b~00001"):
            "missing.sqlite: no such ladder file",
        ("ladder", "replay", str(tmp_path / "none.toml"), "a~b~00001"):
            "none.toml: no such ladder file",
        ("ladder", "verify", str(tmp_path / "l.toml")): "l.sqlite does not exist yet",
        ("ladder", "replay", str(tmp_path / "l.toml"), "a~b~00001"): "l.sqlite does not exist yet",
        # the arena's own commands read records, and say which command reads a ladder's
        ("arena", "replay", str(tmp_path / "l.toml"), "a~b~00001"):
            f"{tmp_path / 'l.toml'}: a ladder file; its games are read by 'ladder replay",
        ("arena", "verify", str(db)):
            f"{db}: a ladder database; its games are read by 'ladder verify {db}'",
    }
    for args in (("arena", "replay", str(junk)), ("arena", "replay", str(junk), "--hand", "1"),
                 *missing):
        proc = arena(*args[1:], command=args[0])
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert proc.stderr.startswith(f"{args[0]}: error:") and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr  # no usage message
        assert missing.get(args, "") in proc.stderr, (args, proc.stderr)
    assert not (tmp_path / "l.sqlite").exists()  # looking did not make one


def test_a_ladder_database_replays_verifies_and_catches_tampering(tmp_path):
    (tmp_path / "l.toml").write_text(
        'bots = ["random", { name = "random-b", bot = "random" }]\n'
        "games_per_pairing = 2\nconcurrency = 1\nseed = 5\n"
    )
    proc = subprocess.run([sys.executable, "-m", "ladder.cli.main", "run", str(tmp_path / "l.toml"),
                           "--quiet"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    db = tmp_path / "l.sqlite"
    assert ladder("verify", str(db)).returncode == 0
    by_file = ladder("verify", str(tmp_path / "l.toml"))  # the ladder file finds its database
    assert by_file.returncode == 0 and "2 record(s)" in by_file.stdout, by_file.stdout
    with sqlite3.connect(db) as conn:
        game_id, blob = conn.execute("SELECT game_id, record FROM games ORDER BY seq").fetchone()
    shown = ladder("replay", str(db), game_id)
    assert shown.returncode == 0 and game_id in shown.stdout
    assert ladder("replay", str(tmp_path / "l.toml"), game_id).stdout == shown.stdout
    html = tmp_path / "g.html"
    assert ladder("replay", str(db), game_id, "--html", str(html)).returncode == 0
    assert html.stat().st_size > 10_000
    msg = record_pb2.GameRecord.FromString(blob)
    msg.final_scores[1] += 3
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE games SET record = ? WHERE game_id = ?",
                     (msg.SerializeToString(), game_id))
    for ref in (db, tmp_path / "l.toml"):
        proc = ladder("verify", str(ref))
        assert proc.returncode == 1
        assert game_id in proc.stdout and "final score" in proc.stdout
    missing = ladder("replay", str(db), "no-such-game")
    assert missing.returncode == 2 and "no game" in missing.stderr


def test_the_header_says_who_was_unsealed_and_a_seat_view_hides_the_seed(record, capsys):
    from dataclasses import replace

    from rich.console import Console

    from arena.views.replay_text import show_game

    _, log = record

    def header(log, seat=None) -> str:
        console = Console(width=160, record=True)
        show_game(log, seat=seat, hand=1, console=console)
        return console.export_text().split("upcard")[0]

    sealed = replace(log, seats=tuple(replace(s, sandboxed=True) for s in log.seats),
                     table_id="0123456789abcdef")
    text = header(sealed)
    assert "every seat sealed" in text and "0123456789abcdef" in text
    assert f"seed      {log.seed}" in text
    east_open = replace(sealed, seats=tuple(replace(s, sandboxed=s.seat != 1) for s in log.seats))
    assert "NOT sealed: seat 1 east" in header(east_open)
    assert "seed" not in header(sealed, seat=2)
