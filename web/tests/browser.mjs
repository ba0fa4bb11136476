// The playground in a real browser (Debian's chromium, headless, driven by
// playwright-core): every step of issue 23's "Done when" list, with
// screenshots in tests/shots/. Run after `web/build.sh` (web/dist).
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';
import { serve } from './serve.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const shots = path.join(here, 'shots');
fs.rmSync(shots, { recursive: true, force: true });
fs.mkdirSync(shots, { recursive: true });
const server = await serve(path.resolve(here, '../dist'));
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
page.on('pageerror', (e) => console.error('page error:', e.message));
const t0 = Date.now();
// Time limits are the goals, for a machine doing nothing else; on a
// shared, loaded machine give SLACK (a factor) to measure without failing.
const slack = +(process.env.SLACK ?? 1);
let failed = 0;
async function test(name, f) {
  const t = Date.now();
  try {
    await f();
    console.log(`ok   ${name} (${Date.now() - t} ms)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message}`);
    await page.screenshot({ path: path.join(shots, `failed-${name.replace(/\W+/g, '-')}.png`) }).catch(() => {});
  }
}
const shot = (name) => page.screenshot({ path: path.join(shots, `${name}.png`) });
const checkedOk = () => page.waitForFunction(() => document.body.dataset.checked === 'ok' && /: ok/.test(document.getElementById('status').textContent));
async function open(p) {
  await page.selectOption('#open', p);
  await page.waitForFunction((p) => document.getElementById('status').textContent.startsWith(p + ':'), p);
}
// Replaces the text between `from` and `to` (editor positions) by typing.
async function edit(find, replace) {
  await page.evaluate(([find, replace]) => {
    const v = window.playground.view();
    const at = v.state.doc.toString().indexOf(find);
    v.dispatch({ changes: { from: at, to: at + find.length, insert: replace } });
  }, [find, replace]);
}
// Clicks through a whole game: a place on the board when an option names
// one, else the first option's button; returns the decisions taken.
async function playByClicking(maxClicks) {
  for (let k = 0; k < maxClicks; k++) {
    // A bot's turn: wait for it to move (a person's options, or the end).
    await page.waitForFunction(() => document.body.dataset.over === 'yes' || document.querySelector('#options button'));
    const over = await page.evaluate(() => document.body.dataset.over);
    if (over === 'yes') return k;
    const before = await page.evaluate(() => document.getElementById('turn').textContent);
    const place = await page.$('#board rect.place[data-options="1"]');
    if (place && k % 2 === 0) await place.click();
    else await page.click('#options button >> nth=0');
    await page.waitForFunction((b) => document.getElementById('turn').textContent !== b, before);
  }
  throw new Error(`no end after ${maxClicks} clicks`);
}

await test('load the page: first paint with a ruleset checked under 2 s', async () => {
  const t = Date.now();
  await page.goto(url);
  await checkedOk();
  const ms = Date.now() - t;
  console.log(`     first paint with tic-tac-toe checked: ${ms} ms`);
  assert.ok(ms < 2000 * slack, `${ms} ms`);
  await shot('01-loaded');
});

await test('open Hansa Teutonica', async () => {
  await open('rulesets/hansa-teutonica/hansa-teutonica.rules');
  await checkedOk();
  await shot('02-hansa-teutonica');
});

await test('misspell a name: the diagnostic on its line with a did-you-mean within 1 s; fix: it clears', async () => {
  const t = Date.now();
  await edit('count(p.general)', 'count(p.genral)');
  await page.waitForSelector('#diags li.error');
  const ms = Date.now() - t;
  const text = await page.textContent('#diags li.error');
  const line = (fs.readFileSync(path.resolve(here, '../../rulesets/hansa-teutonica/hansa-teutonica.rules'), 'utf8').split('\n').findIndex((l) => l.includes('count(p.general)')) + 1);
  console.log(`     ${ms} ms: ${text.slice(0, 160)}`);
  assert.ok(ms < 1000 * slack, `${ms} ms`);
  assert.match(text, new RegExp(`hansa-teutonica.rules:${line}:`));
  assert.match(text, /general/, 'did-you-mean names `general`');
  // A click on the diagnostic brings its line into view, underlined.
  await page.click('#diags li.error');
  await page.waitForSelector('.cm-lintRange-error');
  const cursor = await page.evaluate(() => window.playground.view().state.doc.lineAt(window.playground.view().state.selection.main.head).number);
  assert.equal(cursor, line, 'the click jumped to the line');
  await shot('03-misspelled');
  await edit('count(p.genral)', 'count(p.general)');
  await page.waitForFunction(() => !document.querySelector('#diags li.error'));
  await checkedOk();
});

await test('a whole game of tic-tac-toe by clicking, with an undo', async () => {
  await open('examples/tic-tac-toe/tic-tac-toe.rules');
  await checkedOk();
  await page.click('#new');
  await page.waitForSelector('#board rect.place');
  const first = await page.textContent('#turn');
  await page.click('#board rect.place >> nth=0');
  await page.waitForFunction((b) => document.getElementById('turn').textContent !== b, first);
  await shot('04-tic-tac-toe-one-move');
  await page.click('#undo');
  await page.waitForFunction((b) => document.getElementById('turn').textContent === b, first);
  const n = await playByClicking(20);
  const end = await page.textContent('#turn');
  console.log(`     ${n} clicks: ${end}`);
  assert.match(end, /game over/);
  await shot('05-tic-tac-toe-over');
});

await test('a record downloaded and loaded again gives the same position', async () => {
  const before = await page.textContent('#turn');
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  const file = path.join(shots, 'tic-tac-toe-record.toml');
  await download.saveAs(file);
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /^decisions = \[/m);
  await page.click('#new');
  await page.waitForFunction((b) => document.getElementById('turn').textContent !== b, before);
  await page.setInputFiles('#load', file);
  await page.waitForFunction((b) => document.getElementById('turn').textContent === b, before);
});

await test('a bot at a seat: tic-tac-toe against the random bot', async () => {
  await page.selectOption('#seats select >> nth=1', 'random');
  await page.click('#new');
  await page.waitForSelector('#board rect.place');
  const n = await playByClicking(10);
  const end = await page.textContent('#turn');
  console.log(`     ${n} clicks: ${end}`);
  assert.match(end, /game over/);
  const log = await page.$$eval('#log li', (l) => l.length);
  assert.ok(log > 0, 'the per-seat log has lines');
});

await test('a whole game of Auf Heller und Pfennig by clicking', async () => {
  await open('rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules');
  await checkedOk();
  await page.click('#new');
  await page.waitForSelector('#options button');
  // AHUP-5.1: draw, or place a stall or the private tile on a free cell. The
  // options that stand alone come first; the 30 cells of each kind of
  // placement are one row headed by the words they share.
  const first = await page.textContent('#options button >> nth=0');
  const heads = await page.$$eval('#options .group span', (s) => s.map((x) => x.textContent));
  const row = await page.$$eval('#options .group >> nth=0 >> button', (b) => b.length);
  assert.equal(first, 'draw');
  assert.ok(heads.includes('stall 1 at') && heads.includes('private at'), JSON.stringify(heads));
  assert.equal(row, 30);
  await shot('06-ahup-start');
  const n = await playByClicking(400);
  const end = await page.textContent('#turn');
  console.log(`     ${n} clicks: ${end}`);
  assert.match(end, /game over/);
  await shot('07-ahup-over');
});

await test('simulate 1,000 games of Auf Heller und Pfennig and read the table', async () => {
  await page.click('#panes button[data-pane="measure"]');
  await page.fill('#games', '1000');
  await page.click('#run');
  await page.waitForSelector('#table', { timeout: 120000 });
  const line = await page.textContent('#sumline');
  const rows = await page.$$eval('#table tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
  console.log(`     ${line}`);
  assert.match(line, /^1000 games, 2 players/);
  assert.match(line, /errors: 0/);
  const wins = rows.slice(1).reduce((a, r) => a + +r[1] + +r[2] / 2, 0);
  assert.ok(rows.length === 3 && wins > 0, JSON.stringify(rows));
  await shot('08-measure');
  await page.click('#panes button[data-pane="play"]');
});

await test('coverage: the branches 200 games never ran are warnings in the editor', async () => {
  await page.click('#panes button[data-pane="measure"]');
  await page.fill('#games', '200');
  await page.check('#coverage');
  await page.evaluate(() => (document.getElementById('results').textContent = ''));
  await page.click('#run');
  await page.waitForSelector('#covline', { timeout: 120000 });
  const line = await page.textContent('#covline');
  console.log(`     ${line}`);
  assert.match(line, /^coverage: 3 of 3 actions offered, 3 taken; \d+ of \d+ branches ran/);
  // `regel simulate --coverage` says the same of these games: the open-ended
  // variant's branch (line 83) never runs without its option.
  const warn = page.locator('#diags li.warning', { hasText: 'W0105' }).filter({ hasText: ':83:5 the body of this `if` never ran' });
  await warn.first().waitFor({ timeout: 1000 });
  await warn.first().click();
  await page.waitForSelector('.cm-lintRange-warning', { timeout: 1000 });
  await shot('08b-coverage');
  await page.uncheck('#coverage');
  // An edit checks the file again, and the warnings of the run go.
  await edit('game "', 'game "');
  await page.waitForFunction(() => !document.querySelector('#diags li.warning'), null, { timeout: 2000 });
  await page.click('#panes button[data-pane="play"]');
});

await test('a shared link gives the same text', async () => {
  await edit('game "', 'game "');
  const mine = await page.evaluate(() => window.playground.active().text() + '\n# a house rule\n');
  await page.evaluate((t) => window.playground.openDoc(window.playground.active().path, t), mine);
  await page.click('#share');
  await page.waitForFunction(() => location.hash.startsWith('#s='));
  const link = await page.evaluate(() => location.href);
  const other = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await other.goto(link);
  await other.waitForFunction(() => document.body.dataset.checked);
  const got = await other.evaluate(() => window.playground.active().text());
  assert.equal(got, mine);
  console.log(`     link of ${link.length} characters for ${mine.length} of text`);
  await other.screenshot({ path: path.join(shots, '09-shared.png') });
  await other.close();
});

await test('a runaway rule stops with the step-budget error within 2 s, the page alive', async () => {
  const text = 'game "Runaway"\nplayers 2\n\nplay {\n  let n = 0\n  while true {\n    n += 1\n  }\n}\n';
  await page.evaluate((t) => window.playground.openDoc('examples/runaway.rules', t), text);
  await checkedOk().catch(() => {});
  const t = Date.now();
  await page.click('#new');
  await page.waitForFunction(() => /step|budget/i.test(document.getElementById('status').textContent + document.getElementById('turn').textContent), null, { timeout: 10000 });
  const ms = Date.now() - t;
  const said = await page.evaluate(() => document.getElementById('status').textContent + ' | ' + document.getElementById('turn').textContent);
  console.log(`     ${ms} ms: ${said.slice(0, 200)}`);
  assert.ok(ms < 2000 * slack, `${ms} ms`);
  await shot('10-runaway');
});

console.log(`${failed ? 'FAILED' : 'passed'}: browser tests in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
await browser.close();
server.close();
process.exit(failed ? 1 : 0);
