// Charts as inline SVG drawn on the server: no script, styled by classes of the stylesheet (the
// CSP forbids style attributes). Every bar has a <title> with its figures for a tooltip; the same
// figures are in a table beside each chart for screen readers and copying.
import { html, raw, type Html } from '../tools/html.ts';

interface StackedBar {
  /** The label under the bar (shown for every `labelEvery`-th bar). */
  label: string;
  /** The bar's tooltip. */
  title: string;
  /** Segments from the bottom up: a CSS class and a value. */
  segments: Array<{ className: string; value: number }>;
}

const WIDTH = 720;
const HEIGHT = 200;
const PAD_LEFT = 44;
const PAD_BOTTOM = 22;
const PAD_TOP = 8;

/** Stacked bars with a y axis from 0 to the tallest bar (rounded up to a readable step). */
export function stackedBarChart(bars: StackedBar[], o: { label: string; labelEvery?: number }): Html {
  const max = Math.max(1, ...bars.map((b) => b.segments.reduce((n, s) => n + s.value, 0)));
  const top = niceCeiling(max);
  const plotH = HEIGHT - PAD_BOTTOM - PAD_TOP;
  const slot = (WIDTH - PAD_LEFT) / Math.max(1, bars.length);
  const barW = Math.max(1, slot * 0.75);
  const y = (v: number): number => PAD_TOP + plotH - (v / top) * plotH;
  const every = o.labelEvery ?? 1;
  const ticks = [0, top / 2, top];
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${o.label}" xmlns="http://www.w3.org/2000/svg">
    ${ticks.map(
      (t) =>
        html`<line class="axis" x1="${PAD_LEFT}" x2="${WIDTH}" y1="${fixed(y(t))}" y2="${fixed(y(t))}" /><text
            x="${PAD_LEFT - 4}"
            y="${fixed(y(t) + 3)}"
            text-anchor="end"
            >${formatTick(t)}</text
          >`,
    )}
    ${bars.map((bar, i) => {
      const x = PAD_LEFT + i * slot + (slot - barW) / 2;
      let base = 0;
      const rects = bar.segments
        .filter((s) => s.value > 0)
        .map((s) => {
          const rect = html`<rect
            class="${s.className}"
            x="${fixed(x)}"
            y="${fixed(y(base + s.value))}"
            width="${fixed(barW)}"
            height="${fixed(y(base) - y(base + s.value))}"
          />`;
          base += s.value;
          return rect;
        });
      return html`<g
        ><title>${bar.title}</title>${rects}${
          i % every === 0 ? html`<text x="${fixed(x + barW / 2)}" y="${HEIGHT - 6}" text-anchor="middle">${bar.label}</text>` : null
        }</g
      >`;
    })}
  </svg>`;
}

/** The smallest of 1, 2, 5 × 10^k at or above `n`. */
function niceCeiling(n: number): number {
  const power = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * power >= n) return step * power;
  return 10 * power;
}

function formatTick(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : String(Math.round(n * 10) / 10);
}

function fixed(n: number): Html {
  return raw(n.toFixed(1));
}
