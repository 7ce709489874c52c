"""proto/card_vectors.json, the card rules as data for bots in other languages: it is what
scripts/gen_card_vectors.py makes of the rules core today, and it says what RULES.md
section 2 says. The expectations here are written out by hand, not asked of the core,
so a wrong generator (or a core that drifted from the rules) fails them."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from google.protobuf import json_format

from arena.core.cards import parse_card
from arena.wire.codec import card_from_pb, card_to_pb
from arena.wire.gen.euchre.v1 import types_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "proto" / "card_vectors.json"
SUITS = ("SUIT_CLUBS", "SUIT_DIAMONDS", "SUIT_HEARTS", "SUIT_SPADES")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_card_vectors", ROOT / "scripts" / "gen_card_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    return _generator()


@pytest.fixture(scope="module")
def vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SHIPPED.read_text(encoding="utf-8"))
    return data


def deck(vectors: dict[str, Any], deck_id: str) -> dict[str, Any]:
    (found,) = [d for d in vectors["decks"] if d["id"] == deck_id]
    return found


def names(ranks: list[list[dict[str, Any]]]) -> list[str]:
    """A rank order as names, equal cards joined by '='."""
    return ["=".join(c["name"] for c in rank) for rank in ranks]


def trump_order(vectors: dict[str, Any], deck_id: str, trump: str) -> list[str]:
    return names(deck(vectors, deck_id)["trumps"][trump]["trump_order"])


def plain_order(vectors: dict[str, Any], deck_id: str, trump: str, suit: str) -> list[str]:
    return names(deck(vectors, deck_id)["trumps"][trump]["plain_order"][suit])


# --- the shipped file is today's ---------------------------------------------------


def test_shipped_file_is_what_the_generator_writes(gen):
    assert SHIPPED.read_text(encoding="utf-8") == gen.render(), (
        "proto/card_vectors.json is stale: run python scripts/gen_card_vectors.py"
    )


def test_check_says_stale_or_fresh_and_out_writes_elsewhere(gen, tmp_path, capsys):
    out = tmp_path / "vectors.json"
    assert gen.main(["--check", "--out", str(out)]) == 1  # missing
    assert gen.main(["--out", str(out)]) == 0
    assert gen.main(["--check", "--out", str(out)]) == 0
    out.write_text(out.read_text().replace('"JH"', '"HJ"', 1))
    assert gen.main(["--check", "--out", str(out)]) == 1
    assert "stale" in capsys.readouterr().err


def test_file_is_small_and_described(vectors):
    assert SHIPPED.stat().st_size < 500_000
    assert vectors["format"] == 1
    assert set(vectors["description"]) >= {"cards", "decks", "trumps", "jokers", "tricks"}
    assert list(vectors) == ["format", "description", "decks", "jokers", "tricks"]


# --- cards as the wire writes them ------------------------------------------------------


def every_card_entry(value: Any) -> list[dict[str, Any]]:
    if isinstance(value, dict):
        found = [value] if "card" in value and "name" in value else []
        return found + [c for v in value.values() for c in every_card_entry(v)]
    if isinstance(value, list):
        return [c for v in value for c in every_card_entry(v)]
    return []


def test_every_card_is_the_wire_card_its_name_says(vectors):
    entries = every_card_entry(vectors)
    assert len(entries) > 1500
    for entry in entries:
        card = parse_card(entry["name"])
        assert card_from_pb(json_format.ParseDict(entry["card"], pb.Card())) == card, entry
        written = json_format.MessageToDict(card_to_pb(card), always_print_fields_with_no_presence=True)
        assert written == entry["card"], entry  # protobuf's own JSON of the card
        assert list(entry["card"]) == ["suit", "rank", "copy"]  # the proto's field order


def test_a_few_cards_written_out(vectors):
    d50 = deck(vectors, "50")
    by_name = {c["name"]: c["card"] for c in d50["cards"]}
    assert by_name["JH"] == {"suit": "SUIT_HEARTS", "rank": "RANK_JACK", "copy": 0}
    assert by_name["JH2"] == {"suit": "SUIT_HEARTS", "rank": "RANK_JACK", "copy": 1}
    assert by_name["TC"] == {"suit": "SUIT_CLUBS", "rank": "RANK_TEN", "copy": 0}
    assert by_name["JKR"] == {"suit": "SUIT_UNSPECIFIED", "rank": "RANK_JOKER", "copy": 0}
    assert by_name["JKR2"] == {"suit": "SUIT_UNSPECIFIED", "rank": "RANK_JOKER", "copy": 1}


# --- decks ---------------------------------------------------------------------------


def test_every_deck_the_rules_allow(vectors):
    got = {d["id"]: (d["size"], d["seats"], d["rules"]) for d in vectors["decks"]}
    no, yes = False, True
    assert got == {
        "24": (24, [4], {"deck": 24, "joker": no, "coloured_jokers": no}),
        "25": (25, [4], {"deck": 25, "joker": yes, "coloured_jokers": no}),
        "28": (28, [4], {"deck": 28, "joker": no, "coloured_jokers": no}),
        "29": (29, [4], {"deck": 29, "joker": yes, "coloured_jokers": no}),
        "31": (31, [6], {"deck": 31, "joker": yes, "coloured_jokers": no}),
        "32": (32, [4], {"deck": 32, "joker": no, "coloured_jokers": no}),
        "33": (33, [4, 6], {"deck": 33, "joker": yes, "coloured_jokers": no}),
        "50": (50, [6], {"deck": 50, "joker": yes, "coloured_jokers": no}),
        "50-coloured-jokers": (50, [6], {"deck": 50, "joker": yes, "coloured_jokers": yes}),
    }


def test_deck_contents(vectors):
    def cards(deck_id: str) -> set[str]:
        listed = [c["name"] for c in deck(vectors, deck_id)["cards"]]
        assert len(listed) == len(set(listed)) == deck(vectors, deck_id)["size"]
        return set(listed)

    nine_up = {r + s for r in "9TJQKA" for s in "CDHS"}
    seven_up = nine_up | {r + s for r in "78" for s in "CDHS"}
    assert cards("24") == nine_up
    assert cards("25") == nine_up | {"JKR"}
    assert cards("28") == nine_up | {"8C", "8D", "8H", "8S"}
    assert cards("32") == seven_up
    assert cards("33") == seven_up | {"JKR"}
    assert cards("31") == seven_up - {"7C", "7S"} | {"JKR"}
    assert cards("50") == cards("50-coloured-jokers") == (
        nine_up | {"JKR"} | {c + "2" for c in nine_up | {"JKR"}}
    )


def test_each_trump_orders_every_card_once_in_its_effective_suit(vectors):
    for d in vectors["decks"]:
        all_cards = {c["name"] for c in d["cards"]}
        assert list(d["trumps"]) == list(SUITS)
        for trump, t in d["trumps"].items():
            assert set(t["effective_suit"]) == all_cards
            assert list(t["plain_order"]) == [s for s in SUITS if s != trump]
            seen = []
            for suit, ranks in [(trump, t["trump_order"]), *t["plain_order"].items()]:
                for rank in ranks:
                    assert 1 <= len(rank) <= (2 if d["size"] == 50 else 1)
                    for card in rank:
                        assert t["effective_suit"][card["name"]] == suit, (d["id"], trump, card)
                        seen.append(card["name"])
            assert sorted(seen) == sorted(all_cards)


# --- the order, written out from RULES.md section 2 ----------------------------------


def test_hearts_trump_in_the_24_card_deck(vectors):
    h, d = "SUIT_HEARTS", "SUIT_DIAMONDS"
    assert trump_order(vectors, "24", h) == ["JH", "JD", "AH", "KH", "QH", "TH", "9H"]
    assert plain_order(vectors, "24", h, d) == ["AD", "KD", "QD", "TD", "9D"]  # no jack
    assert plain_order(vectors, "24", h, "SUIT_CLUBS") == ["AC", "KC", "QC", "JC", "TC", "9C"]
    eff = deck(vectors, "24")["trumps"][h]["effective_suit"]
    assert eff["JD"] == h and eff["JH"] == h and eff["AD"] == d
    assert eff["JC"] == "SUIT_CLUBS" and eff["JS"] == "SUIT_SPADES"


@pytest.mark.parametrize(
    ("trump", "right", "left"),
    [("SUIT_CLUBS", "JC", "JS"), ("SUIT_SPADES", "JS", "JC"),
     ("SUIT_DIAMONDS", "JD", "JH"), ("SUIT_HEARTS", "JH", "JD")],
)
def test_the_bowers_of_each_trump(vectors, trump, right, left):
    assert trump_order(vectors, "24", trump)[:2] == [right, left]
    assert deck(vectors, "24")["trumps"][trump]["effective_suit"][left] == trump
    assert trump_order(vectors, "25", trump)[:3] == ["JKR", right, left]
    assert deck(vectors, "25")["trumps"][trump]["effective_suit"]["JKR"] == trump


def test_the_joker_and_the_low_cards(vectors):
    s = "SUIT_SPADES"
    assert trump_order(vectors, "25", s) == ["JKR", "JS", "JC", "AS", "KS", "QS", "TS", "9S"]
    assert trump_order(vectors, "29", s)[-2:] == ["9S", "8S"]
    assert trump_order(vectors, "32", s)[-3:] == ["9S", "8S", "7S"]
    assert trump_order(vectors, "33", s)[0] == "JKR"
    assert trump_order(vectors, "31", s)[-2:] == ["9S", "8S"]  # Almonte: no black sevens
    assert plain_order(vectors, "31", s, "SUIT_HEARTS")[-3:] == ["9H", "8H", "7H"]
    assert plain_order(vectors, "31", "SUIT_HEARTS", "SUIT_CLUBS")[-2:] == ["9C", "8C"]


def test_the_double_pack_ranks_equal_copies_together(vectors):
    assert trump_order(vectors, "50", "SUIT_HEARTS") == [
        "JKR=JKR2", "JH=JH2", "JD=JD2", "AH=AH2", "KH=KH2", "QH=QH2", "TH=TH2", "9H=9H2"
    ]
    assert plain_order(vectors, "50", "SUIT_HEARTS", "SUIT_DIAMONDS") == [
        "AD=AD2", "KD=KD2", "QD=QD2", "TD=TD2", "9D=9D2"
    ]
    assert deck(vectors, "50")["trumps"]["SUIT_HEARTS"]["effective_suit"]["JD2"] == "SUIT_HEARTS"


def test_coloured_jokers_put_the_one_of_trumps_colour_first(vectors):
    cj = "50-coloured-jokers"
    assert trump_order(vectors, cj, "SUIT_HEARTS")[:3] == ["JKR2", "JKR", "JH=JH2"]
    assert trump_order(vectors, cj, "SUIT_DIAMONDS")[:2] == ["JKR2", "JKR"]
    assert trump_order(vectors, cj, "SUIT_CLUBS")[:3] == ["JKR", "JKR2", "JC=JC2"]
    assert trump_order(vectors, cj, "SUIT_SPADES")[:2] == ["JKR", "JKR2"]
    jokers = vectors["jokers"]
    assert jokers["coloured_jokers"] == {
        "black": "JKR", "red": "JKR2",
        "higher_by_trump": {"SUIT_CLUBS": "JKR", "SUIT_DIAMONDS": "JKR2",
                            "SUIT_HEARTS": "JKR2", "SUIT_SPADES": "JKR"},
    }
    assert jokers["joker"]["card"] == {"suit": "SUIT_UNSPECIFIED", "rank": "RANK_JOKER", "copy": 0}
    assert jokers["two_of_spades_label"] == "2♠"


# --- example tricks ----------------------------------------------------------------------

EXPECTED_WINNERS = {
    # id: (the winning seat, its card), worked out by hand from RULES.md
    "plain-trick": (2, "AC"),
    "trumping-in": (3, "9S"),
    "left-bower-beats-trump-ace": (1, "JD"),
    "left-bower-is-not-its-printed-suit": (1, "JD"),
    "left-bower-led": (2, "JD"),
    "right-bower-beats-left": (2, "JC"),
    "joker-led": (3, "JKR"),
    "joker-follows-trump": (1, "JKR"),
    "joker-trumps-in": (1, "JKR"),
    "off-suit-discards": (0, "QS"),
    "six-seats": (3, "8C"),
    "equal-cards-second-wins": (4, "AH2"),
    "equal-cards-copy-number-does-not-count": (5, "JD"),
    "jokers-alike-second-wins": (3, "JKR2"),
    "coloured-jokers-black-trump": (0, "JKR"),
    "coloured-jokers-red-trump": (0, "JKR2"),
    "lone-player-partner-sits-out": (0, "JC"),
    "six-seats-lone-player": (4, "JH"),
}


def test_example_tricks_have_the_winners_worked_out_by_hand(vectors):
    got = {t["id"]: (t["winner"], t["winning_card"]["name"]) for t in vectors["tricks"]}
    assert got == EXPECTED_WINNERS


def test_example_tricks_cover_the_cases(vectors):
    tricks = {t["id"]: t for t in vectors["tricks"]}
    assert {t["rules"]["seats"] for t in tricks.values()} == {4, 6}
    assert {t["deck"] for t in tricks.values()} == {d["id"] for d in vectors["decks"]}
    led_left = tricks["left-bower-led"]
    assert led_left["plays"][0]["name"] == "JD" and led_left["led_suit"] == "SUIT_HEARTS"
    short = [t for t in tricks.values() if t["sitting_out"]]
    assert {len(t["plays"]) for t in short} == {3, 4}
    for t in tricks.values():
        seats = [p["seat"] for p in t["plays"]]
        n = t["rules"]["seats"]
        assert seats[0] == t["leader"] and len(set(seats)) == len(seats)
        assert sorted(seats + t["sitting_out"]) == list(range(n))
        assert seats == sorted(seats, key=lambda s: (s - t["leader"]) % n)  # clockwise
        assert t["note"]


def test_example_tricks_agree_with_the_files_own_order(vectors):
    """What a reader does with the file: judge each trick from the orders given (highest
    trump, else highest of the led suit; of equal cards the later) and get its winner."""
    for t in vectors["tricks"]:
        orders = deck(vectors, t["deck"])["trumps"][t["trump"]]
        ranks = {t["trump"]: orders["trump_order"], **orders["plain_order"]}
        place = {c["name"]: (suit, i) for suit, rs in ranks.items() for i, r in enumerate(rs) for c in r}
        assert place[t["plays"][0]["name"]][0] == t["led_suit"]
        best, winner = (-1, 0), -1
        for p in t["plays"]:
            suit, i = place[p["name"]]
            tier = 2 if suit == t["trump"] else 1 if suit == t["led_suit"] else 0
            strength = (tier, -i if tier else 0)
            if strength >= best:
                best, winner = strength, p["seat"]
        assert winner == t["winner"], t["id"]
