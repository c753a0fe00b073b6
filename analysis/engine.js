// Which browser engine a run measured in, from its run.json: the engine, its version, the
// protocol that drove it, and the measurement fields it does not give (recorded at the run's
// start by client/capabilities.js). The report's first lines and compare-runs say it.

/** A Resource Timing field's name in words, and what its absence leaves out of the samples. */
const FIELD_WORDS = Object.freeze({
  transferSize: 'transfer size',
  encodedBodySize: 'encoded body size',
  decodedBodySize: 'decoded body size',
  requestStart: 'request start (waiting is counted from the fetch start)',
  responseStart: 'response start (no waiting and transfer phases)',
  serverTiming: "Server-Timing (the server's own phases)",
});

const TITLES = Object.freeze({ chromium: 'Chromium', firefox: 'Firefox' });

/**
 * A run's engine: {engine, title, version, protocol, timer_step_ms, not_given: [field]}. A run
 * from before engines were recorded was Chromium's, driven over CDP, its fields not checked.
 */
export function runEngine(context) {
  const browser = context?.browser;
  if (browser?.engine) {
    const rt = browser.capabilities?.resource_timing ?? {};
    return {
      engine: browser.engine,
      title: TITLES[browser.engine] ?? browser.engine,
      version: browser.version ?? null,
      protocol: browser.protocol ?? null,
      timer_step_ms: browser.capabilities?.timer_step_ms ?? null,
      not_given: Object.keys(FIELD_WORDS).filter((field) => rt[field] === false),
    };
  }
  const [, version = null] = /^chromium (\S+)/.exec(context?.versions?.browser ?? '') ?? [];
  return { engine: 'chromium', title: 'Chromium', version, protocol: 'cdp', timer_step_ms: null, not_given: null };
}

const PROTOCOLS = Object.freeze({ cdp: 'the Chrome DevTools Protocol', 'webdriver-bidi': 'WebDriver BiDi' });

/** The engine in one sentence, for the first lines of a report. */
export function describeEngine(contexts) {
  const engines = contexts.map(runEngine);
  const names = [...new Set(engines.map((e) => `${e.title} ${e.version ?? ''}`.trim()))];
  if (names.length > 1)
    return `Measured in more than one engine: ${names.join(', ')} — their cells are not comparable.`;
  const e = engines[0];
  const driven = e.protocol ? `, driven by Playwright over ${PROTOCOLS[e.protocol] ?? e.protocol}` : '';
  const step = e.timer_step_ms ? `; performance.now() steps ${+e.timer_step_ms.toPrecision(3)} ms` : '';
  const fields =
    e.not_given === null
      ? ''
      : e.not_given.length
        ? ` Not given by this engine, so absent from its samples (never zero): ` +
          `${e.not_given.map((f) => FIELD_WORDS[f]).join('; ')}.`
        : ' It gives every Resource Timing field and Server-Timing entry the samples use.';
  return `Measured in ${e.title}${e.version ? ` ${e.version}` : ''}${driven}${step}.${fields}`;
}
