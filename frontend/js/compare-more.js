// A light comparison page writes its first cells (and Pareto points) and fetches the others once it shows: each
// table with data-more-src gets the rest of its rows in place of its "loading" row. A link to a cell that was not
// written yet is followed once the rows are in. Should a fetch fail, the row says so and keeps its link to the page
// with every cell written at once (?cells=all).

async function fillIn(table) {
  const more = table.querySelector('tr.more-rows');
  if (!more) {
    return;
  }
  const status = more.querySelector('.more-status');
  try {
    const response = await fetch(table.dataset.moreSrc, { headers: { Accept: 'text/html' } });
    if (!response.ok) {
      throw new Error(`the server answered ${response.status}`);
    }
    const template = document.createElement('template');
    template.innerHTML = await response.text();
    more.replaceWith(...template.content.querySelectorAll('tr'));
    table.dataset.moreLoaded = 'true';
  } catch (error) {
    status.textContent = `The other rows could not be loaded (${error.message}).`;
    more.classList.add('failed');
  }
}

function followHash() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (target) {
    target.scrollIntoView();
    keepInView(target);
  }
}

// Charts and other parts fetched after the rows can grow above the cell; until the reader scrolls, or for a few
// seconds, the cell is brought back into view whenever the page's size changes.
function keepInView(target) {
  let reader = false;
  const stop = () => { reader = true; };
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) {
    window.addEventListener(type, stop, { once: true, passive: true });
  }
  const observer = new ResizeObserver(() => {
    const top = target.getBoundingClientRect().top;
    if (!reader && (top < -1 || top >= window.innerHeight)) {
      target.scrollIntoView();
    }
  });
  observer.observe(document.body);
  setTimeout(() => observer.disconnect(), 5000);
}

const tables = [...document.querySelectorAll('table[data-more-src]')];
const missing = window.location.hash && !document.getElementById(decodeURIComponent(window.location.hash.slice(1)));
Promise.all(tables.map(fillIn)).then(() => {
  if (missing) {
    followHash();
  }
});
// A click on a link to a cell not written yet waits for the rows.
document.addEventListener('click', (event) => {
  const link = event.target.closest('a[href^="#"]');
  if (link && !document.getElementById(decodeURIComponent(link.hash.slice(1)))
      && tables.some((table) => table.dataset.moreLoaded !== 'true')) {
    Promise.all(tables.map((table) => new Promise((resolve) => {
      const poll = () => (table.dataset.moreLoaded === 'true' || table.querySelector('tr.more-rows.failed') ? resolve() : setTimeout(poll, 50));
      poll();
    }))).then(followHash);
  }
});
