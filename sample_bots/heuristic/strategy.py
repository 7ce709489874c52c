"""A rule-of-thumb Euchre strategy: one pure function, choose(view) -> Action.

It follows the usual club advice (shared/seeds/003, "Consejos de estrategia"):

- Bidding counts likely tricks (bowers, the joker, trump ace, off aces, ruffing voids)
  and adds one for the partner; a call needs three (CALL_NEED: the count is generous, so
  the bar sits half a trick higher). Round 1 asks a little less when the partner deals
  (the upcard comes to our team) and more when an opponent deals (it gives them a trump;
  more still when it is a jack). Round 2 favours "next", the suit of the upcard's
  colour, above all left of the dealer. A stuck dealer names the best suit.
- Going alone (with the call, in the alone round, or as a lone defender) needs sure
  tricks: trumps that no outstanding trump can beat (the joker counts when the deck has
  one), with at most one loser besides.
- The dealer discards to void a non-trump suit (a singleton that is not an ace), else
  the lowest non-trump.
- Play: the makers lead trump (high) with two or more while the defenders may still hold
  some, otherwise the lead is a boss off-suit card (an ace, or a king once the ace is
  gone). Nobody trumps the partner's trick; a partner winning with a card nobody can
  beat (an ace), or with any card when we play last, gets our cheapest card; a beatable
  partner is overtaken only by following suit with a card nobody can beat. Otherwise
  the lowest card that wins, else the cheapest card (keeping trumps and bosses, and
  throwing the last card of a suit to make a void).

Cards are ints; trump order, suit-following and trick power come from the SDK's card
helpers (the rules core's own tables). Nothing here keeps state between calls: every
decision is read off the view alone, so one strategy serves any number of games at once.
"""

from __future__ import annotations

from arena.sdk import (
    GO_ALONE,
    JACK,
    JOKER,
    ORDER_UP,
    ORDER_UP_ALONE,
    PASS,
    Action,
    ActionKind,
    Card,
    Phase,
    SeatView,
    Suit,
    card_rank,
    card_suit,
    discard,
    effective_suit,
    follows_suit,
    is_trump,
    known_voids,
    name_trump,
    order_up,
    outstanding_cards,
    partners,
    play,
    trick_power,
    trick_winner,
    trump_order,
)

ACE = 14
KING = 13

CALL_NEED = 2.5
"""Round 1: our own estimated tricks needed to order up. The advice adds one for the
partner and wants three; hand_strength() is generous (voids, guarded kings), and in
self-play a bar of 2.5 won 55% of games against one of 2.0."""
ROUND2_NEED = 2.1
"""Round 2: the same for naming a suit (with the bonus for next)."""
NEXT_BONUS = 0.3
"""Round 2: "next", the turned-down suit's colour-mate, whose bowers the dealer lacked."""
NEXT_BONUS_LEFT_OF_DEALER = 0.25
PARTNER_DEALS_BONUS = 0.35
"""Round 1: the upcard will be our partner's."""
OPPONENT_DEALS_PENALTY = 0.35
"""Round 1: ordering up gives an opponent a trump."""
JACK_UPCARD_EXTRA = 0.35
"""...and more so when the upcard is the jack: the right bower."""
FORCED_ALONE_NEED = 3.3
"""The dealer's partner who may only order up alone: own expected tricks needed
(when the sure-trick test for going alone does not already hold)."""

# Value of one trump, by how many higher trumps are still outstanding (0, 1, 2, 3+) and
# how many trumps we hold (1, 2, 3+): a queen is worth more behind two guards.
_TRUMP_VALUE = (
    (1.0, 1.0, 1.0),
    (0.5, 0.8, 0.8),
    (0.25, 0.45, 0.6),
    (0.15, 0.3, 0.5),
)


# --- card helpers -------------------------------------------------------------------


def _is_partner(view: SeatView, other: int) -> bool:
    return other != view.seat and other % 2 == view.seat % 2


def _trump_power(card: Card, trump: int) -> int:
    return trick_power(card, trump, trump)


def _is_jack(card: Card) -> bool:
    return card_rank(card) == JACK  # (None for a joker)


def _off_rank(card: Card) -> int:
    """The rank of a card that is not trump: never the joker, which is always trump."""
    rank = card_rank(card)
    assert rank is not None, "the joker is always trump"
    return rank


# --- hand evaluation ---------------------------------------------------------------


def hand_strength(
    cards: tuple[Card, ...] | list[Card], trump: int, deck: int, out: frozenset[Card] = frozenset()
) -> float:
    """Expected tricks of these cards with this trump, partner not counted.

    `out` is cards known to be out of play (the turned-down upcard): a trump below one of
    them counts as higher in the order."""
    held = set(cards)
    n = sum(1 for c in cards if is_trump(c, trump))
    value = 0.0
    if n:
        col = min(n, 3) - 1
        higher = 0
        for c in trump_order(trump, deck):
            if c in held:
                value += _TRUMP_VALUE[min(higher, 3)][col]
            elif c not in out:
                higher += 1
    off_ranks: dict[int, list[int]] = {}
    for c in cards:
        s = effective_suit(c, trump)
        if s != trump:
            off_ranks.setdefault(s, []).append(_off_rank(c))
    for ranks in off_ranks.values():
        if ACE in ranks:
            value += 0.9
            if KING in ranks:
                value += 0.45
        elif KING in ranks:
            value += 0.3 if len(ranks) >= 2 else 0.15
    voids = 3 - len(off_ranks)
    if n >= 2 and voids:
        value += 0.3 * min(voids, n - 1)
    return value


def sure_trump_tricks(
    cards: tuple[Card, ...] | list[Card], trump: int, deck: int, out: frozenset[Card] = frozenset()
) -> int:
    """Trump tricks nobody can take from us: down the trump order, each card we hold wins
    one and each outstanding one can capture one; the best running balance."""
    held = set(cards)
    best = mine = theirs = 0
    for c in trump_order(trump, deck):
        if c in out:
            continue
        if c in held:
            mine += 1
            best = max(best, mine - theirs)
        else:
            theirs += 1
    return best


def alone_worthy(
    cards: tuple[Card, ...] | list[Card],
    trump: int,
    deck: int,
    out: frozenset[Card] = frozenset(),
    strict: bool = False,
) -> bool:
    """Sure tricks enough to play without the partner: three unbeatable trumps and at most
    one loser, or long trumps with the two best; `strict` wants no loser at all."""
    n = sum(1 for c in cards if is_trump(c, trump))
    if n == 0:
        return False
    sure = sure_trump_tricks(cards, trump, deck, out)
    losers = sum(1 for c in cards if not is_trump(c, trump) and card_rank(c) != ACE)
    allowed = 0 if strict else 1
    if sure >= 3 and losers <= allowed:
        return True
    if sure >= 2 and n >= 4 and losers == 0:
        return True
    return n == 5 and sure >= 1 and not strict


def defender_alone_worthy(
    cards: tuple[Card, ...] | list[Card], trump: int, deck: int, out: frozenset[Card] = frozenset()
) -> bool:
    """A lone defender needs three tricks the makers cannot stop: three sure trumps."""
    return sure_trump_tricks(cards, trump, deck, out) >= 3


def best_discard(cards: tuple[Card, ...] | list[Card], trump: int) -> Card:
    """Void a non-trump suit (a singleton that is not an ace), else the lowest non-trump,
    else (all trumps) the lowest trump."""
    def eff(c: Card) -> int:
        return effective_suit(c, trump)

    off = [c for c in cards if eff(c) != trump]
    if not off:
        return min(cards, key=lambda c: _trump_power(c, trump))
    counts: dict[int, int] = {}
    for c in off:
        counts[eff(c)] = counts.get(eff(c), 0) + 1
    singles = [c for c in off if counts[eff(c)] == 1 and card_rank(c) != ACE]
    if singles:
        return min(singles, key=_off_rank)
    non_aces = [c for c in off if card_rank(c) != ACE]
    pool = non_aces or off
    return min(pool, key=lambda c: (_off_rank(c), counts[eff(c)]))


def _after_pickup(cards: tuple[Card, ...] | list[Card], upcard: Card, trump: int) -> list[Card]:
    """The dealer's five cards after taking the upcard and discarding."""
    six = [*cards, upcard]
    six.remove(best_discard(six, trump))
    return six


# --- bidding -------------------------------------------------------------------------


def _pick(view: SeatView, wanted: list[Action]) -> Action:
    """The first wanted action that is legal, else the first legal action."""
    legal = view.legal_actions
    for a in wanted:
        if a in legal:
            return a
    return legal[0]


def _may_win_by_one(view: SeatView) -> bool:
    """One point wins the game: going alone would only add risk."""
    return view.scores[view.seat % 2] + 1 >= view.rules.target


def _bid_round_1(view: SeatView) -> Action:
    seat, dealer, upcard = view.seat, view.dealer, view.upcard
    upcard_suit = card_suit(upcard)
    if upcard_suit is None:  # a turned joker bid on: name the suit it will be trump of
        return _bid_on_turned_joker(view)
    trump = int(upcard_suit)
    deck = view.rules.deck
    legal = view.legal_actions
    only_alone = ORDER_UP not in legal and ORDER_UP_ALONE in legal
    if only_alone:
        # The dealer's partner who must go alone: the dealer will sit out, the upcard
        # stays in the kitty, so it is out of play.
        out = frozenset({upcard})
        strong = alone_worthy(view.hand, trump, deck, out) or (
            hand_strength(view.hand, trump, deck, out) >= FORCED_ALONE_NEED
        )
        return ORDER_UP_ALONE if strong else PASS
    if seat == dealer:
        cards = _after_pickup(view.hand, upcard, trump)
        strength = hand_strength(cards, trump, deck)
    else:
        cards = list(view.hand)
        strength = hand_strength(cards, trump, deck)
        jack = _is_jack(upcard)
        if dealer in partners(seat, view.rules.seats):
            strength += PARTNER_DEALS_BONUS + (JACK_UPCARD_EXTRA if jack else 0.0)
        else:
            strength -= OPPONENT_DEALS_PENALTY + (JACK_UPCARD_EXTRA if jack else 0.0)
    if strength < CALL_NEED:
        return PASS
    alone = (
        ORDER_UP_ALONE in legal
        and not _may_win_by_one(view)
        and alone_worthy(cards, trump, deck)
    )
    return _pick(view, [order_up(alone), ORDER_UP])


def _suit_choices(view: SeatView) -> list[Suit]:
    # (Every NAME_TRUMP action has its suit: the SDK's Action refuses one without.)
    return sorted(
        {a.suit for a in view.legal_actions if a.kind is ActionKind.NAME_TRUMP and a.suit is not None}
    )


def _bid_round_2(view: SeatView) -> Action:
    seat, dealer, upcard = view.seat, view.dealer, view.upcard
    deck = view.rules.deck
    turned = card_suit(upcard)
    nxt = turned.same_colour if turned is not None else None
    out = frozenset({upcard})
    best_suit, best = None, -1.0
    for s in _suit_choices(view):
        v = hand_strength(view.hand, s, deck, out)
        if s == nxt:
            left = (dealer + 1) % view.rules.seats
            v += NEXT_BONUS + (NEXT_BONUS_LEFT_OF_DEALER if seat == left else 0.0)
        if v > best:
            best_suit, best = s, v
    if best_suit is None:
        return view.legal_actions[0]
    if best < ROUND2_NEED and PASS in view.legal_actions:
        return PASS
    alone = not _may_win_by_one(view) and alone_worthy(view.hand, best_suit, deck, out)
    return _pick(view, [name_trump(best_suit, alone), name_trump(best_suit)])


def _bid_on_turned_joker(view: SeatView) -> Action:
    """Round 1 on a turned joker (that option): the dealer's team gets the joker, so the
    dealer and its partners count it; the dealer may not pass, so it names its best."""
    deck = view.rules.deck
    ours = view.seat % 2 == view.dealer % 2
    cards = [*view.hand, JOKER] if view.seat == view.dealer else list(view.hand)
    best = max(_suit_choices(view), key=lambda s: hand_strength(cards, s, deck))
    legal = view.legal_actions
    if name_trump(best) not in legal and name_trump(best, True) in legal:
        # The dealer's partner who must go alone (RULES.md section 7, the joker too): the
        # dealer sits out and the joker stays in the kitty, out of play.
        out = frozenset({JOKER})
        strong = alone_worthy(view.hand, best, deck, out) or (
            hand_strength(view.hand, best, deck, out) >= FORCED_ALONE_NEED
        )
        return name_trump(best, True) if strong else PASS
    strength = hand_strength(cards, best, deck) + (PARTNER_DEALS_BONUS if ours else 0.0)
    if strength < CALL_NEED and PASS in view.legal_actions:
        return PASS
    return _pick(view, [name_trump(best)])


def _dealer_pickup(view: SeatView) -> Action:
    """The dealer may decline the upcard (that option): take it unless the hand is no
    stronger with it (the upcard's suit is trump either way)."""
    trump = view.trump
    if trump is None:
        return ORDER_UP
    deck = view.rules.deck
    taken = _after_pickup(view.hand, view.upcard, trump)
    keep = hand_strength(view.hand, trump, deck, frozenset({view.upcard}))
    return ORDER_UP if hand_strength(taken, trump, deck) >= keep else PASS


def _loner_asks(view: SeatView) -> Action:
    """Always ask: the card asked for can be put down again, so it never weakens a hand
    (railroading, where it cannot be seen first, asks no question but whom)."""
    asks = [a for a in view.legal_actions if a.kind is ActionKind.ASK]
    return asks[0] if asks else view.legal_actions[0]


def _partner_gives(view: SeatView) -> Action:
    """Give the lone partner the strongest card: its best trump, else an ace. Railroading
    lets the partner pass none (RULES.md section 9), and the loner takes a passed card
    unseen, swapping out a card of the hand: with neither a trump nor an ace to offer,
    pass none rather than risk the loner's swapping a good card for a weak one."""
    trump = view.trump
    cards = [a.card for a in view.legal_actions if a.card is not None]
    if trump is None or not cards:
        return view.legal_actions[0]

    def strength(c: Card) -> tuple[int, int]:
        return (1 if is_trump(c, trump) else 0, _trump_power(c, trump) if is_trump(c, trump)
                else _off_rank(c))

    best = max(cards, key=strength)
    worth_passing = is_trump(best, trump) or _off_rank(best) == ACE
    if PASS in view.legal_actions and not worth_passing:
        return PASS
    return next(a for a in view.legal_actions if a.card == best)


def _loner_sets_aside(view: SeatView) -> Action:
    """Cornwall's discard after the card given, or railroading's blind swap: put down the
    weakest card (a partner passes its best, so taking it is worth a weak card)."""
    trump = view.trump
    cards = [a.card for a in view.legal_actions if a.kind is ActionKind.DISCARD and a.card is not None]
    if trump is None or not cards:
        return view.legal_actions[0]
    return discard(best_discard(cards, trump))


def _dealer_names_trump(view: SeatView) -> Action:
    """The joker is turned up. Without looking (the usual case) nothing tells the suits
    apart, so name the first legal suit, never alone; a hand in view picks its best."""
    suits = _suit_choices(view)
    if not view.hand:
        return _pick(view, [name_trump(s) for s in suits])
    deck = view.rules.deck
    best = max(suits, key=lambda s: hand_strength([*view.hand, JOKER], s, deck))
    return _pick(view, [name_trump(best)])


def _going_alone(view: SeatView) -> Action:
    seat, trump = view.seat, view.trump
    if trump is None or _may_win_by_one(view):
        return PASS
    deck = view.rules.deck
    cards: list[Card] = list(view.hand)
    out: frozenset[Card] = frozenset()
    from_upcard = not view.upcard_turned_down
    if from_upcard:
        if seat == view.dealer:
            cards = _after_pickup(cards, view.upcard, trump)
        elif view.dealer in view.sitting_out:
            out = frozenset({view.upcard})
    else:
        out = frozenset({view.upcard})
    maker = view.maker
    if maker is None:
        return PASS
    if seat % 2 != maker % 2:
        ok = defender_alone_worthy(cards, trump, deck, out)
    elif seat == maker:
        ok = alone_worthy(cards, trump, deck, out)
    else:
        # The partner called on strength of their own: take over only with a lock.
        ok = alone_worthy(cards, trump, deck, out, strict=True)
    return GO_ALONE if ok else PASS


# --- play --------------------------------------------------------------------------


class _Table:
    """What the play rules need from the view, computed once per decision."""

    __slots__ = ("hand", "outstanding", "trump", "voids")

    def __init__(self, view: SeatView) -> None:
        trump = view.trump
        assert trump is not None
        self.trump = trump
        self.hand = view.hand
        self.voids = known_voids(view)
        self.outstanding = outstanding_cards(view)

    def suit(self, card: Card) -> int:
        """The card's suit under trump (the left bower's and the joker's is trump)."""
        return effective_suit(card, self.trump)

    def is_boss(self, card: Card) -> bool:
        """No outstanding card of its (effective) suit beats it."""
        trump = self.trump
        s = effective_suit(card, trump)
        p = trick_power(card, trump, s)
        return not any(
            follows_suit(o, s, trump) and trick_power(o, trump, s) > p for o in self.outstanding
        )

    def trumps_outstanding(self) -> bool:
        trump = self.trump
        return any(follows_suit(o, trump, trump) for o in self.outstanding)

    def cost(self, card: Card) -> float:
        """How much a card is worth keeping: trumps most, then bosses, then by rank;
        the last card of a suit is a little cheaper (throwing it makes a void)."""
        trump = self.trump
        s = self.suit(card)
        if s == trump:
            return 100.0 + _trump_power(card, trump)
        v = float(_off_rank(card))
        if self.is_boss(card):
            v += 20.0
        if sum(1 for c in self.hand if follows_suit(c, s, trump)) == 1:
            v -= 0.5
        return v


def _lead(view: SeatView, t: _Table, cards: list[Card]) -> Card:
    eff, trump, seat = t.suit, t.trump, view.seat
    maker = view.maker
    ours = maker is not None and maker % 2 == seat % 2
    my_trumps = sorted((c for c in cards if eff(c) == trump), key=lambda c: -_trump_power(c, trump))
    off = [c for c in cards if eff(c) != trump]
    opponents = [
        s for s in range(view.rules.seats) if s % 2 != seat % 2 and s not in view.sitting_out
    ]
    opp_may_trump = t.trumps_outstanding() and any(trump not in t.voids[s] for s in opponents)
    alone = seat in view.alone
    # Draw the defenders' trumps so that our off-suit winners stand up later.
    if ours and my_trumps and opp_may_trump and (len(my_trumps) >= 2 or alone):
        return my_trumps[0]
    # Cash a boss off-suit card, preferring suits no opponent is known to ruff.
    bosses = [c for c in off if t.is_boss(c)]
    if bosses:
        def ruffable(c: Card) -> bool:
            return opp_may_trump and any(
                eff(c) in t.voids[s] and trump not in t.voids[s] for s in opponents
            )

        return min(bosses, key=lambda c: (ruffable(c), -_off_rank(c)))
    if my_trumps and (ours or not off) and t.is_boss(my_trumps[0]):
        return my_trumps[0]
    if off:
        def short_low(c: Card) -> tuple[int, int]:
            length = sum(1 for d in cards if eff(d) == eff(c))
            return (length, _off_rank(c))

        return min(off, key=short_low)
    return my_trumps[-1]


def _follow(view: SeatView, t: _Table, cards: list[Card]) -> Card:
    trick = view.current_trick
    assert trick is not None
    plays = trick.plays
    seat, trump = view.seat, t.trump
    led = t.suit(plays[0][1])

    def power(card: Card) -> int:
        return trick_power(card, trump, led)

    win_seat, win_card = trick_winner(plays, trump)
    best = power(win_card)
    played = {s for s, _ in plays}
    after = [
        s for s in range(view.rules.seats)
        if s not in played and s != seat and s not in view.sitting_out
    ]
    opp_after = any(s % 2 != seat % 2 for s in after)
    winners = sorted((c for c in cards if power(c) > best), key=power)
    cheapest = min(cards, key=t.cost)

    def unbeatable(card: Card) -> bool:
        """No outstanding card beats it in this trick (following its suit)."""
        p = power(card)
        s = t.suit(card)
        return not any(follows_suit(o, s, trump) and power(o) > p for o in t.outstanding)

    if _is_partner(view, win_seat):
        if not opp_after or unbeatable(win_card):
            return cheapest
        # Overtake a partner's beatable card only by following suit with a card nobody
        # can beat; never trump the partner's trick.
        safe = [c for c in winners if follows_suit(c, led, trump) and unbeatable(c)]
        return safe[0] if safe else cheapest
    return winners[0] if winners else cheapest


def _play(view: SeatView) -> Action:
    legal = view.legal_actions
    if len(legal) == 1:
        return legal[0]
    cards = [a.card for a in legal if a.card is not None]  # all of them: each PLAY has its card
    t = _Table(view)
    trick = view.current_trick
    leading = trick is None or not trick.plays
    card = (_lead if leading else _follow)(view, t, cards)
    return play(card)


def _discard(view: SeatView) -> Action:
    trump = view.trump
    cards = [a.card for a in view.legal_actions if a.card is not None]  # each DISCARD has its card
    if trump is None:
        return view.legal_actions[0]
    return discard(best_discard(cards, trump))


_BY_PHASE = {
    Phase.BID_ROUND_1: _bid_round_1,
    Phase.BID_ROUND_2: _bid_round_2,
    Phase.DEALER_NAMES_TRUMP: _dealer_names_trump,
    Phase.GOING_ALONE: _going_alone,
    Phase.DEALER_PICKUP: _dealer_pickup,
    Phase.LONER_ASKS: _loner_asks,
    Phase.PARTNER_GIVES: _partner_gives,
    Phase.LONER_DISCARDS: _loner_sets_aside,
    Phase.LONER_EXCHANGES: _loner_sets_aside,
    Phase.DEALER_DISCARD: _discard,
    Phase.PLAY: _play,
}


def propose(view: SeatView) -> Action:
    """The rules' own answer, before choose()'s safety net: tests check that it is legal
    in every situation, so the net never has to hide a mistake."""
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to decide in phase {view.phase.value}")
    if len(legal) == 1:
        return legal[0]
    return _BY_PHASE[view.phase](view)


def choose(view: SeatView) -> Action:
    """One of view.legal_actions, by the rules of thumb in this module's docstring."""
    action = propose(view)
    return action if action in view.legal_actions else view.legal_actions[0]


__all__ = [
    "alone_worthy",
    "best_discard",
    "choose",
    "defender_alone_worthy",
    "hand_strength",
    "propose",
    "sure_trump_tricks",
]
