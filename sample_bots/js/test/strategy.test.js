'use strict';
// The rules of thumb of strategy.js on hand-made views (node --test test/).

const test = require('node:test');
const assert = require('node:assert/strict');
const { ActionKind: K, Phase, Rank: R, Suit: S } = require('../protocol');
const { choose } = require('../strategy');

const RULES = {
  seats: 4, deck_size: 24, joker: false, target_score: 10, hand_limit: 0, hand_size: 5,
  coloured_jokers: false,
};
const card = (rank, suit) => ({ rank, suit, copy: 0 });
const play = (c) => ({ kind: K.ACTION_KIND_PLAY, suit: 0, card: c, alone: false });
const trick = (leader, ...cards) => ({
  leader, plays: cards.map((c, i) => ({ seat: (leader + i) % 4, card: c })),
});

/** A view in the play phase with hearts trump, made by seat 0. */
function playView(seat, hand, current) {
  return {
    seat, hand_number: 0, dealer: 3, scores: [0, 0], phase: Phase.PHASE_PLAY, turn: seat,
    hand, upcard: card(R.RANK_NINE, S.SUIT_HEARTS), upcard_turned_down: false,
    dealer_took_upcard: true, auction: [], trump: S.SUIT_HEARTS, maker: 0, alone: [],
    sitting_out: [], discard: null, tricks: [], current_trick: current,
    tricks_won: [0, 0], cards_in_hands: [5, 5, 5, 5], gave: null, set_aside: [],
  };
}

test('follows suit and wins as cheaply as it can when last to play', () => {
  const hand = [card(R.RANK_ACE, S.SUIT_SPADES), card(R.RANK_QUEEN, S.SUIT_SPADES),
    card(R.RANK_NINE, S.SUIT_CLUBS)];
  const legal = hand.slice(0, 2).map(play);
  const current = trick(0, card(R.RANK_TEN, S.SUIT_SPADES), card(R.RANK_NINE, S.SUIT_SPADES),
    card(R.RANK_JACK, S.SUIT_SPADES));
  assert.equal(choose(playView(3, hand, current), legal, RULES), legal[1]); // the queen
});

test("leaves the partner's winning trick alone, throwing the lower card", () => {
  const hand = [card(R.RANK_KING, S.SUIT_SPADES), card(R.RANK_JACK, S.SUIT_SPADES)];
  const legal = hand.map(play);
  const current = trick(0, card(R.RANK_NINE, S.SUIT_SPADES), card(R.RANK_QUEEN, S.SUIT_SPADES),
    card(R.RANK_TEN, S.SUIT_SPADES));
  assert.equal(choose(playView(3, hand, current), legal, RULES), legal[1]); // not the king
});

test('void in the led suit, it trumps with its lowest trump, not a bower', () => {
  const hand = [card(R.RANK_JACK, S.SUIT_HEARTS), card(R.RANK_NINE, S.SUIT_HEARTS),
    card(R.RANK_TEN, S.SUIT_CLUBS)];
  const legal = hand.map(play);
  const current = trick(0, card(R.RANK_ACE, S.SUIT_SPADES));
  assert.equal(choose(playView(1, hand, current), legal, RULES), legal[1]);
});

test('the left bower is trump: it follows a trump lead and wins', () => {
  const hand = [card(R.RANK_JACK, S.SUIT_DIAMONDS), card(R.RANK_ACE, S.SUIT_DIAMONDS)];
  const legal = [play(hand[0])]; // the arena says the left bower must follow hearts
  const current = trick(0, card(R.RANK_ACE, S.SUIT_HEARTS));
  assert.equal(choose(playView(1, hand, current), legal, RULES), legal[0]);
  const both = hand.map(play); // had the ace of diamonds been legal, the bower still wins
  assert.equal(choose(playView(1, [...hand], current), both, RULES), both[0]);
});

test('unable to win, it throws its cheapest card and keeps its trump', () => {
  const hand = [card(R.RANK_NINE, S.SUIT_HEARTS), card(R.RANK_KING, S.SUIT_CLUBS),
    card(R.RANK_NINE, S.SUIT_DIAMONDS)];
  const legal = hand.map(play);
  const current = trick(0, card(R.RANK_ACE, S.SUIT_SPADES), card(R.RANK_JACK, S.SUIT_HEARTS));
  assert.equal(choose(playView(2, hand, current), legal, RULES), legal[2]);
});

test('the makers lead their best trump; defenders lead an off ace', () => {
  const hand = [card(R.RANK_NINE, S.SUIT_HEARTS), card(R.RANK_JACK, S.SUIT_HEARTS),
    card(R.RANK_ACE, S.SUIT_CLUBS)];
  const legal = hand.map(play);
  assert.equal(choose(playView(2, hand, null), legal, RULES), legal[1]);
  assert.equal(choose(playView(1, hand, null), legal, RULES), legal[2]);
});

function bidView(seat, hand) {
  return {
    ...playView(seat, hand, null), phase: Phase.PHASE_BID_ROUND_1, dealer: 0, trump: 0,
    maker: undefined, dealer_took_upcard: false,
  };
}

const BIDS = [
  { kind: K.ACTION_KIND_PASS, suit: 0, card: null, alone: false },
  { kind: K.ACTION_KIND_ORDER_UP, suit: 0, card: null, alone: false },
  { kind: K.ACTION_KIND_ORDER_UP, suit: 0, card: null, alone: true },
];

test('orders up a strong hand (alone, with the top trumps) and passes a weak one', () => {
  const strong = [card(R.RANK_JACK, S.SUIT_HEARTS), card(R.RANK_JACK, S.SUIT_DIAMONDS),
    card(R.RANK_ACE, S.SUIT_HEARTS), card(R.RANK_KING, S.SUIT_HEARTS),
    card(R.RANK_ACE, S.SUIT_CLUBS)];
  assert.equal(choose(bidView(1, strong), BIDS, RULES), BIDS[2]);
  const good = [card(R.RANK_JACK, S.SUIT_HEARTS), card(R.RANK_ACE, S.SUIT_HEARTS),
    card(R.RANK_TEN, S.SUIT_HEARTS), card(R.RANK_ACE, S.SUIT_CLUBS),
    card(R.RANK_NINE, S.SUIT_SPADES)];
  assert.equal(choose(bidView(1, good), BIDS, RULES), BIDS[1]);
  const weak = [card(R.RANK_NINE, S.SUIT_CLUBS), card(R.RANK_TEN, S.SUIT_CLUBS),
    card(R.RANK_QUEEN, S.SUIT_DIAMONDS), card(R.RANK_NINE, S.SUIT_SPADES),
    card(R.RANK_TEN, S.SUIT_SPADES)];
  assert.equal(choose(bidView(1, weak), BIDS, RULES), BIDS[0]);
});

test('the dealer discards a singleton that is not an ace, making a void', () => {
  const hand = [card(R.RANK_JACK, S.SUIT_HEARTS), card(R.RANK_ACE, S.SUIT_HEARTS),
    card(R.RANK_KING, S.SUIT_CLUBS), card(R.RANK_NINE, S.SUIT_SPADES),
    card(R.RANK_TEN, S.SUIT_SPADES), card(R.RANK_ACE, S.SUIT_DIAMONDS)];
  const legal = hand.map((c) => ({ kind: K.ACTION_KIND_DISCARD, suit: 0, card: c, alone: false }));
  const view = { ...playView(3, hand, null), phase: Phase.PHASE_DEALER_DISCARD };
  assert.equal(choose(view, legal, RULES), legal[2]);
});
