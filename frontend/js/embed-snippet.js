// The embed snippet of a publication names Parity's address. When the server does not know its public address
// (parity.public-url unset), it writes the snippet with a path only; the browser fills in the address it is using.
for (const pre of document.querySelectorAll('pre.embed-snippet[data-origin=""]')) {
  pre.textContent = pre.textContent
    .replace('src="/embed/', `src="${window.location.origin}/embed/`)
    .replace('e.origin !== ""', `e.origin !== "${window.location.origin}"`);
}
