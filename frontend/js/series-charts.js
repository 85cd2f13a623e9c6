// Charts of a series page: one chart per metric, a line per cell (a cell picker below each chart), greyed points
// hollow and grey with their reasons on hover, segment breaks as labelled dashed lines, change points as triangles.
// The data comes as JSON in the container's data-charts attribute; the tables of the page hold the same facts.
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

if (container && window.Chart) {
  const data = JSON.parse(container.dataset.charts || '{"runs": [], "breaks": [], "charts": []}');
  for (const chart of data.charts) {
    const figure = document.createElement('figure');
    figure.className = 'chart';
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `${chart.metric} along the series, one line per cell`);
    const caption = document.createElement('figcaption');
    caption.textContent = `${chart.metric} along the series`;
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
    container.append(figure);
    const datasets = chart.lines.map((line, i) => ({
      label: line.label,
      anchor: line.anchor,
      data: line.points.map((p) => ({ x: p.x, y: p.y, greyed: p.greyed, reasons: p.reasons, run: p.run })),
      borderColor: palette[i % palette.length],
      backgroundColor: palette[i % palette.length],
      pointBackgroundColor: line.points.map((p) => (p.greyed ? 'rgba(0,0,0,0)' : palette[i % palette.length])),
      pointBorderColor: line.points.map((p) => (p.greyed ? greyed : palette[i % palette.length])),
      pointRadius: 3,
      tension: 0,
      hidden: i > 3,
    }));
    const changes = chart.changes;
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
               ticks: { stepSize: 1, callback: (value) => (Number.isInteger(value) ? value + 1 : '') },
               title: { display: true, text: 'run (series order)' } },
          y: { title: { display: true, text: chart.metric }, ticks: { callback: (value) => formatNumber(value) } },
        },
        plugins: {
          legend: { display: false },
          parityMarks: { breaks: data.breaks, changes },
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
  }
}
