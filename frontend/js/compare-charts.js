// Charts of a comparison page. Per metric: the ratio per cell as bars from 1 (greyed cells drawn hollow grey,
// the band around 1 shaded) on a log scale centred on 1, and both runs' values against the first grid
// coordinate that varies, greyed values as hollow grey points outside the lines.
// The data comes as JSON in the container's data-charts attribute; the table holds the same numbers.
import { palette, greyed, greyedLine, formatNumber, ticks, applyScheme, lineAndGreyed, seriesBounds, yRange, pointLabel, whenShown }
  from './chart-style.js';

const bandPlugin = {
  id: 'band',
  beforeDatasetsDraw(chart, args, options) {
    const y = chart.scales.y;
    if (!y || options.band == null) return;
    const { ctx, chartArea } = chart;
    const top = y.getPixelForValue(1 + options.band);
    const bottom = y.getPixelForValue(1 - options.band);
    ctx.save();
    ctx.fillStyle = 'rgba(47, 143, 70, 0.18)';
    ctx.fillRect(chartArea.left, top, chartArea.right - chartArea.left, bottom - top);
    ctx.strokeStyle = 'rgba(128, 128, 128, 0.8)';
    ctx.setLineDash([4, 3]);
    const one = y.getPixelForValue(1);
    ctx.beginPath();
    ctx.moveTo(chartArea.left, one);
    ctx.lineTo(chartArea.right, one);
    ctx.stroke();
    ctx.restore();
  },
};

function figure(container, title, published) {
  const fig = document.createElement('figure');
  fig.className = published ? 'chart published-chart' : 'chart';
  const caption = document.createElement('figcaption');
  caption.textContent = title;
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', title);
  fig.append(caption, canvas);
  container.append(fig);
  return canvas;
}

// A log scale symmetric around 1: as far below as above, never narrower than twice the band, and set by the
// comparable ratios only (a greyed ratio beyond it is drawn clipped at the edge, with an arrow).
function symmetricBounds(ratios, band) {
  let reach = Math.max(1 + 2 * band, ...ratios.filter((r) => r > 0).map((r) => Math.max(r, 1 / r)));
  reach *= 1.15;
  return { min: 1 / reach, max: reach };
}

// Arrows at the ends of the bars clipped at the axis's edge, pointing the way the value goes on.
const clipArrows = {
  id: 'clipArrows',
  afterDatasetsDraw(chart) {
    const meta = chart.getDatasetMeta(0);
    const dataset = chart.data.datasets[0];
    if (!dataset.clippedAt) return;
    const { ctx, chartArea } = chart;
    ctx.save();
    ctx.strokeStyle = greyedLine;
    ctx.fillStyle = greyedLine;
    dataset.clippedAt.forEach((side, i) => {
      if (!side || !meta.data[i]) return;
      const x = meta.data[i].x;
      const edge = side === 'above' ? chartArea.top : chartArea.bottom;
      const tip = side === 'above' ? edge - 1 : edge + 1;
      const base = side === 'above' ? edge + 9 : edge - 9;
      ctx.beginPath();
      ctx.moveTo(x, tip);
      ctx.lineTo(x - 6, base);
      ctx.lineTo(x + 6, base);
      ctx.closePath();
      ctx.fill();
    });
    ctx.restore();
  },
};

const container = document.getElementById('compare-charts');
// A publication's page draws the chart its images and embeds draw first, said in its caption.
const publishedMetric = container?.dataset.publishedMetric;
function draw(data) {
  const charts = publishedMetric
    ? [...data.charts.filter((c) => c.metric === publishedMetric), ...data.charts.filter((c) => c.metric !== publishedMetric)]
    : data.charts;
  for (const chart of charts) {
    if (chart.bars.length) {
      const published = chart.metric === publishedMetric;
      const canvas = figure(container, `${published ? 'The publication’s chart — ' : ''}${chart.metric}: ratio contender / baseline per cell, 1 = equal (hollow grey = not comparable)`, published);
      const bounds = symmetricBounds(chart.bars.filter((b) => !b.greyed).map((b) => b.ratio), data.band);
      const drawn = chart.bars.map((b) => Math.min(Math.max(b.ratio, bounds.min), bounds.max));
      const clippedAt = chart.bars.map((b) => (b.ratio > bounds.max ? 'above' : b.ratio < bounds.min ? 'below' : null));
      const instance = new window.Chart(canvas, {
        type: 'bar',
        data: {
          labels: chart.bars.map((b) => b.label),
          datasets: [{
            label: 'ratio',
            data: drawn.map((r) => [1, r]),
            clippedAt,
            backgroundColor: chart.bars.map((b) => (b.greyed ? greyed : palette[0])),
            borderColor: chart.bars.map((b) => (b.greyed ? greyedLine : palette[0])),
            borderWidth: chart.bars.map((b) => (b.greyed ? 1.5 : 1)),
            borderSkipped: false,
          }],
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          scales: {
            y: { type: 'logarithmic', min: bounds.min, max: bounds.max,
                 title: { display: true, text: 'ratio (log scale, centred on 1)' },
                 afterBuildTicks: (axis) => {
                   // The band's edges are labelled only where they stand clear of 1 and of the other ticks.
                   const band = bounds.max < 2.5 ? [1 - data.band, 1 + data.band] : [];
                   const values = [bounds.min, 1 / Math.sqrt(bounds.max), ...band, 1, Math.sqrt(bounds.max), bounds.max];
                   axis.ticks = [...new Set(values.map((v) => Number(v.toPrecision(2))))].map((value) => ({ value }));
                 },
                 ticks: { callback: (v) => formatNumber(v) } },
            x: { ticks },
          },
          plugins: {
            legend: { display: false },
            band: { band: data.band },
            tooltip: { callbacks: {
              label: (item) => {
                const bar = chart.bars[item.dataIndex];
                const where = clippedAt[item.dataIndex] ? ` (${clippedAt[item.dataIndex]} the axis)` : '';
                return `ratio ${formatNumber(bar.ratio)}${where}`;
              },
              afterLabel: (item) => {
                const bar = chart.bars[item.dataIndex];
                if (!bar.greyed) return 'comparable';
                return `greyed: not comparable${bar.reasons && bar.reasons.length ? ` (${bar.reasons.join(', ')})` : ''}`;
              },
            } },
          },
          onClick: (event, elements) => {
            if (elements.length) window.location.hash = chart.bars[elements[0].index].anchor;
          },
        },
        plugins: [bandPlugin, clipArrows],
      });
      canvas.dataset.rendered = String(instance.data.datasets[0].data.length);
      canvas.dataset.clipped = String(clippedAt.filter((c) => c).length);
      canvas.dataset.greyed = String(chart.bars.filter((b) => b.greyed).length);
    }
    if (data.x && chart.series.length) {
      const canvas = figure(container, `${chart.metric} (${chart.unit || 'no unit'}) against ${data.x}: baseline dashed, contender solid, hollow grey = greyed`);
      const labels = [...new Set(chart.series.map((s) => s.label.replace(/^(baseline|contender) ?/, '')))];
      const bounds = seriesBounds(chart.series);
      const datasets = chart.series.flatMap((s) => {
        const colour = palette[labels.indexOf(s.label.replace(/^(baseline|contender) ?/, '')) % palette.length];
        return lineAndGreyed(s, colour, { borderDash: s.side === 'baseline' ? [6, 4] : [] }, bounds);
      });
      const xs = chart.series.flatMap((s) => s.points.map((p) => p.x));
      const instance = new window.Chart(canvas, {
        type: 'line',
        data: { datasets },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          scales: {
            x: { type: xs.every((x) => x > 0) ? 'logarithmic' : 'linear',
                 title: { display: true, text: data.x }, ticks: { ...ticks, callback: (v) => formatNumber(v), maxTicksLimit: 8 } },
            y: { ...yRange(bounds), ticks: { includeBounds: false, callback: (v) => formatNumber(v) }, title: { display: true, text: chart.unit || chart.metric } },
          },
          plugins: { legend: { position: 'bottom', labels: { boxWidth: 12, font: { size: 10 },
                       filter: (item, all) => !all.datasets[item.datasetIndex].greyed } },
                     tooltip: { callbacks: { label: pointLabel } } },
        },
      });
      canvas.dataset.rendered = String(instance.data.datasets.filter((d) => !d.greyed).length);
      canvas.dataset.greyedPoints = String(datasets.filter((d) => d.greyed).reduce((n, d) => n + d.data.length, 0));
    }
  }
}

// Charts folded behind "Draw them anyway" (nothing comparable to draw) are fetched and drawn once it opens.
whenShown(container, () => {
  applyScheme(window.Chart);
  if (container.dataset.chartsSrc) {
    // A light page fetches the data once it shows.
    fetch(container.dataset.chartsSrc)
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`the server answered ${response.status}`))))
      .then(draw)
      .catch((error) => { container.textContent = `The charts could not be loaded (${error.message}); the table holds the same numbers.`; });
  } else {
    draw(JSON.parse(container.dataset.charts || '{"charts": []}'));
  }
});
