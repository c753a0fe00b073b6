// How the lab's own scripts and tests start the study server. A person types `mvn exec:java`;
// that takes a nested Maven (its JVM, the client libraries' check, the compiler's up-to-date
// check) before the server's JVM even starts. The build leaves the server's runtime classpath in
// server/target/launch-classpath.txt (server/pom.xml, at process-classes): while the compiled
// classes are newer than the sources and that file newer than the POMs (Maven leaves it alone when
// a build finds the classpath unchanged), the same server starts as `java` on that classpath —
// with the JVM options Maven would give it (.mvn/jvm.config, then MAVEN_OPTS) and its settings
// as system properties, as exec:java passes them. Otherwise (a changed source, no build
// yet) it goes through Maven, which compiles first. Either way the process started is, or execs
// into, the server's JVM.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MAIN_CLASS = 'lab.responsetime.LabApplication';
/** What the classes are compiled from: a change since the last compile means Maven must build again. */
const SOURCES = ['server/src/main', 'proto'];
/** What the classpath is resolved from: a change since the classpath file means Maven must resolve again. */
const POMS = ['server/pom.xml', 'pom.xml'];

/** The newest modification time under `path` (a file, or a directory's files, recursively). */
function newest(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/**
 * The JVM options of a server that tests check rather than measure: no 2 GB heap touched ahead
 * (.mvn/jvm.config's, for a study's server), and only the C1 compiler — half the CPU a start-up
 * costs on two cores, at a lower steady-state speed that no check depends on.
 */
export const CHECKED_SERVER_JVM_OPTIONS = Object.freeze(['-XX:-AlwaysPreTouch', '-Xms256m', '-XX:TieredStopAtLevel=1']);

/** The classpath the last build in `root` left, when nothing the server is built from changed since; else null. */
export function builtClasspath(root = ROOT) {
  const file = join(root, 'server', 'target', 'launch-classpath.txt');
  const classes = join(root, 'server', 'target', 'classes');
  const built = statSync(file, { throwIfNoEntry: false });
  if (!built || !existsSync(classes)) return null;
  const latest = (paths) => Math.max(...paths.map((p) => newest(join(root, p))));
  if (latest(SOURCES) > newest(classes) || latest(POMS) > built.mtimeMs) return null;
  return [classes, readFileSync(file, 'utf8').trim()].filter(Boolean).join(':');
}

/** The JVM options Maven gives the JVM it runs: .mvn/jvm.config's, then MAVEN_OPTS. */
function mavenJvmOptions(env, root) {
  const config = join(root, '.mvn', 'jvm.config');
  const fromConfig = existsSync(config) ? readFileSync(config, 'utf8').split(/\s+/).filter(Boolean) : [];
  return [...fromConfig, ...(env.MAVEN_OPTS ?? '').split(/\s+/).filter(Boolean)];
}

/**
 * The command that starts the server of the checkout in `root` with `properties` (["-Ddw.…=…",
 * …]) and, for its JVM, `jvmOptions` after Maven's own: {command, args, env, direct}. `direct`
 * says which way it starts (java on the built classpath, or mvn exec:java). Nothing is run.
 */
export function launchCommand({ properties = [], jvmOptions = [], env = process.env, root = ROOT } = {}) {
  const classpath = builtClasspath(root);
  if (classpath === null) {
    const mavenOpts = [env.MAVEN_OPTS ?? '', ...jvmOptions].join(' ').trim();
    return {
      command: 'mvn',
      args: ['-B', '-q', '-ntp', 'exec:java', ...properties],
      env: mavenOpts ? { ...env, MAVEN_OPTS: mavenOpts } : env,
      direct: false,
    };
  }
  return {
    command: 'java',
    args: [...mavenJvmOptions(env, root), ...jvmOptions, ...properties, '-cp', classpath, MAIN_CLASS],
    env,
    direct: true,
  };
}

/**
 * launchCommand for this checkout, with what `mvn exec:java` makes before it serves the page (the
 * npm packages and generated code: scripts/client-libraries.sh) made first when Maven is skipped.
 */
export function serverLaunch(options = {}) {
  const launch = launchCommand(options);
  if (launch.direct) {
    const libraries = spawnSync('bash', [join(ROOT, 'scripts', 'client-libraries.sh')], {
      stdio: 'inherit',
      env: launch.env,
    });
    if (libraries.status !== 0) throw new Error('scripts/client-libraries.sh could not make the client libraries');
  }
  return launch;
}

/**
 * serverLaunch with `properties` and `jvmOptions` as one shell command line (Playwright's
 * webServer runs its command in a shell, with this process's environment, so what Maven's JVM is
 * given goes in MAVEN_OPTS on the line): the shell becomes the server's process.
 */
export function serverCommandLine({ properties, jvmOptions = [] }) {
  const { command, args, env } = serverLaunch({ properties, jvmOptions });
  const mavenOpts = env.MAVEN_OPTS !== process.env.MAVEN_OPTS ? `MAVEN_OPTS=${shellWord(env.MAVEN_OPTS)} ` : '';
  return `${mavenOpts}exec ${[command, ...args].map(shellWord).join(' ')}`;
}

/** `word` as the shell reads it back: quoted unless it holds only characters the shell leaves alone. */
export function shellWord(word) {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
