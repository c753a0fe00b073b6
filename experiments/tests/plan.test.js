import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { caseId } from '#common/cell.js';
import { comparisonGroups, expandPlan, groupsSelected, listPlans, loadPlan } from '../plan.js';
import { temporaryDirectory } from '#common/temporary-directory.js';
import { sessionGrep } from '../study-settings.js';

test("the thesis-full plan is the source study's matrix; thesis leaves out its two heaviest groups", () => {
  const cells = expandPlan(loadPlan('thesis-full'));
  const ids = new Set(cells.map(caseId));
  // scenario 1: 2 objects × 3 formats × 2 compressions × 5 counts × 2 networks, less 100,000 at 10 Mbit/s
  assert.equal(cells.filter((c) => c.scenario === 1).length, 2 * 3 * 2 * 5 * 2 - 2 * 3 * 2);
  assert.ok(!ids.has('books/100000/json/none/scenario1/cm0/10mbit'));
  assert.ok(ids.has('videos/100000/xml/gzip/scenario1/cm0/unthrottled'));
  // scenarios 2 and 3: Books, 10 Mbit/s, no GZIP, 3 formats, N up to 10,000, CM1–CM5
  assert.equal(cells.filter((c) => c.scenario === 2 || c.scenario === 3).length, 2 * 3 * 4 * 5);
  assert.ok(
    cells
      .filter((c) => c.scenario === 2)
      .every((c) => c.object === 'books' && c.network === '10mbit' && c.compression === 'none'),
  );
  // scenarios 4 and 5: CM2–CM5 for 10, CM2–CM4 for 100 and 1,000, CM2–CM3 for 10,000; both networks
  const scenario4 = cells.filter((c) => c.scenario === 4 && c.network === '10mbit');
  assert.deepStrictEqual(
    scenario4.map((c) => `${c.count}:${c.cm}`),
    ['10:2', '10:3', '10:4', '10:5', '100:2', '100:3', '100:4', '1000:2', '1000:3', '1000:4', '10000:2', '10000:3'],
  );
  assert.equal(cells.length, 108 + 120 + 48);
  assert.equal(ids.size, cells.length, 'no duplicates');
  // thesis: the same but for the server against the browser sorting 10,000 Books at CM4 and CM5.
  const thesis = expandPlan(loadPlan('thesis'));
  const left = (c) => (c.scenario === 2 || c.scenario === 3) && c.count === 10000 && c.cm >= 4;
  assert.deepStrictEqual(
    thesis,
    cells.filter((c) => !left(c)),
  );
  assert.equal(cells.filter(left).length, 12);
  assert.deepStrictEqual([loadPlan('thesis').minutes, loadPlan('thesis-full').minutes], [30, 120]);
  assert.deepStrictEqual(loadPlan('thesis-full').protocol, loadPlan('thesis').protocol);
});

test('cells run network by network, each named by its case id', () => {
  const cells = expandPlan(loadPlan('quick'));
  const networks = cells.map((c) => c.network);
  assert.deepStrictEqual([...new Set(networks)], ['unthrottled', '10mbit']);
  assert.equal(networks.lastIndexOf('unthrottled') < networks.indexOf('10mbit'), true);
  assert.match(caseId(cells[0]), /^books\/10\/json\/none\/scenario1\/cm0\/unthrottled$/);
});

test("NETWORK replaces the plan's networks", () => {
  const cells = expandPlan(loadPlan('smoke'), { network: 'fast-4g' });
  assert.ok(cells.every((c) => c.network === 'fast-4g'));
  assert.throws(
    () => expandPlan(loadPlan('smoke'), { network: 'dialup' }),
    /Unknown network "dialup"; the profiles are unthrottled, 10mbit/,
  );
});

test('every shipped plan is valid; a bad one says what is wrong', () => {
  const data = join(temporaryDirectory('plan-data'), 'my-logs.jsonl');
  writeFileSync(data, '{"a":1}\n');
  // your-data measures the datasets it is given: DATA names one.
  for (const name of listPlans()) assert.ok(expandPlan(loadPlan(name, { data })).length > 0, name);
  assert.throws(
    () => loadPlan('nonesuch'),
    /No plan "nonesuch".*the plans are compression, formats, protocols, quick, smoke, thesis, thesis-full, thesis-source, your-data/,
  );
});

test('DATA brings datasets to a plan: named after the file or as given; a group\'s "datasets" is all of them', () => {
  const directory = temporaryDirectory('plan-data');
  const logs = join(directory, 'My_Logs.v2.jsonl');
  const listing = join(directory, 'listing.json');
  writeFileSync(logs, '{"a":1}\n');
  writeFileSync(listing, '[{"a":1}]');
  const plan = loadPlan('your-data', { data: `${logs}, files=${listing}` });
  assert.deepStrictEqual(plan.datasets, { 'my-logs': logs, files: listing });
  assert.deepStrictEqual(plan.groups[0].objects, ['my-logs', 'files']);
  const cells = expandPlan(plan);
  assert.ok(cells.some((c) => c.object === 'files' && c.format === 'protobuf' && c.decoder === 'reflection'));
  assert.throws(() => loadPlan('your-data'), /measures "datasets", but none is given: run with DATA=/);
  assert.throws(
    () => loadPlan('your-data', { data: 'books=x.json' }),
    /datasets has "books", which is not a dataset name/,
  );
  assert.throws(() => loadPlan('your-data', { data: join(directory, 'none.json') }), /dataset none: no file/);
  assert.throws(() => loadPlan('your-data', { data: `A B=${logs}` }), /"A B" is not a dataset name/);
});

test('DATA_PROTO gives a dataset its own .proto and message; what it names must be there', () => {
  const directory = temporaryDirectory('plan-proto');
  const logs = join(directory, 'logs.jsonl');
  const proto = join(directory, 'logs.proto');
  writeFileSync(logs, '{"a":1}\n');
  writeFileSync(proto, 'syntax = "proto3"; message Log { int32 a = 1; }');
  assert.deepStrictEqual(loadPlan('your-data', { data: logs, dataProto: `${proto}#Log` }).datasets, {
    logs: { file: logs, proto, message: 'Log' },
  });
  const two = loadPlan('your-data', { data: `logs=${logs},other=${logs}`, dataProto: `other=${proto}#pkg.Log` });
  assert.deepStrictEqual(two.datasets, { logs, other: { file: logs, proto, message: 'pkg.Log' } });
  assert.throws(
    () => loadPlan('your-data', { data: `logs=${logs},other=${logs}`, dataProto: `${proto}#Log` }),
    /DATA_PROTO=.*: write name=path\/to\/file.proto#Message/,
  );
  assert.throws(() => loadPlan('your-data', { data: logs, dataProto: `${proto}` }), /write name=path/);
  assert.throws(
    () => loadPlan('your-data', { data: logs, dataProto: `nope=${proto}#Log` }),
    /DATA_PROTO names nope, which is not one of the datasets/,
  );
  assert.throws(
    () => loadPlan('your-data', { data: logs, dataProto: `${join(directory, 'none.proto')}#Log` }),
    /dataset logs: no .proto/,
  );
});

test("a plan can extend another: the source's own protocol on the same cells, interleaved too", () => {
  const source = loadPlan('thesis-source');
  assert.equal(source.name, 'thesis-source');
  assert.deepStrictEqual(source.protocol.warmup, { iterations: 100 });
  const { iterationsPerVisit, minRounds, maxRounds } = source.protocol.rounds;
  assert.equal(iterationsPerVisit * minRounds, 100, '100 measured per cell');
  assert.equal(minRounds, maxRounds);
  assert.equal(source.protocol.stop, null, 'no early stop');
  assert.deepStrictEqual(expandPlan(source), expandPlan(loadPlan('thesis-full')));
});

test('cells fall into the comparison groups the report compares', () => {
  const groups = comparisonGroups(loadPlan('thesis-full'));
  assert.equal(groups.length, 18 + 20 + 24);
  assert.equal(
    groups.reduce((n, g) => n + g.cells.length, 0),
    276,
  );
  const byId = new Map(groups.map((g) => [g.id, g]));
  assert.deepStrictEqual(
    byId
      .get('formats/videos/1000/10mbit')
      .cells.map((c) => `${c.format}/${c.compression}`)
      .sort(),
    ['json/gzip', 'json/none', 'protobuf/gzip', 'protobuf/none', 'xml/gzip', 'xml/none'],
  );
  assert.deepStrictEqual(
    byId
      .get('side/books/100/10mbit/cm4')
      .cells.map((c) => `${c.format}/${c.scenario}`)
      .sort(),
    ['json/2', 'json/3', 'protobuf/2', 'protobuf/3', 'xml/2', 'xml/3'],
  );
  assert.deepStrictEqual(
    byId.get('caching/books/10/unthrottled/cm5/json/none').cells.map((c) => c.scenario),
    [4, 5],
  );
  assert.ok(groups.every((g) => g.cells.every((c) => c.network === g.network)));
});

test('old protocols are refused with what to write instead', () => {
  assert.throws(
    () => loadPlan(writePlan({ name: 'old', protocol: { warmup: 100, reps: 100 }, groups: loadPlan('smoke').groups })),
    /protocol: unknown protocol key "reps"/,
  );
});

test('protocols: each makes its own comparison groups; a plan without is cleartext HTTP/1.1', () => {
  const plan = loadPlan('protocols');
  const groups = comparisonGroups(plan);
  const protocols = ['http1.1', 'http1.1-tls', 'h2', 'h3'];
  assert.equal(groups.length, 2 * 3 * protocols.length, 'N × network × protocol');
  for (const protocol of protocols) {
    const own = groups.filter((g) => g.protocol === protocol);
    assert.equal(own.length, 6, protocol);
    assert.ok(own.every((g) => g.cells.length === 9 && g.cells.every((c) => c.protocol === protocol)));
  }
  assert.ok(groups.some((g) => g.id === 'formats/books/1000/lte/h2'));
  // HTTP/3 with the same cells as HTTP/2 (docs/protocols.md).
  assert.deepEqual(
    groups.filter((g) => g.protocol === 'h3').map((g) => g.id.replace(/\/h3$/, '/h2')),
    groups.filter((g) => g.protocol === 'h2').map((g) => g.id),
  );
  assert.ok(
    groups.some((g) => g.id === 'formats/books/1000/lte'),
    'cleartext HTTP/1.1 keeps the ids it had',
  );
  assert.ok(expandPlan(loadPlan('smoke')).every((c) => c.protocol === 'http1.1'));
  const group = { ...loadPlan('smoke').groups[0] };
  assert.throws(
    () => loadPlan(writePlan({ name: 'bad', groups: [{ ...group, protocols: ['quic'] }] })),
    /group 1: protocols has "quic"; allowed: http1\.1, http1\.1-tls, h2, h3/,
  );
  assert.throws(
    () => loadPlan(writePlan({ name: 'bad', groups: [{ ...group, protocols: [] }] })),
    /group 1 needs "protocols" \(a list\)/,
  );
  assert.deepStrictEqual(
    [
      ...new Set(
        expandPlan(loadPlan(writePlan({ name: 'all', groups: [{ ...group, protocols: 'all' }] }))).map(
          (c) => c.protocol,
        ),
      ),
    ],
    ['http1.1', 'http1.1-tls', 'h2', 'h3'],
  );
});

function writePlan(plan) {
  const path = join(temporaryDirectory('rtl-plan-'), 'plan.json');
  writeFileSync(path, JSON.stringify(plan));
  return path;
}

test(
  'levels: a plan measures compressions at the levels it names, the default otherwise, ' +
    'and refuses levels out of range',
  () => {
    const plan = loadPlan('compression');
    const cells = expandPlan(plan);
    const configurations = [...new Set(cells.map((c) => `${c.compression}${c.level === null ? '' : ` ${c.level}`}`))];
    assert.deepStrictEqual(configurations, [
      'none',
      'gzip 1',
      'gzip 6',
      'gzip 9',
      'deflate 6',
      'br 1',
      'br 6',
      'br 11',
      'zstd 1',
      'zstd 3',
      'zstd 19',
    ]);
    assert.equal(
      cells.length,
      3 * 11 * 3 * 3 - 3 * 3 - 2 * (10 + 2 * 5),
      'Brotli 11 is left out at N = 10,000; on slow links there, XML and non-default levels',
    );
    assert.ok(!cells.some((c) => c.compression === 'br' && c.level === 11 && c.count === 10000));
    // A default level leaves the level out of the id, so it matches a plan without levels; others name it.
    assert.ok(cells.some((c) => caseId(c) === 'books/10/json/gzip/scenario1/cm0/unthrottled'));
    assert.ok(cells.some((c) => caseId(c) === 'books/10/json/br-11/scenario1/cm0/unthrottled'));
    const groups = comparisonGroups(plan);
    assert.equal(groups.length, 9);
    assert.deepStrictEqual(
      groups.map((g) => g.cells.length),
      [33, 33, 30, 33, 33, 10, 33, 33, 10],
    );
    const bad = (levels) => {
      const directory = temporaryDirectory('plan-');
      const path = join(directory, 'bad.json');
      writeFileSync(
        path,
        JSON.stringify({ ...plan, groups: [{ ...plan.groups[0], compressions: ['none', 'br'], levels }] }),
      );
      return () => loadPlan(path);
    };
    assert.throws(bad({ br: [12] }), /level of br must be a whole number from 0 to 11 \(default 6\), not 12/);
    assert.throws(bad({ zstd: [3] }), /levels names "zstd", which is not one of its compressions \(none, br\)/);
    assert.throws(bad({ br: [] }), /levels of br must be a list of levels/);
    assert.throws(bad([1]), /"levels" must map compressions to lists of levels/);
  },
);

test('a plan may give its total time in minutes: above 0, or null for none, and only with a stop rule', () => {
  const directory = temporaryDirectory('plan-minutes');
  const planWith = (extra) => {
    const path = join(directory, `plan-${Object.keys(extra).join('-')}-${JSON.stringify(extra).length}.json`);
    const { groups } = loadPlan('smoke');
    writeFileSync(path, JSON.stringify({ name: 'mine', protocol: {}, groups, ...extra }));
    return path;
  };
  assert.equal(loadPlan(planWith({ minutes: 20 })).minutes, 20);
  assert.equal(loadPlan(planWith({ minutes: null })).minutes, null);
  for (const minutes of [0, -3, '30']) {
    assert.throws(() => loadPlan(planWith({ minutes })), /"minutes" must be a number of minutes above 0/);
  }
  assert.throws(
    () => loadPlan(planWith({ minutes: 20, protocol: { stop: null } })),
    /"minutes" needs a stop rule to share out/,
  );
});

test("a session's groups are those Playwright's -g and --grep-invert let through, each cell with its case id", () => {
  const groups = comparisonGroups(loadPlan('quick'));
  for (const group of groups) for (const cell of group.cells) assert.equal(cell.case_id, caseId(cell));
  assert.deepEqual(groupsSelected(groups, {}), groups);
  const side = groupsSelected(groups, { grep: [/side\//] });
  assert.ok(side.length > 0 && side.length < groups.length);
  assert.ok(side.every((g) => g.id.startsWith('side/')));
  const notSide = groupsSelected(groups, { grep: /.*/, grepInvert: [/side\//] });
  assert.equal(side.length + notSide.length, groups.length);
  // Playwright's title puts the project (unnamed in the study's config) and the file first.
  assert.deepEqual(groupsSelected(groups, { grep: /^ study\.spec\.js side\// }), side);
  assert.deepEqual(groupsSelected(groups, { name: 'chromium', grep: /^chromium study\.spec\.js side\// }), side);
});

test("a session's -g and --grep-invert, read from its command line as Playwright reads them", () => {
  const grep = (...argv) => sessionGrep({ RTL_SESSION_ARGV: JSON.stringify(argv) });
  assert.deepEqual(grep(), { grep: undefined, grepInvert: undefined });
  assert.deepEqual(grep('-g', 'side/').grep, /side\//gi);
  assert.deepEqual(grep('--grep=side/', '--workers', '1').grep, /side\//gi);
  assert.deepEqual(grep('-gside/').grep, /side\//gi);
  assert.deepEqual(grep('--grep-invert', '/^ study/i').grepInvert, /^ study/i);
  assert.deepEqual(grep('-G', 'x', '-g', 'y'), { grep: /y/gi, grepInvert: /x/gi });
  const groups = comparisonGroups(loadPlan('quick'));
  assert.deepEqual(
    groupsSelected(groups, grep('-g', 'SIDE/')).map((g) => g.id),
    groups.filter((g) => g.id.startsWith('side/')).map((g) => g.id),
  );
});
