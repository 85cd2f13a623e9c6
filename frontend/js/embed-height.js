// An embedded publication tells the page that frames it how tall it is, whenever that changes, so that the host's
// snippet (on the publication's page, "Embed this publication") can size the frame without a scroll bar:
// a message {type: "parity-embed-height", height} posted to the parent window.
function post() {
  window.parent.postMessage({ type: 'parity-embed-height', height: Math.ceil(document.documentElement.scrollHeight) }, '*');
}

if (window.parent !== window) {
  new ResizeObserver(post).observe(document.body);
  window.addEventListener('load', post);
  post();
}
