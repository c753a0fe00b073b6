import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OBJECT_NAMES } from '#common/catalogue.js';
import { compute, sortSteps } from '../sort.js';
import { fixture } from './fixtures.js';

// The browser's sorts give the order Java's give, on data full of ties and non-ASCII strings.
for (const object of OBJECT_NAMES) {
  const vector = JSON.parse(fixture(`sort-${object}.json`));
  for (const cm of [1, 2, 3]) {
    test(`CM${cm} on ${object} gives Java's order`, () => {
      const input = vector.input;
      const sorted = compute(object, cm, input);
      assert.deepStrictEqual(
        sorted.map((o) => input.indexOf(o)),
        vector.orders[`cm${cm}`],
      );
    });
  }
}

test("CM4 and CM5 give CM2's order (repeating a stable sequence changes nothing)", () => {
  const { input, orders } = JSON.parse(fixture('sort-videos.json'));
  for (const cm of [4, 5]) {
    assert.deepStrictEqual(
      compute('videos', cm, input).map((o) => input.indexOf(o)),
      orders.cm2,
    );
  }
});

test("the sort sequences are the method's", () => {
  assert.deepStrictEqual(sortSteps('books', 1), ['author']);
  assert.deepStrictEqual(sortSteps('books', 2), [
    'author',
    'description',
    'image',
    'price',
    'numInStock',
    'type',
    'onSale',
  ]);
  assert.deepStrictEqual(sortSteps('videos', 2), [
    'title',
    'uri',
    'format',
    'height',
    'width',
    'length',
    'views',
    'enabled',
  ]);
  assert.equal(sortSteps('books', 3).length, 70);
  assert.equal(sortSteps('videos', 5).length, 8000);
  assert.deepStrictEqual(sortSteps('books', 0), []);
});

test('computing leaves the input alone, and CM0 returns it', () => {
  const input = [{ author: 'b' }, { author: 'a' }];
  const sorted = compute('books', 1, input);
  assert.deepStrictEqual(
    input.map((o) => o.author),
    ['b', 'a'],
  );
  assert.deepStrictEqual(
    sorted.map((o) => o.author),
    ['a', 'b'],
  );
  assert.equal(compute('books', 0, input), input);
});

test('strings compare by UTF-16 code units, not by locale', () => {
  const titles = ['b', 'B', 'a', 'é', '\uD83D\uDE00', '\uFFFD', 'a0', 'A'];
  const sorted = compute(
    'videos',
    1,
    titles.map((title) => ({ title })),
  ).map((v) => v.title);
  assert.deepStrictEqual(sorted, ['A', 'B', 'a', 'a0', 'b', 'é', '\uD83D\uDE00', '\uFFFD']);
});
