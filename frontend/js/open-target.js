// A link to something inside a closed <details> (a note folded under its rule's line, a cell's full reasons) opens
// the details that hold it, so that following the link shows what it points at.
function openTarget() {
  const id = decodeURIComponent(window.location.hash.slice(1));
  const target = id && document.getElementById(id);
  if (!target) {
    return;
  }
  let closed = false;
  for (let details = target.closest('details'); details; details = details.parentElement.closest('details')) {
    if (!details.open) {
      details.open = true;
      closed = true;
    }
  }
  if (closed) {
    target.scrollIntoView();
  }
}

window.addEventListener('hashchange', openTarget);
openTarget();
