// "Describe this format": draws the held JSON file as a tree with example values; clicking a list makes its items
// the cells (or, inside a cell, the per-request samples), and each field of a cell or sample gets a role — param,
// metric in a unit, output tokens, status. The mapping (JSONPath: fields, [*] and indices only) is shown as it is
// built, and the server previews what it reads (cells, flags, problems naming each key) as you map. A param keeps
// the field's name unless renamed (target_prompt_tokens → prompt_tokens, to match other runs' grids), and top-level
// fields outside the cells may be read as the run's provenance (model, system, engine …).

const form = document.getElementById('describe');
const tree = document.getElementById('structure');
const mappingView = document.getElementById('mapping-json');
const problemsView = document.getElementById('describe-problems');
const cellsView = document.getElementById('describe-cells');
const flagsView = document.getElementById('describe-flags');
const notesView = document.getElementById('describe-notes');
const saveButton = document.getElementById('save-format');
const nameInput = document.getElementById('format-name');
const cellsChosen = document.getElementById('cells-chosen');
const metricNames = form.dataset.metrics.split(',');
const catalogueUnits = Object.fromEntries(form.dataset.units.split(',').map((pair) => pair.split('=')));

let documentValue = null;
const state = { cells: null, samples: null, roles: new Map(), provenance: new Map() };

// Provenance a top-level field may give the run (the keys of a mapping's "provenance").
const provenanceFields = [['', '—'], ['model', 'provenance: model'], ['model_revision', 'provenance: model revision'],
  ['system', 'provenance: system'], ['hardware', 'provenance: hardware'], ['engine', 'provenance: engine'],
  ['engine_version', 'provenance: engine version'], ['harness_version', 'provenance: harness version'],
  ['title', 'provenance: title']];

function csrf() {
  const input = form.querySelector('input[name=_csrf]');
  return input ? input.value : '';
}

function segment(key) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? '.' + key : "['" + key + "']";
}

function example(value) {
  if (Array.isArray(value)) {
    return 'list of ' + value.length;
  }
  if (value !== null && typeof value === 'object') {
    return 'object';
  }
  const text = JSON.stringify(value);
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}

function guessUnit(key) {
  const name = key.toLowerCase();
  if (/(_|^)ms$|millis/.test(name)) return 'ms';
  if (/(_|^)us$|micros/.test(name)) return 'us';
  if (/tok(en)?s?_?(per_)?s(ec)?$|tps$/.test(name)) return 'tokens/s';
  if (/(_|^)s$|sec(ond)?s?$/.test(name)) return 's';
  return '';
}

function element(tag, attributes = {}, text = null) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    node.setAttribute(name, value);
  }
  if (text !== null) {
    node.textContent = text;
  }
  return node;
}

// Where a field is: 'document' (outside the cells), 'cell' or 'sample'; `relative` is its path from the current item.
function draw(value, absolute, level, relative, key) {
  const item = element('li');
  if (key !== null) {
    item.append(element('span', { class: 'field-name' }, key), ' ');
  }
  item.append(element('span', { class: 'example' }, example(value)));
  if (Array.isArray(value)) {
    const objects = value.length > 0 && value[0] !== null && typeof value[0] === 'object' && !Array.isArray(value[0]);
    if (objects && level === 'document') {
      const button = element('button', { type: 'button', class: 'link choose-cells', 'data-path': absolute + '[*]' },
        'these are the cells');
      button.addEventListener('click', () => chooseCells(absolute + '[*]'));
      item.append(button);
      if (state.cells === absolute + '[*]') {
        item.classList.add('is-cells');
        item.append(children(value[0], absolute + '[*]', 'cell', '$'));
      }
      else {
        item.append(children(value[0], absolute + '[*]', 'document', null));
      }
    }
    else if (objects && level === 'cell') {
      const button = element('button', { type: 'button', class: 'link choose-samples', 'data-path': relative + '[*]' },
        'these are the requests (samples)');
      button.addEventListener('click', () => chooseSamples(relative + '[*]'));
      item.append(button);
      if (state.samples === relative + '[*]') {
        item.classList.add('is-samples');
        item.append(children(value[0], absolute + '[*]', 'sample', '$'));
      }
    }
  }
  else if (value !== null && typeof value === 'object') {
    item.append(children(value, absolute, level, relative));
  }
  else if (level !== 'document') {
    item.append(roleControls(relative, level, key, value));
  }
  else if (!absolute.includes('[')) {
    item.append(provenanceControl(absolute));
  }
  return item;
}

// A top-level field (outside the cells) read as the run's provenance: model, system, engine …
function provenanceControl(path) {
  const select = element('select', { 'data-path': path, 'data-level': 'document', 'aria-label': 'Provenance from ' + path });
  for (const [value, label] of provenanceFields) {
    const option = element('option', { value }, label);
    option.selected = (state.provenance.get(path) || '') === value;
    select.append(option);
  }
  select.addEventListener('change', () => {
    for (const [other, field] of [...state.provenance]) {
      if (field === select.value) state.provenance.delete(other);
    }
    if (select.value === '') state.provenance.delete(path);
    else state.provenance.set(path, select.value);
    redraw();
  });
  const wrap = element('span', { class: 'role-controls' });
  wrap.append(select);
  return wrap;
}

function paramName(key) {
  return key.replace(/[^A-Za-z0-9_]/g, '_');
}

function children(value, absolute, level, relative) {
  const list = element('ul');
  for (const [key, child] of Object.entries(value)) {
    list.append(draw(child, absolute + segment(key), level, relative === null ? null : relative + segment(key), key));
  }
  return list;
}

// The role of one field of a cell or of a sample, with a metric's name, statistic and unit when it is a metric.
function roleControls(path, level, key, value) {
  const id = level + ':' + path;
  const role = state.roles.get(id) || {};
  const wrap = element('span', { class: 'role-controls' });
  const select = element('select', { 'data-path': path, 'data-level': level, 'aria-label': 'Role of ' + path });
  const options = level === 'cell'
    ? [['', '—'], ['param', 'param'], ['metric', 'metric'], ['output_tokens', 'output tokens (median)'],
      ['completed', 'completed requests'], ['failed', 'failed requests'], ['cancelled', 'cancelled requests']]
    : [['', '—'], ['metric', 'metric'], ['output_tokens', 'output tokens'], ['status-cancelled', 'status: true = cancelled'],
      ['status-failed', 'status: true = failed'], ['status', 'status (ok / failed / cancelled)']];
  for (const [optionValue, label] of options) {
    const option = element('option', { value: optionValue }, label);
    option.selected = (role.role || '') === optionValue;
    select.append(option);
  }
  select.addEventListener('change', () => {
    const next = { role: select.value, key };
    if (select.value === 'metric') {
      next.metric = guessMetric(key);
      next.statistic = 'value';
      next.unit = guessUnit(key);
    }
    if (select.value === '') {
      state.roles.delete(id);
    }
    else {
      state.roles.set(id, next);
    }
    redraw();
  });
  wrap.append(select);
  if (role.role === 'param') {
    const name = element('input', { type: 'text', class: 'describe-param-name', value: role.name || paramName(key),
      pattern: '[A-Za-z0-9_]+', 'data-param-name-for': path, 'aria-label': 'Param name for ' + path + ' (rename it to match other runs)' });
    name.addEventListener('input', () => { role.name = name.value.trim(); changed(); });
    wrap.append(' as ', name);
  }
  if (role.role === 'metric') {
    const metric = element('select', { 'data-metric-for': path, 'aria-label': 'Metric of ' + path });
    for (const name of metricNames) {
      const option = element('option', { value: name }, name);
      option.selected = name === role.metric;
      metric.append(option);
    }
    metric.addEventListener('change', () => { role.metric = metric.value; changed(); });
    wrap.append(metric);
    if (level === 'cell') {
      const statistic = element('select', { 'data-statistic-for': path, 'aria-label': 'Statistic of ' + path });
      for (const name of ['value', 'median', 'mean', 'std', 'min', 'max', 'p50', 'p90', 'p95', 'p99']) {
        const option = element('option', { value: name }, name === 'value' ? 'the value' : name);
        option.selected = name === role.statistic;
        statistic.append(option);
      }
      statistic.addEventListener('change', () => { role.statistic = statistic.value; changed(); });
      wrap.append(statistic);
    }
    const unit = element('input', { type: 'text', list: 'units', size: '8', value: role.unit || '',
      placeholder: catalogueUnits[role.metric] || 'unit', 'data-unit-for': path, 'aria-label': 'Unit of ' + path });
    unit.addEventListener('input', () => { role.unit = unit.value.trim(); changed(); });
    wrap.append(unit);
  }
  return wrap;
}

function guessMetric(key) {
  const name = key.toLowerCase();
  if (name.includes('ttft') || name.includes('first')) return 'ttft_s';
  if (name.includes('tpot')) return 'tpot_ms';
  if (name.includes('itl') || name.includes('inter')) return 'itl_ms';
  if (name.includes('e2e') || name.includes('latency')) return 'e2e_latency_s';
  if (name.includes('prefill')) return 'prefill_tps';
  if (name.includes('request') && name.includes('s')) return 'request_throughput';
  if (name.includes('throughput')) return 'throughput_tps';
  return 'decode_tps';
}

function chooseCells(path) {
  state.cells = state.cells === path ? null : path;
  state.samples = null;
  state.roles.clear();
  for (const other of [...state.provenance.keys()]) {
    if (state.cells && other.startsWith(state.cells.replace(/\[\*\]$/, ''))) state.provenance.delete(other);
  }
  cellsChosen.textContent = state.cells ? 'Cells: every item of ' + state.cells : 'No cells yet: click “these are the cells” on a list.';
  redraw();
}

function chooseSamples(path) {
  state.samples = state.samples === path ? null : path;
  for (const id of [...state.roles.keys()]) {
    if (id.startsWith('sample:')) state.roles.delete(id);
  }
  redraw();
}

function rebased(relative) {
  return state.cells + relative.slice(1);
}

function metricEntry(role, path) {
  const entry = { path };
  if (role.unit) entry.unit = role.unit;
  return entry;
}

// The mapping the choices make, in the shape POST /api/formats takes.
function mapping() {
  const result = { name: nameInput.value.trim() };
  result.detect = state.cells ? [state.cells] : [];
  result.cells = state.cells || '';
  result.params = {};
  result.metrics = {};
  const requests = {};
  const samples = state.samples ? { path: state.samples } : null;
  const sampleMetrics = {};
  for (const [id, role] of state.roles) {
    const [level, path] = [id.slice(0, id.indexOf(':')), id.slice(id.indexOf(':') + 1)];
    const name = role.name || paramName(role.key);
    if (level === 'cell') {
      if (role.role === 'param') {
        result.params[name] = path;
        result.detect.push(rebased(path));
      }
      else if (role.role === 'metric') {
        if (role.statistic === 'value') {
          result.metrics[role.metric] = metricEntry(role, path);
        }
        else {
          const statistics = typeof result.metrics[role.metric] === 'object' && !result.metrics[role.metric].path
            ? result.metrics[role.metric] : {};
          statistics[role.statistic === 'p50' ? 'median' : role.statistic] = path;
          if (role.unit) statistics.unit = role.unit;
          result.metrics[role.metric] = statistics;
        }
      }
      else if (role.role === 'output_tokens') {
        result.output_tokens = path;
      }
      else {
        requests[role.role] = path;
      }
    }
    else if (level === 'sample' && samples) {
      if (role.role === 'metric') {
        sampleMetrics[role.metric] = role.unit ? { path, unit: role.unit } : path;
      }
      else if (role.role === 'output_tokens') {
        samples.output_tokens = path;
      }
      else if (role.role === 'status-cancelled') {
        samples.status = { path, map: { true: 'cancelled', false: 'ok' } };
      }
      else if (role.role === 'status-failed') {
        samples.status = { path, map: { true: 'failed', false: 'ok' } };
      }
      else if (role.role === 'status') {
        samples.status = path;
      }
    }
  }
  if (samples) {
    if (Object.keys(sampleMetrics).length > 0) samples.metrics = sampleMetrics;
    result.samples = samples;
    result.detect.push(rebased(state.samples.replace(/\[\*\]$/, '')));
    if (samples.status && Object.keys(requests).length === 0) {
      result.requests = { from_samples: true };
    }
  }
  if (Object.keys(requests).length > 0) {
    result.requests = requests;
  }
  if (state.provenance.size > 0) {
    result.provenance = {};
    for (const [path, field] of state.provenance) result.provenance[field] = path;
  }
  if (Object.keys(result.metrics).length === 0 && samples) {
    delete result.metrics;
  }
  return result;
}

function redraw() {
  tree.replaceChildren();
  const root = element('ul', { class: 'structure-tree' });
  root.append(draw(documentValue, '$', 'document', null, null));
  tree.append(root);
  changed();
}

let pending = null;

function changed() {
  const current = mapping();
  mappingView.textContent = JSON.stringify(current, null, 1);
  saveButton.disabled = !(current.name && current.cells && Object.keys(current.params).length > 0);
  clearTimeout(pending);
  if (current.cells) {
    // The name is asked for when saving; the preview reads the same without one.
    pending = setTimeout(() => preview({ ...current, name: current.name || 'unnamed-format' }), 300);
  }
}

function post(url, current) {
  const body = new URLSearchParams();
  body.set('token', form.dataset.token);
  body.set('mapping', JSON.stringify(current));
  body.set('_csrf', csrf());
  return fetch(url, { method: 'POST', body, headers: { Accept: 'application/json' }, credentials: 'same-origin' });
}

function showProblems(problems) {
  problemsView.replaceChildren();
  problemsView.hidden = problems.length === 0;
  if (problems.length > 0) {
    problemsView.append(element('h3', {}, problems.length === 1 ? '1 problem' : problems.length + ' problems'));
    const list = element('ul');
    for (const problem of problems) {
      const line = element('li');
      line.append(element('code', {}, problem.path), ' ', problem.message);
      list.append(line);
    }
    problemsView.append(list);
  }
}

async function preview(current) {
  const response = await post(form.dataset.preview, current);
  if (!response.ok) {
    showProblems([{ path: 'preview', message: 'the preview failed (' + response.status + ')' }]);
    return;
  }
  const result = await response.json();
  const latest = mapping();
  if (JSON.stringify({ ...latest, name: latest.name || 'unnamed-format' }) !== JSON.stringify(current)) {
    return;
  }
  showProblems(result.problems.filter((p) => !p.path.startsWith('$.title')));
  flagsView.replaceChildren();
  if (result.flags.length > 0) {
    flagsView.append(element('h3', {}, 'Flags that will fire'));
    const list = element('ul', { id: 'describe-flag-list' });
    result.flags.forEach((flag) => list.append(element('li', {}, flag)));
    flagsView.append(list);
  }
  cellsView.replaceChildren();
  if (result.cells.length > 0) {
    const table = element('table', { class: 'runs preview', id: 'describe-cell-table', tabindex: '0',
      'aria-label': 'Cells read (scrolls sideways on a narrow screen)' });
    const head = element('tr');
    ['params', 'completed', 'failed', 'cancelled', 'output tokens (median)', 'samples', 'metrics (unit)']
      .forEach((label) => head.append(element('th', { scope: 'col' }, label)));
    table.append(element('thead'), element('tbody'));
    table.tHead.append(head);
    for (const cell of result.cells.slice(0, 200)) {
      const row = element('tr');
      row.append(element('td', {}, cell.params));
      for (const value of [cell.completed, cell.failed, cell.cancelled, cell.outputTokens, String(cell.samples)]) {
        row.append(element('td', { class: 'num' }, value));
      }
      row.append(element('td', {}, Object.entries(cell.metrics).map(([name, value]) => name + ' ' + value).join('; ')));
      table.tBodies[0].append(row);
    }
    cellsView.append(element('h3', {}, 'Cells read (' + result.cells.length + ')'), table);
  }
  notesView.replaceChildren();
  result.notes.forEach((note) => notesView.append(element('li', {}, note)));
}

saveButton.addEventListener('click', async () => {
  if (!nameInput.reportValidity()) {
    return;
  }
  const response = await post(form.action, mapping());
  const result = await response.json();
  if (!response.ok) {
    showProblems(result.errors || [{ path: 'format', message: 'could not be saved (' + response.status + ')' }]);
    return;
  }
  // Then the same preview and provenance form as any import, read with the format just saved.
  const next = element('form', { method: 'post', action: form.dataset.import, hidden: '' });
  const saved = response.status === 201 ? 'created' : 'unchanged';
  for (const [name, value] of [['token', form.dataset.token], ['format', result.id], ['action', 'preview'], ['saved', saved],
    ['_csrf', csrf()]]) {
    next.append(element('input', { type: 'hidden', name, value }));
  }
  document.body.append(next);
  next.submit();
});

nameInput.addEventListener('input', changed);

fetch(form.dataset.file, { credentials: 'same-origin' })
  .then((response) => response.json())
  .then((value) => { documentValue = value; redraw(); })
  .catch(() => { tree.textContent = 'The file could not be read as JSON.'; });
