"""Cards, decks and the card order under a trump suit.

A card is a small int (``suit * 8 + rank - 7``; the joker is 32; in the double pack the
second copy of a card is that number plus 33) rather than an object:
the engine is driven millions of times by benchmarks and by bots' own simulations, and
indexing precomputed tables by int is the cheapest way to answer "which suit does this
card follow?" and "which card wins?" under each trump. Names ("JH", "TC", "JKR") are for
people and for the wire.
"""

from __future__ import annotations

from enum import IntEnum

Card = int


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    @property
    def same_colour(self) -> Suit:
        """The suit whose jack becomes the left bower (clubs<->spades, diamonds<->hearts)."""
        return Suit(3 - self)


SUITS = tuple(Suit)
JOKER: Card = 32
PACK_IDS = 33
"""Card numbers of one pack; the double pack's second copies follow."""
SECOND_JOKER: Card = JOKER + PACK_IDS
NUM_CARD_IDS = 2 * PACK_IDS

RANK_NAMES = {7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_NAME = {v: k for k, v in RANK_NAMES.items()} | {"10": 10}
JACK = 11


def make_card(rank: int, suit: Suit | int) -> Card:
    if rank not in RANK_NAMES:
        raise ValueError(f"no rank {rank} in a Euchre deck (7 to 14, ace high)")
    return int(suit) * 8 + rank - 7


def copy_of(card: Card) -> int:
    """0, or 1 for the second copy of a card in the double pack."""
    return card // PACK_IDS


def base_card(card: Card) -> Card:
    """The card of the first pack that this one is a copy of (itself in one pack)."""
    return card % PACK_IDS


def is_joker(card: Card) -> bool:
    return card % PACK_IDS == JOKER


def card_suit(card: Card) -> Suit | None:
    """The printed suit; None for the joker. Use effective_suit() once trump is known."""
    card %= PACK_IDS
    return None if card == JOKER else SUITS[card >> 3]


def card_rank(card: Card) -> int | None:
    """7..14 (ace 14); None for the joker."""
    card %= PACK_IDS
    return None if card == JOKER else (card & 7) + 7


def card_name(card: Card) -> str:
    """"JH", "TC", "JKR"; a double pack's second copy ends in "2" ("JH2", "JKR2")."""
    copy = "2" if card >= PACK_IDS else ""
    card %= PACK_IDS
    if card == JOKER:
        return "JKR" + copy
    return RANK_NAMES[(card & 7) + 7] + "CDHS"[card >> 3] + copy


def card_label(card: Card, two_of_spades_joker: bool = False) -> str:
    """The name people read: rank and suit symbol ("J♥", "10♣", "Joker", or "2♠" where a
    two of spades is the joker); a second copy is marked ("J♥²")."""
    copy = "²" if card >= PACK_IDS else ""
    card %= PACK_IDS
    if card == JOKER:
        return ("2♠" if two_of_spades_joker else "Joker") + copy
    rank = RANK_NAMES[(card & 7) + 7]
    return ("10" if rank == "T" else rank) + "♣♦♥♠"[card >> 3] + copy


def parse_card(text: str) -> Card:
    """Reads "JH", "10h", "TH", "J♥", "JKR" or "joker", and a second copy as "JH2" or
    "JKR2"; raises ValueError naming the text."""
    t = text.strip().upper()
    copy = 0
    if len(t) >= 3 and t.endswith("2") and not t.endswith("12"):
        t, copy = t[:-1], PACK_IDS
    if t in ("JKR", "JOKER", "BENNY"):
        return JOKER + copy
    if len(t) >= 2:
        suit_part, rank_part = t[-1], t[:-1]
        suit = "CDHS♣♦♥♠".find(suit_part)
        rank = _RANK_BY_NAME.get(rank_part)
        if suit >= 0 and rank is not None:
            return make_card(rank, suit % 4) + copy
    raise ValueError(f"not a card: {text!r} (expected e.g. 'JH', 'TC', '10D', 'JKR', 'JH2')")


def _make_deck(size: int) -> tuple[Card, ...]:
    low = {24: 9, 25: 9, 28: 8, 29: 8, 50: 9}.get(size, 7)
    cards = [make_card(rank, suit) for suit in SUITS for rank in range(low, 15)]
    if size == 31:  # the six-hand Almonte pack: 7-A and the joker, less the black sevens
        cards = [c for c in cards if not (c & 7 == 0 and SUITS[c >> 3] in BLACK_SUITS)]
    if size in (25, 29, 31, 33, 50):
        cards.append(JOKER)
    if size == 50:  # two 25-card packs: 9 to ace and a joker, twice
        cards += [c + PACK_IDS for c in cards]
    return tuple(cards)


BLACK_SUITS = (Suit.CLUBS, Suit.SPADES)
DECK_SIZES = (24, 25, 28, 29, 31, 32, 33, 50)
_DECKS = {size: _make_deck(size) for size in DECK_SIZES}


def build_deck(size: int) -> tuple[Card, ...]:
    """The cards of a deck of one of DECK_SIZES, in a fixed order (shuffling is the
    game's). Built once per size (a deal asks for one every hand); a tuple, so safe to
    share."""
    deck = _DECKS.get(size)
    if deck is None:
        raise ValueError(f"no {size}-card Euchre deck ({', '.join(map(str, DECK_SIZES))})")
    return deck


# --- Per-trump tables -------------------------------------------------------------
# EFFECTIVE_SUIT[trump][card]: the suit the card belongs to for following and leading.
# TRICK_POWER[trump][led][card]: the card's strength in a trick whose led (effective)
# suit is `led`: 0 when it can neither follow nor trump, so the trick winner is a max().
_TRUMP_BASE = 100


def _effective_suit(card: Card, trump: int) -> int:
    card %= PACK_IDS
    if card == JOKER:
        return trump
    suit, rank = card >> 3, (card & 7) + 7
    if rank == JACK and suit == 3 - trump:
        return trump
    return suit


def _trump_power(card: Card, trump: int, coloured_jokers: bool = False) -> int:
    """Strength among trumps: joker > right bower > left bower > A K Q 10 9 8 7. Equal
    copies of the double pack have equal power (the one played second wins the trick);
    with coloured jokers (the first black, the second red) the one of trump's colour is
    the higher."""
    if card % PACK_IDS == JOKER:
        red_joker = card >= PACK_IDS
        trump_red = trump in (Suit.DIAMONDS, Suit.HEARTS)
        return _TRUMP_BASE + 40 + (1 if coloured_jokers and red_joker == trump_red else 0)
    card %= PACK_IDS
    suit, rank = card >> 3, (card & 7) + 7
    if rank == JACK:
        return _TRUMP_BASE + (30 if suit == trump else 20)
    return _TRUMP_BASE + rank


_Power = tuple[tuple[tuple[int, ...], ...], ...]


def _build_tables(coloured_jokers: bool = False) -> tuple[tuple[tuple[int, ...], ...], _Power]:
    eff = tuple(
        tuple(_effective_suit(c, t) for c in range(NUM_CARD_IDS)) for t in range(4)
    )
    power = []
    for t in range(4):
        per_led = []
        for led in range(4):
            row = []
            for c in range(NUM_CARD_IDS):
                s = eff[t][c]
                if s == t:
                    row.append(_trump_power(c, t, coloured_jokers))
                elif s == led:
                    row.append((c % PACK_IDS & 7) + 7)
                else:
                    row.append(0)
            per_led.append(tuple(row))
        power.append(tuple(per_led))
    return eff, tuple(power)


EFFECTIVE_SUIT, TRICK_POWER = _build_tables()
TRICK_POWER_COLOURED_JOKERS = _build_tables(coloured_jokers=True)[1]
"""TRICK_POWER for a double pack whose jokers differ in colour."""
SUIT_INDEX = tuple(-1 if is_joker(c) else (c % PACK_IDS) >> 3 for c in range(NUM_CARD_IDS))
"""The printed suit's number (-1 for a joker), for the engine's hot paths."""


def effective_suit(card: Card, trump: Suit | int) -> Suit:
    """The suit a card follows under this trump: the left bower and the joker are trumps."""
    return SUITS[EFFECTIVE_SUIT[trump][card]]


def is_trump(card: Card, trump: Suit | int) -> bool:
    return EFFECTIVE_SUIT[trump][card] == trump


def trick_winner_index(
    cards: list[Card] | tuple[Card, ...], trump: Suit | int, coloured_jokers: bool = False
) -> int:
    """Index of the winning card: the highest trump, else the highest card of the led suit;
    of two equal cards (a double pack's copies) the one played second."""
    power = TRICK_POWER_COLOURED_JOKERS if coloured_jokers else TRICK_POWER
    table = power[trump][EFFECTIVE_SUIT[trump][cards[0]]]
    best, best_i = -1, 0
    for i, c in enumerate(cards):
        p = table[c]
        if p >= best:
            best, best_i = p, i
    return best_i
