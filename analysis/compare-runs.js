// Do two runs of the same plan give the same answers? `npm run compare-runs -- <run A> <run B>`
// prints, and returns, the figures that say so: cell medians that moved by more than 10 % (and
// which way; the median B/A over every cell tells a machine slower throughout from noise);
// comparisons resolved in both runs that point opposite ways; how many comparisons' CIs lie
// apart in the two runs, against how many would if each CI held the run-to-run variation (it
// holds the variation within its run only), and the spread from run to run that the CIs leave
// out (runToRunSpread); decision-table situations whose recommendation (a
// configuration, or "no clear winner") differs, how many of those name two different
// configurations, and whether each difference had a margin left unsettled in either run;
// source-conclusion verdicts that differ, with the comparisons that counted otherwise; and the
// agreement in one word (summaryOf): the same answers, the same but on the δ line (whatever
// differs, differs only where one run left a margin unsettled), or different (somewhere the runs
// contradict each other). Each run is analysed on its own, exactly as its report is (at its
// plan's δ and looks). Runs in two engines (BROWSER) also get each situation's answer per engine,
// with the situations whose answer differs by engine told apart from those on the δ line
// (engineAnswers). The sentences state every ratio as the report does (answer-words.js relative):
// one direction, k ≥ 1, naming which is faster.

import { relative } from '#common/answer-words.js';
import { VERDICTS, isResolved, verdictOf } from '#common/comparison.js';
import { normalCdf } from '#common/compare.js';
import { medianOrNull } from '#common/stats.js';
import { DEFAULT_JUDGING, NO_CLEAR_WINNER, comparisons, decisions, sourceConclusions } from './answers.js';
import { readRuns } from './read-runs.js';
import { runEngine } from './engine.js';

/** A median moved "a lot" when it changed by more than this fraction. */
export const MEDIAN_TOLERANCE = 0.1;

function analyse(path) {
  const { runs, cells, groups, judging } = readRuns([path]);
  const all = comparisons(cells, groups);
  return {
    context: runs[0].context,
    judging,
    cells,
    all,
    decisions: decisions(cells, groups),
    conclusions: sourceConclusions(cells, all, judging),
  };
}

/** The z of a 95 % interval. */
const Z95 = 1.959964;

/** A 95 % CI's standard deviation on the log scale: its log half-width over 1.96. */
const logSigma = (c) => (Math.log(c.ci_high) - Math.log(c.ci_low)) / (2 * Z95);

/**
 * How likely two 95 % CIs of one ratio lie apart when each is a normal interval (on the log
 * scale) around an estimate of the same true ratio: |log a − log b| > 1.96 (σ_a + σ_b), with
 * log a − log b ~ N(0, σ_a² + σ_b²) (σ: logSigma). 0.56 % for equal widths, up to 5 % when one
 * is far wider.
 */
export function chanceApart(a, b) {
  const [sa, sb] = [a, b].map(logSigma);
  if (!(sa > 0) || !(sb > 0)) return 0;
  return 2 * (1 - normalCdf((Z95 * (sa + sb)) / Math.hypot(sa, sb)));
}

/**
 * How far two runs' ratios differ beyond what their CIs allow, over comparisons with a CI in
 * both ([[a, b], …], each {ratio, ci_low, ci_high}). Each difference of log ratios d = log a −
 * log b is set against the spread the two CIs give it, v = σ_a² + σ_b² (σ: logSigma), as if d ~
 * N(0, v) — each CI holding the run-to-run variation. `rms_z` is the root mean square of d / √v:
 * about 1 when they do. `tau` is what one run adds on top of its CI (the standard deviation of a
 * log ratio from run to run): the τ ≥ 0 at which Σ d² / (v + 2τ²) equals the number of
 * comparisons — the Paule–Mandel estimator of between-study variance, with the mean difference
 * known to be 0 (two runs of one plan estimate the same ratios); 0 when Σ d² / v is no more than
 * that number already. The log CI is taken as symmetric: its half-width, not its two sides.
 */
export function runToRunSpread(pairs) {
  const terms = pairs
    .map(([a, b]) => ({ d: Math.log(a.ratio) - Math.log(b.ratio), v: logSigma(a) ** 2 + logSigma(b) ** 2 }))
    .filter((t) => Number.isFinite(t.d) && t.v > 0 && Number.isFinite(t.v));
  const k = terms.length;
  if (!k) return { comparisons: 0, rms_z: null, tau: null };
  const q = (tau2) => terms.reduce((sum, t) => sum + t.d ** 2 / (t.v + 2 * tau2), 0);
  let tau2 = 0;
  if (q(0) > k) {
    // q falls as τ² grows, and at Σ d² / 2k it is below k (each term below d² / 2τ²): bisect.
    let [low, high] = [0, terms.reduce((sum, t) => sum + t.d ** 2, 0) / (2 * k)];
    for (let i = 0; i < 200 && high - low > 1e-12 * high; i++) {
      const middle = (low + high) / 2;
      if (q(middle) > k) low = middle;
      else high = middle;
    }
    tau2 = (low + high) / 2;
  }
  return { comparisons: k, rms_z: Math.sqrt(q(0) / k), tau: Math.sqrt(tau2) };
}

const opposite = (x, y) =>
  (x === VERDICTS.A_FASTER && y === VERDICTS.B_FASTER) || (x === VERDICTS.B_FASTER && y === VERDICTS.A_FASTER);

/** The agreement between two analysed runs. */
export function agreement(a, b) {
  const cellsB = new Map(b.cells.map((c) => [c.case_id, c]));
  const both = a.cells
    .filter((c) => cellsB.has(c.case_id))
    .map((c) => ({ case_id: c.case_id, a_ms: c.stats.median, b_ms: cellsB.get(c.case_id).stats.median }));
  const moved = both.filter((m) => Math.abs(m.b_ms / m.a_ms - 1) > MEDIAN_TOLERANCE);
  // Whether B was slower (or faster) throughout — the machine, not the method — shows in the
  // median of B/A over every cell and in how many moved cells moved the same way.
  const medianRatio = medianOrNull(both.map((m) => m.b_ms / m.a_ms));

  const key = (c) => `${c.a_id} | ${c.b_id}`;
  const comparisonsB = new Map(b.all.map((c) => [key(c), c]));
  const delta = (run) => (run.judging ?? DEFAULT_JUDGING).delta;
  let resolvedInBoth = 0;
  const oppositeWays = [];
  // Comparisons whose CIs lie apart: the two runs' estimates differ by more than their CIs allow.
  let expectedApart = 0;
  const apart = [];
  const withCi = [];
  const hasCi = (c) => Number.isFinite(c.ci_low) && Number.isFinite(c.ci_high) && c.ci_low > 0;
  for (const c of a.all) {
    const other = comparisonsB.get(key(c));
    if (!other) continue;
    if (hasCi(c) && hasCi(other)) {
      withCi.push([c, other]);
      expectedApart += chanceApart(c, other);
      if (c.ci_high < other.ci_low || other.ci_high < c.ci_low) {
        apart.push({
          comparison: key(c),
          a: { ratio: c.ratio, ci_low: c.ci_low, ci_high: c.ci_high, rounds: c.rounds },
          b: { ratio: other.ratio, ci_low: other.ci_low, ci_high: other.ci_high, rounds: other.rounds },
        });
      }
    }
    const [va, vb] = [verdictOf(c, delta(a), c.margin_rule ?? 1), verdictOf(other, delta(b), other.margin_rule ?? 1)];
    if (!isResolved(va) || !isResolved(vb)) continue;
    resolvedInBoth++;
    if (opposite(va, vb))
      oppositeWays.push({
        comparison: key(c),
        a: { verdict: va, ratio: c.ratio },
        b: { verdict: vb, ratio: other.ratio },
      });
  }

  const situation = (d) => `${d.object}/${d.count}/${d.network}/cm${d.cm}`;
  const decisionsB = new Map(b.decisions.map((d) => [situation(d), d]));
  const situations = a.decisions.filter((d) => decisionsB.has(situation(d)));
  // A difference where a margin was left unsettled in either run (its group's budget ran out
  // with its CI spanning a δ boundary, or before its verdict held for the looks the stop rule
  // asks) is told apart from one where both runs settled every margin.
  const unsettledMargin = (d) => d.others.find((o) => !o.settled);
  const differentDecisions = situations
    .filter((d) => d.recommendation !== decisionsB.get(situation(d)).recommendation)
    .map((d) => {
      const e = decisionsB.get(situation(d));
      const open = { a: unsettledMargin(d) ?? null, b: unsettledMargin(e) ?? null };
      // Each run's fastest and its margin over the next: where they name the same pair, the two
      // estimates side by side show how far the runs differ on it.
      const nearest = (x) => ({ fastest: x.fastest, margin: x.margin });
      return {
        situation: situation(d),
        a: d.recommendation,
        b: e.recommendation,
        settled_in_both: !open.a && !open.b,
        nearest: { a: nearest(d), b: nearest(e) },
        unsettled_margin: Object.fromEntries(
          Object.entries(open)
            .filter(([, o]) => o)
            .map(([run, o]) => [
              run,
              {
                over: o.configuration,
                ratio: o.ratio,
                ci_low: o.ci_low,
                ci_high: o.ci_high,
                verdict: o.verdict,
                steady_looks: o.steady_looks,
              },
            ]),
        ),
      };
    });

  const conclusionsB = new Map(b.conclusions.map((c) => [c.claim, c]));
  const differentVerdicts = a.conclusions
    .filter((c) => conclusionsB.get(c.claim)?.verdict !== c.verdict)
    .map((c) => {
      const changed = changedCounts(c, conclusionsB.get(c.claim));
      return {
        claim: c.claim,
        a: c.verdict,
        b: conclusionsB.get(c.claim)?.verdict,
        changed,
        // Holds for the claim in one run and contradicts it in the other (or measured in one only).
        contradictions: changed.filter((x) => !onTheLine(x)).length,
      };
    });
  const contradictions = {
    opposite_ways: oppositeWays.length,
    different_configurations: differentDecisions.filter((d) => d.a !== NO_CLEAR_WINNER && d.b !== NO_CLEAR_WINNER)
      .length,
    decisions_settled_in_both: differentDecisions.filter((d) => d.settled_in_both).length,
    verdict_comparisons: differentVerdicts.reduce((sum, v) => sum + v.contradictions, 0),
  };

  return {
    cells: {
      in_both: both.length,
      medians_moved_over_10_percent: moved.length,
      moved_slower_in_b: moved.filter((m) => m.b_ms > m.a_ms).length,
      median_ratio_b_to_a: medianRatio,
      moved,
    },
    comparisons: {
      resolved_in_both: resolvedInBoth,
      opposite_ways: oppositeWays.length,
      opposite: oppositeWays,
      with_ci_in_both: withCi.length,
      cis_apart: apart.length,
      cis_apart_expected: expectedApart,
      apart,
      run_to_run: runToRunSpread(withCi),
    },
    decisions: {
      situations: situations.length,
      same: situations.length - differentDecisions.length,
      // Both runs name a configuration, and not the same one (the rest: one says "no clear winner").
      different_configurations: contradictions.different_configurations,
      different_with_both_settled: contradictions.decisions_settled_in_both,
      different: differentDecisions,
    },
    conclusions: {
      claims: a.conclusions.length,
      same: a.conclusions.length - differentVerdicts.length,
      different: differentVerdicts,
    },
    summary: summaryOf(differentDecisions.length, differentVerdicts.length, contradictions),
    engines: engineAnswers(a, b, situations, (d) => decisionsB.get(situation(d)), situation),
  };
}

/** What a situation's answer is in one run: its recommendation, fastest and margin over the next. */
const answerOf = (d) => ({
  recommendation: d.recommendation,
  fastest: d.fastest,
  margin: d.margin,
  settled: d.settled,
});

/**
 * Where two runs in different engines (run.json's browser block) give different answers: per
 * decision-table situation, each engine's recommendation and margin, and whether the answer is
 * the same, differs by engine (both runs settled every margin and still differ: the engines
 * disagree, by the same rule that calls two runs of one engine contradictory), or differs only on
 * the δ line (a margin one run left unsettled: runs of one engine differ like that too). Null
 * for two runs of one engine.
 */
export function engineAnswers(a, b, situations, inB, situation) {
  const [engineA, engineB] = [runEngine(a.context), runEngine(b.context)];
  if (engineA.engine === engineB.engine) return null;
  const rows = situations.map((d) => {
    const e = inB(d);
    const answer =
      d.recommendation === e.recommendation ? 'same' : d.settled && e.settled ? 'differs by engine' : 'on the δ line';
    return { situation: situation(d), a: answerOf(d), b: answerOf(e), answer };
  });
  const count = (answer) => rows.filter((r) => r.answer === answer).length;
  return {
    a: engineA,
    b: engineB,
    // Runs shaped differently (cdp and netns) differ by that too, not by engine alone.
    shaping: { a: a.context.shaping ?? null, b: b.context.shaping ?? null },
    situations: rows,
    same: count('same'),
    differ_by_engine: count('differs by engine'),
    on_the_delta_line: count('on the δ line'),
  };
}

/** What a comparison counts as for a claim in one run, and the CI that says so. */
const countedAs = (x) =>
  x && { counts_as: x.counts_as, ratio: x.ratio, ci_low: x.ci_low, ci_high: x.ci_high, rounds: x.rounds };

/**
 * The comparisons that count otherwise for a claim in two runs (answers.js sourceConclusions:
 * each part's comparisons, with what each counts as — holds, contradicted or open): those are
 * what made its verdict differ. A comparison measured in one run only has null for the other.
 */
export function changedCounts(claimA, claimB) {
  return claimA.parts.flatMap((part, i) => {
    const otherPart = claimB?.parts.find((p) => p.what === part.what) ?? claimB?.parts[i];
    const inB = new Map((otherPart?.comparisons ?? []).map((x) => [`${x.a} | ${x.b}`, x]));
    const keys = [...new Set([...part.comparisons.map((x) => `${x.a} | ${x.b}`), ...inB.keys()])];
    const inA = new Map(part.comparisons.map((x) => [`${x.a} | ${x.b}`, x]));
    return keys
      .filter((key) => inA.get(key)?.counts_as !== inB.get(key)?.counts_as)
      .map((key) => ({
        part: part.what,
        comparison: key,
        a: countedAs(inA.get(key)) ?? null,
        b: countedAs(inB.get(key)) ?? null,
      }));
  });
}

/**
 * Whether a comparison that counts otherwise in two runs does so only because one run left it
 * open — its CI spanned the δ line the claim draws, so that run could not call it — rather than
 * holding for the claim in one run and contradicting it in the other, or being measured in one.
 */
export const onTheLine = (x) => Boolean(x.a && x.b) && (x.a.counts_as === 'open' || x.b.counts_as === 'open');

/**
 * The agreement of two runs in one word, with what it rests on. "same": every decision and
 * verdict the same, no comparison opposite. "same but on the δ line": the runs never contradict
 * each other — no comparison resolved in both points opposite ways, no situation names two
 * configurations, no decision differs where both runs settled every margin, no comparison holds
 * for a claim in one run and contradicts it in the other — and every decision or verdict that
 * differs does so through a margin or comparison one run left unsettled: its CI still spanned a δ
 * boundary, or had not yet stayed on one side of it for the looks the stop rule asks, when the
 * group's budget ran out. A true ratio that close to 1 ± δ is called either way from run to run
 * by any rule that judges a CI against δ (docs/reading-the-report.md, compare-runs). "different": the runs
 * contradict each other somewhere.
 */
function summaryOf(decisions, verdicts, contradictions) {
  const contradicting = Object.values(contradictions).reduce((sum, n) => sum + n, 0);
  const agreement = contradicting ? 'different' : decisions + verdicts ? 'same but on the δ line' : 'same';
  return { agreement, decisions_different: decisions, verdicts_different: verdicts, contradictions };
}

/** Reads two run directories and compares them. */
export function compareRuns(pathA, pathB) {
  const a = analyse(pathA);
  const b = analyse(pathB);
  if (a.context.plan?.name !== b.context.plan?.name) {
    throw new Error(
      `${pathA} is a run of plan ${a.context.plan?.name}, ` +
        `${pathB} of ${b.context.plan?.name}: compare runs of one plan`,
    );
  }
  return agreement(a, b);
}

/** The verdicts a comparison can have, in the order a spread of them is listed. */
const VERDICT_ORDER = [VERDICTS.A_FASTER, VERDICTS.EQUIVALENT, VERDICTS.UNRESOLVED, VERDICTS.B_FASTER];

/**
 * Several runs of one plan (or of one group of it, run alone: `npx playwright test -g '<group
 * id>$'`, each run with a server of its own): every pair's agreement, and where the runs do not
 * all say the same — per decision-table situation, the recommendations and how many runs gave
 * each; per comparison, its verdicts with their counts and the range of its ratio. A comparison
 * whose runs spread over a verdict and "unresolved" has a ratio on a δ line
 * (docs/reading-the-report.md, compare-runs); one called both ways (a faster and b faster) does not.
 *
 * @param paths three or more run directories (two: compareRuns)
 */
export function compareMany(paths) {
  const analysed = paths.map(analyse);
  const plans = new Set(analysed.map((r) => r.context.plan?.name));
  if (plans.size > 1) throw new Error(`the runs are of plans ${[...plans].join(', ')}: compare runs of one plan`);
  const pairs = [];
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const { decisions, conclusions, comparisons: c, summary } = agreement(analysed[i], analysed[j]);
      pairs.push({
        a: paths[i],
        b: paths[j],
        decisions_same: decisions.same,
        situations: decisions.situations,
        verdicts_same: conclusions.same,
        claims: conclusions.claims,
        opposite_ways: c.opposite_ways,
        agreement: summary.agreement,
      });
    }
  }
  const tally = (values) =>
    Object.fromEntries([...new Set(values)].map((v) => [v, values.filter((x) => x === v).length]));
  const situations = new Map();
  const comparisonsByKey = new Map();
  for (const run of analysed) {
    for (const d of run.decisions) {
      const key = `${d.object}/${d.count}/${d.network}/cm${d.cm}`;
      situations.set(key, [...(situations.get(key) ?? []), d.recommendation]);
    }
    const { delta } = run.judging ?? DEFAULT_JUDGING;
    for (const c of run.all) {
      const key = `${c.a_id} | ${c.b_id}`;
      comparisonsByKey.set(key, [
        ...(comparisonsByKey.get(key) ?? []),
        { ratio: c.ratio, verdict: verdictOf(c, delta, c.margin_rule ?? 1) },
      ]);
    }
  }
  const varying = (values) => values.length < paths.length || new Set(values).size > 1;
  const comparisonsVarying = [...comparisonsByKey]
    .filter(([, list]) => varying(list.map((x) => x.verdict)))
    .map(([comparison, list]) => {
      const verdicts = tally(list.map((x) => x.verdict));
      const ratios = list.map((x) => x.ratio).filter(Number.isFinite);
      return {
        comparison,
        runs: list.length,
        verdicts: Object.fromEntries(VERDICT_ORDER.filter((v) => verdicts[v]).map((v) => [v, verdicts[v]])),
        ratio_min: ratios.length ? Math.min(...ratios) : null,
        ratio_max: ratios.length ? Math.max(...ratios) : null,
        both_ways: Boolean(verdicts[VERDICTS.A_FASTER] && verdicts[VERDICTS.B_FASTER]),
      };
    });
  return {
    runs: paths,
    pairs,
    summary: tally(pairs.map((p) => p.agreement)),
    situations_varying: [...situations]
      .filter(([, list]) => varying(list))
      .map(([situation, list]) => ({ situation, runs: list.length, recommendations: tally(list) })),
    comparisons: {
      in_all: [...comparisonsByKey.values()].filter((list) => list.length === paths.length).length,
      varying: comparisonsVarying,
      both_ways: comparisonsVarying.filter((c) => c.both_ways).length,
    },
  };
}

/** compareMany's figures in sentences. */
export function describeMany(r) {
  const name = (path) => `${r.runs.indexOf(path) + 1}`;
  const k = r.runs.length;
  return [
    ...r.runs.map((path) => `run ${name(path)}: ${path}`),
    ...r.pairs.map(
      (p) =>
        `runs ${name(p.a)} and ${name(p.b)}: decisions the same ${p.decisions_same} of ${p.situations}, ` +
        `verdicts ${p.verdicts_same} of ${p.claims}, ` +
        `comparisons resolved the other way ${p.opposite_ways}; agreement: ${p.agreement}`,
    ),
    `decision-table situations whose recommendation is not the same in all ${k} runs: ${r.situations_varying.length}`,
    ...r.situations_varying.map(
      (s) =>
        `  ${s.situation}: ${Object.entries(s.recommendations)
          .map(([rec, n]) => `${rec} (${n})`)
          .join(', ')}` + (s.runs < k ? `; measured in ${s.runs} runs` : ''),
    ),
    `comparisons whose verdict is not the same in all ${k} runs: ` +
      `${r.comparisons.varying.length} of ${r.comparisons.in_all} measured in all` +
      `, called both ways (a faster in one run, b faster in another): ${r.comparisons.both_ways}`,
    ...r.comparisons.varying.map(
      (c) =>
        `  ${c.comparison}: ${Object.entries(c.verdicts)
          .map(([v, n]) => `${v} ${n}`)
          .join(', ')}` +
        (c.ratio_min === null ? '' : `; ${ratioRange(c.ratio_min, c.ratio_max)}`) +
        (c.runs < k ? `; measured in ${c.runs} runs` : ''),
    ),
    `pairs of runs: ${Object.entries(r.summary)
      .map(([agreementWord, n]) => `${n} ${agreementWord}`)
      .join(', ')}`,
  ];
}

/** A comparison's ratio a / b in words, b named: "1.39× faster than b". */
const againstB = (ratio) => relative('a', 'b', ratio).replace(/^a is /, '');

/** The range of a comparison's ratio a / b over several runs, in words, each end one way round. */
const ratioRange = (min, max) =>
  min === max ? `a is ${againstB(min)} in every run` : `a ranges from ${againstB(min)} to ${againstB(max)}`;

/** A decision's margin (over, ratio, CI) in words, as the report's decision table has it. */
const marginWords = (m) => relative(m.over, 'the fastest', m.ratio, m.ci_low, m.ci_high);

/** A margin's verdict in words: a is the configuration, b the fastest. */
const MARGIN_VERDICT_WORDS = {
  [VERDICTS.B_FASTER]: 'clearly slower',
  [VERDICTS.A_FASTER]: 'clearly faster',
  [VERDICTS.EQUIVALENT]: 'as fast within δ',
  [VERDICTS.UNRESOLVED]: 'unresolved',
};

/** A log-scale spread as a percentage of the ratio. */
const logPercent = (x) => `${((Math.exp(x) - 1) * 100).toFixed(1)} %`;

function describeSpread(spread) {
  if (!spread?.comparisons) return [];
  return [
    `run to run: over those ${spread.comparisons}, the two runs' log ratios differ by ${spread.rms_z.toFixed(2)}× ` +
      '(root mean square) what their CIs allow; ' +
      (spread.tau > 0
        ? `a spread of τ = ${logPercent(spread.tau)} per run beyond its own CI accounts for it (Paule–Mandel), ` +
          `so a run's ratio can land about ±${logPercent(Z95 * spread.tau)} from another's on top of their CIs, ` +
          'and a margin that close to a δ boundary can be called either way from run to run'
        : 'their CIs hold the run-to-run variation (τ = 0)'),
  ];
}

/** An engine's answer in words: its recommendation, and its margin with the CI. */
function answerText(x) {
  const margin = x.margin ? `, then ${marginWords(x.margin)}` : '';
  const fastest = x.recommendation === x.fastest ? '' : ` (fastest ${x.fastest})`;
  return `${x.recommendation}${fastest}${margin}${x.settled ? '' : ', a margin not settled'}`;
}

/** engineAnswers in sentences: every situation, then the ones whose answer differs by engine. */
export function describeEngines(engines) {
  if (!engines) return [];
  const name = (e) => `${e.title} ${e.version ?? ''}`.trim();
  const [a, b] = [engines.a.title, engines.b.title];
  const differing = engines.situations.filter((s) => s.answer === 'differs by engine');
  return [
    `engines: run A in ${name(engines.a)}, run B in ${name(engines.b)}; each situation's answer in both:`,
    ...(engines.shaping.a === engines.shaping.b
      ? []
      : [
          `  note: run A was shaped by ${engines.shaping.a}, run B by ${engines.shaping.b}; ` +
            'an answer that differs may differ by the shaping as well as by the engine',
        ]),
    ...engines.situations.map(
      (s) => `  ${s.situation} [${s.answer}]: ${a}: ${answerText(s.a)}; ${b}: ${answerText(s.b)}`,
    ),
    `situations whose answer differs by engine (every margin settled in both runs): ${engines.differ_by_engine}` +
      (differing.length ? ` — ${differing.map((s) => s.situation).join(', ')}` : '') +
      `; differing only on the δ line (a margin one run left unsettled, as runs of one engine also differ): ` +
      `${engines.on_the_delta_line}; the same: ${engines.same} of ${engines.situations.length}`,
  ];
}

/** The figures in sentences. */
export function describeAgreement(r) {
  return [
    ...describeEngines(r.engines),
    `cells in both runs: ${r.cells.in_both}; ` +
      `medians that moved by more than ${MEDIAN_TOLERANCE * 100} %: ${r.cells.medians_moved_over_10_percent}` +
      (r.cells.medians_moved_over_10_percent ? ` (${r.cells.moved_slower_in_b} slower in run B)` : '') +
      (r.cells.median_ratio_b_to_a === null
        ? ''
        : `; over every cell, the median: ${relative('run B', 'run A', r.cells.median_ratio_b_to_a)}`),
    `comparisons resolved in both runs: ${r.comparisons.resolved_in_both}; ` +
      `pointing opposite ways: ${r.comparisons.opposite_ways}`,
    ...r.comparisons.opposite.map(
      (o) =>
        `  opposite: ${o.comparison} ` +
        `(run A: ${relative('a', 'b', o.a.ratio)}; run B: ${relative('a', 'b', o.b.ratio)})`,
    ),
    `comparisons with a CI in both runs: ${r.comparisons.with_ci_in_both}; ` +
      `whose CIs lie apart: ${r.comparisons.cis_apart} ` +
      `(about ${r.comparisons.cis_apart_expected.toFixed(1)} would if each CI held the run-to-run variation: ` +
      'a CI holds the variation within its run, so more apart means the runs differ by more than their rounds do)',
    ...describeSpread(r.comparisons.run_to_run),
    `decision-table situations with the same recommendation (or "no clear winner" in both): ` +
      `${r.decisions.same} of ${r.decisions.situations}` +
      (r.decisions.different.length
        ? `; of the ${r.decisions.different.length} different, ` +
          `${r.decisions.different_configurations} name two different configurations` +
          ` (the others: one run names a configuration, the other "no clear winner"), ` +
          `${r.decisions.different_with_both_settled} had every margin settled in both runs` +
          ` (the others had a margin not settled at the group's budget: ` +
          `its CI spanned a δ boundary, or had not stayed on one side of it` +
          ` for the looks the stop rule asks)`
        : ''),
    ...r.decisions.different.map(
      (d) =>
        `  different: ${d.situation}: ${d.a} vs ${d.b}` +
        Object.entries(d.nearest)
          .map(
            ([run, n]) =>
              `; run ${run.toUpperCase()}: fastest ${n.fastest}` + (n.margin ? `, then ${marginWords(n.margin)}` : ''),
          )
          .join('') +
        Object.entries(d.unsettled_margin)
          .map(
            ([run, o]) =>
              `; not settled in run ${run.toUpperCase()}: ${marginWords(o)}` +
              (Number.isFinite(o.ci_low)
                ? `, ${MARGIN_VERDICT_WORDS[o.verdict]}` +
                  (isResolved(o.verdict) ? ` at ${o.steady_looks} look${o.steady_looks === 1 ? '' : 's'} in a row` : '')
                : ' (no CI)'),
          )
          .join(''),
    ),
    `source-conclusion verdicts the same: ${r.conclusions.same} of ${r.conclusions.claims}`,
    ...r.conclusions.different.map(
      (d) =>
        `  different: "${d.claim.slice(0, 60)}…": ${d.a} vs ${d.b}` +
        d.changed.map((x) => `; ${x.comparison} (${x.part}): ${countText(x.a, 'A')}, ${countText(x.b, 'B')}`).join(''),
    ),
    describeSummary(r.summary),
  ];
}

/** What a comparison counted as for a claim in one run, with its ratio and CI. */
function countText(x, run) {
  if (!x) return `not measured in run ${run}`;
  const noCi = Number.isFinite(x.ci_low) ? '' : ' (no CI)';
  return `${x.counts_as} in run ${run}: ${relative('a', 'b', x.ratio, x.ci_low, x.ci_high)}${noCi}`;
}

/** The last line: the agreement in one word, and why (summaryOf). */
function describeSummary({ agreement, decisions_different: decisions, verdicts_different: verdicts, contradictions }) {
  const count = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (agreement === 'same') return 'agreement: same — every decision and verdict the same, no comparison the other way';
  if (agreement !== 'different') {
    return (
      `agreement: ${agreement} — ${count(decisions, 'decision')} and ${count(verdicts, 'verdict')} differ, ` +
      'each only through a margin ' +
      'or comparison one run left unsettled close to a δ boundary (listed above); ' +
      'nothing in one run contradicts the other'
    );
  }
  const named = {
    opposite_ways: (n) => `${count(n, 'comparison')} resolved the other way`,
    different_configurations: (n) => `${count(n, 'situation')} naming two configurations`,
    decisions_settled_in_both: (n) => `${count(n, 'decision')} different with every margin settled in both`,
    verdict_comparisons: (n) =>
      `${count(n, 'comparison')} holding for a claim in one run and contradicting it (or not measured) in the other`,
  };
  return `agreement: different — the runs contradict each other: ${Object.entries(contradictions)
    .filter(([, n]) => n)
    .map(([key, n]) => named[key](n))
    .join(', ')}`;
}
