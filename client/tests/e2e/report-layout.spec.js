// The HTML report as a reader sees it in Chromium and in Firefox, on a laptop and on a phone: every chart as
// wide as its column, its text uncut, inside the chart, not on top of other text and drawn large
// enough to read, and nothing wider than the page (tables scroll inside their own box).
// Screenshots of both widths are attached to the test (test-results/client-e2e/).
import { expect, test } from '@playwright/test';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { syntheticReport } from './synthetic-report.js';

/** Viewport widths (px): a laptop's, and a phone's. */
const WIDTHS = [1280, 400];
/** How far (px) a chart's width may be from its column's, and text from the chart's edge. */
const SLACK = 2;
/** The smallest text (px, as drawn) a reader is asked to read. */
const MIN_TEXT_PX = 8;

let reportUrl;
test.beforeAll(async () => {
  const path = await syntheticReport();
  reportUrl = pathToFileURL(join(path, 'report.html')).href;
});

/** What the page shows of each chart: how many drawings, its size, its column's, and its texts' boxes. */
function measureCharts() {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  };
  return [...document.querySelectorAll('figure.chart')].map((figure) => {
    const shown = [...figure.querySelectorAll('svg')].filter((svg) => svg.getClientRects().length > 0);
    const svg = shown[0];
    const style = getComputedStyle(figure);
    const column = figure.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 0;
    const texts = svg
      ? [...svg.querySelectorAll('text')]
          .filter((t) => t.textContent.trim() !== '')
          .map((t) => ({ text: t.textContent, box: box(t), px: parseFloat(getComputedStyle(t).fontSize) * scale }))
      : [];
    return {
      caption: figure.querySelector('figcaption')?.textContent,
      shown: shown.length,
      column,
      svg: svg && box(svg),
      texts,
    };
  });
}

/** Whether two boxes overlap by more than a pixel both ways (touching is fine). */
const overlap = (a, b) =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;

for (const width of WIDTHS) {
  test(`the report reads at ${width} px: charts fill the column, text whole and apart, nothing overflows`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(reportUrl);
    const screenshot = testInfo.outputPath(`report-${width}px.png`);
    await page.screenshot({ path: screenshot, fullPage: true });
    await testInfo.attach(`report at ${width} px`, { path: screenshot, contentType: 'image/png' });

    // Soft checks: one run names every chart and label that fails, not only the first.
    const pageWidth = await page.evaluate(() => document.scrollingElement.scrollWidth);
    expect.soft(pageWidth, 'the page is no wider than the screen').toBeLessThanOrEqual(width);

    const charts = await page.evaluate(measureCharts);
    expect(charts.length).toBeGreaterThanOrEqual(6);
    for (const chart of charts) {
      const where = `${chart.caption} (${width} px)`;
      expect.soft(chart.shown, `${where}: one drawing shown`).toBe(1);
      expect
        .soft(Math.abs(chart.svg.width - chart.column), `${where}: as wide as its column`)
        .toBeLessThanOrEqual(SLACK);
      expect.soft(chart.texts.length, `${where}: has text`).toBeGreaterThan(0);
      for (const t of chart.texts) {
        expect.soft(t.text, `${where}: "${t.text}" is not cut`).not.toContain('…');
        expect.soft(t.px, `${where}: "${t.text}" is drawn large enough to read`).toBeGreaterThanOrEqual(MIN_TEXT_PX);
        const inside =
          t.box.left >= chart.svg.left - SLACK &&
          t.box.right <= chart.svg.right + SLACK &&
          t.box.top >= chart.svg.top - SLACK &&
          t.box.bottom <= chart.svg.bottom + SLACK;
        expect.soft(inside, `${where}: "${t.text}" lies inside the chart`).toBe(true);
      }
      const clashes = chart.texts.flatMap((a, i) =>
        chart.texts.slice(i + 1).flatMap((b) => (overlap(a.box, b.box) ? [`"${a.text}" on "${b.text}"`] : [])),
      );
      expect.soft(clashes, `${where}: no text on top of other text`).toEqual([]);
    }

    // Every entry of the contents leads to a heading of the report.
    const targets = await page
      .locator('nav.contents a')
      .evaluateAll((links) => links.map((a) => Boolean(document.getElementById(a.getAttribute('href').slice(1)))));
    expect(targets.length).toBeGreaterThan(3);
    expect(targets.every(Boolean)).toBe(true);
  });
}
