import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choiceRow, robustChoice } from '../bottom-line.js';

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
  assert.deepEqual(choice.most_fastest, {
    configuration: 'Protobuf',
    fastest_in: 2,
    worst_ratio: 1.21,
    worst_situation: '1,000 Books',
  });
  const row = choiceRow(choice);
  assert.equal(row.answer, 'JSON');
  assert.equal(
    row.text,
    'at worst as fast (3 % slower), in 100 Books. ' +
      'Protobuf: the lowest time in 2 of 3, but 21 % slower in 1,000 Books.',
  );
});

test('a next best within δ is named beside the choice, each with its own worst, and not told twice', () => {
  const close = [
    situation('10 Books', { JSON: 1.04, Protobuf: 1, XML: 1.5 }, ['JSON']),
    situation('1,000 Books', { JSON: 1, Protobuf: 1.048, XML: 2.5 }),
  ];
  const row = choiceRow(robustChoice(close));
  assert.equal(row.answer, 'JSON or Protobuf');
  assert.equal(
    row.text,
    'JSON: at worst as fast (4 % slower), in 10 Books; Protobuf: as fast (4.8 % slower), in 1,000 Books; ' +
      'not yet certain.',
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
  assert.equal(row.text, 'each at worst as fast (4 % slower), in 10 Books.');
});

test('the worst case is said in milliseconds too, where the situations carry them', () => {
  const timed = [
    { ...situation('10 Books', { JSON: 1, Protobuf: 1.2 }), extra: { JSON: 0, Protobuf: 1.5 } },
    { ...situation('1,000 Books', { JSON: 1.3, Protobuf: 1 }), extra: { JSON: 71, Protobuf: 0 } },
  ];
  const choice = robustChoice(timed);
  assert.equal(choice.configuration, 'Protobuf');
  assert.equal(choice.worst_extra_ms, 1.5);
  assert.match(choiceRow(choice).text, /^at worst 20 % slower than the fastest \(\+1\.50 ms there\), in 10 Books\./);
  // Where a smaller ratio cost more time elsewhere, that is said too.
  const bigger = [
    { ...situation('10 Books', { JSON: 1, Protobuf: 1.2 }), extra: { JSON: 0, Protobuf: 1.5 } },
    { ...situation('1,000 Books', { JSON: 1.3, Protobuf: 1.1 }), extra: { JSON: 71, Protobuf: 20 } },
  ];
  assert.match(
    choiceRow(robustChoice(bigger)).text,
    /^at worst 20 % slower than the fastest \(\+1\.50 ms there\), in 10 Books; the most time it lost: \+20\.0 ms, in 1,000 Books\./,
  );
});

test('the one that lost the fewest milliseconds is named after the choice, where the choice lost more', () => {
  const trade = [
    { ...situation('1,000 Books', { A: 1.04, B: 1 }), extra: { A: 10, B: 0 } },
    { ...situation('1,000 Videos', { A: 1, B: 1.06 }), extra: { A: 0, B: 2.7 } },
  ];
  const row = choiceRow(robustChoice(trade));
  assert.equal(row.answer, 'A');
  assert.equal(
    row.text,
    'at worst as fast (4 % slower, +10.0 ms there), in 1,000 Books. Fewest milliseconds lost: B, ' +
      'never more than +2.70 ms behind the fastest (in 1,000 Videos), at worst 6 % slower.',
  );
  // Far behind by its worst ratio, it is still named: milliseconds are another reader's measure.
  const far = [trade[0], { ...trade[1], ratios: { A: 1, B: 1.2 } }];
  assert.match(choiceRow(robustChoice(far)).text, /Fewest milliseconds lost: B, .* at worst 20 % slower\.$/);
  // Where the choice itself lost the fewest, nothing more is said.
  const more = trade.map((s) => ({ ...s, extra: { A: s.extra.A, B: s.extra.B * 10 } }));
  assert.doesNotMatch(choiceRow(robustChoice(more)).text, /Fewest/);
});
