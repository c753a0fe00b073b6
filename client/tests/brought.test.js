import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMATS, decodersOf } from '#common/catalogue.js';
import { addDataset } from '#common/datasets.js';
import { firstDifference, toPlain } from '#common/schema.js';
import { compute } from '../sort.js';
import { codecs, fixture } from './fixtures.js';

// A brought dataset (docs/datasets.md), as the Java tests wrote it: its description as the server
// publishes it, its objects as given, and the server's body in every format.
const description = addDataset(JSON.parse(fixture('brought.description.json')));
const object = description.name;
const given = JSON.parse(fixture('brought.given.json'));
const expected = given.map((o) => toPlain(object, o));

for (const format of FORMATS) {
  for (const decoder of decodersOf(format)) {
    if (format === 'protobuf' && decoder === 'static') {
      test('the static Protobuf decoder says it has no code for a brought dataset', async () => {
        const codec = codecs[format][decoder];
        const body = await codec.read(new Response(fixture(`brought.${format}`)));
        assert.throws(() => codec.decode(body, object), /no code for fixture-data.*reflection decoder/);
      });
      continue;
    }
    test(`${format} (${decoder}) decodes a brought dataset to the objects given`, async () => {
      const codec = codecs[format][decoder];
      const body = await codec.read(new Response(fixture(`brought.${format}`)));
      const decoded = codec.decode(body, object);
      assert.equal(
        firstDifference(
          object,
          expected,
          decoded.map((o) => toPlain(object, o)),
        ),
        null,
      );
    });
  }
}

test('the comparison rules: null is absent, an absent array is empty, numbers by value', () => {
  const [first] = expected;
  assert.equal(firstDifference(object, [first], [toPlain(object, { ...given[0], flag: null })]), null);
  assert.equal(
    firstDifference(
      object,
      [toPlain(object, { ...given[0], tags: [] })],
      [toPlain(object, { ...given[0], tags: undefined })],
    ),
    null,
  );
  assert.match(
    firstDifference(object, [first], [toPlain(object, { ...given[0], word: 'other' })]),
    /fixture-data\[0\]\.word: expected .*, got "other"/,
  );
  // 2^53 + 1 arrives as the nearest double in every decoder, and compares as such.
  assert.equal(expected[0].big, 9007199254740992);
});

test("the browser's CM1–CM3 give the server's order on a brought dataset, ties and missing values included", () => {
  const { orders } = JSON.parse(fixture('sort-brought.json'));
  for (const cm of [1, 2, 3]) {
    const sorted = compute(
      object,
      cm,
      expected.map((o, index) => ({ ...o, index })),
    );
    assert.deepStrictEqual(
      sorted.map((o) => o.index),
      orders[`cm${cm}`],
      `CM${cm}`,
    );
  }
});
