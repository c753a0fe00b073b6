// "Your data" on the page (docs/datasets.md): brings a JSON array or JSON Lines file to the server
// (PUT /api/datasets/{name}, optionally ?repeat=N; with the user's own .proto and its message, as
// a multipart body) within the server's size limit, shows the schema the lab made of it (its
// fields and types, the .proto, one object in each XML style), offers it in the forms' object
// choices, and lists the datasets on the server, each with a button that deletes it
// (DELETE /api/datasets/{name}). A refusal is shown next to the input it is about, in the
// server's words; every error is cleared when the next attempt starts.

import { addDataset } from '#common/datasets.js';

const element = (tag, text, attributes = {}) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
};

/** The field list as rows: a nested object's fields indented under it by their path. */
function fieldRows(fields, prefix = '') {
  return fields.flatMap((field) => [
    [`${prefix}${field.name}`, field.type, field.optional ? 'optional' : ''],
    ...(field.fields ? fieldRows(field.fields, `${prefix}${field.name}${field.type.endsWith('[]') ? '[]' : ''}.`) : []),
  ]);
}

/** The schema the lab made of a dataset, as the page shows it. */
export function schemaView(description) {
  const view = element('div');
  const keys = description.sort_keys.length ? description.sort_keys.join(', ') : 'nothing (no top-level scalar field)';
  view.append(
    element(
      'p',
      `${description.name}: ${description.objects} objects, SHA-256 ${description.sha256}. ` +
        `Sorting (CM1 and up) orders it by ${keys}.`,
    ),
  );
  const table = element('table');
  const head = element('tr');
  for (const title of ['field', 'type', '']) head.append(element('th', title));
  table.append(element('thead'), element('tbody'));
  table.tHead.append(head);
  for (const row of fieldRows(description.fields)) {
    const tr = element('tr');
    for (const cell of row) tr.append(element('td', cell));
    table.tBodies[0].append(tr);
  }
  const scroll = element('div', undefined, { class: 'table-scroll' });
  scroll.append(table);
  view.append(scroll);
  const whose = description.protobuf.given ? 'your .proto' : 'inferred';
  view.append(
    element('h3', `Protobuf (${description.protobuf.message}, ${whose})`),
    element('pre', description.protobuf.text),
  );
  // An XML example is the first object on one line: wrapped inside its box.
  view.append(
    element('h3', 'XML with child elements (the first object)'),
    element('pre', description.xml_example.elements, { class: 'wrap' }),
  );
  view.append(
    element('h3', 'XML with attributes (the first object)'),
    element('pre', description.xml_example.attributes, { class: 'wrap' }),
  );
  return view;
}

/** Offers a dataset in every object select of the page, once. */
function offer(name) {
  for (const select of document.querySelectorAll('select[name="object"]')) {
    if (![...select.options].some((o) => o.value === name)) select.append(element('option', name, { value: name }));
  }
}

/** Takes a deleted dataset out of every object select; a select that had it chosen goes to its first choice. */
function withdraw(name) {
  for (const select of document.querySelectorAll('select[name="object"]')) {
    const chosen = select.value === name;
    [...select.options].find((o) => o.value === name)?.remove();
    if (chosen) select.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

async function describe(name) {
  const response = await fetch(`/api/datasets/${name}`, { cache: 'no-store' });
  const body = await response.json();
  if (!response.ok) throw new Error(body.message);
  return addDataset(body);
}

/** The server's message of a refusal, or what its status says when it sent none. */
async function refusal(response) {
  const text = await response.text();
  try {
    return JSON.parse(text).message ?? `the server answered ${response.status}`;
  } catch {
    return `the server answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
  }
}

/**
 * Which input a refused PUT is about: the repeat, the name (a 400 the server gives before it
 * reads the body), the .proto (its refusals start "the .proto"), or else the file.
 */
export function refusedInput(status, message) {
  if (status === 400 && /^repeat /.test(message)) return 'repeat';
  if (status === 400 && !/multipart/.test(message)) return 'name';
  if (/the \.proto /.test(message)) return 'proto';
  return 'file';
}

/**
 * Sets up "Your data". `maxObjects` is the most objects a dataset may have (after repeating);
 * `onBrought(description)` runs when a dataset has been brought, `onDeleted(name)` when one has
 * been deleted.
 */
export async function setUpDatasets({ maxObjects, onBrought = () => {}, onDeleted = () => {} } = {}) {
  const form = document.getElementById('dataset-form');
  const limit = document.getElementById('dataset-limit');
  const progress = document.getElementById('dataset-progress');
  const schema = document.getElementById('dataset-schema');
  const brought = document.getElementById('dataset-brought');
  const list = document.getElementById('dataset-list');
  const errorBoxes = Object.fromEntries(
    ['name', 'file', 'repeat', 'proto', 'other'].map((input) => [
      input,
      document.getElementById(input === 'other' ? 'dataset-error' : `dataset-${input}-error`),
    ]),
  );
  const showError = (input, message) => {
    errorBoxes[input].textContent = message;
    errorBoxes[input].hidden = !message;
  };
  const clearErrors = () => Object.keys(errorBoxes).forEach((input) => showError(input, ''));

  /** The list of datasets on the server, each with its delete button. */
  const listed = new Map();
  const showListed = (description) => {
    const item = element('li');
    const remove = element('button', `Delete ${description.name}`, { type: 'button' });
    const error = element('span', '', { class: 'error', role: 'alert', hidden: '' });
    item.append(`${description.name}: ${description.objects.toLocaleString('en-US')} objects `, remove, error);
    remove.addEventListener('click', async () => {
      error.hidden = true;
      remove.disabled = true;
      const response = await fetch(`/api/datasets/${encodeURIComponent(description.name)}`, { method: 'DELETE' });
      if (response.status !== 204 && response.status !== 404) {
        error.textContent = await refusal(response);
        error.hidden = false;
        remove.disabled = false;
        return;
      }
      item.remove();
      listed.delete(description.name);
      brought.hidden = listed.size === 0;
      if (schema.dataset.name === description.name) schema.replaceChildren();
      withdraw(description.name);
      progress.textContent = `${description.name} deleted.`;
      onDeleted(description.name);
    });
    listed.get(description.name)?.remove();
    listed.set(description.name, item);
    list.append(item);
    brought.hidden = false;
  };

  const listing = await (await fetch('/api/datasets', { cache: 'no-store' })).json();
  const maxBytes = listing.max_upload_bytes;
  limit.textContent = `${(maxBytes / 2 ** 20).toFixed(0)} MiB`;
  const repeat = form.elements.repeat;
  if (Number.isFinite(maxObjects)) {
    repeat.max = String(maxObjects);
    repeat.title = `1–${maxObjects} objects`;
  }
  for (const { name } of listing.datasets) {
    const description = await describe(name);
    offer(description.name);
    showListed(description);
  }

  document.getElementById('dataset-upload').disabled = false; // disabled in the page until this handler is in place
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    progress.textContent = '';
    const data = new FormData(form);
    const name = String(data.get('name')).trim();
    const file = data.get('file');
    const repeatTo = String(data.get('repeat') ?? '').trim();
    const proto = data.get('proto');
    const message = String(data.get('message') ?? '').trim();
    const withProto = proto instanceof File && proto.size > 0;
    // What the server cannot be asked: no name at all, or one that is not a single path segment.
    if (!name || name === '.' || name === '..' || name.includes('/')) {
      showError('name', `Give it a name: ${document.getElementById('dataset-name-rule').textContent.trim()}.`);
    }
    if (!(file instanceof File) || file.size === 0) {
      showError('file', 'Choose a file: a JSON array of objects or JSON Lines.');
    } else if (file.size > maxBytes) {
      showError(
        'file',
        `${file.name} has ${file.size} bytes; the server takes at most ${maxBytes} (dataset.maxUploadBytes).`,
      );
    }
    if (withProto !== Boolean(message)) {
      showError('proto', 'A .proto goes with the name of its message of one object: give both, or neither.');
    }
    if (Object.values(errorBoxes).some((box) => !box.hidden)) return;
    const sent = withProto ? new FormData() : file;
    if (withProto) {
      sent.append('data', file);
      sent.append('proto', proto);
      sent.append('message', message);
    }
    const query = repeatTo ? `?repeat=${encodeURIComponent(repeatTo)}` : '';
    progress.textContent = `Bringing ${file.name}…`;
    try {
      const response = await fetch(`/api/datasets/${encodeURIComponent(name)}${query}`, { method: 'PUT', body: sent });
      if (response.status !== 201) {
        const said = await refusal(response);
        progress.textContent = '';
        showError(refusedInput(response.status, said), said);
        return;
      }
      const description = addDataset(await response.json());
      offer(description.name);
      showListed(description);
      for (const select of document.querySelectorAll('select[name="object"]')) {
        select.value = description.name;
        select.dispatchEvent(new Event('change', { bubbles: true })); // what follows the choice (N, the decoders)
      }
      schema.replaceChildren(schemaView(description));
      schema.dataset.name = description.name;
      onBrought(description);
      // What next: the forms have it chosen, N its count.
      progress.replaceChildren(
        `${description.name}: ${description.objects} objects, ready, and chosen with N = ${description.objects} in `,
        element('a', 'Compare configurations', { href: '#compare' }),
        ' and Time one configuration.',
      );
    } catch (error) {
      progress.textContent = '';
      showError('other', `Could not bring ${file.name}: ${error.message}`);
    }
  });
}
