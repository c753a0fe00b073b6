// The lab's catalogue, as every layer reads it: formats with their browser decoders,
// compressions, object kinds, computation models and scenarios. The server's enums are the
// source (GET /api/catalogue); catalogue-data.js is their copy, written by `npm run catalogue`
// and checked against the server by CatalogueFileTest. The page's controls, the client's schema,
// plan validation and the analysis's labels, comparison pairs and charts all derive from here.

import data from './catalogue-data.js';

const freezeDeep = (value) => {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) freezeDeep(inner);
    Object.freeze(value);
  }
  return value;
};

/** The catalogue as the server describes it. */
export const CATALOGUE = freezeDeep(data);

const byName = (entries) => Object.freeze(Object.fromEntries(entries.map((e) => [e.name, e])));

/** Format name → {name, label, media_type, decoders: [{name, label}], default_decoder}. */
export const FORMAT_ENTRIES = byName(CATALOGUE.formats);
export const FORMATS = Object.freeze(CATALOGUE.formats.map((f) => f.name));
export const COMPRESSIONS = Object.freeze(CATALOGUE.compressions.map((c) => c.name));
/** Compression name → {name, label, encoding (Content-Encoding, null for none), levels: {min, max, default} | null}. */
export const COMPRESSION_ENTRIES = byName(CATALOGUE.compressions);
export const OBJECT_NAMES = Object.freeze(CATALOGUE.objects.map((o) => o.name));
export const CMS = Object.freeze(CATALOGUE.computation_models.map((m) => m.level));
export const SCENARIOS = Object.freeze(CATALOGUE.scenarios.map((s) => s.number));
/** Scenario number → {number, label, computes: none|server|client, requests, computations}. */
export const SCENARIO_ENTRIES = Object.freeze(Object.fromEntries(CATALOGUE.scenarios.map((s) => [s.number, s])));

/** The decoder names of a format, the default first. */
export function decodersOf(format) {
  const entry = FORMAT_ENTRIES[format];
  if (!entry) throw new Error(`no format "${format}"; the formats are ${FORMATS.join(', ')}`);
  return entry.decoders.map((d) => d.name);
}

export function defaultDecoder(format) {
  return FORMAT_ENTRIES[format]?.default_decoder;
}

/** The level a compression uses when none is asked for (null for none, which has no levels). */
export function defaultLevel(compression) {
  return COMPRESSION_ENTRIES[compression]?.levels?.default ?? null;
}

/** Why a level does not fit a compression, or null when it does (null is always fine: the default). */
export function levelProblem(compression, level) {
  if (level === null || level === undefined) return null;
  const levels = COMPRESSION_ENTRIES[compression]?.levels;
  if (!levels) {
    return `compression ${compression} takes no level (levels: ${COMPRESSIONS.filter(
      (c) => COMPRESSION_ENTRIES[c].levels,
    )
      .map((c) => `${c} ${COMPRESSION_ENTRIES[c].levels.min}–${COMPRESSION_ENTRIES[c].levels.max}`)
      .join(', ')})`;
  }
  if (!Number.isInteger(level) || level < levels.min || level > levels.max) {
    return (
      `level of ${compression} must be a whole number from ${levels.min} to ${levels.max} ` +
      `(default ${levels.default}), not ${JSON.stringify(level)}`
    );
  }
  return null;
}

/** Whether a scenario takes this CM: CM0 exactly when it computes nothing (docs/method.md#scenarios). */
export function scenarioTakesCm(scenario, cm) {
  const entry = SCENARIO_ENTRIES[scenario];
  return Boolean(entry) && CMS.includes(cm) && (entry.computations === 0) === (cm === 0);
}

/** How often CMk repeats its sequence (CM1: its first sort once). */
export const REPETITIONS = Object.freeze(CATALOGUE.computation_models.map((m) => m.repetitions));

/** Labels a reader sees: formats, decoders, compressions, objects, CMs and scenarios. */
export const LABELS = Object.freeze({
  format: (name) => FORMAT_ENTRIES[name]?.label ?? name,
  decoder: (format, name) => FORMAT_ENTRIES[format]?.decoders.find((d) => d.name === name)?.label ?? name,
  compression: (name) => CATALOGUE.compressions.find((c) => c.name === name)?.label ?? name,
  object: (name) => CATALOGUE.objects.find((o) => o.name === name)?.label ?? name,
  cm: (level) => `CM${level}`,
  scenario: (number) => SCENARIO_ENTRIES[number]?.label ?? `scenario ${number}`,
});

/**
 * A configuration's name for a reader: the format, its decoder when not the default, e.g. "XML (attributes), saxen".
 */
export function formatLabel(format, decoder = defaultDecoder(format)) {
  return decoder === defaultDecoder(format)
    ? LABELS.format(format)
    : `${LABELS.format(format)}, ${LABELS.decoder(format, decoder)}`;
}

/**
 * A compression as a reader sees it, with its level when not the default: "GZIP", "Brotli 11",
 * "none". `explicit` names the level even when it is the default ("Brotli 6").
 */
export function compressionLabel(compression, level = defaultLevel(compression), { explicit = false } = {}) {
  const label = LABELS.compression(compression);
  const shown = level ?? defaultLevel(compression);
  return shown === null || (!explicit && shown === defaultLevel(compression)) ? label : `${label} ${shown}`;
}

/** Every format × decoder label, in catalogue order: the colour domain charts share. */
export const FORMAT_LABELS = Object.freeze(
  CATALOGUE.formats.flatMap((f) => f.decoders.map((d) => formatLabel(f.name, d.name))),
);
