// The load generator: wrk (Debian's package), a closed-loop HTTP benchmark. Each of its
// connections sends a request, waits for the whole answer, and sends the next at once; so
// requests/s is what the server and the link deliver to that many clients, and latency is from
// a request's first byte sent to its answer's last byte received (percentiles of wrk's own
// histogram). wrk runs here inside a namespace (or on this machine), with a shell around it that
// reports the CPU time wrk used: the shell's children's time (cutime + cstime) once wrk is done.

import { execFileSync, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'wrk-report.lua');
/** The kernel's clock ticks per second, the unit of CPU times in /proc. */
export const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** wrk's version line, or null when it is not installed. */
export function wrkVersion() {
  try {
    // wrk prints its usage with the version and exits 1 without a URL.
    execFileSync('wrk', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const line = `${error.stdout ?? ''}${error.stderr ?? ''}`.split('\n').find((l) => l.startsWith('wrk '));
    if (line) return line.replace(/\s+Copyright.*$/, '').trim();
    if (error.code === 'ENOENT') return null;
  }
  return 'wrk (version unknown)';
}

// The shell runs wrk, then reads its own /proc stat: fields 16 and 17 (cutime, cstime) are the CPU
// time of the children it waited for — wrk. `read` is a builtin, so no other child is counted.
const WRAPPER = 'wrk "$@"; s=$?; read -r stat < /proc/$$/stat; echo "RTL_CPU ${stat##*) }"; exit $s';

/**
 * Runs wrk once. `prefix` is the command that puts it somewhere (e.g. ['ip', 'netns', 'exec', ns]).
 * Resolves {summary (from wrk-report.lua, latencies in ms), cpu_s, exit} or rejects with wrk's
 * words when it fails.
 */
export function runWrk({
  prefix = [],
  url,
  connections,
  threads,
  seconds,
  timeoutS,
  method = 'GET',
  bodyFile,
  contentType,
  encoding,
}) {
  const args = [
    '-t',
    String(threads),
    '-c',
    String(connections),
    '-d',
    `${seconds}s`,
    '--timeout',
    `${timeoutS}s`,
    '-s',
    SCRIPT,
    url,
    '--',
    method,
  ];
  if (method === 'POST') args.push(bodyFile, contentType, encoding ?? 'identity');
  const command = [...prefix, 'sh', '-c', WRAPPER, 'wrk', ...args];
  const child = spawn(command[0], command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const done = new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const report = stdout.split('\n').find((l) => l.startsWith('RTL_WRK '));
      const cpu = stdout.split('\n').find((l) => l.startsWith('RTL_CPU '));
      if (code !== 0 || !report) {
        reject(
          new Error(`wrk failed (exit ${code}): ${`${stderr}\n${stdout}`.trim().split('\n').slice(-5).join(' | ')}`),
        );
        return;
      }
      const raw = JSON.parse(report.slice('RTL_WRK '.length));
      const fields = cpu ? cpu.slice('RTL_CPU '.length).trim().split(/\s+/) : [];
      // After the command name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
      const cpuS = fields.length > 14 ? (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS : null;
      const msFromUs = (us) => us / 1000;
      resolve({
        summary: {
          duration_s: raw.duration_us / 1e6,
          requests: raw.requests,
          bytes_read: raw.bytes_read,
          errors: raw.errors,
          latency_ms: Object.fromEntries(Object.entries(raw.latency_us).map(([k, v]) => [k, msFromUs(v)])),
        },
        cpu_s: cpuS,
        text: stdout
          .split('\n')
          .filter((l) => !l.startsWith('RTL_'))
          .join('\n')
          .trim(),
      });
    });
  });
  return { child, done };
}
