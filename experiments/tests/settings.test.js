// The study's settings from the environment: defaults, and a clear error for every bad value
// before anything starts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { studySettings } from '../study-settings.js';
import { http3Problem, quicOrigin } from '../protocols.js';
import { launchOptionsFor } from '../network/netns-launch.js';
import { firefoxHttp3Prefs } from '#common/browsers/firefox.js';

test("the study's settings have defaults", () => {
  const settings = studySettings({});
  assert.equal(settings.plan.name, 'quick');
  assert.equal(settings.shaping, 'cdp');
  assert.equal(settings.baseUrl, 'http://localhost:8080');
  assert.equal(settings.pageSettleMs, 1000);
  assert.equal(settings.serverWarmupRequests, 20000);
  assert.equal(settings.browserWarmupPages, 3);
  assert.equal(studySettings({ SERVER_WARMUP: '0', PAGE_SETTLE_MS: '0' }).serverWarmupRequests, 0);
  assert.equal(studySettings({ BROWSER_WARMUP: '0' }).browserWarmupPages, 0);
});

test('a bad setting is refused with what is allowed', () => {
  assert.throws(
    () => studySettings({ NETWORK: '5g' }),
    /NETWORK=5g is not a profile; the profiles are unthrottled, 10mbit/,
  );
  assert.throws(() => studySettings({ SHAPING: 'tc' }), /SHAPING=tc is not a mechanism; use cdp or netns/);
  assert.throws(() => studySettings({ PAGE_SETTLE_MS: 'soon' }), /PAGE_SETTLE_MS=soon is not a number of milliseconds/);
  for (const value of ['many', '-1', '1.5']) {
    assert.throws(
      () => studySettings({ BROWSER_WARMUP: value }),
      new RegExp(`BROWSER_WARMUP=${value} is not a number of pages`),
    );
  }
  for (const value of ['lots', '-5', '2.5']) {
    assert.throws(
      () => studySettings({ SERVER_WARMUP: value }),
      new RegExp(`SERVER_WARMUP=${value} is not a number of requests`),
    );
  }
});

test('BROWSER chooses the engine; Firefox never runs a shaped profile unshaped', () => {
  assert.equal(studySettings({}).engine.name, 'chromium');
  const firefox = studySettings({ BROWSER: 'firefox', SHAPING: 'netns' });
  assert.equal(firefox.engine.name, 'firefox');
  assert.equal(firefox.engine.protocol, 'webdriver-bidi');
  assert.equal(firefox.shaping, 'netns');
  assert.throws(
    () => studySettings({ BROWSER: 'safari' }),
    /BROWSER=safari is not an engine the lab runs in; use chromium or firefox/,
  );
  // The quick plan has 10mbit cells: Chromium's emulation cannot shape them in Firefox.
  assert.throws(
    () => studySettings({ BROWSER: 'firefox' }),
    /BROWSER=firefox cannot shape 10mbit with SHAPING=cdp .*: use SHAPING=netns/,
  );
  assert.throws(() => studySettings({ BROWSER: 'firefox', NETWORK: 'lte', SHAPING: 'cdp' }), /cannot shape lte/);
  // Unthrottled needs no shaping, and says so.
  assert.equal(studySettings({ BROWSER: 'firefox', NETWORK: 'unthrottled' }).shaping, 'none');
  assert.equal(studySettings({ NETWORK: 'unthrottled' }).shaping, 'cdp');
});

test('HTTP/3 per engine: Chromium forces its origin, Firefox maps a host name of its own', () => {
  const { engine: chromium } = studySettings({ NETWORK: 'unthrottled' });
  const { engine: firefox } = studySettings({ BROWSER: 'firefox', NETWORK: 'unthrottled' });
  const info = {
    protocols: [
      { name: 'h2', scheme: 'https', port: 9454 },
      { name: 'h3', scheme: 'https', port: 9455 },
    ],
  };
  assert.equal(quicOrigin('http://localhost:9090', info, chromium), 'localhost:9455');
  // Firefox's h3 pages use the other loopback name, so the run's h2 pages stay on TCP.
  assert.equal(quicOrigin('http://localhost:9090', info, firefox), '127.0.0.1:9455');
  assert.equal(quicOrigin('http://127.0.0.1:9090', info, firefox), 'localhost:9455');
  assert.equal(quicOrigin('http://localhost:9090', { protocols: [] }, firefox), null);
  assert.deepEqual(firefoxHttp3Prefs('127.0.0.1:9455'), {
    'network.http.http3.enable': true,
    'network.http.http3.alt-svc-mapping-for-testing': '127.0.0.1;h3=:9455',
    'network.http.http3.disable_when_third_party_roots_found': false,
  });
  const launch = launchOptionsFor(firefox, 'none', { RTL_QUIC_ORIGIN: '127.0.0.1:9455' });
  assert.equal(launch.firefoxUserPrefs['network.http.http3.alt-svc-mapping-for-testing'], '127.0.0.1;h3=:9455');
  assert.equal(launchOptionsFor(firefox, 'none', {}).firefoxUserPrefs, undefined, 'no h3 cells, no preferences');

  assert.equal(http3Problem(chromium, { baseUrl: 'http://localhost:9090', shaping: 'netns' }), null);
  assert.equal(http3Problem(firefox, { baseUrl: 'http://localhost:9090', shaping: 'none' }), null);
  assert.match(
    http3Problem(firefox, { baseUrl: 'http://localhost:9090', shaping: 'netns' }),
    /outside the network namespaces only: .* made for TCP, not for QUIC over UDP/,
  );
  assert.match(http3Problem(firefox, { baseUrl: 'http://lab.example:9090', shaping: 'none' }), /localhost only/);
});

test("MINUTES sets the run's total time, or takes it away; a plan without a stop rule has none to share", () => {
  assert.equal(studySettings({ PLAN: 'thesis' }).plan.minutes, 30);
  assert.equal(studySettings({ PLAN: 'thesis', MINUTES: '45' }).plan.minutes, 45);
  assert.equal(studySettings({ PLAN: 'quick', MINUTES: '12.5' }).plan.minutes, 12.5);
  assert.equal('minutes' in studySettings({ PLAN: 'thesis', MINUTES: '0' }).plan, false);
  assert.equal(studySettings({ PLAN: 'thesis', MINUTES: '' }).plan.minutes, 30);
  for (const value of ['soon', '-1']) {
    assert.throws(() => studySettings({ MINUTES: value }), new RegExp(`MINUTES=${value} is not a number of minutes`));
  }
  assert.throws(
    () => studySettings({ PLAN: 'thesis-source', MINUTES: '30' }),
    /MINUTES=30: plan thesis-source has no stop rule/,
  );
  assert.equal(studySettings({ PLAN: 'thesis-source' }).plan.minutes, null);
});
