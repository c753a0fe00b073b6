// The page's choices: the cell form's selects come from the cell's dimensions (common/cell.js,
// their values and words from the catalogue, the server's enums), a select whose values depend on
// another (the decoder on the format) following it; the comparison form's checkboxes from the
// catalogue and the scenario families. A format added on the server appears here without an edit
// to the page, and so does a new dimension with a select of its name in the form. The page says a
// scenario and a CM in words (what is timed, what is sorted), their names in brackets.

import {
  CATALOGUE,
  COMPRESSION_ENTRIES,
  FORMAT_ENTRIES,
  LABELS,
  SCENARIO_ENTRIES,
  formatLabel,
} from '#common/catalogue.js';
import { DIMENSIONS, FAMILIES } from '#common/cell.js';
import { computationWords } from '#common/answer-words.js';

/** A CM in words: "nothing sorted (CM0)", "sorting by each property 10 times (CM3)". */
export const sortingWords = (cm) =>
  computationWords(cm) || `nothing sorted (${CATALOGUE.computation_models.find((m) => m.level === cm)?.name})`;

/** A scenario in words, what it times: "request N objects sorted by the server, decode them (scenario 2)". */
export const scenarioWords = (number) => `${SCENARIO_ENTRIES[number].timed} (scenario ${number})`;

/** Where a side of the comparison sorts, in words. */
const SIDE_WORDS = { server: 'on the server', client: 'in the browser' };

/** The dimensions the page says in its own words rather than the cell's (common/cell.js). */
const PAGE_WORDS = { scenario: scenarioWords, cm: sortingWords };

function option(value, text, selected = false) {
  const element = document.createElement('option');
  element.value = String(value);
  element.textContent = text;
  element.selected = selected;
  return element;
}

function checkbox(name, value, text, checked) {
  const label = document.createElement('label');
  label.className = 'inline';
  const input = Object.assign(document.createElement('input'), {
    type: 'checkbox',
    name,
    value: String(value),
    checked,
  });
  label.append(input, ` ${text}`);
  return label;
}

/** A dimension's values as the options of `select`, for the cell chosen so far; its default chosen. */
function fillChoices(select, dimension, cell) {
  const chosen = dimension.fallback?.(cell);
  const describe = PAGE_WORDS[dimension.name] ?? dimension.describe;
  select.replaceChildren(
    ...dimension.values(cell).map((value) => option(value, describe(value, cell), value === chosen)),
  );
}

/**
 * Keeps a form's N within the objects there are: its max is the chosen object's count
 * (`objectCount(name)`, undefined when unknown), and a larger N comes down to it; `fill` sets N
 * to that count (a dataset just brought, measured whole).
 */
export function fitCount(form, objectCount, { fill = false } = {}) {
  const input = form.querySelector('input[name="count"]');
  const max = objectCount(form.querySelector('select[name="object"]').value);
  if (!Number.isInteger(max) || max < 1) {
    input.removeAttribute('max');
    input.title = '';
    return;
  }
  input.max = String(max);
  input.title = `1–${max.toLocaleString('en-US')}: the objects there are`;
  if (fill || !(Number(input.value) <= max)) input.value = String(max);
}

/** N follows the chosen object: within its count whenever the choice changes. */
export function followObjectCount(form, objectCount) {
  form.querySelector('select[name="object"]').addEventListener('change', () => fitCount(form, objectCount));
  fitCount(form, objectCount);
}

/** The level input follows the compression: its range, its default; disabled for none. */
function fitLevel(input, compression) {
  const levels = COMPRESSION_ENTRIES[compression]?.levels;
  input.disabled = !levels;
  input.min = levels ? String(levels.min) : '';
  input.max = levels ? String(levels.max) : '';
  input.value = levels ? String(levels.default) : '';
  input.title = levels ? `${levels.min}–${levels.max}, default ${levels.default}` : 'no compression, no level';
}

/**
 * Fills the cell form: a select for every dimension the form has one for (object, format, decoder,
 * compression, scenario, CM), and the level input, which follows the compression.
 */
export function fillCellForm(form) {
  const select = (name) => form.querySelector(`select[name="${name}"]`);
  const chosen = DIMENSIONS.filter((d) => d.describe && select(d.name));
  const cellSoFar = () =>
    Object.fromEntries(chosen.map((d) => [d.name, d.values({}).find((v) => String(v) === select(d.name).value)]));
  for (const dimension of chosen) fillChoices(select(dimension.name), dimension, cellSoFar());
  // A dimension whose values depend on another's is refilled when that one changes.
  for (const dimension of chosen.filter((d) => d.of && select(d.of))) {
    select(dimension.of).addEventListener('change', () => fillChoices(select(dimension.name), dimension, cellSoFar()));
  }
  const level = form.querySelector('input[name="level"]');
  fitLevel(level, select('compression').value);
  select('compression').addEventListener('change', () => fitLevel(level, select('compression').value));
}

/** The configurations a comparison can include: every format × decoder, as "format" or "format+decoder". */
export function configurationValue(format, decoder) {
  return decoder === FORMAT_ENTRIES[format].default_decoder ? format : `${format}+${decoder}`;
}

/** Reads a configuration value back: {format, decoder}. */
export function parseConfiguration(value) {
  const [format, decoder = FORMAT_ENTRIES[format]?.default_decoder] = String(value).split('+');
  return { format, decoder };
}

/**
 * Fills the comparison form: object, CM, configurations, compressions and sides. By default it
 * compares JSON and Protobuf, each uncompressed and with GZIP: the study's first two questions.
 */
export function fillCompareForm(
  form,
  { checkedFormats = ['json', 'protobuf'], checkedCompressions = ['none', 'gzip'] } = {},
) {
  const select = (name) => form.querySelector(`select[name="${name}"]`);
  select('object').replaceChildren(...CATALOGUE.objects.map((o) => option(o.name, LABELS.object(o.name))));
  select('cm').replaceChildren(...CATALOGUE.computation_models.map((m) => option(m.level, sortingWords(m.level))));
  form
    .querySelector('[data-choices="formats"]')
    .replaceChildren(
      ...CATALOGUE.formats.flatMap((f) =>
        f.decoders.map((d) =>
          checkbox(
            'formats',
            configurationValue(f.name, d.name),
            formatLabel(f.name, d.name),
            d.name === f.default_decoder && checkedFormats.includes(f.name),
          ),
        ),
      ),
    );
  // Each compression with levels takes a list of them ("1, 6, 9"), its default filled in.
  form.querySelector('[data-choices="compressions"]').replaceChildren(
    ...CATALOGUE.compressions.map((c) => {
      const box = checkbox('compressions', c.name, c.label, checkedCompressions.includes(c.name));
      if (!c.levels) return box;
      const levels = document.createElement('input');
      Object.assign(levels, {
        name: `levels-${c.name}`,
        value: String(c.levels.default),
        size: 6,
        title: `${c.label} levels, ${c.levels.min}–${c.levels.max}, separated by commas`,
      });
      levels.setAttribute('aria-label', `${c.label} levels`);
      box.append(' levels ', levels);
      return box;
    }),
  );
  const sides = FAMILIES.side.compared.map((number) => CATALOGUE.scenarios.find((s) => s.number === number));
  form
    .querySelector('[data-choices="sides"]')
    .replaceChildren(
      ...sides.map((s) => checkbox('sides', s.number, `${SIDE_WORDS[s.computes]} (scenario ${s.number})`, true)),
    );
  // Where the sorting runs matters only with sorting: its choices are off without.
  const sidesBox = form.querySelector('[data-choices="sides"]').closest('fieldset');
  const followCm = () => {
    sidesBox.disabled = select('cm').value === '0';
  };
  select('cm').addEventListener('change', followCm);
  followCm();
}
