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

// One line per series, greyed values left out of it (a gap, never a zero), and drawn apart as hollow grey points.
export function lineAndGreyed(series, colour, extra = {}) {
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
  return [line, {
    label: `${series.label} (greyed)`,
    data: grey.map((p) => ({ x: p.x, y: p.y })),
    showLine: false,
    pointStyle: 'circle',
    pointRadius: 4,
    borderWidth: 1.5,
    borderColor: greyedLine,
    backgroundColor: 'rgba(0, 0, 0, 0)',
    greyed: true,
  }];
}
