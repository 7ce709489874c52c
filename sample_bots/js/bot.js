'use strict';
// A Euchre Arena bot in JavaScript, built from proto/ alone: a gRPC server of
// EuchreBotService (proto/euchre/v1/bot.proto) at the address the arena gives in
// EUCHRE_BOT_ADDRESS, "unix:/path/bot.sock" or "127.0.0.1:PORT", which grpc-js takes as
// it is. The decisions are strategy.js's; this file only serves them.
//
//   npm ci                      # once, in this folder: @grpc/grpc-js, @grpc/proto-loader
//   arena check-bot js          # from the repository, with the arena installed

const { Feature, grpc, service } = require('./protocol');
const { choose } = require('./strategy');

const NAME = 'js';
const VERSION = '1.0';
const PROTOCOL_VERSION = 1;
// What this bot understands beyond the protocol's first revision (bot.proto, Feature):
// strategy.js handles six seats, seven cards, the double pack's copies, the dealer's
// decline, a turned joker bid on, Cornwall's ask and railroading. A table that needs a
// feature left out of this list is never offered to the bot.
const FEATURES = [
  'FEATURE_SIX_SEATS', 'FEATURE_SEVEN_CARD_HANDS', 'FEATURE_DOUBLE_PACK',
  'FEATURE_DEALER_DECLINE', 'FEATURE_TURNED_JOKER_BID', 'FEATURE_CORNWALL_ASK',
  'FEATURE_RAILROADING',
].map((name) => Feature[name]);

// Every game of this process has the rules of its Hello (bot.proto, HelloRequest).
let rules = null;

const handlers = {
  Hello(call, callback) {
    rules = call.request.rules;
    const known = call.request.protocol_version === PROTOCOL_VERSION;
    callback(null, {
      name: NAME,
      version: VERSION,
      author: 'Euchre Arena',
      protocol_version: PROTOCOL_VERSION,
      refuse_rules: !known,
      refusal_reason: known ? '' : `speaks protocol ${PROTOCOL_VERSION} only`,
      features: FEATURES,
    });
  },
  StartGame(call, callback) {
    callback(null, {});
  },
  Decide(call, callback) {
    const { view, legal_actions: legal } = call.request;
    try {
      callback(null, { action: choose(view, legal, rules) });
    } catch (err) {
      // A bug of ours: the arena rules it a bot error; the stack goes to the bot's log.
      console.error(`decision ${call.request.decision_number} of ${call.request.game_id}:`, err);
      callback({ code: grpc.status.INTERNAL, details: String(err && err.message) });
    }
  },
  EndGame(call, callback) {
    callback(null, {});
  },
};

function main() {
  const address = process.env.EUCHRE_BOT_ADDRESS;
  if (!address) {
    console.error('EUCHRE_BOT_ADDRESS is not set: the arena starts this bot and sets it');
    process.exit(2);
  }
  const server = new grpc.Server();
  server.addService(service, handlers);
  server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) {
      console.error(`cannot listen on ${address}: ${err.message}`);
      process.exit(1);
    }
    console.error(`${NAME} ${VERSION} listening on ${address}`);
  });
  // The arena stops a bot with SIGTERM and kills it 2 s later: stop at once.
  for (const signal of ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => {
      server.forceShutdown();
      process.exit(0);
    });
  }
}

main();
