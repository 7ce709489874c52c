'use strict';
// A simple rule-of-thumb strategy: choose(view, legal, rules) picks one of the request's
// legal actions from the seat's view alone, so one process serves any number of games at
// once with no state to keep.
//
// - Bidding counts likely tricks (bowers, the joker, high trumps, off aces, voids to ruff
//   with) and calls with enough of them; going alone needs trumps nobody can beat.
// - The dealer discards to make a void, else its lowest card that is not trump.
// - Play: the makers lead trump while the defenders may still hold some, otherwise an
//   off ace; a partner's winning trick is left alone; else the cheapest card that wins,
//   else the cheapest card of all.
// - The phases of other rule sets (asking a partner, railroading, the dealer's optional
//   pickup, the joker turned up) get the obvious answer.

const { ActionKind: K, Phase, Rank } = require('./protocol');
const {
  effectiveSuit, isJoker, isTrump, nextSuit, rankOf, sameCard, suitOf, trickPower,
  trumpPower, winningIndex,
} = require('./cards');

const CALL_NEED = 2.2; // own expected tricks to order up in round 1
const ROUND2_NEED = 2.0; // ... to name a suit in round 2
const DEALER_SIDE = 0.35; // the upcard joins our team (partner deals) or theirs
const NEXT_BONUS = 0.3; // round 2: the turned-down suit's colour-mate
const FORCED_ALONE_NEED = 3.3; // the dealer's partner who may only order up alone

// --- the view -------------------------------------------------------------------------

const isPartner = (view, other) => other !== view.seat && other % 2 === view.seat % 2;
const activeSeats = (view, rules) => rules.seats - view.sitting_out.length;
/** One point wins the game (not in a game of a fixed number of hands): going alone would
 * only add risk. */
function oneFromWinning(view, rules) {
  return !rules.hand_limit && view.scores[view.seat % 2] + 1 >= rules.target_score;
}

/** Ranks of each suit in the deck: 9 to ace, from 8 or from 7 in the larger packs. */
function suitRanks(deckSize) {
  const low = deckSize >= 31 && deckSize !== 50 ? 7 : deckSize >= 28 && deckSize !== 50 ? 8 : 9;
  const ranks = [];
  for (let r = low; r <= Rank.RANK_ACE; r += 1) ranks.push(r);
  return ranks;
}

/** Every trump of the deck, best first (one of each card, even in the double pack). */
function trumpOrder(trump, rules) {
  const left = nextSuit(trump);
  const out = [];
  if (rules.joker) out.push({ rank: Rank.RANK_JOKER });
  out.push({ suit: trump, rank: Rank.RANK_JACK }, { suit: left, rank: Rank.RANK_JACK });
  for (const r of suitRanks(rules.deck_size).reverse()) {
    if (r !== Rank.RANK_JACK) out.push({ suit: trump, rank: r });
  }
  return out;
}

const held = (cards, card) => cards.some((c) => rankOf(c) === rankOf(card)
  && (isJoker(card) || suitOf(c) === suitOf(card)));

// --- hand evaluation --------------------------------------------------------------------

/** Expected tricks of these cards with this trump, the partner not counted. */
function handStrength(cards, trump, rules) {
  let value = 0;
  const trumps = cards.filter((c) => isTrump(c, trump));
  for (const c of trumps) {
    const p = trumpPower(c, trump, false);
    if (p >= 100) value += 1.0;
    else if (p === 90) value += rules.joker ? 0.85 : 1.0;
    else if (p === 80) value += 0.75;
    else if (rankOf(c) === Rank.RANK_ACE) value += 0.6;
    else if (rankOf(c) === Rank.RANK_KING) value += 0.45;
    else value += 0.35;
  }
  const offSuits = new Map();
  for (const c of cards) {
    const s = effectiveSuit(c, trump);
    if (s !== trump) offSuits.set(s, [...(offSuits.get(s) || []), rankOf(c)]);
  }
  for (const ranks of offSuits.values()) {
    if (ranks.includes(Rank.RANK_ACE)) value += ranks.includes(Rank.RANK_KING) ? 1.2 : 0.8;
    else if (ranks.includes(Rank.RANK_KING) && ranks.length >= 2) value += 0.25;
  }
  const voids = 3 - offSuits.size;
  if (trumps.length >= 2 && voids > 0) value += 0.3 * Math.min(voids, trumps.length - 1);
  return value;
}

/** Trump tricks nobody can take from us: down the trump order, each card held wins one
 * and each missing one may capture one; the best running balance. */
function sureTrumpTricks(cards, trump, rules) {
  let best = 0;
  let balance = 0;
  for (const c of trumpOrder(trump, rules)) {
    balance += held(cards, c) ? 1 : -1;
    best = Math.max(best, balance);
  }
  return best;
}

function aloneWorthy(cards, trump, rules) {
  const trumps = cards.filter((c) => isTrump(c, trump)).length;
  const sure = sureTrumpTricks(cards, trump, rules);
  const losers = cards.filter((c) => !isTrump(c, trump) && rankOf(c) !== Rank.RANK_ACE).length;
  return (sure >= 3 && losers <= 1) || (sure >= 2 && trumps >= 4 && losers === 0);
}

/** The card to put down: a singleton that is not an ace (making a void), else the lowest
 * card that is not trump, else the lowest trump. */
function weakestCard(cards, trump) {
  const off = cards.filter((c) => !isTrump(c, trump));
  if (off.length === 0) {
    return cards.reduce((a, b) => (trumpPower(b, trump, false) < trumpPower(a, trump, false) ? b : a));
  }
  const count = (c) => off.filter((o) => effectiveSuit(o, trump) === effectiveSuit(c, trump)).length;
  const singles = off.filter((c) => count(c) === 1 && rankOf(c) !== Rank.RANK_ACE);
  const pool = singles.length ? singles : off;
  return pool.reduce((a, b) => (rankOf(b) < rankOf(a) ? b : a));
}

function afterPickup(hand, upcard, trump) {
  const six = [...hand, upcard];
  const down = weakestCard(six, trump);
  return six.filter((c) => c !== down);
}

// --- choosing among the legal actions ------------------------------------------------

const find = (legal, kind, test = () => true) => legal.find((a) => a.kind === kind && test(a));
const firstOf = (legal, ...options) => options.find((a) => a !== undefined) || legal[0];
const cardAction = (legal, card) => legal.find((a) => a.card && sameCard(a.card, card));

function bidRound1(view, legal, rules) {
  const upcard = view.upcard;
  if (isJoker(upcard)) return nameBestSuit(view, legal, rules, CALL_NEED, [upcard]);
  const trump = suitOf(upcard);
  const plain = find(legal, K.ACTION_KIND_ORDER_UP, (a) => !a.alone);
  const alone = find(legal, K.ACTION_KIND_ORDER_UP, (a) => a.alone);
  const pass = find(legal, K.ACTION_KIND_PASS);
  if (!plain && alone) {
    // The dealer's partner, who may only order up alone: the upcard stays out of play.
    const strong = aloneWorthy(view.hand, trump, rules)
      || handStrength(view.hand, trump, rules) >= FORCED_ALONE_NEED;
    return firstOf(legal, strong ? alone : pass);
  }
  let cards = view.hand;
  let strength;
  if (view.seat === view.dealer) {
    cards = afterPickup(view.hand, upcard, trump);
    strength = handStrength(cards, trump, rules);
  } else {
    const jack = rankOf(upcard) === Rank.RANK_JACK ? DEALER_SIDE : 0;
    const ours = isPartner(view, view.dealer);
    strength = handStrength(cards, trump, rules) + (ours ? DEALER_SIDE + jack : -DEALER_SIDE - jack);
  }
  if (strength < CALL_NEED && pass) return pass;
  const goAlone = alone && !oneFromWinning(view, rules) && aloneWorthy(cards, trump, rules);
  return firstOf(legal, goAlone ? alone : undefined, plain, alone);
}

/** Round 2, or round 1 on a turned joker: name the best suit if it is strong enough (or
 * when the dealer is stuck and may not pass). `extra` are cards the hand will gain. */
function nameBestSuit(view, legal, rules, need, extra = []) {
  const names = legal.filter((a) => a.kind === K.ACTION_KIND_NAME_TRUMP);
  if (names.length === 0) return legal[0];
  const turned = view.upcard_turned_down && !isJoker(view.upcard) ? suitOf(view.upcard) : 0;
  const cards = view.seat === view.dealer ? [...view.hand, ...extra] : view.hand;
  let best;
  let bestValue = -Infinity;
  for (const a of names) {
    let v = handStrength(cards, a.suit, rules);
    if (turned && a.suit === nextSuit(turned)) v += NEXT_BONUS;
    if (v > bestValue) {
      best = a.suit;
      bestValue = v;
    }
  }
  const pass = find(legal, K.ACTION_KIND_PASS);
  if (bestValue < need && pass) return pass;
  const goAlone = !oneFromWinning(view, rules) && aloneWorthy(cards, best, rules);
  return firstOf(
    legal,
    goAlone ? find(legal, K.ACTION_KIND_NAME_TRUMP, (a) => a.suit === best && a.alone) : undefined,
    find(legal, K.ACTION_KIND_NAME_TRUMP, (a) => a.suit === best && !a.alone),
    find(legal, K.ACTION_KIND_NAME_TRUMP, (a) => a.suit === best),
  );
}

/** The alone round: only the making side goes alone, and only with sure trumps. */
function goingAlone(view, legal, rules) {
  const pass = find(legal, K.ACTION_KIND_PASS);
  const alone = find(legal, K.ACTION_KIND_GO_ALONE);
  const makers = view.maker !== undefined && view.maker % 2 === view.seat % 2;
  if (!alone || !makers || oneFromWinning(view, rules)) return firstOf(legal, pass);
  let cards = view.hand;
  if (view.seat === view.dealer && !view.upcard_turned_down && !view.dealer_took_upcard) {
    cards = [...cards, view.upcard];
  }
  while (cards.length > rules.hand_size) {
    const down = weakestCard(cards, view.trump);
    cards = cards.filter((c) => c !== down);
  }
  return firstOf(legal, aloneWorthy(cards, view.trump, rules) ? alone : pass);
}

function putDown(legal, trump) {
  const cards = legal.filter((a) => a.kind === K.ACTION_KIND_DISCARD).map((a) => a.card);
  if (cards.length === 0) return legal[0];
  const weakest = weakestCard(cards, trump);
  // Railroading's blind swap: keep an all-trump hand rather than swap a trump away.
  const pass = find(legal, K.ACTION_KIND_PASS);
  if (pass && isTrump(weakest, trump)) return pass;
  return cardAction(legal, weakest);
}

/** A lone partner gets our strongest card: the best trump, else an ace. */
function giveToLoner(legal, trump) {
  const giving = legal.filter((a) => a.card);
  if (giving.length === 0) return legal[0];
  const strength = (c) => (isTrump(c, trump) ? trumpPower(c, trump, false) : rankOf(c));
  return giving.reduce((a, b) => (strength(b.card) > strength(a.card) ? b : a));
}

// --- card play ----------------------------------------------------------------------

/** What a card costs to throw away: low off cards first (a singleton sooner, to make a
 * void), trumps last. */
function throwCost(card, hand, trump) {
  if (isTrump(card, trump)) return 100 + trumpPower(card, trump, false);
  const suit = effectiveSuit(card, trump);
  const alone = hand.filter((c) => effectiveSuit(c, trump) === suit).length === 1;
  return rankOf(card) - (alone && rankOf(card) !== Rank.RANK_ACE ? 0.5 : 0);
}

const cheapest = (cards, key) => cards.reduce((a, b) => (key(b) < key(a) ? b : a));

function trumpsOutstanding(view, rules) {
  const trump = view.trump;
  const perCard = rules.deck_size === 50 ? 2 : 1;
  const total = trumpOrder(trump, rules).length * perCard;
  const played = [...view.tricks, view.current_trick].filter(Boolean)
    .flatMap((t) => t.plays).filter((p) => isTrump(p.card, trump)).length;
  const mine = view.hand.filter((c) => isTrump(c, trump)).length;
  return total - played - mine;
}

function lead(view, rules, cards) {
  const trump = view.trump;
  const trumps = cards.filter((c) => isTrump(c, trump));
  const off = cards.filter((c) => !isTrump(c, trump));
  const makers = view.maker !== undefined && view.maker % 2 === view.seat % 2;
  const best = (list) => list.reduce((a, b) => (trumpPower(b, trump, rules.coloured_jokers)
    > trumpPower(a, trump, rules.coloured_jokers) ? b : a));
  if (makers && trumps.length >= 2 && trumpsOutstanding(view, rules) > 0) return best(trumps);
  const aces = off.filter((c) => rankOf(c) === Rank.RANK_ACE);
  if (aces.length) return aces[0];
  if (off.length) return cheapest(off, (c) => throwCost(c, view.hand, trump));
  return best(trumps);
}

function follow(view, rules, cards) {
  const trump = view.trump;
  const colouredJokers = Boolean(rules.coloured_jokers);
  const plays = view.current_trick.plays;
  const trick = plays.map((p) => p.card);
  const winner = plays[winningIndex(trick, trump, colouredJokers)];
  const led = effectiveSuit(trick[0], trump);
  const last = plays.length === activeSeats(view, rules) - 1;
  const throwAway = () => cheapest(cards, (c) => throwCost(c, view.hand, trump));
  // Leave the partner's trick alone: it wins, or beating it is worth little.
  if (isPartner(view, winner.seat)) return throwAway();
  const best = trickPower(winner.card, trump, led, colouredJokers);
  // Played later, an equal card (the double pack's other copy) wins too.
  const winners = cards.filter((c) => trickPower(c, trump, led, colouredJokers) >= best);
  if (winners.length) {
    const cheap = cheapest(winners, (c) => trickPower(c, trump, led, colouredJokers));
    // Not last to play, a low card of the led suit will probably be beaten: win high.
    if (!last && !isTrump(cheap, trump) && rankOf(cheap) < Rank.RANK_KING) {
      return cheapest(winners, (c) => -trickPower(c, trump, led, colouredJokers));
    }
    return cheap;
  }
  return throwAway();
}

function playCard(view, legal, rules) {
  const plays = legal.filter((a) => a.kind === K.ACTION_KIND_PLAY);
  if (plays.length <= 1 || !view.trump) return legal[0];
  const cards = plays.map((a) => a.card);
  const started = view.current_trick && view.current_trick.plays.length > 0;
  const card = started ? follow(view, rules, cards) : lead(view, rules, cards);
  return cardAction(legal, card) || legal[0];
}

// --- the decision --------------------------------------------------------------------

/** One of `legal` (the request's own objects, to be sent back as they are). */
function choose(view, legal, rules) {
  if (legal.length === 1) return legal[0];
  switch (view.phase) {
    case Phase.PHASE_BID_ROUND_1:
      return bidRound1(view, legal, rules);
    case Phase.PHASE_BID_ROUND_2:
      return nameBestSuit(view, legal, rules, ROUND2_NEED);
    case Phase.PHASE_DEALER_NAMES_TRUMP:
      // The joker is turned up and the dealer has not looked: no suit is better.
      return nameBestSuit(view, legal, rules, -Infinity);
    case Phase.PHASE_GOING_ALONE:
      return goingAlone(view, legal, rules);
    case Phase.PHASE_DEALER_PICKUP:
      // The upcard's suit is trump either way: taking it adds a trump for a weak card.
      return firstOf(legal, find(legal, K.ACTION_KIND_ORDER_UP));
    case Phase.PHASE_DEALER_DISCARD:
    case Phase.PHASE_LONER_DISCARDS:
    case Phase.PHASE_LONER_EXCHANGES:
      return putDown(legal, view.trump);
    case Phase.PHASE_LONER_ASKS:
      return firstOf(legal, find(legal, K.ACTION_KIND_ASK));
    case Phase.PHASE_PARTNER_GIVES:
      return giveToLoner(legal, view.trump);
    case Phase.PHASE_PLAY:
      return playCard(view, legal, rules);
    default:
      return legal[0];
  }
}

module.exports = { choose, handStrength, weakestCard };
