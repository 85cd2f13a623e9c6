// Charts of a run page: each metric against prompt length, one line per other grid coordinate.
// The data comes as JSON in the container's data-charts attribute; the table holds the same numbers.
import { palette, formatNumber } from './chart-style.js';

const container = document.getElementById('run-charts');
if (container && window.Chart) {
  const data = JSON.parse(container.dataset.charts || '{"charts": []}');
  for (const chart of data.charts) {
    const figure = document.createElement('figure');
    figure.className = 'chart';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `${chart.metric} against ${data.x}`);
    const caption = document.createElement('figcaption');
    caption.textContent = `${chart.metric} (${chart.unit || 'no unit'}) against ${data.x}`;
    figure.append(caption, canvas);
    container.append(figure);
    const instance = new window.Chart(canvas, {
      type: 'line',
      data: {
        datasets: chart.series.map((series, i) => ({
          label: series.label,
          data: series.points.map(([x, y]) => ({ x, y })),
          borderColor: palette[i % palette.length],
          backgroundColor: palette[i % palette.length],
          tension: 0,
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        parsing: true,
        scales: {
          x: { type: chart.series.every((s) => s.points.every(([x]) => x > 0)) ? 'logarithmic' : 'linear', title: { display: true, text: data.x },
               ticks: { callback: (value) => formatNumber(value), maxTicksLimit: 8 } },
          y: { title: { display: true, text: chart.unit || chart.metric } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    canvas.dataset.rendered = String(instance.data.datasets.length);
  }
}
