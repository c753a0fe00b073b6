import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseId } from '#common/cell.js';
import { NO_CLEAR_WINNER } from '#common/judge.js';
import { protocolEffects, protocolParagraphs, relation } from '../protocols.js';
import { indexRows } from '../formats.js';

/** A decision as answers.js gives it, for 1,000 Books at 10 Mbit/s over `protocol`. */
function decision(protocol, recommendation, among = [], settled = true) {
  const cell = { object: 'books', count: 1000, format: 'json', compression: 'none', scenario: 1, cm: 0 };
  const fastest = { ...cell, network: '10mbit', protocol };
  return {
    cell: fastest,
    decision: {
      group_id: `formats/books/1000/10mbit/${protocol}`,
      object: 'books',
      count: 1000,
      network: '10mbit',
      cm: 0,
      protocol,
      fastest: recommendation === NO_CLEAR_WINNER ? among[0] : recommendation,
      fastest_case_id: caseId(fastest),
      median_ms: 100,
      recommendation,
      no_clear_winner_among: among,
      settled,
    },
  };
}

const effectsOf = (...made) =>
  protocolEffects(
    made.map((m) => m.decision),
    made.map((m) => ({ case_id: caseId(m.cell), cell: m.cell })),
  );

test('two decisions relate as the same, overlapping or a different choice', () => {
  const d = (recommendation, among = []) => ({ recommendation, no_clear_winner_among: among });
  assert.equal(relation(d('JSON, GZIP'), d('JSON, GZIP')), 'same');
  assert.equal(relation(d('JSON, GZIP'), d('Protobuf, Brotli')), 'changes');
  assert.equal(relation(d('JSON, GZIP'), d(NO_CLEAR_WINNER, ['Protobuf, GZIP', 'JSON, GZIP'])), 'differs');
  assert.equal(relation(d(NO_CLEAR_WINNER, ['A', 'B']), d(NO_CLEAR_WINNER, ['B', 'A'])), 'same');
  assert.equal(relation(d(NO_CLEAR_WINNER, ['A', 'B']), d(NO_CLEAR_WINNER, ['C'])), 'changes');
});

test('a situation over several protocols is read against cleartext HTTP/1.1', () => {
  const effects = effectsOf(
    decision('h2', 'Protobuf, Brotli'),
    decision('http1.1', 'JSON, GZIP'),
    decision('http1.1-tls', NO_CLEAR_WINNER, ['JSON, GZIP', 'Protobuf, GZIP'], false),
  );
  assert.equal(effects.length, 1);
  const [effect] = effects;
  assert.equal(effect.against, 'http1.1');
  assert.deepStrictEqual(
    effect.by_protocol.map((p) => p.protocol),
    ['http1.1', 'http1.1-tls', 'h2'],
  );
  assert.deepStrictEqual(effect.relations, [
    { protocol: 'http1.1-tls', relation: 'differs' },
    { protocol: 'h2', relation: 'changes' },
  ]);
  assert.equal(effect.changes, true);
  const made = [
    decision('h2', 'Protobuf, Brotli'),
    decision('http1.1', 'JSON, GZIP'),
    decision('http1.1-tls', NO_CLEAR_WINNER, ['JSON, GZIP', 'Protobuf, GZIP'], false),
  ];
  const [head, sentence] = protocolParagraphs(
    made.map((m) => m.decision),
    made.map((m) => ({ case_id: caseId(m.cell), cell: m.cell })),
  );
  assert.match(head, /^The protocol changed the recommendation in 1 of 1 situations/);
  assert.match(sentence, /^1,000 Books at 10 Mbit\/s: cleartext HTTP\/1\.1: JSON, GZIP/);
  assert.match(sentence, /HTTP\/2 with TLS gives a different choice from cleartext HTTP\/1\.1/);
  assert.match(sentence, /HTTP\/1\.1 with TLS gives an overlapping choice with cleartext HTTP\/1\.1/);
  assert.match(sentence, /some can't tell yet/);
});

test('HTTP/3 is a fourth protocol: read against cleartext HTTP/1.1, named in words', () => {
  const made = [
    decision('h3', 'JSON, Brotli'),
    decision('h2', 'JSON, GZIP'),
    decision('http1.1', 'JSON, GZIP'),
    decision('http1.1-tls', 'JSON, GZIP'),
  ];
  const effects = effectsOf(...made);
  assert.equal(effects.length, 1);
  assert.deepStrictEqual(
    effects[0].by_protocol.map((p) => p.protocol),
    ['http1.1', 'http1.1-tls', 'h2', 'h3'],
  );
  assert.deepStrictEqual(effects[0].relations, [
    { protocol: 'http1.1-tls', relation: 'same' },
    { protocol: 'h2', relation: 'same' },
    { protocol: 'h3', relation: 'changes' },
  ]);
  const [head, sentence] = protocolParagraphs(
    made.map((m) => m.decision),
    made.map((m) => ({ case_id: caseId(m.cell), cell: m.cell })),
  );
  assert.match(head, /^The protocol changed the recommendation in 1 of 1 situations/);
  assert.match(sentence, /HTTP\/3 \(QUIC\): JSON, Brotli/);
  assert.match(sentence, /HTTP\/3 \(QUIC\) gives a different choice from cleartext HTTP\/1\.1/);
});

test('a run over one protocol says nothing about protocols', () => {
  const one = decision('http1.1', 'JSON, GZIP');
  assert.deepStrictEqual(effectsOf(one), []);
  assert.deepStrictEqual(protocolParagraphs([one.decision], [{ case_id: caseId(one.cell), cell: one.cell }]), []);
});

test('where every protocol agrees, the paragraph counts it and names no situation', () => {
  const made = ['http1.1', 'h2'].map((p) => decision(p, 'JSON, GZIP'));
  const paragraphs = protocolParagraphs(
    made.map((m) => m.decision),
    made.map((m) => ({ case_id: caseId(m.cell), cell: m.cell })),
  );
  assert.equal(paragraphs.length, 1);
  assert.match(paragraphs[0], /changed the recommendation in 0 of 1 situations .* in 0\./);
});

test("the weighted index ranks each protocol's situation apart, cleartext HTTP/1.1 keeping its key", () => {
  const cell = (protocol) => ({
    cell: {
      object: 'books',
      count: 10,
      format: 'json',
      compression: 'none',
      scenario: 1,
      cm: 0,
      network: 'lte',
      protocol,
    },
    samples: [],
  });
  assert.deepStrictEqual(
    indexRows([cell('http1.1'), cell('http1.1-tls'), cell('h2'), cell('h3'), cell(undefined)]).map((r) => r.situation),
    ['books/10/lte', 'books/10/lte/http1.1-tls', 'books/10/lte/h2', 'books/10/lte/h3', 'books/10/lte'],
  );
});
