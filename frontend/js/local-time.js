// Moments said relative and local: a <time data-relative datetime="…"> reads "3 hours ago" (in the browser's
// language) and shows the exact local time, with the ISO time, on hover. Without JavaScript the page keeps the exact
// UTC time it was served with. A <time data-local> (a list of many moments) reads as the exact local time instead.
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const exact = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const UNITS = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "3 hours ago", "yesterday", "in 2 minutes": the largest unit that fits. */
export function ago(date, now = Date.now()) {
  const seconds = (date.getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return relative.format(0, 'second');
}

function render() {
  for (const time of document.querySelectorAll('time[data-relative][datetime], time[data-local][datetime]')) {
    const date = new Date(time.getAttribute('datetime'));
    if (Number.isNaN(date.getTime())) {
      continue;
    }
    time.textContent = time.hasAttribute('data-local') ? local.format(date) : ago(date);
    time.title = `${exact.format(date)} (${date.toISOString()})`;
  }
}

render();
setInterval(render, 60_000);
