import assert from 'node:assert/strict';
import { test } from 'node:test';
import { caseId } from '../../client/schema.js';
import { expandPlan, listPlans, loadPlan } from '../plan.js';

test('the thesis plan is SPEC §6\'s matrix', () => {
  const cells = expandPlan(loadPlan('thesis'));
  const ids = new Set(cells.map(caseId));
  // scenario 1: 2 objects × 3 formats × 2 compressions × 5 counts × 2 networks, less 100,000 at 10 Mbit/s
  assert.equal(cells.filter((c) => c.scenario === 1).length, 2 * 3 * 2 * 5 * 2 - 2 * 3 * 2);
  assert.ok(!ids.has('books/100000/json/none/scenario1/cm0/10mbit'));
  assert.ok(ids.has('videos/100000/xml/gzip/scenario1/cm0/unthrottled'));
  // scenarios 2 and 3: Books, 10 Mbit/s, no GZIP, 3 formats, N up to 10,000, CM1–CM5
  assert.equal(cells.filter((c) => c.scenario === 2 || c.scenario === 3).length, 2 * 3 * 4 * 5);
  assert.ok(cells.filter((c) => c.scenario === 2).every((c) => c.object === 'books' && c.network === '10mbit' && c.compression === 'none'));
  // scenarios 4 and 5: CM2–CM5 for 10, CM2–CM4 for 100 and 1,000, CM2–CM3 for 10,000; both networks
  const s4 = cells.filter((c) => c.scenario === 4 && c.network === '10mbit');
  assert.deepStrictEqual(s4.map((c) => `${c.count}:${c.cm}`),
    ['10:2', '10:3', '10:4', '10:5', '100:2', '100:3', '100:4', '1000:2', '1000:3', '1000:4', '10000:2', '10000:3']);
  assert.equal(cells.length, 108 + 120 + 48);
  assert.equal(ids.size, cells.length, 'no duplicates');
});

test('cells run network by network, each named by its case id', () => {
  const cells = expandPlan(loadPlan('quick'));
  const networks = cells.map((c) => c.network);
  assert.deepStrictEqual([...new Set(networks)], ['unthrottled', '10mbit']);
  assert.equal(networks.lastIndexOf('unthrottled') < networks.indexOf('10mbit'), true);
  assert.match(caseId(cells[0]), /^books\/10\/json\/none\/scenario1\/cm0\/unthrottled$/);
});

test('NETWORK replaces the plan\'s networks', () => {
  const cells = expandPlan(loadPlan('smoke'), { network: 'fast-4g' });
  assert.ok(cells.every((c) => c.network === 'fast-4g'));
  assert.throws(() => expandPlan(loadPlan('smoke'), { network: 'dialup' }), /Unknown network "dialup"; the profiles are unthrottled, 10mbit/);
});

test('every shipped plan is valid; a bad one says what is wrong', () => {
  for (const name of listPlans()) assert.ok(expandPlan(loadPlan(name)).length > 0, name);
  assert.throws(() => loadPlan('nonesuch'), /No plan "nonesuch".*the plans are quick, smoke, thesis, thesis-adaptive/);
});

test('a plan can extend another: the same cells under another protocol', () => {
  const adaptive = loadPlan('thesis-adaptive');
  assert.equal(adaptive.name, 'thesis-adaptive');
  assert.equal(adaptive.protocol.adaptive.target, 0.02);
  assert.deepStrictEqual(expandPlan(adaptive), expandPlan(loadPlan('thesis')));
});
