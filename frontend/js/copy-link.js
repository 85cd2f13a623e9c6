// "Copy link" buttons: copy the absolute permalink of a run, a comparison, a publication or a cell.
for (const button of document.querySelectorAll('button.copy-link')) {
  button.addEventListener('click', async () => {
    const url = new URL(button.dataset.href, window.location.origin).href;
    try {
      await navigator.clipboard.writeText(url);
      button.textContent = 'Copied';
    } catch {
      window.prompt('Copy this link', url);
    }
  });
}
