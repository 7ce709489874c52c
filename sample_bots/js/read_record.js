'use strict';
// Reads game records from another language: a `.pb` file holds one euchre.v1.GameRecord
// (proto/euchre/v1/record.proto), serialized, with no framing around it; a ladder
// database holds the same bytes in the `record` column of its `games` table.
//
//   node read_record.js runs/match-.../games/GAME.pb...   # one line of JSON per record

const fs = require('node:fs');
const path = require('node:path');
const protobuf = require('protobufjs');
const { PROTO_DIR } = require('./protocol');

const root = new protobuf.Root();
// The proto files import each other as "euchre/v1/types.proto": resolve from proto/.
root.resolvePath = (origin, target) => path.join(PROTO_DIR, target);
root.loadSync('euchre/v1/record.proto', { keepCase: true });
const GameRecord = root.lookupType('euchre.v1.GameRecord');

function summary(file) {
  const message = GameRecord.decode(fs.readFileSync(file));
  // seed is a uint64: as a string, which keeps every digit.
  const record = GameRecord.toObject(message, { defaults: true, longs: String, enums: String });
  // Protobuf reads almost any bytes as some message: the schema version tells a record.
  if (record.schema_version !== 1) throw new Error(`schema_version ${record.schema_version}, not 1`);
  return {
    game_id: record.game_id,
    seed: record.seed,
    bots: record.seats.map((s) => s.name),
    hands: record.hands.length,
    final_scores: record.final_scores,
    winning_team: record.winning_team,
    end: record.end,
    faults: record.faults.length,
  };
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node read_record.js RECORD.pb...');
  process.exit(2);
}
for (const file of files) {
  try {
    console.log(JSON.stringify(summary(file)));
  } catch (err) {
    console.error(`${file}: not a game record: ${err.message}`);
    process.exit(1);
  }
}
