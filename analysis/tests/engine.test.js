// Which engine a run measured in, as its report's first line says it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEngine, runEngine } from '../engine.js';

const firefoxRun = {
  browser: {
    engine: 'firefox',
    version: '153.7.0',
    protocol: 'webdriver-bidi',
    capabilities: {
      timer_step_ms: 0.02,
      cross_origin_isolated: true,
      resource_timing: {
        transferSize: true,
        encodedBodySize: true,
        decodedBodySize: true,
        requestStart: true,
        responseStart: true,
        serverTiming: false,
      },
    },
  },
};

test("a run's engine, version, protocol and the fields it does not give", () => {
  assert.deepEqual(runEngine(firefoxRun), {
    engine: 'firefox',
    title: 'Firefox',
    version: '153.7.0',
    protocol: 'webdriver-bidi',
    timer_step_ms: 0.02,
    not_given: ['serverTiming'],
  });
  assert.equal(
    describeEngine([firefoxRun]),
    'Measured in Firefox 153.7.0, driven by Playwright over WebDriver BiDi; performance.now() steps 0.02 ms. ' +
      "Not given by this engine, so absent from its samples (never zero): Server-Timing (the server's own phases).",
  );
});

test('a run from before engines were recorded was Chromium over CDP, its fields unchecked', () => {
  const old = { versions: { browser: 'chromium 156.0.8078.108' } };
  assert.equal(runEngine(old).version, '156.0.8078.108');
  assert.equal(
    describeEngine([old]),
    'Measured in Chromium 156.0.8078.108, driven by Playwright over the Chrome DevTools Protocol.',
  );
});

test('runs from two engines are said to be so', () => {
  assert.match(describeEngine([firefoxRun, {}]), /^Measured in more than one engine: Firefox 153.7.0, Chromium/);
});
