// What the browser itself measured for each request of a sample (Resource Timing), read after
// the timed region: sizes on the wire, the protocol used, the browser's own phase marks, and the
// server's Server-Timing entries.

/** Resource Timing fields kept per request, with their names in samples. */
const SIZES = [
  ['transferSize', 'transfer_size'],
  ['encodedBodySize', 'encoded_body_size'],
  ['decodedBodySize', 'decoded_body_size'],
];

/**
 * The resource entries of `urls` (absolute, in request order) from the performance timeline,
 * matched in order; the timeline is then cleared so it never fills up during a long cell.
 */
export function takeResourceEntries(performance, urls) {
  const entries = performance.getEntriesByType('resource');
  performance.clearResourceTimings();
  const taken = [];
  let from = 0;
  for (const url of urls) {
    let match = null;
    for (let i = from; i < entries.length; i++) {
      if (entries[i].name === url) {
        match = entries[i];
        from = i + 1;
        break;
      }
    }
    taken.push(match);
  }
  return taken;
}

/** One request's Resource Timing figures as flat sample fields, each name prefixed. */
export function resourceFields(entry, prefix) {
  if (!entry) return {};
  const fields = {};
  for (const [from, to] of SIZES) fields[`${prefix}${to}`] = entry[from];
  // The protocol the browser used (its ALPN id: http/1.1, h2): common/protocols.js judges it.
  fields[`${prefix}next_hop_protocol`] = entry.nextHopProtocol;
  fields[`${prefix}rt_duration_ms`] = entry.responseEnd - entry.startTime;
  if (entry.responseStart > 0) {
    // requestStart is 0 when the browser withholds detail; then waiting is counted from fetchStart.
    const sent = entry.requestStart > 0 ? entry.requestStart : entry.fetchStart;
    fields[`${prefix}rt_waiting_ms`] = entry.responseStart - sent;
    fields[`${prefix}rt_transfer_ms`] = entry.responseEnd - entry.responseStart;
  }
  for (const timing of entry.serverTiming ?? []) {
    fields[`${prefix}server_${timing.name}_ms`] = timing.duration;
    if (timing.description) fields[`${prefix}server_${timing.name}_covers`] = timing.description;
  }
  return fields;
}
