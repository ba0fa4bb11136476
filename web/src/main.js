// The playground's page: the editor with diagnostics as you type, and the
// Play, Measure and Summary panes. Everything the engine does happens in the
// worker (src/worker.js); this file only draws what it answers.
import { EditorView, basicSetup } from 'codemirror';
import { EditorState } from '@codemirror/state';
import { setDiagnostics } from '@codemirror/lint';
import { regel } from './highlight.js';
import { shipped, openable } from './files.js';
import { pack, unpack } from './share.js';

const $ = (id) => document.getElementById(id);

// ---- the worker, with a stop button for anything that takes long --------
let worker;
let nextId = 1;
const waiting = new Map();
function startWorker() {
  worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = (ev) => {
    const { id, res, progress } = ev.data;
    const w = waiting.get(id);
    if (!w) return;
    if (progress !== undefined) return w.progress?.(progress);
    waiting.delete(id);
    busy();
    w.resolve(res);
  };
  worker.postMessage({ id: 0, req: { cmd: 'put', files: shipped } });
}
let busyTimer;
function busy() {
  clearTimeout(busyTimer);
  $('stop').hidden = true;
  if (waiting.size) busyTimer = setTimeout(() => ($('stop').hidden = false), 1000);
}
function ask(req, progress) {
  const id = nextId++;
  const key = req.cmd ? 'req' : 'sim';
  return new Promise((resolve) => {
    waiting.set(id, { resolve, progress });
    busy();
    worker.postMessage({ id, [key]: req.cmd ? req : req.sim });
  });
}
$('stop').onclick = () => {
  worker.terminate();
  for (const w of waiting.values()) w.resolve({ error: 'stopped: the engine was ended and started again' });
  waiting.clear();
  busy();
  startWorker();
  for (const d of docs) worker.postMessage({ id: 0, req: { cmd: 'put', files: { [d.path]: d.text() } } });
  checkSoon();
};

// ---- files and tabs ---------------------------------------------------------
const docs = []; // {path, state, text()}
let active = null;
let view;

function openDoc(path, text) {
  let d = docs.find((x) => x.path === path);
  if (!d) {
    d = { path, state: newState(text ?? shipped[path] ?? '') };
    d.text = () => (d === active ? view.state : d.state).doc.toString();
    docs.push(d);
  } else if (text !== undefined) {
    d.state = newState(text);
    if (d === active) view.setState(d.state);
  }
  select(d);
  return d;
}
function newState(text) {
  return EditorState.create({
    doc: text,
    extensions: [basicSetup, regel(), EditorView.updateListener.of((u) => u.docChanged && checkSoon())],
  });
}
function select(d) {
  if (active && active !== d) active.state = view.state;
  active = d;
  view.setState(d.state);
  tabs();
  checkSoon(0);
}
function tabs() {
  $('tabs').replaceChildren(
    ...docs.map((d) => {
      const b = document.createElement('button');
      b.textContent = d.path.split('/').pop();
      b.title = d.path;
      b.className = d === active ? 'on' : '';
      b.onclick = () => select(d);
      return b;
    }),
  );
}

// ---- diagnostics as you type -------------------------------------------------
let checkTimer;
let checked = null; // the last good check's game
function checkSoon(ms = 150) {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, ms);
}
let checking = 0;
let lastDiags = []; // the last check's diagnostics of the active file
async function check() {
  const d = active;
  const n = ++checking;
  await ask({ cmd: 'put', files: { [d.path]: d.text() } });
  const r = await ask({ cmd: 'check', path: d.path });
  if (n !== checking || d !== active) return;
  if (r.error) return status(r.error);
  lastDiags = r.diagnostics;
  showDiags(d, r.diagnostics);
  status(r.ok ? `${d.path}: ok${r.diagnostics.length ? ` (${r.diagnostics.length} warning(s))` : ''}` : `${d.path}: ${r.diagnostics.filter((x) => x.severity === 'error').length} problem(s)`);
  document.body.dataset.checked = r.ok ? 'ok' : 'errors';
  if (r.ok) {
    const changed = !checked || checked.name !== r.game.name || checked.path !== d.path;
    checked = { ...r.game, path: d.path };
    $('summary').textContent = r.game.summary;
    if (changed) setupPlay();
  }
}

// A byte offset of the engine (UTF-8) as a position in the editor (UTF-16).
function position(text, byte) {
  let b = 0;
  let i = 0;
  while (i < text.length && b < byte) {
    const c = text.codePointAt(i);
    b += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    i += c >= 0x10000 ? 2 : 1;
  }
  return i;
}
function lineStart(state, line, column) {
  const l = state.doc.line(Math.min(Math.max(line, 1), state.doc.lines));
  return Math.min(l.from + Math.max(column - 1, 0), l.to);
}

function showDiags(d, diags) {
  const text = view.state.doc.toString();
  const here = diags.filter((x) => x.file === d.path || x.file === null);
  const marks = here.map((x) => {
    const lab = x.labels[0];
    let from = lab ? position(text, lab.start) : lineStart(view.state, x.line ?? 1, x.column ?? 1);
    let to = lab ? position(text, lab.end) : from;
    from = Math.min(from, text.length);
    to = Math.min(Math.max(to, from), text.length);
    return {
      from,
      to,
      severity: x.severity === 'error' ? 'error' : 'warning',
      message: `${x.code}: ${x.message}${x.help ? `\nhelp: ${x.help}` : ''}`,
    };
  });
  view.dispatch(setDiagnostics(view.state, marks));
  $('diags').replaceChildren(
    ...diags.map((x) => {
      const li = document.createElement('li');
      li.className = x.severity;
      const b = document.createElement('b');
      b.textContent = `${x.severity} ${x.code}`;
      li.append(b, ` ${x.file ?? ''}:${x.line ?? ''}:${x.column ?? ''} ${x.message}`);
      if (x.help) {
        const h = document.createElement('span');
        h.className = 'help';
        h.textContent = `help: ${x.help}`;
        li.append(h);
      }
      li.onclick = () => jump(x);
      return li;
    }),
  );
}
function jump(x) {
  if (x.file && x.file !== active.path && (shipped[x.file] !== undefined || docs.some((d) => d.path === x.file))) {
    openDoc(x.file);
  }
  const pos = lineStart(view.state, x.line ?? 1, x.column ?? 1);
  view.dispatch({ selection: { anchor: pos }, scrollIntoView: true });
  view.focus();
}
function status(s) {
  $('status').textContent = s;
}

// ---- play --------------------------------------------------------------------
let shown = null;
function setupPlay() {
  const g = checked;
  const opts = [];
  for (let n = g.min_players; n <= g.max_players; n++) opts.push(n);
  for (const sel of [$('players'), $('mplayers')]) {
    sel.replaceChildren(...opts.map((n) => new Option(n, n)));
  }
  seatControls();
}
$('players').onchange = seatControls;
function seatControls() {
  const n = +$('players').value;
  const seats = checked.seats.slice(0, n);
  $('seats').replaceChildren(
    ...seats.map((s, i) => {
      const sel = document.createElement('select');
      sel.className = 'seat';
      sel.title = `who plays ${s}`;
      for (const k of ['human', 'random', 'mcts']) sel.append(new Option(`${s}: ${k}`, k));
      return sel;
    }),
  );
  $('viewer').replaceChildren(new Option('the seat to move', 'auto'), new Option('an onlooker', 'none'), ...seats.map((s, i) => new Option(s, i)));
}
const seatKinds = () => [...document.querySelectorAll('#seats select')].map((s) => s.value);
function viewer() {
  const v = $('viewer').value;
  if (v === 'none') return null;
  if (v === 'auto') return shown?.pending && !shown.pending[2] ? shown.pending[0] : null;
  return +v;
}
async function step(req) {
  if (req.cmd !== 'bot' && req.cmd !== 'show' && req.cmd !== 'apply') generation++;
  const r = await ask({ ...req, viewer: viewer() });
  if (r.error) {
    $('turn').textContent = `stopped: ${r.error}`;
    // A game that could not start leaves no board of the one before.
    if (req.cmd === 'new' || req.cmd === 'replay') {
      shown = null;
      for (const id of ['board', 'options', 'log']) $(id).replaceChildren();
    }
    return status(r.error);
  }
  shown = r;
  // The viewer of `auto` is the seat now to move: ask again as that seat.
  if ($('viewer').value === 'auto' && r.pending && !r.pending[2] && req.viewer !== r.pending[0]) {
    shown = await ask({ cmd: 'show', viewer: r.pending[0] });
  }
  drawPlay();
  // A bot's turn: it moves after the page has drawn, unless a new game,
  // a record or an undo came in between (`generation` changed).
  const g = generation;
  if (shown.pending && shown.pending[2]) setTimeout(() => g === generation && shown.pending?.[2] && step({ cmd: 'bot' }), 30);
}
let generation = 0;
$('new').onclick = () => step({ cmd: 'new', players: +$('players').value, seed: +$('seed').value, seats: seatKinds() });
$('undo').onclick = async () => {
  if (!shown) return;
  generation++;
  let r = await ask({ cmd: 'undo', viewer: viewer() });
  // Back to the last decision a person took: bots' moves after it go too.
  while (!r.error && r.pending && r.pending[2] && r.decisions > 0) r = await ask({ cmd: 'undo', viewer: viewer() });
  if (r.error) return status(r.error);
  shown = r;
  step({ cmd: 'show' });
};
$('viewer').onchange = () => shown && step({ cmd: 'show' });

function drawPlay() {
  const s = shown;
  $('turn').textContent = s.error
    ? `stopped: ${s.error}`
    : s.over
      ? `game over after ${s.decisions} decision(s): ` + s.standings.map(([seat, score, rank, win]) => `${seat} ${score}${win ? ' (wins)' : ''}`).join(', ')
      : `${s.pending[1]} to decide${s.pending[2] ? ' (bot)' : ''} — decision ${s.decisions + 1}`;
  document.body.dataset.over = s.over ? 'yes' : 'no';
  $('board').innerHTML = s.svg;
  // One button per option, by index; laid out as the engine groups them:
  // the options that stand alone first, then a row per group (its shared
  // words, then a button per last word), as the terminal's screen does.
  const buttons = [];
  const rows = [];
  const singles = document.createElement('div');
  if (s.pending && !s.pending[2]) {
    for (const g of s.groups) {
      const row = g.head === null ? singles : document.createElement('div');
      if (g.head !== null) {
        row.className = 'group';
        row.append(Object.assign(document.createElement('span'), { textContent: g.head }));
        rows.push(row);
      }
      for (const [i, text] of g.items) {
        const b = document.createElement('button');
        b.textContent = text;
        b.title = s.options[i].label;
        b.onclick = () => step({ cmd: 'apply', index: i });
        buttons[i] = b;
        row.append(b);
      }
    }
  }
  $('options').replaceChildren(...(singles.childElementCount ? [singles] : []), ...rows);
  // Places an option names take it when clicked (or point at the options that name them).
  const byPlace = new Map();
  if (buttons.length) s.options.forEach((o, i) => o.places.forEach((p) => byPlace.set(p, [...(byPlace.get(p) ?? []), i])));
  for (const t of $('board').querySelectorAll('text')) {
    const which = byPlace.get(t.textContent);
    if (!which) continue;
    const targets = [t];
    const prev = t.previousElementSibling;
    if (prev && prev.tagName === 'rect') targets.push(prev);
    for (const el of targets) {
      el.classList.add('place');
      el.dataset.place = t.textContent;
      el.dataset.options = which.length;
      el.onclick = () => {
        if (which.length === 1) return step({ cmd: 'apply', index: which[0] });
        buttons.forEach((b, i) => b.classList.toggle('hint', which.includes(i)));
      };
    }
  }
  $('log').replaceChildren(...s.log.map((l) => Object.assign(document.createElement('li'), { textContent: l })));
  $('log').scrollTop = 1e9;
}

// Records in the CLI's format (`regel replay` reads them).
$('save').onclick = () => {
  if (!shown) return;
  const q = (s) => JSON.stringify(s);
  const text = [
    '# A Regel game record: `regel replay FILE` plays it again.',
    `ruleset = ${q(active.path.split('/').pop())}`,
    `game = ${q(checked.name)}`,
    `variants = [${checked.variants.map(q).join(', ')}]`,
    `players = ${shown.players}`,
    `seed = ${shown.seed}`,
    'options = []',
    ...(shown.over ? [`scores = [${shown.standings.map((x) => x[1]).join(', ')}]`] : []),
    'decisions = [',
    ...shown.labels.map((l, k) => `  ${q(l)},  # ${k + 1}`),
    ']',
    '',
  ].join('\n');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'application/toml' }));
  a.download = `${checked.name.replace(/\W+/g, '-').toLowerCase()}-seed-${shown.seed}.toml`;
  a.click();
};
$('load').onchange = async (ev) => {
  const text = await ev.target.files[0].text();
  const num = (k) => +(text.match(new RegExp(`^${k}\\s*=\\s*(\\d+)`, 'm')) || [])[1];
  const body = text.slice(text.search(/^decisions\s*=\s*\[/m));
  const labels = [...body.matchAll(/^\s*("(?:[^"\\]|\\.)*")\s*,/gm)].map((m) => JSON.parse(m[1]));
  const players = num('players');
  $('players').value = players;
  seatControls();
  $('seed').value = num('seed');
  ev.target.value = '';
  step({ cmd: 'replay', players, seed: num('seed'), seats: seatKinds(), labels });
};

// ---- measure -----------------------------------------------------------------
$('run').onclick = async () => {
  const players = +$('mplayers').value;
  const seats = $('mbots').value.split(',').map((s) => s.trim()).filter(Boolean);
  while (seats.length && seats.length < players) seats.push(seats[seats.length - 1]);
  $('progress').value = 0;
  $('results').textContent = 'running…';
  const coverage = $('coverage').checked;
  const sim = { players, seed: +$('mseed').value, seats: seats.slice(0, players), games: +$('games').value, coverage };
  const d = active;
  const r = await ask({ sim }, (p) => ($('progress').value = p));
  if (r.error) return ($('results').textContent = r.error);
  $('progress').value = 1;
  results(r);
  // The coverage warnings join the check's diagnostics in the editor, until
  // the next edit checks the file again.
  if (r.coverage && d === active) showDiags(d, [...lastDiags, ...r.coverage.warnings]);
};
function results(r) {
  const rows = r.seats.map((s) => `<tr><td>${esc(s.seat)}</td><td>${s.wins}</td><td>${s.shared_wins}</td><td>${s.score_mean.toFixed(1)}</td><td>${s.score_min}</td><td>${s.score_max}</td></tr>`);
  $('results').innerHTML =
    `<p id="sumline">${r.games} games, ${r.players} players (${r.bots.join(', ')}), ${(r.games / (r.ms / 1000)).toFixed(0)} games/s; errors: ${r.errors}; ` +
    `decisions per game: mean ${r.decisions_mean.toFixed(1)}, min ${r.decisions_min}, max ${r.decisions_max}</p>` +
    r.first_errors.map((e) => `<p class="err">${esc(e)}</p>`).join('') +
    `<table id="table"><tr><th>seat</th><th>wins</th><th>shared</th><th>mean</th><th>min</th><th>max</th></tr>${rows.join('')}</table>` +
    (r.statistics ?? []).map((s) => `<p>statistic ${esc(s.name)}: mean ${s.mean.toFixed(2)}</p>`).join('') +
    (r.coverage ? `<p id="covline">${esc(`${r.coverage.line}; ${r.coverage.warnings.length} warning(s) in the editor`)}</p>` : '') +
    histogram('game length (decisions)', r.lengths) +
    r.seats.map((s, i) => histogram(`score of ${s.seat}`, r.scores.map((x) => x[i]))).join('');
}
function histogram(title, values) {
  if (!values.length) return '';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const bins = Math.min(30, hi - lo + 1);
  const w = (hi - lo + 1) / bins;
  const counts = new Array(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor((v - lo) / w))]++;
  const top = Math.max(...counts);
  const bw = 360 / bins;
  const bars = counts.map((c, i) => `<rect x="${i * bw}" y="${100 - (c / top) * 100}" width="${bw - 1}" height="${(c / top) * 100}" fill="#4a7ab5"><title>${Math.round(lo + i * w)}…: ${c}</title></rect>`);
  return `<figure><figcaption>${esc(title)}: ${lo} … ${hi}</figcaption><svg width="360" height="100" class="hist">${bars.join('')}</svg></figure>`;
}
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

// ---- panes, opening, sharing --------------------------------------------------
for (const b of document.querySelectorAll('#panes button')) {
  b.onclick = () => {
    for (const x of document.querySelectorAll('#panes button')) x.classList.toggle('on', x === b);
    for (const p of document.querySelectorAll('.pane')) p.hidden = p.id !== b.dataset.pane;
  };
}
$('open').replaceChildren(new Option('open…', ''), ...openable.map((p) => new Option(p, p)));
$('open').onchange = () => {
  if ($('open').value) openDoc($('open').value);
  $('open').value = '';
};
$('variant').onclick = () => {
  const base = active.path;
  const dir = base.slice(0, base.lastIndexOf('/') + 1);
  let k = 1;
  while (docs.some((d) => d.path === `${dir}my-variant-${k}.rules`)) k++;
  openDoc(`${dir}my-variant-${k}.rules`, `variant "my variant ${k}" extends "${base.slice(dir.length)}"\n\n# Override a constant, an option, an action or a phase here.\n`);
};
$('share').onclick = async () => {
  location.hash = 's=' + (await pack({ path: active.path, text: active.text() }));
  await navigator.clipboard?.writeText(location.href).catch(() => {});
  status('the address now holds this file: copy it to share');
};

async function start() {
  startWorker();
  view = new EditorView({ parent: $('editor') });
  const m = location.hash.match(/^#s=(.+)$/);
  if (m) {
    const { path, text } = await unpack(m[1]);
    openDoc(path, text);
  } else {
    openDoc('examples/tic-tac-toe/tic-tac-toe.rules');
  }
}
// For the browser tests (tests/browser.mjs), which edit and read the text as a person would.
window.playground = { openDoc, view: () => view, active: () => active };
start();
