// The analysis commands' shared option: run directories, and `--json <file>` for the figures.

/** Splits argv into the run directories and the `--json` file (null when not given or left without a file). */
export function runsAndJson(args) {
  const at = args.indexOf('--json');
  return {
    paths: args.filter((_, i) => at < 0 || (i !== at && i !== at + 1)),
    jsonFile: at >= 0 ? (args[at + 1] ?? null) : null,
    jsonWithoutFile: at >= 0 && args[at + 1] === undefined,
  };
}
