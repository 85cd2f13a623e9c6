// Charts of a series page: one chart per metric, a line per cell (a cell picker below each chart), x the run's index
// in the series. A greyed point breaks its line (the line holds null there) and is drawn apart, hollow and grey, with
// its reasons on hover; the y axis is set by the comparable values of the cells shown, a greyed value beyond it drawn
// at the edge as an arrow (its value in the tooltip). Segment breaks are labelled dashed lines; change points sit on
// their cell's line, one label per run ("4 cells, −8.7 to −9.3 %"), labels never overlapping.
// The page brings the runs, the breaks and the first metric's chart in the container's data-charts attribute; the
// other metrics' charts come from /api/series/{id}/chart as they scroll near. The tables of the page hold the facts.
import { palette, formatNumber, comparableBounds, greyedPoints, greyedTooltip, labelBackground } from './chart-style.js';

const container = document.getElementById('series-charts');

// The words of the change points of one run: "−8.7 %" for one cell, "4 cells, −8.7 to −9.3 %" for several.
function changeWords(changes) {
  const fmt = (v) => `${v >= 0 ? '+' : '−'}${formatNumber(Math.abs(v).toFixed(1))}`;
  if (changes.length === 1) return changes[0].label;
  const values = changes.map((c) => c.change).sort((a, b) => Math.abs(a) - Math.abs(b));
  const low = values[0];
  const high = values[values.length - 1];
  const range = fmt(low) === fmt(high) ? `${fmt(low)} %` : `${fmt(low)} to ${fmt(high)} %`;
  return `${changes.length} cells, ${range}`;
}

// Where each run's change points are, grouped by run: the words once per run.
function changeGroups(changes) {
  const byRun = new Map();
  for (const cp of changes || []) {
    if (!byRun.has(cp.index)) byRun.set(cp.index, []);
    byRun.get(cp.index).push(cp);
  }
  return [...byRun.entries()].sort((a, b) => a[0] - b[0])
    .map(([index, list]) => ({ index, changes: list, words: changeWords(list),
      regression: list.some((c) => c.direction === 'regression') }));
}

// Draws the segment breaks, and the change points on their lines with one label per run, placed clear of the others.
const marks = {
  id: 'parityMarks',
  afterDatasetsDraw(chart, args, options) {
    const { ctx, chartArea, scales } = chart;
    ctx.save();
    ctx.font = '11px sans-serif';
    const placed = [];
    const overlaps = (box) => placed.some((p) => box.left < p.right && box.right > p.left && box.top < p.bottom && box.bottom > p.top);
    for (const br of options.breaks || []) {
      const x = scales.x.getPixelForValue(br.index - 0.5);
      ctx.strokeStyle = '#444';
      ctx.setLineDash([4, 4]);
      ctx.beginPath();
      ctx.moveTo(x, chartArea.top);
      ctx.lineTo(x, chartArea.bottom);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = '#222';
      const width = ctx.measureText(br.label).width;
      const left = Math.min(x + 3, chartArea.right - width);
      ctx.fillText(br.label, left, chartArea.top + 12);
      placed.push({ left, right: left + width, top: chartArea.top, bottom: chartArea.top + 14 });
    }
    const labels = [];
    for (const group of options.groups || []) {
      const x = scales.x.getPixelForValue(group.index);
      let top = null;
      for (const cp of group.changes) {
        const datasetIndex = chart.data.datasets.findIndex((d) => d.anchor === cp.anchor && !d.greyed);
        if (datasetIndex < 0 || !chart.isDatasetVisible(datasetIndex)) continue;
        const point = chart.data.datasets[datasetIndex].data.find((p) => p.x === group.index);
        if (!point || point.y == null) continue;
        const y = Math.min(Math.max(scales.y.getPixelForValue(point.y), chartArea.top), chartArea.bottom);
        ctx.fillStyle = cp.direction === 'regression' ? '#a8324a' : '#2f8f46';
        ctx.beginPath();
        ctx.moveTo(x, y - 3);
        ctx.lineTo(x - 6, y - 13);
        ctx.lineTo(x + 6, y - 13);
        ctx.closePath();
        ctx.fill();
        top = top == null ? y - 13 : Math.min(top, y - 13);
      }
      const width = ctx.measureText(group.words).width;
      let left = Math.max(chartArea.left, Math.min(x - width / 2, chartArea.right - width));
      let bottom = top == null ? chartArea.bottom - 4 : top - 2;
      let box = { left, right: left + width, top: bottom - 12, bottom };
      // Up the chart while it overlaps a label already there, then down from the top if it must.
      while (overlaps(box) && box.top - 14 >= chartArea.top) {
        box = { ...box, top: box.top - 14, bottom: box.bottom - 14 };
      }
      if (overlaps(box) || box.top < chartArea.top) {
        box = { ...box, top: chartArea.top + 16, bottom: chartArea.top + 28 };
        while (overlaps(box) && box.bottom + 14 <= chartArea.bottom) {
          box = { ...box, top: box.top + 14, bottom: box.bottom + 14 };
        }
      }
      placed.push(box);
      labels.push({ ...box, words: group.words });
      ctx.fillStyle = labelBackground();
      ctx.fillRect(box.left - 2, box.top, width + 4, box.bottom - box.top);
      ctx.fillStyle = group.regression ? '#a8324a' : '#2f8f46';
      ctx.fillText(group.words, box.left, box.bottom - 2);
    }
    // For tests and readers of the DOM: where each label went.
    chart.canvas.dataset.changeLabels = JSON.stringify(labels.map((l) => ({ words: l.words, left: Math.round(l.left),
      right: Math.round(l.right), top: Math.round(l.top), bottom: Math.round(l.bottom) })));
    ctx.restore();
  },
};

// One cell's line and its greyed points, apart: the line holds null at a greyed run (no spanGaps), so it breaks there.
function cellData(line) {
  const comparable = [];
  const grey = [];
  line.values.forEach((y, x) => {
    if (y === null) return;
    const reasons = line.greyed[String(x)] || null;
    if (reasons !== null) {
      comparable.push({ x, y: null });
      grey.push({ x, y, reasons });
    } else {
      comparable.push({ x, y });
    }
  });
  return { comparable, grey };
}

// The y range of the cells shown, from their comparable values only.
function visibleBounds(instance) {
  const values = [];
  instance.data.datasets.forEach((dataset, i) => {
    if (!dataset.greyed && instance.isDatasetVisible(i)) {
      dataset.data.forEach((p) => { if (p.y != null) values.push(p.y); });
    }
  });
  return comparableBounds(values);
}

// Sets the y range to the comparable values shown and clips the greyed points to it.
function fit(instance, cells) {
  const bounds = visibleBounds(instance);
  instance.options.scales.y.min = bounds ? bounds.min : undefined;
  instance.options.scales.y.max = bounds ? bounds.max : undefined;
  instance.data.datasets.forEach((dataset, i) => {
    if (dataset.greyed) {
      const fresh = greyedPoints(dataset.label, cells[dataset.cell].grey, bounds);
      Object.assign(dataset, { data: fresh.data, pointStyle: fresh.pointStyle, pointRotation: fresh.pointRotation,
        pointRadius: fresh.pointRadius });
    }
  });
  instance.update();
}

// Draws one metric's chart into its figure.
function draw(figure, data, chart) {
  const canvas = figure.querySelector('canvas');
  const picker = figure.querySelector('.cell-picker');
  const cells = chart.lines.map(cellData);
  const radius = data.runs.length > 200 ? 2 : 3;
  const datasets = [];
  chart.lines.forEach((line, i) => {
    const colour = palette[i % palette.length];
    datasets.push({
      label: line.label,
      anchor: line.anchor,
      cell: i,
      data: cells[i].comparable,
      borderColor: colour,
      backgroundColor: colour,
      pointRadius: radius,
      spanGaps: false,
      tension: 0,
      hidden: i > 3,
    });
    if (cells[i].grey.length) {
      datasets.push(greyedPoints(`${line.label} (greyed)`, cells[i].grey, null, { anchor: line.anchor, cell: i, hidden: i > 3 }));
    }
  });
  const instance = new window.Chart(canvas, {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: true,
      scales: {
        x: { type: 'linear', min: -0.5, max: Math.max(data.runs.length - 0.5, 0.5),
             ticks: { callback: (value) => (Number.isInteger(value) ? value + 1 : '') },
             title: { display: true, text: 'run (series order)' } },
        y: { title: { display: true, text: chart.metric }, ticks: { includeBounds: false, callback: (value) => formatNumber(value) } },
      },
      plugins: {
        legend: { display: false },
        parityMarks: { breaks: data.breaks, groups: changeGroups(chart.changes) },
        tooltip: {
          callbacks: {
            title: (items) => (items.length ? data.runs[items[0].raw.x] : ''),
            label: (item) => (item.dataset.greyed
              ? `${item.dataset.label.replace(/ \(greyed\)$/, '')}: ${greyedTooltip(item.raw)}`
              : `${item.dataset.label}: ${formatNumber(item.raw.y)}`),
          },
        },
      },
    },
    plugins: [marks],
  });
  fit(instance, cells);
  chart.lines.forEach((line, i) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = i <= 3;
    box.value = line.anchor;
    box.addEventListener('change', () => {
      instance.data.datasets.forEach((dataset, d) => {
        if (dataset.cell === i) instance.setDatasetVisibility(d, box.checked);
      });
      fit(instance, cells);
    });
    label.append(box, ` ${line.label}`);
    picker.append(label);
  });
  canvas.dataset.rendered = String(chart.lines.length);
  canvas.dataset.greyed = String(cells.reduce((n, c) => n + c.grey.length, 0));
  canvas.dataset.breaks = String(data.breaks.length);
  figure.setAttribute('aria-busy', 'false');
}

// An empty figure for one metric: caption, chart area, cell picker.
function figureFor(metric) {
  const figure = document.createElement('figure');
  figure.className = 'chart';
  figure.dataset.metric = metric;
  figure.setAttribute('aria-busy', 'true');
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', `${metric} along the series, one line per cell`);
  const caption = document.createElement('figcaption');
  caption.textContent = `${metric} along the series`;
  const picker = document.createElement('fieldset');
  picker.className = 'cell-picker';
  const legend = document.createElement('legend');
  legend.textContent = 'Cells';
  picker.append(legend);
  // The chart draws in a box of its own height: the cell picker below it grows with the number of cells.
  const area = document.createElement('div');
  area.className = 'chart-area';
  area.append(canvas);
  figure.append(caption, area, picker);
  return figure;
}

async function load(figure, data) {
  const url = `${data.chartUrl}?metric=${encodeURIComponent(figure.dataset.metric)}`;
  try {
    const response = await fetch(url, { headers: { Accept: 'application/json' } });
    if (!response.ok) {
      throw new Error(`${response.status} ${response.statusText}`);
    }
    draw(figure, data, await response.json());
  } catch (error) {
    const note = document.createElement('p');
    note.className = 'error';
    note.textContent = `This chart could not be loaded (${error.message}); the tables below hold the same facts.`;
    figure.append(note);
    figure.setAttribute('aria-busy', 'false');
  }
}

if (container && window.Chart) {
  const data = JSON.parse(container.dataset.charts || '{"runs": [], "breaks": [], "metrics": []}');
  // The first metric's chart comes with the page; the others load as they come near the screen.
  const waiting = [];
  if (!data.metrics.length) {
    // Nothing to draw (every run failed, say): said once, rather than an empty space under the heading.
    const none = document.createElement('p');
    none.className = 'no-chart';
    none.textContent = 'No chart: no run of this series has a value to draw; the runs below say why.';
    container.append(none);
  }
  data.metrics.forEach((metric, i) => {
    const figure = figureFor(metric);
    container.append(figure);
    if (i === 0 && data.chart) {
      draw(figure, data, data.chart);
    } else {
      waiting.push(figure);
    }
  });
  if ('IntersectionObserver' in window) {
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          load(entry.target, data);
        }
      }
    }, { rootMargin: '800px 0px' });
    waiting.forEach((figure) => observer.observe(figure));
  } else {
    waiting.forEach((figure) => load(figure, data));
  }
}
