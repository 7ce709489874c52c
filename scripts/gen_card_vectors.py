"""Generates proto/card_vectors.json, the card rules as data, from the rules core.

    python scripts/gen_card_vectors.py             # rewrite proto/card_vectors.json
    python scripts/gen_card_vectors.py --out FILE  # write elsewhere
    python scripts/gen_card_vectors.py --check     # exit 1 if the shipped file is stale

A bot written in another language reimplements the card order (bowers, the joker, the
double pack's equal cards and coloured jokers) without the arena's code; these vectors
let it test that order against the judge it will be played under. Every value is asked of
the rules core: the order within a suit is found by playing pairs of cards through
trick_winner_index (the function that decides the arena's tricks), and each example
trick's winner is that function's; the trick is also dealt and played through a
HandState, which refuses an illegal play and finds the winner its own way, so an example
has its seats in the order the arena plays them and a winner both agree on. Cards are
written as the wire writes them
(arena.wire.codec and the proto's own enum names), so a reader maps them straight onto
its generated code.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a file from a checkout, not only installed
    sys.path.insert(0, str(ROOT))

from arena.core import actions as A  # noqa: E402
from arena.core.cards import (  # noqa: E402
    JOKER,
    SECOND_JOKER,
    SUITS,
    Card,
    build_deck,
    card_label,
    card_name,
    card_suit,
    effective_suit,
    parse_card,
    trick_winner_index,
)
from arena.core.errors import RuleSetError  # noqa: E402
from arena.core.hand import HandState, Phase, partners  # noqa: E402
from arena.core.rules import DECKS_BY_SEATS, JOKER_DECKS, RuleSet  # noqa: E402
from arena.wire.codec import card_to_pb, suit_to_pb  # noqa: E402
from arena.wire.gen.euchre.v1 import types_pb2 as pb  # noqa: E402

DEFAULT_OUT = ROOT / "proto" / "card_vectors.json"
FORMAT = 1
WIDTH = 100
"""A JSON value this short is written on one line (a card, a play), so the file reads as
one card a line and a diff of it names the cards that changed."""

JSON = Any


# --- cards and suits as the wire writes them ---------------------------------------


def suit_json(suit: int) -> str:
    return str(pb.Suit.Name(suit_to_pb(suit)))


def wire_card(card: Card) -> dict[str, JSON]:
    msg = card_to_pb(card)
    return {"suit": pb.Suit.Name(msg.suit), "rank": pb.Rank.Name(msg.rank), "copy": msg.copy}


def card_entry(card: Card) -> dict[str, JSON]:
    return {"name": card_name(card), "card": wire_card(card)}


# --- decks -------------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    id: str
    size: int
    coloured_jokers: bool
    seats: tuple[int, ...]

    @property
    def joker(self) -> bool:
        return self.size in JOKER_DECKS

    def rules(self, seats: int) -> RuleSet:
        return RuleSet(
            seats=seats, deck=self.size, joker=self.joker, coloured_jokers=self.coloured_jokers
        )


def _allowed(seats: int, size: int, coloured_jokers: bool) -> bool:
    try:
        RuleSet(seats=seats, deck=size, joker=size in JOKER_DECKS, coloured_jokers=coloured_jokers)
    except RuleSetError:
        return False
    return True


def decks() -> list[Deck]:
    """Every deck a rule set allows, by size; the coloured jokers make a deck of their own
    (the same cards, another order of the jokers). Asked of RuleSet's own validation, so a
    deck the rules come to allow appears here without a change."""
    out = []
    sizes = sorted({size for by_seats in DECKS_BY_SEATS.values() for size in by_seats})
    for size in sizes:
        for coloured in (False, True):
            seats = tuple(n for n in sorted(DECKS_BY_SEATS) if _allowed(n, size, coloured))
            if seats:
                out.append(Deck(f"{size}-coloured-jokers" if coloured else str(size),
                                size, coloured, seats))
    return out


def _compare(a: Card, b: Card, trump: int, coloured: bool) -> int:
    """-1 when a ranks above b in a trick of their (common) effective suit, 1 below, 0 when
    they are equal: then whichever is played second wins, both ways round."""
    a_led = trick_winner_index([a, b], trump, coloured)
    b_led = trick_winner_index([b, a], trump, coloured)
    if a_led == 0 and b_led == 1:
        return -1
    if a_led == 1 and b_led == 0:
        return 1
    if a_led == 1 and b_led == 1:
        return 0
    raise AssertionError(f"{card_name(a)} and {card_name(b)}: the first played always wins")


def ranked(cards: list[Card], trump: int, coloured: bool) -> list[list[Card]]:
    """The cards highest first, equal ones grouped, checked to be a consistent order."""
    cmp = functools.partial(_compare, trump=trump, coloured=coloured)
    order = sorted(cards, key=functools.cmp_to_key(cmp))
    groups: list[list[Card]] = []
    for card in order:
        if groups and cmp(groups[-1][0], card) == 0:
            groups[-1].append(card)
        else:
            groups.append([card])
    for i, group in enumerate(groups):
        for j, other in enumerate(groups):
            want = 0 if i == j else (-1 if i < j else 1)
            if any(cmp(a, b) != want for a in group for b in other):
                raise AssertionError(f"no consistent order of {[card_name(c) for c in cards]}")
    return groups


def deck_vectors(deck: Deck) -> dict[str, JSON]:
    cards = build_deck(deck.size)
    by_trump: dict[str, JSON] = {}
    for trump in SUITS:
        by_suit: dict[int, list[Card]] = {s: [] for s in SUITS}
        for card in cards:
            by_suit[effective_suit(card, trump)].append(card)
        order = {
            s: [[card_entry(c) for c in group] for group in ranked(by_suit[s], trump,
                                                                  deck.coloured_jokers)]
            for s in SUITS
        }
        by_trump[suit_json(trump)] = {
            "effective_suit": {card_name(c): suit_json(effective_suit(c, trump)) for c in cards},
            "trump_order": order[trump],
            "plain_order": {suit_json(s): order[s] for s in SUITS if s != trump},
        }
    return {
        "id": deck.id,
        "size": deck.size,
        "rules": {"deck": deck.size, "joker": deck.joker, "coloured_jokers": deck.coloured_jokers},
        "seats": list(deck.seats),
        "cards": [card_entry(c) for c in cards],
        "trumps": by_trump,
    }


def joker_vectors() -> dict[str, JSON]:
    higher = {}
    for trump in SUITS:
        black_led, red_led = [JOKER, SECOND_JOKER], [SECOND_JOKER, JOKER]
        won = {t[trick_winner_index(t, trump, coloured_jokers=True)] for t in (black_led, red_led)}
        if len(won) != 1:
            raise AssertionError("with coloured jokers the higher one wins, led or not")
        higher[suit_json(trump)] = card_name(won.pop())
    return {
        "joker": card_entry(JOKER),
        "second_joker": card_entry(SECOND_JOKER),
        "two_of_spades_label": card_label(JOKER, two_of_spades_joker=True),
        "coloured_jokers": {
            "black": card_name(JOKER),
            "red": card_name(SECOND_JOKER),
            "higher_by_trump": higher,
        },
    }


# --- example tricks ------------------------------------------------------------------


@dataclass(frozen=True)
class Example:
    id: str
    deck: str
    seats: int
    trump: str
    leader: int
    plays: str
    """Card names in play order, from the leader clockwise over the seats in play."""
    wins: str
    """The card the note says wins: generation stops if the rules core disagrees."""
    note: str
    alone: int | None = None
    """A seat playing alone (named trump alone): its partners sit out."""


_H, _D, _C, _S = "hearts", "diamonds", "clubs", "spades"
EXAMPLES = (
    Example("plain-trick", "24", 4, _H, 0, "KC 9C AC TC", "AC",
            "No trump is played: the highest card of the led suit wins."),
    Example("trumping-in", "24", 4, _S, 1, "AD KD 9S QD", "9S",
            "Seat 3 has no diamond and trumps: the lowest trump beats the led suit's ace."),
    Example("left-bower-beats-trump-ace", "24", 4, _H, 0, "AH JD 9H KH", "JD",
            "The jack of the same colour (the left bower) is the second-highest trump."),
    Example("left-bower-is-not-its-printed-suit", "24", 4, _H, 0, "AD JD KD 9D", "JD",
            "Diamonds led, hearts trump: JD is a heart, so seat 1 (no diamond) trumps with it."),
    Example("left-bower-led", "24", 4, _H, 2, "JD 9H AD KH", "JD",
            "The left bower leads trump: 9H and KH follow; AD does not (seat 0 holds no "
            "trump) and is a discard."),
    Example("right-bower-beats-left", "28", 4, _C, 0, "JS 8C JC AC", "JC",
            "Trump clubs: the right bower (JC) beats the left (JS); 8C is in the 28-card deck."),
    Example("joker-led", "25", 4, _C, 3, "JKR JC 9C JS", "JKR",
            "The joker is a trump, so the others follow with trumps; it beats both bowers."),
    Example("joker-follows-trump", "25", 4, _H, 0, "JH JKR JD AH", "JKR",
            "The joker follows a trump lead and beats the right bower."),
    Example("joker-trumps-in", "29", 4, _D, 0, "AS JKR JD 8S", "JKR",
            "Seats 1 and 2 hold no spade and trump; the joker beats the right bower."),
    Example("off-suit-discards", "32", 4, _D, 0, "QS AH 7C TS", "QS",
            "AH and 7C neither follow nor trump: however high, a discard never wins."),
    Example("six-seats", "33", 6, _C, 4, "8D 7D KD 7C QD 8C", "8C",
            "Six seats, sevens in the deck: seat 1 trumps with 7C, seat 3 overtrumps with 8C."),
    Example("equal-cards-second-wins", "50", 6, _C, 1, "KH AH 9H AH2 QH TH", "AH2",
            "The double pack's two aces of hearts are equal: the one played second wins."),
    Example("equal-cards-copy-number-does-not-count", "50", 6, _D, 3, "JD2 9D JD JH JH2 AD", "JD",
            "Two right bowers: the second played wins, whichever copy it is (copy 0 here)."),
    Example("jokers-alike-second-wins", "50", 6, _S, 0, "JKR JS 9S JKR2 AS JC", "JKR2",
            "Without coloured jokers the two jokers are equal: the second played wins."),
    Example("coloured-jokers-black-trump", "50-coloured-jokers", 6, _S, 0,
            "JKR JS 9S JKR2 AS JC", "JKR",
            "Spades trump: the black joker (copy 0) beats the red one, even played first."),
    Example("coloured-jokers-red-trump", "50-coloured-jokers", 6, _H, 0,
            "JKR2 9H JH AH JD JKR", "JKR2",
            "Hearts trump: the red joker (copy 1) beats the black one, even played first."),
    Example("lone-player-partner-sits-out", "24", 4, _S, 1, "AH KH JC", "JC",
            "Seat 0 plays alone: seat 2 sits out, and the trick has three cards. JC, the left "
            "bower, trumps.", alone=0),
    Example("six-seats-lone-player", "31", 6, _D, 1, "AS 8S JH KS", "JH",
            "Almonte's 31-card pack (no black sevens): seat 1 alone, seats 3 and 5 sit out; "
            "seat 4 trumps with the left bower.", alone=1),
)


def _suit(name: str) -> int:
    return {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}[name]


def play_through_hand(rules: RuleSet, trump: int, leader: int, plays: list[tuple[int, Card]],
                      alone: int | None) -> int:
    """Deals hands in which the trick is legal (a seat that does not follow holds none of
    the led suit), makes trump in round 2, plays the trick through HandState (which
    refuses an illegal play) and returns the winning seat the hand found."""
    n = rules.seats
    dealer = (leader - 1) % n
    maker = leader if alone is None else alone
    deck = build_deck(rules.deck)
    played = {c for _, c in plays}
    led = effective_suit(plays[0][1], trump)
    upcard = next(c for c in deck if c not in played and card_suit(c) not in (None, trump))
    pool = [c for c in deck if c not in played and c != upcard]
    hands: list[list[Card]] = [[] for _ in range(n)]
    for seat, card in plays:
        hands[seat].append(card)
    void = [seat for seat, card in plays[1:] if effective_suit(card, trump) != led]
    for seat in [*void, *(s for s in range(n) if s not in void)]:
        while len(hands[seat]) < rules.hand_size:
            take = next((c for c in pool if seat not in void or effective_suit(c, trump) != led),
                        None)
            if take is None:
                raise AssertionError("no cards left to deal a legal hand")
            pool.remove(take)
            hands[seat].append(take)
    hand = HandState(rules, dealer, hands, [upcard, *pool])
    for seat in [(dealer + 1 + i) % n for i in range(n)]:
        hand.apply(A.PASS, seat)
    seat = (dealer + 1) % n
    while seat != maker:
        hand.apply(A.PASS, seat)
        seat = (seat + 1) % n
    hand.apply(A.name_trump(trump, alone=alone is not None), maker)
    if hand.phase is not Phase.PLAY or hand.turn != leader:
        raise AssertionError(f"play did not start with seat {leader} to lead")
    for seat, card in plays:
        hand.apply(A.play(card), seat)
    return hand.tricks[0].winner


def trick_vector(example: Example, by_id: dict[str, Deck]) -> dict[str, JSON]:
    deck = by_id[example.deck]
    rules = deck.rules(example.seats)
    trump = _suit(example.trump)
    n = example.seats
    out = set() if example.alone is None else set(partners(example.alone, n))
    order = [s for s in ((example.leader + i) % n for i in range(n)) if s not in out]
    cards = [parse_card(t) for t in example.plays.split()]
    if len(cards) != len(order):
        raise AssertionError(f"{example.id}: {len(cards)} cards for {len(order)} seats in play")
    if not set(cards) <= set(build_deck(deck.size)):
        raise AssertionError(f"{example.id}: a card not in the {deck.id} deck")
    plays = list(zip(order, cards, strict=True))
    index = trick_winner_index(cards, trump, deck.coloured_jokers)
    winner = order[index]
    if play_through_hand(rules, trump, example.leader, plays, example.alone) != winner:
        raise AssertionError(f"{example.id}: the hand and trick_winner_index disagree")
    if card_name(cards[index]) != example.wins:
        raise AssertionError(
            f"{example.id}: the note says {example.wins} wins, the rules core "
            f"{card_name(cards[index])}"
        )
    return {
        "id": example.id,
        "deck": deck.id,
        "rules": {"seats": n, "deck": deck.size, "joker": deck.joker,
                  "coloured_jokers": deck.coloured_jokers},
        "trump": suit_json(trump),
        "leader": example.leader,
        "sitting_out": sorted(out),
        "plays": [{"seat": s, **card_entry(c)} for s, c in plays],
        "led_suit": suit_json(effective_suit(cards[0], trump)),
        "winner": winner,
        "winning_card": card_entry(cards[index]),
        "note": example.note,
    }


# --- the file --------------------------------------------------------------------------

DESCRIPTION = {
    "purpose": (
        "Test vectors of Euchre's card rules as the arena judges them, generated from its "
        "rules core by scripts/gen_card_vectors.py: a bot in any language can check its own "
        "card order against them. Do not edit: regenerate."
    ),
    "cards": (
        "A card is written {\"name\": ..., \"card\": {\"suit\", \"rank\", \"copy\"}}. \"card\" is "
        "the wire's euchre.v1.Card with the proto's enum names (JSON as protobuf writes it, "
        "defaults included); the joker is suit SUIT_UNSPECIFIED, rank RANK_JOKER. copy is 1 "
        "for the second copy of a card in the double pack (50 cards), else 0. \"name\" is for "
        "people: rank 7 8 9 T J Q K A and suit C D H S (\"TC\", \"JH\"), \"JKR\" for the "
        "joker, and a second copy ends in \"2\" (\"JH2\", \"JKR2\")."
    ),
    "decks": (
        "One entry per distinct deck the rule sets allow: id (the size, or "
        "\"50-coloured-jokers\"), the RuleSet options that give it (deck, joker, "
        "coloured_jokers), the seat counts it is allowed with, and its cards (clubs, "
        "diamonds, hearts, spades, each low to high, then the joker; the double pack's second "
        "copies after the first pack)."
    ),
    "trumps": (
        "Per deck, keyed by the trump suit: effective_suit maps each card's name to the suit "
        "it belongs to for following, leading and winning (the left bower, the jack of the "
        "same colour, and the joker are trumps); trump_order and plain_order (per other suit) "
        "list that suit's cards highest first, as a list of ranks, each rank a list of equal "
        "cards. trump_order holds every trump, so in a deck with a joker it begins with the "
        "joker (both, in the double pack), then the right bower, then the left. A rank "
        "holds two cards only in the double pack: equal cards rank equal, and "
        "of two equal cards in a trick the one played second wins, whichever its copy."
    ),
    "winning": (
        "A trick is won by its highest trump; with no trump in it, by the highest card of "
        "the led suit (the led card's effective suit). A card of any other suit never wins."
    ),
    "jokers": (
        "The joker is the highest trump under every trump and its effective suit is trump. "
        "With two_of_spades_joker only its label changes (two_of_spades_label); on the wire "
        "it is still the joker. The double pack has two (copy 0 and 1): alike, they are equal "
        "cards; with coloured_jokers copy 0 is black and copy 1 red, and the one of trump's "
        "colour is the higher (higher_by_trump), played first or second."
    ),
    "tricks": (
        "Example tricks: the deck id (an id of \"decks\", not a size: the size is "
        "rules.deck) and RuleSet options, trump, the leader, the cards in "
        "play order with their seats (SeatCard), seats sitting out (a lone player's "
        "partners, who play no card), the led (effective) suit, the winning seat and card, "
        "and a note saying why. The winners are the rules core's; each trick is also played "
        "through the arena's hand, which refuses an illegal play: every seat that does not "
        "follow the led suit holds none of it."
    ),
    "order": (
        "Deterministic: decks by size, suits in the proto's order, cards in deck order; "
        "regenerating without a rules change gives the same bytes."
    ),
}


def vectors() -> dict[str, JSON]:
    all_decks = decks()
    by_id = {d.id: d for d in all_decks}
    return {
        "format": FORMAT,
        "description": DESCRIPTION,
        "decks": [deck_vectors(d) for d in all_decks],
        "jokers": joker_vectors(),
        "tricks": [trick_vector(e, by_id) for e in EXAMPLES],
    }


def _dump(value: JSON, indent: int) -> str:
    """JSON with values that fit on one line written on one line, the rest indented."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) <= WIDTH or not isinstance(value, dict | list) or not value:
        return flat
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dump(v, indent + 2)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    items = [f"{inner}{_dump(v, indent + 2)}" for v in value]
    return "[\n" + ",\n".join(items) + f"\n{pad}]"


def render() -> str:
    return _dump(vectors(), 0) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output file")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the file is not what would be written")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        current = args.out.read_text(encoding="utf-8") if args.out.exists() else None
        if current != text:
            print(f"{args.out} is stale: run python scripts/gen_card_vectors.py", file=sys.stderr)
            return 1
        print(f"{args.out} is up to date")
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out} ({len(text.encode())} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
