// Charts of a comparison page. Per metric: the ratio per cell as bars (greyed cells drawn grey, the
// band around 1 shaded), and both runs' values against the first numeric grid coordinate.
// The data comes as JSON in the container's data-charts attribute; the table holds the same numbers.
import { palette, greyed, formatNumber } from './chart-style.js';

const bandPlugin = {
  id: 'band',
  beforeDatasetsDraw(chart, args, options) {
    const y = chart.scales.y;
    if (!y || options.band == null) return;
    const { ctx, chartArea } = chart;
    const top = y.getPixelForValue(1 + options.band);
    const bottom = y.getPixelForValue(1 - options.band);
    ctx.save();
    ctx.fillStyle = 'rgba(47, 143, 70, 0.12)';
    ctx.fillRect(chartArea.left, top, chartArea.right - chartArea.left, bottom - top);
    ctx.strokeStyle = 'rgba(0, 0, 0, 0.35)';
    ctx.setLineDash([4, 3]);
    const one = y.getPixelForValue(1);
    ctx.beginPath();
    ctx.moveTo(chartArea.left, one);
    ctx.lineTo(chartArea.right, one);
    ctx.stroke();
    ctx.restore();
  },
};

function figure(container, title) {
  const fig = document.createElement('figure');
  fig.className = 'chart';
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', title);
  fig.append(caption, canvas);
  container.append(fig);
  return canvas;
}

const container = document.getElementById('compare-charts');
if (container && window.Chart) {
  const data = JSON.parse(container.dataset.charts || '{"charts": []}');
  for (const chart of data.charts) {
    if (chart.bars.length) {
      const canvas = figure(container, `${chart.metric}: ratio contender / baseline per cell (grey = not comparable)`);
      const instance = new window.Chart(canvas, {
        type: 'bar',
        data: {
          labels: chart.bars.map((b) => b.label),
          datasets: [{
            label: 'ratio',
            data: chart.bars.map((b) => b.ratio),
            backgroundColor: chart.bars.map((b) => (b.greyed ? greyed : palette[0])),
            borderColor: chart.bars.map((b) => (b.greyed ? 'rgba(120,120,120,0.8)' : palette[0])),
            borderWidth: 1,
          }],
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          scales: { y: { type: 'logarithmic', title: { display: true, text: 'ratio (log)' },
                         ticks: { callback: (v) => formatNumber(v) } },
                    x: { ticks: { autoSkip: false, maxRotation: 70, minRotation: 50, font: { size: 9 } } } },
          plugins: {
            legend: { display: false },
            band: { band: data.band },
            tooltip: { callbacks: { afterLabel: (item) => (chart.bars[item.dataIndex].greyed ? 'greyed: not comparable' : 'comparable') } },
          },
          onClick: (event, elements) => {
            if (elements.length) window.location.hash = chart.bars[elements[0].index].anchor;
          },
        },
        plugins: [bandPlugin],
      });
      canvas.dataset.rendered = String(instance.data.datasets[0].data.length);
      canvas.dataset.greyed = String(chart.bars.filter((b) => b.greyed).length);
    }
    if (data.x && chart.series.length) {
      const canvas = figure(container, `${chart.metric} (${chart.unit || 'no unit'}) against ${data.x}: baseline dashed, contender solid`);
      const labels = [...new Set(chart.series.map((s) => s.label.replace(/^(baseline|contender) ?/, '')))];
      const instance = new window.Chart(canvas, {
        type: 'line',
        data: {
          datasets: chart.series.map((s) => {
            const colour = palette[labels.indexOf(s.label.replace(/^(baseline|contender) ?/, '')) % palette.length];
            return {
              label: s.label,
              data: s.points.map(([x, y]) => ({ x, y })),
              borderColor: colour,
              backgroundColor: colour,
              borderDash: s.side === 'baseline' ? [6, 4] : [],
              tension: 0,
            };
          }),
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          scales: {
            x: { type: chart.series.every((s) => s.points.every(([x]) => x > 0)) ? 'logarithmic' : 'linear',
                 title: { display: true, text: data.x }, ticks: { callback: (v) => formatNumber(v), maxTicksLimit: 8 } },
            y: { title: { display: true, text: chart.unit || chart.metric } },
          },
          plugins: { legend: { position: 'bottom', labels: { boxWidth: 12, font: { size: 10 } } } },
        },
      });
      canvas.dataset.rendered = String(instance.data.datasets.length);
    }
  }
}
