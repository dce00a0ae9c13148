// Set the house way of every hand in a file with pokersolver (bench/peer_compare.py writes it).
// One hand a line, seven cards in pokersolver's notation ("Ad Th Or ..."; "Or" is the joker).
// Prints one JSON line: hands, the first pass (a fresh process, as "cold" as it gets:
// pokersolver keeps no cache, but V8 compiles on the way) and a second pass over the same hands.
"use strict";
const fs = require("fs");
const { PaiGowPokerHelper } = require("pokersolver");

const hands = fs.readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean).map((l) => l.split(" "));
function pass() {
  const start = process.hrtime.bigint();
  let sink = 0;
  for (const hand of hands) {
    sink += PaiGowPokerHelper.solve(hand).loHand.cards.length;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (sink !== hands.length * 2) throw new Error("a front hand is not two cards");
  return seconds;
}
const first = pass();
const second = pass();
console.log(JSON.stringify({
  engine: "pokersolver " + require("pokersolver/package.json").version,
  hands: hands.length,
  first_seconds: first, first_hands_per_second: Math.round(hands.length / first),
  second_seconds: second, second_hands_per_second: Math.round(hands.length / second),
  node: process.version,
}));
