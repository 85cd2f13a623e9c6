// The run list of a series page holds the latest runs. A link to one run in the series (#run-<id>, as the run page
// writes it) whose run is not among them opens the list of all runs at that run.
const wanted = decodeURIComponent(location.hash.slice(1));
const all = document.querySelector('a[data-all-runs]');
if (wanted.startsWith('run-') && !document.getElementById(wanted) && all) {
  const url = new URL(all.href, location.href);
  url.hash = location.hash;
  location.replace(url.href);
}
