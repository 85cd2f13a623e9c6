// "Copy" buttons beside commands: copy the text of the element named by data-target.
for (const button of document.querySelectorAll('button.copy-command')) {
  button.addEventListener('click', async () => {
    const source = document.getElementById(button.dataset.target);
    if (!source) return;
    const text = source.textContent;
    const label = button.textContent;
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
      button.dataset.copied = 'true';
    } catch {
      window.prompt('Copy this command', text);
    }
    window.setTimeout(() => { button.textContent = label; }, 2000);
  });
}
