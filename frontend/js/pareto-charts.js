// Throughput against interactivity: for each side (a run, or a comparison's baseline and contender) and each value of
// the coordinates other than the load, the front of cells no other clean cell beats on both (joined; the baseline's
// dashed), the dominated clean cells as points, and greyed cells as hollow grey points that are never joined.
// The data comes as JSON in #pareto-chart's data-pareto; a table holds the same numbers.
import { palette, greyedLine, formatNumber, ticks, applyScheme, comparableBounds, clipped, whenShown } from './chart-style.js';

const container = document.getElementById('pareto-chart');
function draw(data) {
  const datasets = [];
  // Both axes are set by the clean points; a greyed point beyond them is drawn at the edge as an arrow.
  const clean = data.sides.flatMap((side) => side.points.filter((p) => !p.greyed));
  const xBounds = comparableBounds(clean.map((p) => p.interactivity));
  const yBounds = comparableBounds(clean.map((p) => p.throughput));
  const groups = [...new Set(data.sides.map((side) => side.group))];
  const comparison = data.sides.some((side) => side.side === 'contender');
  data.sides.forEach((side) => {
    const colour = palette[groups.indexOf(side.group) % palette.length];
    const name = comparison ? `${side.side}, ${side.group}` : side.group;
    const dashed = side.side === 'baseline' ? { borderDash: [6, 4], pointStyle: 'triangle' } : {};
    const byAnchor = new Map(side.points.map((p) => [p.anchor, p]));
    const front = side.front.map((anchor) => byAnchor.get(anchor));
    const xy = (p) => ({ x: p.interactivity, y: p.throughput, label: p.label });
    datasets.push({
      label: `${name} — front`, data: front.map(xy), showLine: true, borderColor: colour, backgroundColor: colour,
      pointRadius: 4, tension: 0, side: side.side, front: true, ...dashed,
    });
    const dominated = side.points.filter((p) => !p.greyed && !p.on_front);
    if (dominated.length) {
      datasets.push({
        label: `${name} — dominated`, data: dominated.map(xy), showLine: false, borderColor: colour,
        backgroundColor: colour, pointRadius: 3, pointStyle: 'rect', side: side.side,
      });
    }
    const grey = side.points.filter((p) => p.greyed);
    if (grey.length) {
      const points = grey.map((p) => {
        const across = clipped(p.interactivity, xBounds);
        const up = clipped(p.throughput, yBounds);
        return { x: across.y, y: up.y, label: p.label, realX: p.interactivity, realY: p.throughput,
          clipped: up.clipped || (across.clipped === 'above' ? 'right' : across.clipped === 'below' ? 'left' : null) };
      });
      const turn = { above: 0, right: 90, below: 180, left: 270 };
      datasets.push({
        label: `${name} — greyed`, data: points, showLine: false, borderColor: greyedLine,
        backgroundColor: 'rgba(0, 0, 0, 0)', borderWidth: 1.5, side: side.side, greyed: true, clip: 10,
        pointStyle: points.map((p) => (p.clipped ? 'triangle' : 'circle')),
        pointRotation: points.map((p) => turn[p.clipped] || 0),
        pointRadius: points.map((p) => (p.clipped ? 6 : 4)),
      });
    }
  });
  const fig = document.createElement('figure');
  fig.className = 'chart pareto-chart';
  const canvas = document.createElement('canvas');
  const title = `${data.throughput_unit} against ${data.interactivity_unit}; joined = front, hollow grey = greyed`;
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', title);
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  fig.append(caption, canvas);
  container.append(fig);
  const instance = new window.Chart(canvas, {
    type: 'scatter',
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'linear', ...(xBounds || {}), title: { display: true, text: `interactivity (${data.interactivity_unit})` },
             ticks: { ...ticks, includeBounds: false, callback: (value) => formatNumber(value), maxTicksLimit: 8 } },
        y: { type: 'linear', ...(yBounds || {}), title: { display: true, text: `throughput (${data.throughput_unit})` },
             ticks: { ...ticks, includeBounds: false, callback: (value) => formatNumber(value) } },
      },
      plugins: {
        legend: { position: 'bottom', labels: { boxWidth: 12, font: { size: 10 } } },
        tooltip: { callbacks: { label: (item) => (item.dataset.greyed
          ? `${item.raw.label}: ${formatNumber(item.raw.realX)} per user, ${formatNumber(item.raw.realY)}`
            + `${item.raw.clipped ? ' (beyond the axis)' : ''} — greyed`
          : `${item.raw.label}: ${formatNumber(item.raw.x)} per user, ${formatNumber(item.raw.y)}`) } },
      },
    },
  });
  // For tests and readers of the DOM: how many points each kind of dataset drew.
  canvas.dataset.frontPoints = String(instance.data.datasets.filter((d) => d.front).reduce((n, d) => n + d.data.length, 0));
  canvas.dataset.clipped = String(instance.data.datasets.filter((d) => d.greyed)
    .reduce((n, d) => n + d.data.filter((p) => p.clipped).length, 0));
  canvas.dataset.greyedPoints = String(instance.data.datasets.filter((d) => d.greyed).reduce((n, d) => n + d.data.length, 0));
}

// A chart folded behind "Draw it anyway" (nothing comparable to draw) is fetched and drawn once it opens.
whenShown(container, () => {
  applyScheme(window.Chart);
  if (container.dataset.paretoSrc) {
    // A light page fetches the data once it shows.
    fetch(container.dataset.paretoSrc)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`the server answered ${response.status}`))))
      .then(draw)
      .catch((error) => { container.textContent = `The chart could not be loaded (${error.message}); the table holds the same numbers.`; });
  } else {
    draw(JSON.parse(container.dataset.pareto || '{"sides": []}'));
  }
});
