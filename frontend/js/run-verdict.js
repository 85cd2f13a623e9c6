// The verdict of a run in a series (a pull-request run against its base branch's series, a nightly against the run
// before it), on the first screen of its page: the verdict's own word, what it rests on, and the link to the
// comparison it comes from. The page names where to ask (/api/runs/{id}/verdict); nothing is said without a baseline.
const box = document.getElementById('run-verdict');

const WORDS = {
  pass: 'pass',
  regression: 'regression',
  inconclusive: 'inconclusive',
  'not-comparable': 'not comparable',
};

function say(verdict) {
  const word = WORDS[verdict.status];
  if (!word || !verdict.comparison_url) {
    box.remove();
    return;
  }
  const magnitude = Math.round(verdict.alert_magnitude * 100);
  // The server says it in words (cells and signed changes); the counts below are for an older server.
  let why = verdict.in_words;
  if (!why && verdict.status === 'pass') {
    why = `no comparable cell is worse by ${magnitude} % or more than the baseline`;
  } else if (!why && verdict.status === 'not-comparable') {
    why = `the comparison with the baseline is not like for like (${verdict.reasons.map((r) => r.rule).join(', ')})`;
  } else if (!why) {
    const n = verdict.regressions.length;
    why = `${n} cell × metric${n === 1 ? '' : 's'} worse by ${magnitude} % or more`
      + (verdict.status === 'inconclusive' ? ', within the noise' : '');
  }
  box.className = `run-verdict verdict-${verdict.status}`;
  box.textContent = '';
  const strong = document.createElement('strong');
  strong.className = 'verdict-word';
  strong.textContent = word;
  const link = document.createElement('a');
  link.href = verdict.comparison_url;
  link.textContent = verdict.baseline_title
    ? `the comparison with “${verdict.baseline_title}”` : `the comparison with ${verdict.baseline}`;
  box.append('Verdict: ', strong, ` — ${why}. See `, link, '.');
  box.hidden = false;
}

if (box && box.dataset.src) {
  fetch(box.dataset.src, { headers: { Accept: 'application/json' } })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
    .then(say)
    .catch(() => box.remove());
}
