// One definition of a cell (common/cell.js): ids, validation, plan expansion, CSV columns, group
// ids and comparison pairs all come from its table of dimensions.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CELL_COLUMNS,
  DIMENSIONS,
  caseId,
  cellModel,
  groupComparisons,
  groupId,
  situationKey,
  validateCell,
} from '#common/cell.js';
import { toCsv } from '#common/csv.js';

const book = (more) => ({ object: 'books', count: 10, scenario: 1, cm: 0, ...more });

test('case ids: defaults left out, a decoder joins its format with +, a level its compression with -', () => {
  assert.equal(
    caseId({ object: 'books', count: 10000, format: 'protobuf', compression: 'gzip', scenario: 2, cm: 3 }),
    'books/10000/protobuf/gzip/scenario2/cm3',
  );
  assert.equal(
    caseId(book({ format: 'xml', decoder: 'sax', network: '10mbit' })),
    'books/10/xml+sax/none/scenario1/cm0/10mbit',
  );
  assert.equal(caseId(book({ compression: 'br', level: 11 })), 'books/10/json/br-11/scenario1/cm0');
  assert.equal(caseId(book({ compression: 'br', level: 6 })), 'books/10/json/br/scenario1/cm0', 'the default level');
});

test('group ids: the family and every dimension the family does not vary', () => {
  assert.equal(groupId(book({ format: 'xml', network: '10mbit', count: 1000 })), 'formats/books/1000/10mbit');
  assert.equal(groupId(book({ scenario: 3, cm: 3, network: '10mbit' })), 'side/books/10/10mbit/cm3');
  assert.equal(
    groupId(book({ scenario: 4, cm: 2, network: 'unthrottled', compression: 'br', level: 11 })),
    'caching/books/10/unthrottled/cm2/json/br-11',
  );
  assert.equal(situationKey(book({ scenario: 3, cm: 3, network: '10mbit' })), 'books/10/3/10mbit');
});

test('the protocol: a situation, left out of ids at its default (cleartext HTTP/1.1)', () => {
  const h2 = book({ network: '10mbit', protocol: 'h2' });
  assert.equal(caseId(h2), 'books/10/json/none/scenario1/cm0/10mbit/h2');
  assert.equal(groupId(h2), 'formats/books/10/10mbit/h2');
  assert.equal(groupId(book({ network: '10mbit', protocol: 'http1.1' })), 'formats/books/10/10mbit');
  assert.equal(
    situationKey(book({ scenario: 3, cm: 3, network: '10mbit', protocol: 'http1.1-tls' })),
    'books/10/3/10mbit/http1.1-tls',
  );
  assert.equal(validateCell(book({})).protocol, 'http1.1', 'a cell that names none is cleartext HTTP/1.1');
  assert.equal(caseId(book({ protocol: 'h3' })), 'books/10/json/none/scenario1/cm0/h3');
  assert.throws(() => validateCell(book({ protocol: 'h4' })), /protocol must be one of http1\.1, http1\.1-tls, h2, h3/);
  // Cells on different protocols are different situations, never compared with each other.
  const cells = ['http1.1', 'h2'].map((protocol) => book({ network: '10mbit', protocol }));
  assert.notEqual(groupId(cells[0]), groupId(cells[1]));
  assert.deepStrictEqual(groupComparisons(cells), []);
});

test('validation names every problem at once, and the values allowed', () => {
  assert.throws(
    () => validateCell({ object: 'bookz', count: 0, format: 'xml', decoder: 'json', scenario: 1, cm: 2 }),
    (error) =>
      /object must be one of books, videos/.test(error.message) &&
      /decoder of xml must be one of dom, sax/.test(error.message) &&
      /count must be a whole number ≥ 1/.test(error.message) &&
      /scenario 1 has no computation: cm must be 0/.test(error.message),
  );
  assert.throws(() => validateCell(book({ compression: 'none', level: 3 })), /takes no level/);
  assert.deepStrictEqual(validateCell(book({})), {
    object: 'books',
    format: 'json',
    decoder: 'json',
    compression: 'none',
    level: null,
    count: 10,
    scenario: 1,
    cm: 0,
    protocol: 'http1.1',
  });
});

test('a made-up dimension in a copy of the table reaches ids, validation, plans, CSV and groups', () => {
  const browser = Object.freeze({
    name: 'browser',
    plan: 'browsers',
    values: () => ['chromium', 'firefox'],
    fallback: () => 'chromium',
    id: { slot: 7 },
    group: { slot: 6 },
    compared: false,
    optional: false,
    planOptional: false,
  });
  const model = cellModel([...DIMENSIONS, browser]);
  const cell = book({ browser: 'firefox', network: '10mbit' });
  assert.equal(model.caseId(cell), 'books/10/json/none/scenario1/cm0/10mbit/firefox');
  assert.equal(model.caseId(book({ network: '10mbit' })), 'books/10/json/none/scenario1/cm0/10mbit/chromium');
  assert.equal(model.groupId(cell), 'formats/books/10/10mbit/firefox');
  assert.throws(() => model.validate(book({ browser: 'lynx' })), /browser must be one of chromium, firefox/);
  assert.deepStrictEqual(model.columns, [...CELL_COLUMNS, 'browser']);
  assert.ok(model.situation.includes('browser'), 'not compared: part of the situation');
  const header = toCsv(['case_id', ...model.columns], [{ case_id: model.caseId(cell), ...model.complete(cell) }]).split(
    '\n',
  )[0];
  assert.ok(header.endsWith(`,${CELL_COLUMNS.at(-1)},browser`), header);
  // A plan group lists it like any other dimension; every value becomes its own cells.
  const planned = model.expandGroup({
    objects: ['books'],
    formats: ['json'],
    compressions: ['none'],
    counts: [10],
    scenarios: [1],
    cms: [0],
    networks: ['10mbit'],
    browsers: ['chromium', 'firefox'],
  });
  assert.deepStrictEqual(
    planned.map((c) => model.caseId(c)),
    ['books/10/json/none/scenario1/cm0/10mbit/chromium', 'books/10/json/none/scenario1/cm0/10mbit/firefox'],
  );
  // Cells on different browsers are different groups, so they are never compared with each other.
  assert.notEqual(model.groupId(planned[0]), model.groupId(planned[1]));
  assert.deepStrictEqual(model.comparisons(planned), []);
});

test("a group's comparisons are the pairs that differ in one compared dimension", () => {
  const cell = (format, compression, scenario = 1, cm = 0) => ({
    object: 'books',
    count: 10,
    network: 'unthrottled',
    format,
    compression,
    scenario,
    cm,
  });
  const formats = groupComparisons(['json', 'protobuf', 'xml'].flatMap((f) => [cell(f, 'none'), cell(f, 'gzip')]));
  assert.equal(formats.filter((c) => c.dimension === 'format').length, 6);
  assert.equal(formats.filter((c) => c.dimension === 'compression').length, 3);
  assert.ok(formats.every((c) => c.dimension !== 'format' || ['json', 'protobuf'].includes(c.a.format)));
  const side = groupComparisons([cell('json', 'none', 2, 3), cell('json', 'none', 3, 3), cell('xml', 'none', 2, 3)]);
  assert.deepStrictEqual(
    side.map((c) => [c.dimension, c.a.scenario, c.b.scenario, c.a.format]),
    [
      ['format', 2, 2, 'json'],
      ['side', 3, 2, 'json'],
    ],
  );
  const caching = groupComparisons([cell('json', 'none', 4, 2), cell('json', 'none', 5, 2)]);
  assert.deepStrictEqual(
    caching.map((c) => [c.dimension, c.a.scenario, c.b.scenario]),
    [['caching', 4, 5]],
  );
});

test(
  'compressions compare at their default levels, every level against none, ' + 'and each level against its default',
  () => {
    const cell = (format, compression, level) => ({
      object: 'books',
      count: 10,
      network: 'unthrottled',
      format,
      compression,
      level,
      scenario: 1,
      cm: 0,
    });
    const cells = [
      cell('json', 'none', null),
      cell('json', 'gzip', 6),
      cell('json', 'gzip', 9),
      cell('json', 'br', 6),
      cell('json', 'br', 11),
      cell('json', 'br', 1),
      cell('protobuf', 'br', 11),
    ];
    const pairs = groupComparisons(cells).map(
      (c) =>
        `${c.dimension}: ${c.a.format} ${c.a.compression} ${c.a.level} / ${c.b.format} ${c.b.compression} ${c.b.level}`,
    );
    assert.deepStrictEqual(pairs.sort(), [
      'compression: json gzip 6 / json br 6',
      'compression: json none null / json br 1',
      'compression: json none null / json br 11',
      'compression: json none null / json br 6',
      'compression: json none null / json gzip 6',
      'compression: json none null / json gzip 9',
      'format: json br 11 / protobuf br 11',
      'level: json br 6 / json br 1',
      'level: json br 6 / json br 11',
      'level: json gzip 6 / json gzip 9',
    ]);
    // A cell without a level is at its compression's default.
    assert.equal(groupComparisons([cell('json', 'gzip', undefined), cell('json', 'gzip', 9)])[0].dimension, 'level');
  },
);
