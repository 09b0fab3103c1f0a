// The task console's page (served by taskConsole in console.js): one HTML document with its CSS
// and script, no framework. It opens the event stream `events` (relative to the page), keeps
// every task in a Map, and renders rows as text only (never HTML from the server).
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>__TITLE__ · task console</title>
<style>
:root{--bg:#f7f8fa;--fg:#1b1f24;--muted:#5b6573;--line:#d9dde3;--panel:#fff;--focus:#2f6fed;
--working:#1f6feb;--input:#9a6700;--completed:#1a7f37;--failed:#cf222e;--cancelled:#6e7781;font:14px/1.45 system-ui,sans-serif}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--fg:#e6e9ee;--muted:#9aa4b2;--line:#2a313a;--panel:#161b22;
--working:#58a6ff;--input:#d29922;--completed:#3fb950;--failed:#f85149;--cancelled:#8b949e}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg)}
header{display:flex;flex-wrap:wrap;gap:.75rem 1.5rem;align-items:center;padding:.75rem 1.25rem;border-bottom:1px solid var(--line);background:var(--panel)}
h1{font-size:1.05rem;margin:0}h2{font-size:.95rem;margin:0 0 .5rem}h3{font-size:.8rem;margin:.75rem 0 .25rem;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
#conn{font-size:.8rem;color:var(--muted)}#conn[data-state=live]::before{content:"● ";color:var(--completed)}
#conn[data-state=down]::before{content:"● ";color:var(--failed)}
#counts,#figures{display:flex;gap:.75rem;margin:0;padding:0;list-style:none;font-size:.8rem;color:var(--muted)}
form{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-left:auto}
label{display:flex;flex-direction:column;font-size:.75rem;color:var(--muted);gap:.15rem}
select{max-width:14rem}select,button{font:inherit;color:inherit;background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.25rem .5rem}
button{cursor:pointer}button:hover{border-color:var(--muted)}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
main{display:grid;grid-template-columns:minmax(0,1fr) minmax(18rem,26rem);gap:1rem;padding:1rem 1.25rem}
@media (max-width:900px){main{grid-template-columns:1fr}}
table{width:100%;border-collapse:collapse;background:var(--panel);border:1px solid var(--line);border-radius:8px;overflow:hidden}
caption{text-align:left;padding:0 0 .4rem;color:var(--muted);font-size:.8rem}
th,td{padding:.4rem .6rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-size:.75rem;font-weight:600;color:var(--muted);text-transform:uppercase;letter-spacing:.03em}
tr[aria-selected=true]{background:color-mix(in srgb,var(--focus) 10%,transparent)}
.id,code,pre,.ttl{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem}
.msg{max-width:28rem;overflow-wrap:anywhere}.when,.ttl{white-space:nowrap}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;font-size:.75rem;font-weight:600;color:#fff;white-space:nowrap}
.s-working{background:var(--working)}.s-input_required{background:var(--input)}.s-completed{background:var(--completed)}
.s-failed{background:var(--failed)}.s-cancelled{background:var(--cancelled)}
.muted{color:var(--muted)}.empty{padding:1.5rem;text-align:center;color:var(--muted)}
aside{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:1rem;align-self:start;position:sticky;top:1rem}
ol.timeline{list-style:none;margin:.25rem 0 1rem;padding:0 0 0 .75rem;border-left:2px solid var(--line)}
ol.timeline li{margin:0 0 .4rem;position:relative}
pre{white-space:pre-wrap;overflow-wrap:anywhere;max-height:20rem;overflow:auto;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.5rem;margin:.25rem 0 0}
dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem .75rem;margin:0 0 1rem}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.note{border-left:3px solid var(--input);padding:.25rem .6rem;margin:0 0 1rem}
section.input{border-left:3px solid var(--input);padding:.1rem 0 .1rem .75rem;margin:0 0 1rem}.ask{margin:.25rem 0 .5rem;font-weight:600}
form.answer{display:flex;flex-direction:column;align-items:stretch;gap:.5rem;margin:.5rem 0}
.answer input:not([type=checkbox]),.answer textarea,.answer select{font:inherit;font-size:.9rem;color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.3rem .5rem;max-width:none}
.answer textarea{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem}.answer input[type=checkbox]{align-self:start}
.buttons{display:flex;gap:.5rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
</style>
</head>
<body>
<header>
<h1>__TITLE__</h1>
<span id="conn" role="status" data-state="connecting">connecting…</span>
<ul id="counts" aria-label="Tasks by status"></ul>
<ul id="figures" aria-label="Runtime figures" hidden></ul>
<form id="filters" aria-label="Filters">
<label>Status<select id="f-status"><option value="">all</option><option value="active">running</option>
<option>working</option><option value="input_required">input required</option><option>completed</option><option>failed</option><option>cancelled</option></select></label>
<label>Tool<select id="f-tool"><option value="">all</option></select></label>
<label>Context<select id="f-context"><option value="">all</option></select></label>
</form>
</header>
<main>
<section aria-labelledby="list-title">
<h2 id="list-title" class="sr-only">Tasks</h2>
<table>
<caption id="shown">No tasks yet</caption>
<thead><tr><th scope="col">Task</th><th scope="col">Tool</th><th scope="col">Context</th><th scope="col">Status</th><th scope="col">Message</th><th scope="col">TTL left</th><th scope="col">Updated</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
<tbody id="rows"></tbody>
</table>
</section>
<aside id="detail" aria-labelledby="detail-title">
<h2 id="detail-title">Details</h2>
<p class="muted" id="detail-empty">Select a task to see its timeline and its result.</p>
<div id="detail-body" hidden></div>
</aside>
</main>
<div id="announce" class="sr-only" aria-live="polite"></div>
<script>
(() => {
'use strict';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const ORDER = ['working', 'input_required', 'completed', 'failed', 'cancelled'];
const LABEL = { working: 'working', input_required: 'input required', completed: 'completed', failed: 'failed', cancelled: 'cancelled' };
const tasks = new Map();
let selected = null;
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') e.className = v; else if (k.startsWith('data-') || k.startsWith('aria-')) e.setAttribute(k, v); else e[k] = v;
  }
  for (const kid of kids) if (kid !== null && kid !== undefined) e.append(kid);
  return e;
};
const short = (id) => (id.length > 12 ? id.slice(0, 8) + '…' : id);
const time = (iso) => { const d = new Date(iso); return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString(); };
const badge = (status) => el('span', { class: 'badge s-' + status }, LABEL[status] ?? status);
const expiry = (t) => (t.ttl === null || t.ttl === undefined ? null : Date.parse(t.createdAt) + t.ttl);
const left = (t) => {
  const at = expiry(t);
  if (at === null) return 'no limit';
  const s = Math.max(0, Math.round((at - Date.now()) / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h > 0 ? h + ':' + two(m) + ':' + two(r) : m + ':' + two(r);
};
const announce = (text) => { $('announce').textContent = text; };

function filters() {
  return { status: $('f-status').value, tool: $('f-tool').value, context: $('f-context').value };
}
function shown(t, f) {
  if (f.status === 'active' ? TERMINAL.has(t.status) : f.status && t.status !== f.status) return false;
  if (f.tool && (t.tool ?? '') !== f.tool) return false;
  if (f.context && (t.context ?? '') !== f.context) return false;
  return true;
}
function options(select, values) {
  const keep = select.value;
  const have = [...select.options].slice(1).map((o) => o.value);
  const want = [...values].sort();
  if (keep && !want.includes(keep)) want.push(keep);
  if (have.join('\\n') === want.join('\\n')) return;
  select.replaceChildren(select.options[0], ...want.map((v) => el('option', { value: v }, v)));
  select.value = keep;
}

// Rows are rebuilt on every change: the focused control is found again by its data-key.
function render() {
  const focused = document.activeElement?.dataset?.key;
  draw();
  if (focused) document.querySelector('[data-key="' + CSS.escape(focused) + '"]')?.focus();
}
function draw() {
  const f = filters();
  const list = [...tasks.values()].sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  options($('f-tool'), new Set(list.map((t) => t.tool).filter(Boolean)));
  options($('f-context'), new Set(list.map((t) => t.context).filter(Boolean)));
  const counts = Object.fromEntries(ORDER.map((s) => [s, 0]));
  for (const t of list) counts[t.status] = (counts[t.status] ?? 0) + 1;
  $('counts').replaceChildren(...ORDER.map((s) => el('li', {}, badge(s), ' ' + counts[s])));
  const rows = list.filter((t) => shown(t, f)).map(row);
  $('rows').replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colSpan: 8, class: 'empty' }, tasks.size ? 'No task matches the filters' : 'No tasks'))]));
  $('shown').textContent = rows.length + ' of ' + list.length + ' task' + (list.length === 1 ? '' : 's');
  detail();
}
function row(t) {
  const open = el('button', { type: 'button', class: 'id', title: t.taskId, 'aria-label': 'Details of task ' + t.taskId, 'data-key': 'open ' + t.taskId }, short(t.taskId));
  open.addEventListener('click', () => select(t.taskId));
  const actions = el('td');
  if (!TERMINAL.has(t.status)) {
    const cancel = el('button', { type: 'button', 'aria-label': 'Cancel task ' + t.taskId, 'data-key': 'cancel ' + t.taskId }, 'Cancel');
    cancel.addEventListener('click', () => cancelTask(t.taskId, cancel));
    actions.append(cancel);
  }
  return el('tr', { 'data-task-id': t.taskId, 'data-status': t.status, 'aria-selected': String(t.taskId === selected) },
    el('td', {}, open), el('td', {}, t.tool ?? el('span', { class: 'muted' }, '—')), el('td', { class: 'id', title: t.context ?? '' }, t.context ? short(t.context) : el('span', { class: 'muted' }, '—')),
    el('td', { class: 'status' }, badge(t.status)), el('td', { class: 'msg' }, t.statusMessage ?? ''),
    el('td', { class: 'ttl', 'data-task-id': t.taskId }, left(t)), el('td', { class: 'when' }, time(t.lastUpdatedAt)), actions);
}

let outcome = { taskId: null, status: null, body: null };
// The input requests of the selected task, built once per change of the task: what the operator
// types survives the live updates of the page.
let input = { taskId: null, at: null, body: null, ids: null };
function select(taskId) {
  selected = taskId;
  draw();
  $('detail-title').focus();
}
async function loadOutcome(t) {
  outcome = { taskId: t.taskId, status: t.status, body: el('p', { class: 'muted' }, 'loading…') };
  try {
    const res = await fetch('tasks/' + encodeURIComponent(t.taskId), { headers: { accept: 'application/json' } });
    const data = await res.json();
    if (outcome.taskId !== t.taskId) return;
    if (!res.ok) outcome.body = el('p', { class: 'muted' }, data.error ?? res.statusText);
    else if (data.error) outcome.body = el('div', {}, el('h3', {}, 'Error'), el('pre', { class: 'outcome' }, JSON.stringify(data.error, null, 2)));
    else if (data.result !== undefined) outcome.body = el('div', {}, el('h3', {}, 'Result'), el('pre', { class: 'outcome' }, JSON.stringify(data.result, null, 2)));
    else outcome.body = el('p', { class: 'muted' }, 'No result stored.');
  } catch (err) {
    outcome.body = el('p', { class: 'muted' }, 'Could not load the outcome: ' + err.message);
  }
  shownDetail = null;
  detail();
}
async function loadInput(t) {
  const same = input.taskId === t.taskId;
  input = { taskId: t.taskId, at: t.lastUpdatedAt, body: same ? input.body : el('p', { class: 'muted' }, 'loading the input request…'), ids: same ? input.ids : null };
  let body;
  let ids = null;
  try {
    const res = await fetch('tasks/' + encodeURIComponent(t.taskId), { headers: { accept: 'application/json' } });
    const data = await res.json();
    if (!res.ok) body = el('p', { class: 'muted' }, data.error ?? res.statusText);
    else if (!Array.isArray(data.inputRequests)) body = el('p', { class: 'note' }, 'Waiting for input from the client that created the task. This server\\'s operator view does not expose input requests, so they cannot be answered from here.');
    else if (data.inputRequests.length === 0) body = el('p', { class: 'muted' }, 'No input request is pending.');
    else {
      ids = data.inputRequests.map((r) => r.requestId).join('\\n');
      // The same requests as shown: the form the operator may be filling stays as it is.
      if (ids === input.ids) return;
      body = el('div', {}, ...data.inputRequests.map((r) => inputForm(t.taskId, r)));
    }
  } catch (err) {
    body = el('p', { class: 'muted' }, 'Could not load the input request: ' + err.message);
  }
  if (input.taskId !== t.taskId || input.at !== t.lastUpdatedAt) return;
  input.body = body;
  input.ids = ids;
  shownDetail = null;
  detail();
}
// An elicitation whose requestedSchema has primitive fields only gets a form; anything else
// (sampling, roots, URL elicitation, nested schemas) a JSON answer.
const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean']);
function formFields(r) {
  const schema = r.params?.requestedSchema;
  if (r.method !== 'elicitation/create' || r.params?.mode === 'url' || !schema || typeof schema.properties !== 'object') return null;
  const fields = Object.entries(schema.properties);
  return fields.every(([, p]) => p && PRIMITIVE.has(p.type)) ? fields.map(([name, p]) => ({ name, p, required: (schema.required ?? []).includes(name) })) : null;
}
function inputForm(taskId, r) {
  const key = taskId + ' ' + r.requestId;
  const status = el('p', { class: 'muted', role: 'status' });
  const send = async (result, buttons) => {
    for (const b of buttons) b.disabled = true;
    status.textContent = 'sending…';
    try {
      const res = await fetch('tasks/' + encodeURIComponent(taskId) + '/answer', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requestId: r.requestId, result }) });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(data.error ?? res.statusText);
      status.textContent = 'Answer sent.';
      announce('Answer sent for task ' + short(taskId));
      if (data.taskId) { const { inputRequests, ...task } = data; tasks.set(taskId, { ...tasks.get(taskId), ...task }); render(); }
    } catch (err) {
      for (const b of buttons) b.disabled = false;
      status.textContent = 'The answer failed: ' + err.message;
      announce(status.textContent);
    }
  };
  const head = [el('h3', {}, 'Input requested: ' + r.method)];
  if (typeof r.params?.message === 'string') head.push(el('p', { class: 'ask' }, r.params.message));
  const fields = formFields(r);
  if (fields !== null) {
    const form = el('form', { class: 'answer', 'aria-label': 'Answer of ' + r.method, 'data-request-id': r.requestId });
    const inputs = fields.map(({ name, p, required }) => {
      const props = { name, required, 'data-key': 'field ' + key + ' ' + name };
      let control;
      if (Array.isArray(p.enum)) control = el('select', props, ...(required ? [] : [el('option', { value: '' }, '')]), ...p.enum.map((v) => el('option', { value: String(v) }, String(v))));
      else if (p.type === 'boolean') control = el('input', { ...props, type: 'checkbox', required: false });
      else control = el('input', { ...props, type: p.type === 'string' ? 'text' : 'number', step: p.type === 'integer' ? '1' : 'any' });
      if (p.default !== undefined) { if (p.type === 'boolean') control.checked = p.default === true; else control.value = String(p.default); }
      form.append(el('label', {}, (p.title ?? name) + (required ? ' *' : ''), control, p.description ? el('span', { class: 'muted' }, p.description) : null));
      return { name, p, control };
    });
    const accept = el('button', { type: 'submit', 'data-key': 'accept ' + key }, 'Accept');
    const decline = el('button', { type: 'button', 'data-key': 'decline ' + key }, 'Decline');
    const cancel = el('button', { type: 'button', 'data-key': 'cancel-input ' + key }, 'Cancel');
    const buttons = [accept, decline, cancel];
    form.append(el('div', { class: 'buttons' }, ...buttons));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const content = {};
      for (const { name, p, control } of inputs) {
        if (p.type === 'boolean') content[name] = control.checked;
        else if (control.value !== '') content[name] = p.type === 'string' ? control.value : Number(control.value);
      }
      void send({ action: 'accept', content }, buttons);
    });
    decline.addEventListener('click', () => void send({ action: 'decline' }, buttons));
    cancel.addEventListener('click', () => void send({ action: 'cancel' }, buttons));
    return el('section', { class: 'input' }, ...head, form, status);
  }
  const area = el('textarea', { rows: 6, 'aria-label': 'Answer (a JSON object)', 'data-key': 'json ' + key, spellcheck: false });
  area.value = r.method === 'elicitation/create' ? '{ "action": "accept", "content": {} }' : '{}';
  const answer = el('button', { type: 'button', 'data-key': 'send ' + key }, 'Send answer');
  answer.addEventListener('click', () => {
    let result;
    try { result = JSON.parse(area.value); } catch (err) { status.textContent = 'Not JSON: ' + err.message; return; }
    void send(result, [answer]);
  });
  return el('section', { class: 'input' }, ...head, el('h3', {}, 'Request'), el('pre', {}, JSON.stringify(r.params, null, 2)),
    el('form', { class: 'answer', 'data-request-id': r.requestId, 'aria-label': 'Answer of ' + r.method }, el('label', {}, 'Answer (JSON result)', area), el('div', { class: 'buttons' }, answer)), status);
}
// The detail panel is rebuilt only when what it shows changed (a form keeps its focus and text).
let shownDetail = null;
function detail() {
  const t = selected === null ? undefined : tasks.get(selected);
  $('detail-empty').hidden = t !== undefined;
  const body = $('detail-body');
  body.hidden = t === undefined;
  if (t === undefined) { shownDetail = null; return body.replaceChildren(); }
  const shows = JSON.stringify(t) + (outcome.taskId === t.taskId ? outcome.status + (outcome.body ? 'b' : '') : '');
  if (shows === shownDetail && body.childElementCount > 0) return;
  shownDetail = shows;
  if ((t.status === 'completed' || t.status === 'failed') && (outcome.taskId !== t.taskId || outcome.status !== t.status)) void loadOutcome(t);
  const at = expiry(t);
  const items = [['Task', el('code', {}, t.taskId)], ['Status', badge(t.status)], ['Tool', t.tool ?? '—'], ['Context', t.context ? el('code', {}, t.context) : '—'],
    ['Created', new Date(t.createdAt).toLocaleString()], ['Expires', at === null ? 'never' : el('span', {}, new Date(at).toLocaleString() + ' (', el('span', { class: 'left', 'data-task-id': t.taskId }, left(t)), ')')]];
  if (t.pollInterval !== undefined) items.push(['Poll interval', t.pollInterval + ' ms']);
  const dl = el('dl', {}, ...items.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]));
  const timeline = el('ol', { class: 'timeline', 'aria-label': 'Status timeline' },
    ...(t.timeline ?? []).map((s) => el('li', {}, el('span', { class: 'muted ttl' }, time(s.at) + ' '), badge(s.status), s.statusMessage ? ' ' + s.statusMessage : '')));
  const parts = [dl, el('h3', {}, 'Timeline'), timeline];
  if (t.status === 'input_required') {
    if (input.taskId !== t.taskId || input.at !== t.lastUpdatedAt) void loadInput(t);
    parts.push(input.taskId === t.taskId ? input.body : null);
  }
  if (!TERMINAL.has(t.status)) {
    const cancel = el('button', { type: 'button', 'data-key': 'detail-cancel ' + t.taskId }, 'Cancel this task');
    cancel.addEventListener('click', () => cancelTask(t.taskId, cancel));
    parts.push(cancel);
  }
  if (t.status === 'completed' || t.status === 'failed') parts.push(outcome.taskId === t.taskId ? outcome.body : null);
  body.replaceChildren(...parts.filter(Boolean));
}

async function cancelTask(taskId, button) {
  button.disabled = true;
  try {
    const res = await fetch('tasks/' + encodeURIComponent(taskId) + '/cancel', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'Cancelled from the task console' }) });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.error ?? res.statusText);
    if (data.taskId) tasks.set(taskId, { ...tasks.get(taskId), ...data });
    announce('Cancel sent for task ' + short(taskId));
    render();
  } catch (err) {
    button.disabled = false;
    announce('Cancel failed for task ' + short(taskId) + ': ' + err.message);
  }
}

function connect() {
  const source = new EventSource('events');
  const conn = $('conn');
  source.addEventListener('open', () => { conn.dataset.state = 'live'; conn.textContent = 'live'; });
  source.addEventListener('error', () => { conn.dataset.state = 'down'; conn.textContent = 'reconnecting…'; });
  source.addEventListener('feed', (e) => {
    const d = JSON.parse(e.data);
    conn.dataset.state = d.ok ? 'live' : 'down';
    conn.textContent = d.ok ? 'live' : 'server cannot list tasks: ' + d.message;
  });
  source.addEventListener('figures', (e) => {
    const f = JSON.parse(e.data);
    const shown = [['running', f.running], ['waiting for input', f.inputWaiting], ['expired', f.expirations], ['lease failures', f.leaseFailures], ['storage errors', f.storageErrors]];
    $('figures').replaceChildren(...shown.map(([label, n]) => el('li', { 'data-figure': label }, label + ' ' + n)));
    $('figures').hidden = false;
  });
  source.addEventListener('snapshot', (e) => {
    tasks.clear();
    for (const t of JSON.parse(e.data).tasks) tasks.set(t.taskId, t);
    render();
  });
  source.addEventListener('task', (e) => {
    const t = JSON.parse(e.data);
    const was = tasks.get(t.taskId);
    tasks.set(t.taskId, t);
    if (!was) announce('New task ' + short(t.taskId) + (t.tool ? ' (' + t.tool + ')' : '') + ': ' + LABEL[t.status]);
    else if (was.status !== t.status) announce('Task ' + short(t.taskId) + ' ' + LABEL[t.status]);
    render();
  });
  source.addEventListener('gone', (e) => {
    const { taskId } = JSON.parse(e.data);
    tasks.delete(taskId);
    announce('Task ' + short(taskId) + ' expired');
    render();
  });
}
for (const id of ['f-status', 'f-tool', 'f-context']) $(id).addEventListener('change', render);
$('detail-title').tabIndex = -1;
setInterval(() => { for (const cell of document.querySelectorAll('td.ttl, #detail-body .left')) { const t = tasks.get(cell.dataset.taskId); if (t) cell.textContent = left(t); } }, 1000);
connect();
})();
</script>
</body>
</html>
`;
