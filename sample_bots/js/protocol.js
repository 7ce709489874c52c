'use strict';
// The protocol, read from the .proto files when the bot starts: no generated code to keep
// in step with proto/. keepCase keeps the field names as the proto spells them
// (legal_actions, not legalActions); the include path is the folder holding `euchre/`,
// because the files import each other as "euchre/v1/types.proto".

const path = require('node:path');

function requireInstalled(name) {
  try {
    return require(name);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND') throw err;
    console.error(`${name} is not installed: run \`npm ci\` in ${__dirname}`);
    return process.exit(1);
  }
}

const grpc = requireInstalled('@grpc/grpc-js');
const protoLoader = requireInstalled('@grpc/proto-loader');

// The repository's proto/ folder; a bot kept elsewhere copies proto/ and sets this.
const PROTO_DIR = process.env.EUCHRE_PROTO_DIR || path.join(__dirname, '..', '..', 'proto');

const definition = protoLoader.loadSync('euchre/v1/bot.proto', {
  includeDirs: [PROTO_DIR],
  keepCase: true,
  // Fields at their default value (seat 0, an empty list) are there, as in other
  // languages' generated code; a message field that is not set is null, and an optional
  // field (`optional uint32 maker`) is absent until set, so `view.maker !== undefined`
  // tells "no maker yet" from seat 0. An action copied back encodes as it came.
  defaults: true,
  oneofs: true,
});

/** An enum of the proto as an object of names to numbers, e.g. Phase.PHASE_PLAY === 6. */
function enumValues(name) {
  const found = definition[`euchre.v1.${name}`];
  if (!found || !found.type || !Array.isArray(found.type.value)) {
    throw new Error(`no enum euchre.v1.${name} in ${PROTO_DIR}`);
  }
  return Object.freeze(Object.fromEntries(found.type.value.map((v) => [v.name, v.number])));
}

const euchre = grpc.loadPackageDefinition(definition).euchre.v1;

module.exports = {
  PROTO_DIR,
  grpc,
  service: euchre.EuchreBotService.service,
  ActionKind: enumValues('ActionKind'),
  Feature: enumValues('Feature'),
  Phase: enumValues('Phase'),
  Rank: enumValues('Rank'),
  Suit: enumValues('Suit'),
};
