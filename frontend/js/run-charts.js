// Charts of a run page: each metric against the first grid coordinate that varies, one line per value of every
// other coordinate, greyed values as hollow grey points outside the lines; and, where the cells hold per-request
// samples, each metric's distribution per cell as a CDF.
// The data comes as JSON in the container's data-charts attribute (a light page of a large run fetches it from
// data-charts-src); the table holds the same numbers.
import { palette, formatNumber, ticks, applyScheme, lineAndGreyed, seriesBounds, yRange, pointLabel } from './chart-style.js';

function figure(container, title) {
  const fig = document.createElement('figure');
  fig.className = 'chart';
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', title);
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  fig.append(caption, canvas);
  container.append(fig);
  return canvas;
}

const container = document.getElementById('run-charts');

function draw(data) {
  // A chart whose lines are single points says nothing a table does not (a one-cell run): none is drawn, once said.
  const drawable = data.charts.filter((chart) => chart.series.some((s) => s.points.filter((p) => p.y != null).length > 1));
  if (data.charts.length && !drawable.length) {
    const note = document.createElement('p');
    note.className = 'detail no-charts';
    note.textContent = 'No chart: every line would be a single point. The table holds the numbers.';
    container.append(note);
  }
  for (const chart of drawable) {
    const canvas = figure(container, `${chart.metric} (${chart.unit || 'no unit'}) against ${data.x}; hollow grey = greyed`);
    const bounds = seriesBounds(chart.series);
    const datasets = chart.series.flatMap((series, i) => lineAndGreyed(series, palette[i % palette.length], {}, bounds));
    const xs = chart.series.flatMap((s) => s.points.map((p) => p.x));
    const instance = new window.Chart(canvas, {
      type: 'line',
      data: { datasets },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: xs.every((x) => x > 0) ? 'logarithmic' : 'linear', title: { display: true, text: data.x },
               ticks: { ...ticks, callback: (value) => formatNumber(value), maxTicksLimit: 8 } },
          y: { ...yRange(bounds), ticks: { includeBounds: false, callback: (v) => formatNumber(v) }, title: { display: true, text: chart.unit || chart.metric } },
        },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 12, font: { size: 10 },
                     filter: (item, all) => !all.datasets[item.datasetIndex].greyed } },
                   tooltip: { callbacks: { label: pointLabel } } },
      },
    });
    canvas.dataset.rendered = String(instance.data.datasets.filter((d) => !d.greyed).length);
  }
  for (const distribution of data.distributions || []) {
    const canvas = figure(container, `${distribution.metric} per request (${distribution.unit || 'no unit'}): share of requests at or below each value, one line per cell`);
    canvas.classList.add('distribution');
    const instance = new window.Chart(canvas, {
      type: 'line',
      data: {
        datasets: distribution.cells.map((cell, i) => ({
          label: `${cell.label} (${cell.count} requests)`,
          data: cell.values.map((value, k) => ({ x: value, y: (k + 1) / cell.values.length })),
          borderColor: palette[i % palette.length],
          backgroundColor: palette[i % palette.length],
          stepped: 'after',
          pointRadius: 0,
          borderWidth: 1.5,
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        scales: {
          x: { type: 'linear', title: { display: true, text: distribution.unit || distribution.metric },
               ticks: { ...ticks, callback: (value) => formatNumber(value), maxTicksLimit: 8 } },
          y: { min: 0, max: 1, title: { display: true, text: 'share of requests' } },
        },
        plugins: { legend: { position: 'bottom', labels: { boxWidth: 12, font: { size: 10 } } } },
      },
    });
    canvas.dataset.rendered = String(instance.data.datasets.length);
  }
}

if (container && window.Chart) {
  applyScheme(window.Chart);
  if (container.dataset.chartsSrc) {
    fetch(container.dataset.chartsSrc)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`the server answered ${response.status}`))))
      .then(draw)
      .catch((error) => { container.textContent = `The charts could not be loaded (${error.message}); the table holds the same numbers.`; });
  } else {
    draw(JSON.parse(container.dataset.charts || '{"charts": []}'));
  }
}
