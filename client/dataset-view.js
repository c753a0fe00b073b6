// "Your data" on the page (docs/datasets.md): brings a JSON array or JSON Lines file to the server
// (PUT /api/datasets/{name}; with the user's own .proto and its message, as a multipart body)
// within the server's size limit, shows the schema the lab made of it
// (its fields and types, the .proto, one object in each XML style), and offers it in the forms'
// object choices. Datasets brought earlier are offered when the page loads.

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
        `Computation models sort by ${keys}.`,
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
  view.append(table);
  const whose = description.protobuf.given ? 'your .proto' : 'inferred';
  view.append(
    element('h3', `Protobuf (${description.protobuf.message}, ${whose})`),
    element('pre', description.protobuf.text),
  );
  view.append(
    element('h3', 'XML with child elements (the first object)'),
    element('pre', description.xml_example.elements),
  );
  view.append(
    element('h3', 'XML with attributes (the first object)'),
    element('pre', description.xml_example.attributes),
  );
  return view;
}

/** Offers a dataset in every object select of the page, once. */
function offer(name) {
  for (const select of document.querySelectorAll('select[name="object"]')) {
    if (![...select.options].some((o) => o.value === name)) select.append(element('option', name, { value: name }));
  }
}

async function describe(name) {
  const response = await fetch(`/api/datasets/${name}`, { cache: 'no-store' });
  const body = await response.json();
  if (!response.ok) throw new Error(body.message);
  return addDataset(body);
}

export async function setUpDatasets() {
  const form = document.getElementById('dataset-form');
  const limit = document.getElementById('dataset-limit');
  const progress = document.getElementById('dataset-progress');
  const errorBox = document.getElementById('dataset-error');
  const schema = document.getElementById('dataset-schema');
  const showError = (message) => {
    errorBox.textContent = message;
    errorBox.hidden = !message;
  };
  const listing = await (await fetch('/api/datasets', { cache: 'no-store' })).json();
  const maxBytes = listing.max_upload_bytes;
  limit.textContent = `${(maxBytes / 2 ** 20).toFixed(0)} MiB`;
  for (const { name } of listing.datasets) offer((await describe(name)).name);

  document.getElementById('dataset-upload').disabled = false; // disabled in the page until this handler is in place
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    showError('');
    const data = new FormData(form);
    const name = String(data.get('name'));
    const file = data.get('file');
    if (!(file instanceof File) || file.size === 0)
      return showError('Choose a file: a JSON array of objects or JSON Lines.');
    if (file.size > maxBytes) {
      return showError(
        `${file.name} has ${file.size} bytes; the server takes at most ${maxBytes} (dataset.maxUploadBytes).`,
      );
    }
    const proto = data.get('proto');
    const message = String(data.get('message') ?? '').trim();
    const withProto = proto instanceof File && proto.size > 0;
    if (withProto !== Boolean(message)) {
      return showError('A .proto goes with the name of its message of one object: give both, or neither.');
    }
    const sent = withProto ? new FormData() : file;
    if (withProto) {
      sent.append('data', file);
      sent.append('proto', proto);
      sent.append('message', message);
    }
    progress.textContent = `Bringing ${file.name}…`;
    try {
      const response = await fetch(`/api/datasets/${encodeURIComponent(name)}`, { method: 'PUT', body: sent });
      const body = await response.json();
      if (response.status !== 201) throw new Error(body.message);
      const description = addDataset(body);
      offer(description.name);
      for (const select of document.querySelectorAll('select[name="object"]')) select.value = description.name;
      schema.replaceChildren(schemaView(description));
      progress.textContent = `${description.name}: ${description.objects} objects, ready.`;
    } catch (error) {
      progress.textContent = '';
      showError(error.message);
    }
  });
}
