// How the lab's scripts and tests start the server (server-launch.js): java on the classpath the
// build left while its classes are newer than the sources (and the classpath file than the POMs),
// with Maven's JVM options; Maven otherwise.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { builtClasspath, launchCommand, shellWord } from '#common/server-launch.js';

/** A checkout with a build: sources an hour old, a compiled class and the classpath file now. */
function checkout() {
  const root = temporaryDirectory('rtl-launch-');
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const dir of ['server/src/main/java', 'proto', '.mvn', 'server/target/classes']) {
    mkdirSync(join(root, dir), { recursive: true });
  }
  for (const file of ['server/src/main/java/A.java', 'proto/lab.proto', 'server/pom.xml', 'pom.xml']) {
    writeFileSync(join(root, file), '');
    utimesSync(join(root, file), hourAgo, hourAgo);
  }
  writeFileSync(join(root, '.mvn/jvm.config'), '-Xms2g -XX:+AlwaysPreTouch\n');
  writeFileSync(join(root, 'server/target/launch-classpath.txt'), '/m2/a.jar:/m2/b.jar\n');
  writeFileSync(join(root, 'server/target/classes/A.class'), '');
  return root;
}

test('a build newer than every source starts as java, with the options Maven would give its JVM', () => {
  const root = checkout();
  assert.equal(builtClasspath(root), `${join(root, 'server/target/classes')}:/m2/a.jar:/m2/b.jar`);
  const launch = launchCommand({
    root,
    properties: ['-Ddw.server.applicationConnectors[0].port=18000'],
    jvmOptions: ['-Xmx1g'],
    env: { MAVEN_OPTS: '-XX:-AlwaysPreTouch -Xms256m' },
  });
  assert.equal(launch.direct, true);
  assert.equal(launch.command, 'java');
  // jvm.config, then MAVEN_OPTS (the later wins, as in mvn), then the caller's; the settings; the classpath.
  assert.deepStrictEqual(launch.args, [
    '-Xms2g',
    '-XX:+AlwaysPreTouch',
    '-XX:-AlwaysPreTouch',
    '-Xms256m',
    '-Xmx1g',
    '-Ddw.server.applicationConnectors[0].port=18000',
    '-cp',
    builtClasspath(root),
    'lab.responsetime.LabApplication',
  ]);
});

test('a source changed since the build, or no build, goes through Maven, which compiles first', () => {
  for (const changed of ['server/src/main/java/A.java', 'proto/lab.proto', 'server/pom.xml', 'pom.xml']) {
    const root = checkout();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, changed), later, later);
    assert.equal(builtClasspath(root), null, changed);
    const launch = launchCommand({
      root,
      properties: ['-Da=b'],
      jvmOptions: ['-Xmx1g'],
      env: { MAVEN_OPTS: '-Xms256m' },
    });
    assert.deepStrictEqual(
      { command: launch.command, args: launch.args, direct: launch.direct },
      { command: 'mvn', args: ['-B', '-q', '-ntp', 'exec:java', '-Da=b'], direct: false },
      changed,
    );
    assert.equal(launch.env.MAVEN_OPTS, '-Xms256m -Xmx1g');
  }
  assert.equal(builtClasspath(temporaryDirectory('rtl-launch-none-')), null);
});

test('a source compiled again since the classpath file was written (the POMs unchanged) starts as java', () => {
  const root = checkout();
  const [later, latest] = [new Date(Date.now() + 60_000), new Date(Date.now() + 120_000)];
  utimesSync(join(root, 'server/src/main/java/A.java'), later, later);
  utimesSync(join(root, 'server/target/classes/A.class'), latest, latest);
  assert.equal(builtClasspath(root), `${join(root, 'server/target/classes')}:/m2/a.jar:/m2/b.jar`);
});

test('a command line word comes back from the shell as it went in', () => {
  for (const word of ['-Ddw.server.applicationConnectors[0].port=8080', "it's", 'a b', '*', '-Xms2g', '']) {
    const echoed = spawnSync('sh', ['-c', `printf %s ${shellWord(word)}`], { encoding: 'utf8' }).stdout;
    assert.equal(echoed, word);
  }
});
