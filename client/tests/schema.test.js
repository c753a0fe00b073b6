import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OBJECTS, firstDifference, shortestFloat32, toPlain } from '#common/schema.js';
import { caseId } from '#common/cell.js';
import { protobuf, protoText } from './fixtures.js';

test("the client schema is the .proto's: same fields, same order, matching types", () => {
  const root = protobuf.parse(protoText, { keepCase: true }).root;
  const types = { string: 'string', int32: 'int', float: 'float', bool: 'bool' };
  for (const [object, kind] of Object.entries(OBJECTS)) {
    const message = root.lookupType(kind.listType).fields[kind.listField].resolve().resolvedType;
    const fromProto = message.fieldsArray.sort((a, b) => a.id - b.id).map((f) => [f.name, types[f.type]]);
    assert.deepStrictEqual(
      fromProto,
      kind.fields.map(([name, type]) => [name, type]),
      object,
    );
  }
});

test('every price the server can send reads back from a float as its two-decimal value', () => {
  for (let cents = 0; cents <= 200000; cents++) {
    const exact = cents / 100;
    const viaProtobuf = Math.fround(exact); // what a 32-bit float field carries
    if (shortestFloat32(viaProtobuf) !== exact) assert.fail(`${exact} came back as ${shortestFloat32(viaProtobuf)}`);
  }
});

test("plain objects have exactly the kind's fields in order", () => {
  const message = Object.assign(Object.create({ onSale: false, numInStock: 0 }), {
    title: 't',
    author: 'a',
    description: 'd',
    image: 'i',
    price: Math.fround(0.1),
    type: 'DIGITAL',
    extra: 1,
  });
  assert.deepStrictEqual(toPlain('books', message), {
    title: 't',
    author: 'a',
    description: 'd',
    image: 'i',
    numInStock: 0,
    price: 0.1,
    type: 'DIGITAL',
    onSale: false,
  });
});

test('differences are named', () => {
  assert.equal(firstDifference('videos', [{ title: 'a' }], [{ title: 'a' }]), null);
  assert.match(
    firstDifference('videos', [{ title: 'a' }], [{ title: 'b' }]),
    /videos\[0\]\.title: expected "a", got "b"/,
  );
  assert.match(firstDifference('videos', [], [{}]), /expected 0 videos, got 1/);
});

test('case ids name every parameter', () => {
  assert.equal(
    caseId({ object: 'books', count: 10000, format: 'protobuf', compression: 'gzip', scenario: 2, cm: 3 }),
    'books/10000/protobuf/gzip/scenario2/cm3',
  );
  assert.equal(
    caseId({ object: 'videos', count: 10, format: 'json', compression: 'none', scenario: 1, cm: 0, network: '10mbit' }),
    'videos/10/json/none/scenario1/cm0/10mbit',
  );
});
