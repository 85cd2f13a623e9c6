// Colours, number formatting and the drawing of greyed values, shared by the charts.
export const palette = ['#1f5fa8', '#c2571a', '#2f8f46', '#8a3ea8', '#a8324a', '#3a8a8a', '#6b6b1f', '#555555'];

export const greyed = 'rgba(150, 150, 150, 0.25)';

export const greyedLine = 'rgb(110, 110, 110)';

export function formatNumber(value) {
  return Number(value).toLocaleString('en-US', { maximumFractionDigits: 3 });
}

// Tick labels never overlap: Chart.js skips what does not fit, turning labels at most 45 degrees.
export const ticks = { autoSkip: true, autoSkipPadding: 6, maxRotation: 45, minRotation: 0, font: { size: 10 } };

// Text and grid colours that follow the page's light or dark scheme.
export function applyScheme(Chart) {
  const dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  Chart.defaults.color = dark ? '#d0d6dd' : '#3f4650';
  Chart.defaults.borderColor = dark ? 'rgba(255, 255, 255, 0.15)' : 'rgba(0, 0, 0, 0.1)';
}

// The range of an axis from the comparable values only (greyed values never set it): [min, max] padded by a tenth
// of the span (by a factor on a log axis); null when there is no comparable value.
export function comparableBounds(values, { log = false, include = [] } = {}) {
  const finite = [...values, ...include].filter((v) => v != null && Number.isFinite(v) && (!log || v > 0));
  if (!finite.length) return null;
  let min = Math.min(...finite);
  let max = Math.max(...finite);
  if (log) {
    const pad = Math.max((max / min) ** 0.1, 1.05);
    return { min: min / pad, max: max * pad };
  }
  const span = max - min || Math.abs(max) || 1;
  min -= span * 0.1;
  max += span * 0.1;
  // A metric whose values are all positive is not drawn below zero for want of room.
  if (min < 0 && finite.every((v) => v >= 0)) min = 0;
  return { min, max };
}

// A greyed value as drawn: inside the bounds as it is; beyond them, at the edge, with the side it was clipped on
// (drawn as an arrow) and its real value kept for the tooltip.
export function clipped(value, bounds) {
  if (!bounds || value == null) return { y: value, real: value, clipped: null };
  if (value > bounds.max) return { y: bounds.max, real: value, clipped: 'above' };
  if (value < bounds.min) return { y: bounds.min, real: value, clipped: 'below' };
  return { y: value, real: value, clipped: null };
}

// A point-only dataset of greyed values: hollow grey circles, or hollow grey arrows at the edge where a value is
// beyond the axis (its real value in the tooltip).
export function greyedPoints(label, points, bounds, extra = {}) {
  const data = points.map((p) => ({ ...p, ...clipped(p.y, bounds) }));
  return {
    label,
    data,
    showLine: false,
    pointStyle: data.map((p) => (p.clipped ? 'triangle' : 'circle')),
    pointRotation: data.map((p) => (p.clipped === 'below' ? 180 : 0)),
    pointRadius: data.map((p) => (p.clipped ? 6 : 4)),
    pointHoverRadius: 7,
    borderWidth: 1.5,
    borderColor: greyedLine,
    backgroundColor: 'rgba(0, 0, 0, 0)',
    clip: 10,
    greyed: true,
    ...extra,
  };
}

// A tooltip line for a point of a greyed dataset: its real value, said to be beyond the axis when it is.
export function greyedTooltip(raw, format = formatNumber) {
  const where = raw.clipped === 'above' ? ' (above the axis)' : raw.clipped === 'below' ? ' (below the axis)' : '';
  const reasons = raw.reasons && raw.reasons.length ? `: ${raw.reasons.join(', ')}` : '';
  return `${format(raw.real)}${where} — greyed${reasons}`;
}

// A line chart's tooltip label: a greyed point by its real value and reasons, any other by its value.
export function pointLabel(item) {
  if (item.dataset.greyed) return `${item.dataset.label.replace(/ \(greyed\)$/, '')}: ${greyedTooltip(item.raw)}`;
  return `${item.dataset.label}: ${formatNumber(item.parsed.y)}`;
}

// The y bounds of line series from their comparable points only.
export function seriesBounds(seriesList) {
  return comparableBounds(seriesList.flatMap((s) => s.points.filter((p) => !p.greyed).map((p) => p.y)));
}

// One line per series, greyed values left out of it (a gap, never a zero: null at a greyed point, no spanGaps),
// and drawn apart as hollow grey points, clipped to the bounds of the comparable values.
export function lineAndGreyed(series, colour, extra = {}, bounds = null) {
  const line = {
    label: series.label,
    data: series.points.map((p) => ({ x: p.x, y: p.greyed ? null : p.y })),
    borderColor: colour,
    backgroundColor: colour,
    spanGaps: false,
    tension: 0,
    ...extra,
  };
  const grey = series.points.filter((p) => p.greyed && p.y != null);
  if (!grey.length) return [line];
  return [line, greyedPoints(`${series.label} (greyed)`, grey.map((p) => ({ x: p.x, y: p.y, reasons: p.reasons || [] })), bounds)];
}

// The y axis options of a line chart: its range from the comparable values (null: Chart.js chooses).
export function yRange(bounds) {
  return bounds ? { min: bounds.min, max: bounds.max, ticks: { includeBounds: false } } : {};
}

// The page's background behind a label drawn over a chart, light or dark.
export function labelBackground() {
  const dark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
  return dark ? 'rgba(20, 24, 28, 0.85)' : 'rgba(255, 255, 255, 0.85)';
}

// Runs draw() once the container shows: at once, or when the closed <details> holding it opens (a chart drawn in a
// closed <details> would have no size). Nothing when there is no container or no Chart.js.
export function whenShown(container, draw) {
  if (!container || !window.Chart) return;
  const folded = container.closest('details:not([open])');
  if (!folded) {
    draw();
    return;
  }
  folded.addEventListener('toggle', () => { if (folded.open && !container.dataset.drawn) { container.dataset.drawn = 'true'; draw(); } });
}
