// What a browser gives the measurements: the timer's step and which Resource Timing fields.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resourceFieldsGiven, timerStep } from '../capabilities.js';

test("the timer's step is the smallest rise between two reads", () => {
  const reads = [0, 0, 0.1, 0.1, 0.1, 0.15, 0.3, 0.3];
  let i = 0;
  assert.equal(
    timerStep(() => reads[Math.min(i++, reads.length - 1)], reads.length - 1),
    0.04999999999999999,
  );
  assert.equal(
    timerStep(() => 5, 10),
    null,
  );
});

test('a field the engine withholds (absent, or 0 for a body that crossed the network) is not given', () => {
  const entry = {
    transferSize: 1200,
    encodedBodySize: 900,
    decodedBodySize: 4000,
    requestStart: 0,
    responseStart: 12.5,
    serverTiming: [],
  };
  assert.deepEqual(resourceFieldsGiven(entry), {
    transferSize: true,
    encodedBodySize: true,
    decodedBodySize: true,
    requestStart: false,
    responseStart: true,
    serverTiming: false,
  });
  assert.equal(resourceFieldsGiven(null).transferSize, false);
  assert.equal(resourceFieldsGiven({ serverTiming: [{ name: 'serialize', duration: 1 }] }).serverTiming, true);
});
