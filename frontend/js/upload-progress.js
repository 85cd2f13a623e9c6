// Upload progress for large files: send the form with XMLHttpRequest and show how much has gone.
// Without JavaScript the form posts as usual.
const form = document.querySelector('form.upload');
const bar = form && form.querySelector('progress.upload-progress');
if (form && bar && window.FormData) {
  form.addEventListener('submit', (event) => {
    const files = [...form.querySelectorAll('input[type=file]')].flatMap((input) => [...input.files]);
    const size = files.reduce((sum, file) => sum + file.size, 0);
    if (size < 2 * 1024 * 1024) return; // small uploads: the ordinary post is quick
    event.preventDefault();
    const request = new XMLHttpRequest();
    request.open('POST', form.action);
    bar.hidden = false;
    request.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) bar.value = Math.round((100 * e.loaded) / e.total);
    });
    request.addEventListener('load', () => {
      if (request.responseURL && new URL(request.responseURL).pathname !== new URL(form.action).pathname) {
        window.location.assign(request.responseURL);
      } else {
        document.open();
        document.write(request.responseText);
        document.close();
      }
    });
    request.send(new FormData(form));
  });
}
