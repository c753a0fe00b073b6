// Downloads of everything the page has measured: JSON (the whole record, context and raw
// samples) and CSV (one row per sample, the cell's dimensions first: common/cell.js).

import { toCsv } from '#common/csv.js';
import { CELL_COLUMNS as DIMENSION_COLUMNS } from '#common/cell.js';

const CELL_COLUMNS = ['case_id', ...DIMENSION_COLUMNS];
const SUMMARY_COLUMNS = [
  'n',
  'mean_trimmed',
  'dropped',
  'median',
  'ci_low',
  'ci_high',
  'p95',
  'min',
  'max',
  'mean',
  'sd',
];

/** The JSON document of a page's results. */
export function resultsToJson(results, context) {
  return JSON.stringify({ kind: 'response-time-lab/client-results', version: 1, context, cells: results }, null, 2);
}

/** One row per sample: the cell's columns, rep and total_ms, then every phase any sample has. */
export function resultsToCsv(results) {
  const phaseColumns = new Set();
  for (const result of results) {
    for (const sample of result.samples) {
      for (const key of Object.keys(sample)) {
        if (key !== 'rep' && key !== 'total_ms') phaseColumns.add(key);
      }
    }
  }
  const columns = [...CELL_COLUMNS, 'rep', 'total_ms', ...[...phaseColumns].sort()];
  return toCsv(
    columns,
    results.flatMap((result) =>
      result.samples.map((sample) => ({
        ...result.cell,
        case_id: result.case_id,
        ...sample,
      })),
    ),
  );
}

/** One row per cell with its summary statistics. */
export function summariesToCsv(results) {
  return toCsv(
    [...CELL_COLUMNS, ...SUMMARY_COLUMNS],
    results.map((result) => ({
      ...result.cell,
      case_id: result.case_id,
      ...result.summary,
    })),
  );
}
