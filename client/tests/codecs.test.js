import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMATS, OBJECT_NAMES } from '#common/catalogue.js';
import { toPlain } from '#common/schema.js';
import { decodersOf } from '#common/catalogue.js';
import { codecs, fixture } from './fixtures.js';

// The server's body for the same objects, in every format, read through a real Response
// (as fetch gives it) and decoded by every decoder of the format, gives exactly the Java
// objects (the Java tests decoded the same bodies with decoders independent of the encoders).
for (const object of OBJECT_NAMES) {
  const expected = JSON.parse(fixture(`${object}.expected.json`));
  for (const format of FORMATS) {
    for (const decoder of decodersOf(format)) {
      test(`${format} (${decoder}) decodes the server's ${object} to the generated objects`, async () => {
        const codec = codecs[format][decoder];
        const body = await codec.read(new Response(fixture(`${object}.${format}`)));
        const decoded = codec.decode(body, object);
        assert.equal(decoded.length, expected.length);
        assert.deepStrictEqual(
          decoded.map((o) => toPlain(object, o)),
          expected,
        );
      });
    }
  }
}

test('every field has its type in every format and decoder', async () => {
  for (const format of FORMATS) {
    for (const decoder of decodersOf(format)) {
      const codec = codecs[format][decoder];
      const [book] = codec.decode(await codec.read(new Response(fixture(`books.${format}`))), 'books');
      const where = `${format} (${decoder})`;
      assert.equal(typeof book.numInStock, 'number', where);
      assert.equal(typeof book.price, 'number', where);
      assert.equal(typeof book.onSale, 'boolean', where);
      assert.equal(typeof book.title, 'string', where);
    }
  }
});

test("every decoder module offers exactly the catalogue's decoders", () => {
  assert.deepStrictEqual(Object.keys(codecs), [...FORMATS]);
  for (const format of FORMATS)
    assert.deepStrictEqual(Object.keys(codecs[format]).sort(), [...decodersOf(format)].sort());
});

test('the XML decoders say what is wrong with a document that is not a list', () => {
  for (const format of ['xml', 'xml-attributes']) {
    for (const decoder of decodersOf(format)) {
      assert.throws(
        () => codecs[format][decoder].decode('<videos></videos>', 'books'),
        /not a <books> document/,
        `${format} ${decoder}`,
      );
    }
  }
});

test('the XML decoders refuse a document that is not well-formed', () => {
  for (const format of ['xml', 'xml-attributes']) {
    assert.throws(() => codecs[format].sax.decode('<books><book>', 'books'), undefined, format);
  }
});
