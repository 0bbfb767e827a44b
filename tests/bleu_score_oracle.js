// npm bleu-score's bleu() (tests/oracles/bleu_score/bleu.js, unmodified) as a line server for
// tests/test_npm_bleu_score.py: each input line is a JSON array [reference, candidate, maxN],
// each output line {"bits": the score's 64 bits in hex} or {"error": name, "message": text}.
"use strict";
const path = require("path");
const readline = require("readline");
const { bleu } = require(path.join(__dirname, "oracles", "bleu_score", "bleu.js"));

const buffer = Buffer.alloc(8);
const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const [reference, candidate, maxN] = JSON.parse(line);
  let answer;
  try {
    buffer.writeDoubleBE(bleu(reference, candidate, maxN));
    answer = { bits: buffer.toString("hex") };
  } catch (error) {
    answer = { error: error.name, message: error.message };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
});
