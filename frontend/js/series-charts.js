// Charts of a series page: one chart per metric, a line per cell (a cell picker below each chart), greyed points
// hollow and grey with their reasons on hover, segment breaks as labelled dashed lines, change points as triangles.
// The page brings the runs, the breaks and the first metric's chart in the container's data-charts attribute; the
// other metrics' charts come from /api/series/{id}/chart as they scroll near. The tables of the page hold the facts.
import { palette, greyed, formatNumber } from './chart-style.js';

const container = document.getElementById('series-charts');

// Draws the segment breaks and change points over the chart area.
const marks = {
  id: 'parityMarks',
  afterDatasetsDraw(chart, args, options) {
    const { ctx, chartArea, scales } = chart;
    ctx.save();
    ctx.font = '11px sans-serif';
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
      ctx.fillText(br.label, x + 3, chartArea.top + 12);
    }
    for (const cp of options.changes || []) {
      const x = scales.x.getPixelForValue(cp.index);
      ctx.fillStyle = cp.direction === 'regression' ? '#a8324a' : '#2f8f46';
      ctx.beginPath();
      ctx.moveTo(x, chartArea.bottom - 2);
      ctx.lineTo(x - 6, chartArea.bottom - 12);
      ctx.lineTo(x + 6, chartArea.bottom - 12);
      ctx.closePath();
      ctx.fill();
      ctx.fillText(cp.label, x + 7, chartArea.bottom - 14);
    }
    ctx.restore();
  },
};

// Draws one metric's chart into its figure.
function draw(figure, data, chart) {
  const canvas = figure.querySelector('canvas');
  const picker = figure.querySelector('.cell-picker');
  const datasets = chart.lines.map((line, i) => {
    const colour = palette[i % palette.length];
    const points = [];
    line.values.forEach((y, x) => {
      if (y !== null) {
        const reasons = line.greyed[String(x)] || null;
        points.push({ x, y, greyed: reasons !== null, reasons: reasons || [] });
      }
    });
    return {
      label: line.label,
      anchor: line.anchor,
      data: points,
      borderColor: colour,
      backgroundColor: colour,
      pointBackgroundColor: points.map((p) => (p.greyed ? 'rgba(0,0,0,0)' : colour)),
      pointBorderColor: points.map((p) => (p.greyed ? greyed : colour)),
      pointRadius: data.runs.length > 200 ? 2 : 3,
      tension: 0,
      hidden: i > 3,
    };
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
        y: { title: { display: true, text: chart.metric }, ticks: { callback: (value) => formatNumber(value) } },
      },
      plugins: {
        legend: { display: false },
        parityMarks: { breaks: data.breaks, changes: chart.changes },
        tooltip: {
          callbacks: {
            title: (items) => (items.length ? data.runs[items[0].raw.x] : ''),
            label: (item) => `${item.dataset.label}: ${formatNumber(item.raw.y)}`
              + (item.raw.greyed ? ` — greyed: ${item.raw.reasons.join(', ')}` : ''),
          },
        },
      },
    },
    plugins: [marks],
  });
  datasets.forEach((dataset, i) => {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.checked = !dataset.hidden;
    box.value = dataset.anchor;
    box.addEventListener('change', () => {
      instance.setDatasetVisibility(i, box.checked);
      instance.update();
    });
    label.append(box, ` ${dataset.label}`);
    picker.append(label);
  });
  canvas.dataset.rendered = String(instance.data.datasets.length);
  canvas.dataset.greyed = String(datasets.reduce((n, d) => n + d.data.filter((p) => p.greyed).length, 0));
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
