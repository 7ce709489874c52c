// Rules of thumb, enough to beat a random player:
//
// - Make trump holding a majority of the hand in it (3 of 5 cards, 4 of 7), the upcard
//   counted for the dealer who takes it; alone with a trump more.
// - Put down (discard, or swap away in railroading) the weakest card: the lowest that is
//   not trump, else the lowest trump; give a lone partner the strongest.
// - Lead the best trump when our side made it and we hold two, else an off ace, else the
//   weakest card. Follow with the cheapest card that takes the trick, unless a partner
//   is already taking it, else throw the weakest.
//
// Every answer is a position in legal_actions, so whatever the rules (six seats, seven
// cards, the double pack's copies, ASK, GIVE, PASS_CARD) it is legal: the strategy only
// ranks what the arena offers, and a phase it has no rule for gets the first action.
#include "strategy.h"

using namespace euchre::v1;

namespace {

using Actions = google::protobuf::RepeatedPtrField<Action>;

bool is_black(Suit s) { return s == SUIT_CLUBS || s == SUIT_SPADES; }
bool is_joker(const Card& c) { return c.rank() == RANK_JOKER; }

// The wire gives a card its printed suit; once trump is known the joker and the left
// bower (the other jack of trump's colour) belong to trump.
Suit effective_suit(const Card& c, Suit trump) {
    if (is_joker(c)) return trump;
    if (c.rank() == RANK_JACK && trump != SUIT_UNSPECIFIED && c.suit() != trump &&
        is_black(c.suit()) == is_black(trump)) {
        return trump;
    }
    return c.suit();
}

bool is_trump(const Card& c, Suit trump) {
    return trump != SUIT_UNSPECIFIED && effective_suit(c, trump) == trump;
}

// A card's strength in a trick led in `led`: 0 when it cannot win it. Of two equal
// cards (the double pack's copies) the one played later wins, so an equal card wins too.
int power(const Card& c, Suit trump, Suit led, bool coloured_jokers) {
    if (is_trump(c, trump)) {
        // With coloured jokers the one of trump's colour is higher; copy 0 is black.
        if (is_joker(c)) return 100 + (coloured_jokers && (c.copy() == 0) == is_black(trump));
        if (c.rank() == RANK_JACK) return c.suit() == trump ? 90 : 80;
        return 50 + c.rank();
    }
    return effective_suit(c, trump) == led ? c.rank() : 0;
}

// How much a card is worth keeping: any trump above any other card, then by rank.
int worth(const Card& c, Suit trump, bool coloured_jokers) {
    return is_trump(c, trump) ? 100 + power(c, trump, trump, coloured_jokers) : c.rank();
}

int find(const Actions& legal, ActionKind kind) {
    for (int i = 0; i < legal.size(); ++i) {
        if (legal[i].kind() == kind) return i;
    }
    return -1;
}

// The action with a card whose worth is lowest (sign 1) or highest (sign -1); -1 if none.
int by_worth(const Actions& legal, Suit trump, bool coloured_jokers, int sign) {
    int best = -1;
    for (int i = 0; i < legal.size(); ++i) {
        if (!legal[i].has_card()) continue;
        if (best < 0 || sign * worth(legal[i].card(), trump, coloured_jokers) <
                            sign * worth(legal[best].card(), trump, coloured_jokers)) {
            best = i;
        }
    }
    return best;
}

// Seats of a team share their parity, at four seats and at six.
bool our_side(const SeatView& view, uint32_t seat) { return seat % 2 == view.seat() % 2; }

// Trumps of `suit` the seat holds, with the upcard for a dealer who is to take it.
int trumps_held(const SeatView& view, Suit suit) {
    int n = 0;
    for (const Card& c : view.hand()) n += is_trump(c, suit);
    const bool gets_upcard = view.seat() == view.dealer() && !view.upcard_turned_down() &&
                             !view.dealer_took_upcard();
    return n + (gets_upcard && is_trump(view.upcard(), suit));
}

// A call needs a majority of the hand in trump: 3 of 5 cards, 4 of 7.
int call_needs(const SeatView& view) { return (view.hand_size() + 1) / 2; }

// Both rounds of bidding: the call whose suit the seat holds most trumps of (ORDER_UP
// means the upcard's suit, NAME_TRUMP its own). Going alone is for a trump more than a
// call needs: a call that goes alone without it, or stays with the partner with it,
// counts a trump less.
int bid(const SeatView& view, const Actions& legal) {
    const int need = call_needs(view);
    int best = -1, best_score = 0;
    for (int i = 0; i < legal.size(); ++i) {
        const Action& a = legal[i];
        if (a.kind() != ACTION_KIND_ORDER_UP && a.kind() != ACTION_KIND_NAME_TRUMP) continue;
        const Suit suit = a.kind() == ACTION_KIND_ORDER_UP ? view.upcard().suit() : a.suit();
        const int trumps = trumps_held(view, suit);
        const int score = trumps - (a.alone() != (trumps > need));
        if (best < 0 || score > best_score) {
            best = i;
            best_score = score;
        }
    }
    const int pass = find(legal, ACTION_KIND_PASS);
    if (best < 0) return pass >= 0 ? pass : 0;
    // Without a PASS (the dealer stuck, a turned joker) the best call it is.
    return best_score >= need || pass < 0 ? best : pass;
}

// The alone round (when any player may go alone): the makers' side, with a trump more
// than a call needs.
int going_alone(const SeatView& view, const Actions& legal) {
    const int alone = find(legal, ACTION_KIND_GO_ALONE);
    const int pass = find(legal, ACTION_KIND_PASS);
    const bool makers = view.has_maker() && our_side(view, view.maker());
    const bool strong = makers && trumps_held(view, view.trump()) > call_needs(view);
    if (alone >= 0 && (strong || pass < 0)) return alone;
    return pass >= 0 ? pass : 0;
}

// A discard, the Cornwall loner's discard, or railroading's blind swap (where PASS keeps
// the hand and sets the passed card aside: better than swapping a trump away).
int put_down(const SeatView& view, const Actions& legal, bool coloured_jokers) {
    const int low = by_worth(legal, view.trump(), coloured_jokers, 1);
    const int pass = find(legal, ACTION_KIND_PASS);
    if (pass >= 0 && (low < 0 || is_trump(legal[low].card(), view.trump()))) return pass;
    return low >= 0 ? low : 0;
}

int lead(const SeatView& view, const Actions& legal, bool coloured_jokers) {
    const Suit trump = view.trump();
    int trumps = 0, ace = -1;
    for (int i = 0; i < legal.size(); ++i) {
        const Card& c = legal[i].card();
        if (is_trump(c, trump)) ++trumps;
        else if (c.rank() == RANK_ACE && ace < 0) ace = i;
    }
    if (view.has_maker() && our_side(view, view.maker()) && trumps >= 2) {
        return by_worth(legal, trump, coloured_jokers, -1);
    }
    return ace >= 0 ? ace : by_worth(legal, trump, coloured_jokers, 1);
}

int play(const SeatView& view, const Actions& legal, bool coloured_jokers) {
    const Suit trump = view.trump();
    const auto& plays = view.current_trick().plays();
    if (plays.empty()) return lead(view, legal, coloured_jokers);
    const Suit led = effective_suit(plays[0].card(), trump);
    int top = 0;
    uint32_t winner = 0;
    for (const SeatCard& p : plays) {
        const int pw = power(p.card(), trump, led, coloured_jokers);
        if (pw >= top) {
            top = pw;
            winner = p.seat();
        }
    }
    const int low = by_worth(legal, trump, coloured_jokers, 1);
    if (our_side(view, winner)) return low;
    int cheapest = -1;
    for (int i = 0; i < legal.size(); ++i) {
        const int pw = power(legal[i].card(), trump, led, coloured_jokers);
        if (pw >= top &&
            (cheapest < 0 || pw < power(legal[cheapest].card(), trump, led, coloured_jokers))) {
            cheapest = i;
        }
    }
    return cheapest >= 0 ? cheapest : low;
}

int first_or_zero(const Actions& legal, ActionKind kind) {
    const int i = find(legal, kind);
    return i >= 0 ? i : 0;
}

}  // namespace

int choose(const DecideRequest& request, bool coloured_jokers) {
    const SeatView& view = request.view();
    const Actions& legal = request.legal_actions();
    if (legal.size() <= 1) return 0;
    switch (view.phase()) {
        case PHASE_BID_ROUND_1:
        case PHASE_BID_ROUND_2:
            return bid(view, legal);
        case PHASE_DEALER_NAMES_TRUMP:  // the joker turned up, the hand unseen: any suit
            return first_or_zero(legal, ACTION_KIND_NAME_TRUMP);
        case PHASE_GOING_ALONE:
            return going_alone(view, legal);
        case PHASE_DEALER_PICKUP:  // trump is the upcard's suit either way: take a trump
            return first_or_zero(legal, ACTION_KIND_ORDER_UP);
        case PHASE_LONER_ASKS:
            return first_or_zero(legal, ACTION_KIND_ASK);
        case PHASE_PARTNER_GIVES: {
            const int best = by_worth(legal, view.trump(), coloured_jokers, -1);
            return best >= 0 ? best : 0;
        }
        case PHASE_DEALER_DISCARD:
        case PHASE_LONER_DISCARDS:
        case PHASE_LONER_EXCHANGES:
            return put_down(view, legal, coloured_jokers);
        case PHASE_PLAY:
            return play(view, legal, coloured_jokers);
        default:
            return 0;
    }
}
