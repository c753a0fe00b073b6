// The one CSV writer (RFC 4180): the page's downloads and the report's summary.csv use it.

/** One field: empty for null and undefined; quoted when it holds a comma, quote or line break. */
export function csvValue(value) {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A header line with `columns`, then one line per row (an object), each ending in a newline. */
export function toCsv(columns, rows) {
  const lines = [columns.map(csvValue).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvValue(row[column])).join(','));
  return `${lines.join('\n')}\n`;
}
