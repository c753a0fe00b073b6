// The page's choices, built from the catalogue (common/catalogue.js, the server's enums): the
// cell form's selects (the decoder follows the format) and the comparison form's checkboxes.
// A format added on the server appears here without an edit to the page.

import { CATALOGUE, COMPRESSION_ENTRIES, FORMAT_ENTRIES, LABELS, formatLabel } from '#common/catalogue.js';

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

/** The decoders of a format as options of `select`, the default first and chosen. */
function fillDecoders(select, format) {
  const entry = FORMAT_ENTRIES[format];
  select.replaceChildren(
    ...entry.decoders.map((d) => option(d.name, `${d.name} · ${d.label}`, d.name === entry.default_decoder)),
  );
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

/** Fills the cell form: object, format, decoder, compression (and its level), scenario and CM. */
export function fillCellForm(form) {
  const select = (name) => form.querySelector(`select[name="${name}"]`);
  select('object').replaceChildren(...CATALOGUE.objects.map((o) => option(o.name, o.label)));
  select('format').replaceChildren(...CATALOGUE.formats.map((f) => option(f.name, f.label)));
  select('compression').replaceChildren(...CATALOGUE.compressions.map((c) => option(c.name, c.label)));
  select('scenario').replaceChildren(...CATALOGUE.scenarios.map((s) => option(s.number, `${s.number} · ${s.label}`)));
  select('cm').replaceChildren(...CATALOGUE.computation_models.map((m) => option(m.level, `${m.name} · ${m.label}`)));
  fillDecoders(select('decoder'), select('format').value);
  select('format').addEventListener('change', () => fillDecoders(select('decoder'), select('format').value));
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

/** Fills the comparison form: object, CM, configurations, compressions and sides. */
export function fillCompareForm(form, { checkedFormats = ['json', 'protobuf'], checkedCompressions = ['none'] } = {}) {
  const select = (name) => form.querySelector(`select[name="${name}"]`);
  select('object').replaceChildren(...CATALOGUE.objects.map((o) => option(o.name, LABELS.object(o.name))));
  select('cm').replaceChildren(
    ...CATALOGUE.computation_models.map((m) =>
      option(m.level, m.level === 0 ? 'none (scenario 1)' : `${m.name} · ${m.label}`),
    ),
  );
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
  form
    .querySelector('[data-choices="compressions"]')
    .replaceChildren(
      ...CATALOGUE.compressions.map((c) =>
        checkbox('compressions', c.name, c.label, checkedCompressions.includes(c.name)),
      ),
    );
  const sides = CATALOGUE.scenarios.filter((s) => s.requests === 1 && s.computations === 1);
  form
    .querySelector('[data-choices="sides"]')
    .replaceChildren(...sides.map((s) => checkbox('sides', s.number, `${s.computes} (scenario ${s.number})`, true)));
}
