'use strict';
// Card helpers: which suit a card follows once trump is known, and how strong it is in a
// trick. The wire gives every card its printed suit; the left bower and the joker belong
// to trump, which the bot must work out for itself (proto/euchre/v1/types.proto, Suit).

const { Rank, Suit } = require('./protocol');

const BLACK = new Set([Suit.SUIT_CLUBS, Suit.SUIT_SPADES]);
const SUITS = [Suit.SUIT_CLUBS, Suit.SUIT_DIAMONDS, Suit.SUIT_HEARTS, Suit.SUIT_SPADES];

const rankOf = (card) => card.rank || 0;
const suitOf = (card) => card.suit || 0;
const isJoker = (card) => rankOf(card) === Rank.RANK_JOKER;
const sameColour = (a, b) => BLACK.has(a) === BLACK.has(b);

/** The suit of the other colour-mate: "next" to a turned-down suit. */
function nextSuit(suit) {
  return SUITS.find((s) => s !== suit && sameColour(s, suit));
}

/** The suit a card counts as: the joker and the left bower are trump. */
function effectiveSuit(card, trump) {
  if (isJoker(card)) return trump;
  if (trump && rankOf(card) === Rank.RANK_JACK && suitOf(card) !== trump
      && sameColour(suitOf(card), trump)) {
    return trump;
  }
  return suitOf(card);
}

const isTrump = (card, trump) => Boolean(trump) && effectiveSuit(card, trump) === trump;

/** Strength among trumps: the joker, the right bower, the left bower, then by rank.
 * With coloured jokers (the double pack) the joker of trump's colour is the higher: copy
 * 0 is the black one. */
function trumpPower(card, trump, colouredJokers) {
  if (isJoker(card)) {
    const black = (card.copy || 0) === 0;
    return 100 + (colouredJokers && black === BLACK.has(trump) ? 1 : 0);
  }
  if (rankOf(card) === Rank.RANK_JACK) return suitOf(card) === trump ? 90 : 80;
  return 50 + rankOf(card);
}

/** A card's power in a trick led in suit `led`: 0 when it can never win it. */
function trickPower(card, trump, led, colouredJokers) {
  if (isTrump(card, trump)) return trumpPower(card, trump, colouredJokers);
  return effectiveSuit(card, trump) === led ? rankOf(card) : 0;
}

/** Index of the winning play: of two equal cards (a double pack's copies) the later. */
function winningIndex(cards, trump, colouredJokers) {
  const led = effectiveSuit(cards[0], trump);
  let best = -1;
  let index = 0;
  cards.forEach((c, i) => {
    const p = trickPower(c, trump, led, colouredJokers);
    if (p >= best) {
      best = p;
      index = i;
    }
  });
  return index;
}

const sameCard = (a, b) => Boolean(a) && Boolean(b) && rankOf(a) === rankOf(b)
  && suitOf(a) === suitOf(b) && (a.copy || 0) === (b.copy || 0);

module.exports = {
  SUITS,
  effectiveSuit,
  isJoker,
  isTrump,
  nextSuit,
  rankOf,
  sameCard,
  suitOf,
  trickPower,
  trumpPower,
  winningIndex,
};
