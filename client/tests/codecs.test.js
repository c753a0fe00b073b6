import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMATS, OBJECT_NAMES, toPlain } from '../schema.js';
import { codecs, fixture } from './fixtures.js';

// The server's body for the same objects, in every format, read through a real Response
// (as fetch gives it) and decoded by the client's codec, gives exactly the Java objects.
for (const object of OBJECT_NAMES) {
  const expected = JSON.parse(fixture(`${object}.expected.json`));
  for (const format of FORMATS) {
    test(`${format} decodes the server's ${object} to the generated objects`, async () => {
      const codec = codecs[format];
      const body = await codec.read(new Response(fixture(`${object}.${format}`)));
      const decoded = codec.decode(body, object);
      assert.equal(decoded.length, expected.length);
      assert.deepStrictEqual(decoded.map((o) => toPlain(object, o)), expected);
    });
  }
}

test('every field has its type in every format', async () => {
  for (const format of FORMATS) {
    const codec = codecs[format];
    const [book] = codec.decode(await codec.read(new Response(fixture(`books.${format}`))), 'books');
    assert.equal(typeof book.numInStock, 'number', format);
    assert.equal(typeof book.price, 'number', format);
    assert.equal(typeof book.onSale, 'boolean', format);
    assert.equal(typeof book.title, 'string', format);
  }
});

test('the XML codec says what is wrong with a document that is not a list', () => {
  assert.throws(() => codecs.xml.decode('<videos></videos>', 'books'), /not a <books> document/);
});
