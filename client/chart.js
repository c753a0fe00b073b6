// A live chart of a cell's samples as they arrive: total_ms per repetition, and the running
// median. Plain canvas, redrawn at most once per animation frame; its drawing is sized to the
// box the page gives it, at the device's pixel ratio, and redrawn when that box changes.

import { median } from '#common/stats.js';

const PADDING = { left: 56, right: 12, top: 14, bottom: 28 };

export function createLiveChart(canvas) {
  const context = canvas.getContext('2d');
  let values = [];
  let title = '';
  let pending = false;

  function draw() {
    pending = false;
    const ratio = globalThis.devicePixelRatio || 1;
    const width = canvas.clientWidth;
    const height = canvas.clientHeight;
    if (width === 0 || height === 0) return; // hidden: drawn when it is shown (the observer below)
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, width, height);
    context.font = '12px system-ui, sans-serif';
    context.fillStyle = '#555';
    context.fillText(title || 'Samples appear here while a cell runs.', PADDING.left, 11);
    if (values.length === 0) return;
    const max = Math.max(...values) * 1.05;
    const plotWidth = width - PADDING.left - PADDING.right;
    const plotHeight = height - PADDING.top - PADDING.bottom;
    // Canvas coordinates: x of the sample at `index`, y of a time of `ms`.
    const xOfSample = (index) =>
      PADDING.left + (values.length === 1 ? plotWidth / 2 : (index / (values.length - 1)) * plotWidth);
    const yOfMs = (ms) => PADDING.top + plotHeight - (ms / max) * plotHeight;
    context.strokeStyle = '#ccc';
    context.beginPath();
    context.moveTo(PADDING.left, PADDING.top);
    context.lineTo(PADDING.left, PADDING.top + plotHeight);
    context.lineTo(PADDING.left + plotWidth, PADDING.top + plotHeight);
    context.stroke();
    context.fillStyle = '#555';
    for (const fraction of [0, 0.5, 1]) {
      context.fillText(`${(max * fraction).toFixed(max < 10 ? 2 : 1)} ms`, 4, yOfMs(max * fraction) + 4);
    }
    context.fillText(`rep 1 … ${values.length}`, PADDING.left, height - 8);
    context.fillStyle = '#1f6feb';
    values.forEach((v, i) => context.fillRect(xOfSample(i) - 1.5, yOfMs(v) - 1.5, 3, 3));
    const middle = median(values);
    context.strokeStyle = '#d1242f';
    context.beginPath();
    context.moveTo(PADDING.left, yOfMs(middle));
    context.lineTo(PADDING.left + plotWidth, yOfMs(middle));
    context.stroke();
    context.fillStyle = '#d1242f';
    const label = `median ${middle.toFixed(3)} ms`;
    context.fillText(label, PADDING.left + plotWidth - context.measureText(label).width, yOfMs(middle) - 4);
  }

  function schedule() {
    if (pending) return;
    pending = true;
    requestAnimationFrame(draw);
  }

  new ResizeObserver(schedule).observe(canvas);

  return {
    reset(newTitle) {
      values = [];
      title = newTitle;
      schedule();
    },
    add(totalMs) {
      values.push(totalMs);
      schedule();
    },
  };
}
