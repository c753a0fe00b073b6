// The constant-rate load generator: Vegeta (Go; the setup builds a pinned version into
// tools/bin). Its constant pacer sends requests on schedule whatever the answers do — starting
// as many workers, and so connections, as the answers in flight need — and writes every
// request's result (when it left, its status, its latency to the whole answer, its error) to an
// encoded results file that `vegeta report` reads and that results from other hosts merge with.
// Here it runs inside a namespace (or on this machine), with a shell around it that reports the
// CPU time it used, as wrk.js does for wrk.

import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseVegetaResults } from '../../analysis/open-loop.js';
import { CLOCK_TICKS } from './wrk.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the setup installs it; VEGETA names another binary, else the one on PATH. */
const INSTALLED = join(ROOT, 'tools', 'bin', 'vegeta');

/** The Vegeta binary's path, or null when there is none. */
export function vegetaPath(env = process.env) {
  if (env.VEGETA) return existsSync(env.VEGETA) ? env.VEGETA : null;
  if (existsSync(INSTALLED)) return INSTALLED;
  try {
    return execFileSync('sh', ['-c', 'command -v vegeta'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * "vegeta v12.13.0", or null when it is not installed. A `go install` build prints no version
 * (`vegeta -version` has empty fields), so the module's version is read from the build
 * information Go writes into the binary.
 */
export function vegetaVersion(path = vegetaPath()) {
  if (!path) return null;
  const said = execFileSync(path, ['-version'], { encoding: 'utf8' });
  const version = /^Version: (\S+)/m.exec(said)?.[1];
  if (version) return `vegeta ${version}`;
  const built = /mod\tgithub\.com\/tsenart\/vegeta\/v12\t(v[0-9][^\t\n]*)/.exec(readFileSync(path, 'latin1'));
  return built ? `vegeta ${built[1]}` : 'vegeta (version unknown)';
}

/** Vegeta's -rate for requests/s: a whole number of requests per 1000 s (its pacer takes whole numbers). */
export const rateArgument = (ratePerS) => `${Math.max(1, Math.round(ratePerS * 1000))}/1000s`;

// As wrk.js: the shell's children's CPU time (cutime + cstime) once Vegeta is done.
const WRAPPER = '"$0" "$@"; s=$?; read -r stat < /proc/$$/stat; echo "RTL_CPU ${stat##*) }" >&2; exit $s';

/**
 * One constant-rate attack: `ratePerS` for `seconds`, results (gob) into `output`. `prefix` puts
 * it somewhere (['ip', 'netns', 'exec', ns]). Answers' bodies are read in full (latency is to the
 * last byte) but not kept (-max-body 0). HTTP/1.1 unless `http2` ('h2' over TLS, 'h2c' in the
 * clear). Over TLS, `rootCerts` is the only certificate file trusted (-root-certs) and
 * `connectTo` ("host:port:address:port", -connect-to) sends the URL's host to another address,
 * its name kept for the certificate. Resolves {cpu_s} or rejects with Vegeta's words.
 */
export function runVegeta({
  prefix = [],
  url,
  method = 'GET',
  bodyFile,
  headers = {},
  ratePerS,
  seconds,
  timeoutS,
  name,
  output,
  http2 = null,
  rootCerts = null,
  connectTo = null,
  maxWorkers = null,
  binary = vegetaPath(),
}) {
  if (!binary) throw new Error('Vegeta is not installed: run `bash scripts/setup.sh` (it builds it with Go)');
  const args = [
    'attack',
    '-rate',
    rateArgument(ratePerS),
    '-duration',
    `${seconds}s`,
    '-timeout',
    `${timeoutS}s`,
    '-max-body',
    '0',
    '-name',
    name,
    '-output',
    output,
    `-http2=${http2 === 'h2'}`,
  ];
  if (http2 === 'h2c') args.push('-h2c');
  if (rootCerts) args.push('-root-certs', rootCerts);
  if (connectTo) args.push('-connect-to', connectTo);
  if (maxWorkers) args.push('-max-workers', String(maxWorkers));
  if (method === 'POST') args.push('-body', bodyFile);
  for (const [key, value] of Object.entries(headers)) args.push('-header', `${key}: ${value}`);
  const child = spawn(...spawnArguments(prefix, [binary, ...args]), { stdio: ['pipe', 'ignore', 'pipe'] });
  child.stdin.end(`${method} ${url}\n`);
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const lines = stderr.split('\n');
      const cpu = lines.find((l) => l.startsWith('RTL_CPU '));
      if (code !== 0) {
        const said = lines.filter((l) => l && !l.startsWith('RTL_CPU ')).slice(-5);
        reject(new Error(`vegeta failed (exit ${code}): ${said.join(' | ')}`));
        return;
      }
      const fields = cpu ? cpu.slice('RTL_CPU '.length).trim().split(/\s+/) : [];
      resolve({ cpu_s: fields.length > 14 ? (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS : null });
    });
  });
  return { child, done };
}

function spawnArguments(prefix, command) {
  const [binary, ...args] = command;
  const full = [...prefix, 'sh', '-c', WRAPPER, binary, ...args];
  return [full[0], full.slice(1)];
}

/** Results files (any of Vegeta's encodings, several merged) as JSON lines: `vegeta encode --to json`. */
export function encodeJson(files, binary = vegetaPath()) {
  return execFileSync(binary, ['encode', '--to', 'json', ...files], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
}

/** The results of the given files, merged, parsed (analysis/open-loop.js). */
export function readResults(files, binary = vegetaPath()) {
  return parseVegetaResults(encodeJson(files, binary));
}

/** `vegeta report -type=json` of the given files: Vegeta's own reading, to check ours against. */
export function vegetaReport(files, binary = vegetaPath()) {
  return JSON.parse(execFileSync(binary, ['report', '-type=json', ...files], { encoding: 'utf8' }));
}
