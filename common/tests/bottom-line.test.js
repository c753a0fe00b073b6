import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choiceRow, choiceWords, robustChoice, standingWords } from '../bottom-line.js';
import { WORDS, ratioText } from '../answer-words.js';

// Three situations as situationRatios gives them: each configuration's ratio to the fastest.
const situation = (words, ratios, open = []) => ({ id: words, words, network: 'unthrottled', ratios, open });
const situations = [
  situation('10 Books', { JSON: 1.02, Protobuf: 1 }),
  situation('100 Books', { JSON: 1.03, Protobuf: 1 }),
  situation('1,000 Books', { JSON: 1, Protobuf: 1.21 }, ['Protobuf']),
];

test('the choice is the smallest worst slowdown, and the one first most often is told why not', () => {
  const choice = robustChoice(situations);
  assert.equal(choice.configuration, 'JSON');
  assert.equal(choice.worst_ratio, 1.03);
  assert.equal(choice.worst_situation, '100 Books');
  assert.equal(choice.worst_word, WORDS.AS_FAST);
  assert.equal(choice.slower_in, 0);
  const { configuration, fastest_in: fastestIn, worst_ratio: worst, worst_word: word } = choice.most_fastest;
  assert.deepEqual([configuration, fastestIn, worst, word], ['Protobuf', 2, 1.21, WORDS.OPEN]);
  const row = choiceRow(choice);
  assert.equal(row.answer, 'JSON');
  // An open worst is never worded as certain: "looked", "not yet certain".
  assert.equal(
    row.text,
    'JSON: never certainly over 5 % slower than the fastest (3 situations); its worst, 100 Books: as fast (1.03×). ' +
      'Protobuf: the lowest time in 2 of 3, but looked 1.21× slower in 1,000 Books (not yet certain).',
  );
});

test('a next best within δ is named beside the choice, each with its own worst in the four words', () => {
  const close = [
    situation('10 Books', { JSON: 1.04, Protobuf: 1, XML: 1.5 }, ['JSON']),
    situation('1,000 Books', { JSON: 1, Protobuf: 1.048, XML: 2.5 }),
  ];
  const row = choiceRow(robustChoice(close));
  assert.equal(row.answer, 'JSON or Protobuf');
  assert.equal(
    row.text,
    "JSON: never certainly over 5 % slower than the fastest (2 situations); its worst, 10 Books: can't tell yet, " +
      'looked as fast (1.04×). Protobuf: never certainly over 5 % slower than the fastest (2 situations); its worst, ' +
      '1,000 Books: as fast (1.048×).',
  );
  assert.doesNotMatch(row.text, /the lowest time in/);
});

test('the same worst in the same situation is said once, of each', () => {
  const same = [
    situation('10 Books', { JSON: 1.04, Protobuf: 1.041, XML: 1 }),
    situation('1,000 Books', { JSON: 1, Protobuf: 1, XML: 1.5 }),
  ];
  const row = choiceRow(robustChoice(same));
  assert.equal(row.answer, 'JSON or Protobuf');
  assert.equal(
    row.text,
    'JSON and Protobuf, each: never certainly over 5 % slower than the fastest (2 situations); its worst, 10 Books: ' +
      'as fast (1.04×).',
  );
});

test('where the situations carry times, the choice lost the fewest ms in its worst one, said first', () => {
  const timed = [
    { ...situation('10 Books', { JSON: 1, Protobuf: 1.2 }), extra: { JSON: 0, Protobuf: 1.5 } },
    { ...situation('1,000 Books', { JSON: 1.3, Protobuf: 1 }), extra: { JSON: 71, Protobuf: 0 } },
  ];
  const choice = robustChoice(timed);
  assert.equal(choice.configuration, 'Protobuf');
  assert.equal(choice.most_lost_ms, 1.5);
  assert.equal(
    choiceRow(choice).text,
    'Protobuf: +1.50 ms behind the fastest at worst as measured, in 10 Books (1.20×, certainly slower); ' +
      'certainly slower ' +
      'than the fastest in 1 of 2 situations.',
  );
  // A smaller worst ratio that cost more time does not win: the regret is in milliseconds, and
  // the worst ratio, where elsewhere, is said beside it.
  const trade = [
    { ...situation('1,000 Books', { A: 1.04, B: 1 }), extra: { A: 10, B: 0 } },
    { ...situation('10 Books', { A: 1, B: 1.2 }), extra: { A: 0, B: 2.7 } },
  ];
  const row = choiceRow(robustChoice(trade));
  assert.equal(row.answer, 'B');
  assert.equal(
    row.text,
    'B: +2.70 ms behind the fastest at worst as measured, in 10 Books (1.20×, certainly slower); ' +
      'certainly slower than the ' +
      'fastest in 1 of 2 situations.',
  );
  // Where it lost the most time at a smaller ratio than its worst, both are said.
  const bigger = [
    { ...situation('10 Books', { JSON: 1, Protobuf: 1.2 }), extra: { JSON: 0, Protobuf: 1.5 } },
    { ...situation('1,000 Books', { JSON: 1.3, Protobuf: 1.03 }), extra: { JSON: 71, Protobuf: 20 } },
  ];
  assert.match(
    choiceRow(robustChoice(bigger)).text,
    /^Protobuf: \+20\.0 ms behind the fastest at worst as measured, in 1,000 Books \(1\.03×, as fast, certain\); .*; its worst ratio 1\.20×, in 10 Books\. JSON: the lowest time in 1 of 2, but \+71\.0 ms behind in 1,000 Books\.$/,
  );
  // How far an open figure could reach, in milliseconds: the fastest's time × (its bound − 1).
  const open = [
    {
      ...situation('1,000 Books', { A: 1.04, B: 1 }, ['A']),
      extra: { A: 10, B: 0 },
      time_ms: 250,
      ci_high: { A: 1.1 },
    },
    { ...situation('10 Books', { A: 1, B: 1.5 }), extra: { A: 0, B: 20 } },
  ];
  const reached = robustChoice(open);
  assert.equal(reached.configuration, 'A');
  assert.ok(Math.abs(reached.bound_ms - 25) < 1e-9);
  assert.match(
    choiceRow(reached).text,
    /^A: \+10\.0 ms behind the fastest at worst as measured, in 1,000 Books \(1\.04×, not yet certain; its 95 % range reaches \+25\.0 ms\)/,
  );
});

test('a network not known is chosen over the data and N measured on every network', async () => {
  const { onEveryNetwork } = await import('../bottom-line.js');
  const at = (network, count, extra) => ({
    ...situation(`${count} Books ${network}`, { JSON: 1, Protobuf: 1 }),
    network,
    object: 'books',
    count,
    cm: 0,
    extra,
  });
  const all = [
    at('unthrottled', 10, { JSON: 0, Protobuf: 1 }),
    at('10mbit', 10, { JSON: 3, Protobuf: 0 }),
    at('unthrottled', 100000, { JSON: 0, Protobuf: 900 }),
  ];
  const common = onEveryNetwork(all, ['unthrottled', '10mbit']);
  assert.deepStrictEqual(
    common.map((s) => s.words),
    ['10 Books unthrottled', '10 Books 10mbit'],
  );
  // Over both: Protobuf lost at most 1 ms there; over all, N = 100,000 on one network alone decides.
  assert.equal(robustChoice(common).configuration, 'Protobuf');
  assert.equal(robustChoice(all).configuration, 'JSON');
});

test('the stored words decide: a ratio within δ that was not yet certain is never "as fast"', () => {
  const stored = [
    {
      ...situation('10 Books', { JSON: 1.03, Protobuf: 1 }),
      verdicts: { JSON: WORDS.OPEN, Protobuf: WORDS.FASTEST },
      ci_high: { JSON: 1.61 },
    },
    {
      ...situation('1,000 Books', { JSON: 1, Protobuf: 1.3 }),
      verdicts: { JSON: WORDS.FASTEST, Protobuf: WORDS.SLOWER },
    },
  ];
  const choice = robustChoice(stored);
  assert.equal(choice.worst_word, WORDS.OPEN);
  // How far it could reach is said, so that a wide margin does not read as a small one.
  assert.match(
    choiceRow(choice).text,
    /its worst, 10 Books: can't tell yet, looked as fast \(1\.03×; its 95 % range reaches 1\.61×\)\./,
  );
});

test('standing words: the four words with the ratio, in one unit', () => {
  assert.equal(standingWords(1, WORDS.FASTEST), 'the fastest');
  assert.equal(standingWords(1.04, WORDS.AS_FAST, 0.05, { cost: '+1.00 ms' }), 'as fast (1.04×, +1.00 ms)');
  assert.equal(standingWords(1.83, WORDS.SLOWER, 0.05, { cost: '+38.3 ms' }), '1.83× slower (+38.3 ms)');
  assert.equal(
    standingWords(1.2, WORDS.OPEN, 0.05, { cost: '+2.00 ms', ciHigh: 1.5 }),
    "can't tell yet, looked 1.20× slower (+2.00 ms; its 95 % range reaches 1.50×)",
  );
  assert.doesNotMatch(standingWords(1.3, WORDS.SLOWER), /%/);
});

test('"its 95 % range reaches" is the furthest bound of any open situation, where it is not the worst', () => {
  const bounded = (words, ratios, open, ciHigh) => ({ ...situation(words, ratios, open), ci_high: ciHigh });
  const reach = [
    bounded('10 Books', { JSON: 1.03, Protobuf: 1 }, ['JSON'], { JSON: 1.12 }),
    bounded('1,000 Books', { JSON: 1.04, Protobuf: 1 }, ['JSON'], { JSON: 1.06 }),
    bounded('10 Videos', { JSON: 1, Protobuf: 1.3 }, [], { Protobuf: 1.35 }),
  ];
  const choice = robustChoice(reach);
  assert.equal(choice.configuration, 'JSON');
  assert.deepEqual([choice.reach_ci_high, choice.reach_situation], [1.12, '10 Books']);
  // Said instead of the worst's own bound (1.06×), which reaches less far.
  assert.match(
    choiceRow(choice, undefined, 0.05, { why: false }).text,
    /its worst, 1,000 Books: can't tell yet, looked as fast \(1\.04×\); its 95 % range reaches 1\.12× in 10 Books\.$/,
  );
  // Where the worst's own bound is the furthest, it alone is said.
  reach[0].ci_high.JSON = 1.05;
  assert.match(
    choiceRow(robustChoice(reach), undefined, 0.05, { why: false }).text,
    /looked as fast \(1\.04×; its 95 % range reaches 1\.06×\)\.$/,
  );
});

test('a ratio on a line is given with the decimals that tell which side of it lies', () => {
  assert.equal(ratioText(1.234), '1.23');
  assert.equal(ratioText(1.046), '1.046');
  // Inside the line three decimals at most, 1.050 on it being within 5 % either way; outside
  // it as many as tell it from the line, so that no ratio judged slower reads as on it.
  assert.equal(ratioText(1.0496), '1.050');
  assert.equal(ratioText(242.805 / 231.2475), '1.050');
  assert.equal(ratioText(1.05002), '1.05002');
  assert.equal(ratioText(1.0512), '1.051');
  assert.equal(ratioText(1.05), '1.050');
  assert.equal(ratioText(0.9496), '0.9496');
  assert.equal(ratioText(0.9504), '0.950');
  assert.equal(ratioText(0.9999), '0.9999');
});

test('the robust choice in a few words: the most time it lost, or its worst ratio where no times', () => {
  const timed = [
    { ...situation('10 Books', { JSON: 1, Protobuf: 1.2 }), extra: { JSON: 0, Protobuf: 1.5 } },
    { ...situation('1,000 Books', { JSON: 1.3, Protobuf: 1.03 }), extra: { JSON: 71, Protobuf: 20 } },
  ];
  assert.equal(
    choiceWords(robustChoice(timed)),
    'Protobuf (never more than +20.0 ms behind the fastest, in 1,000 Books)',
  );
  assert.equal(choiceWords(robustChoice(situations)), 'JSON (at worst as fast (1.03×) in 100 Books)');
});
