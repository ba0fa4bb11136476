// The CLI and the playground's engine agree: for every shipped ruleset,
// variant and example, and every case of the error corpus, `regel check
// --format json` and the wasm's check give the same diagnostics (codes,
// messages, spans, hints); for every ruleset that checks, the same seeded
// games (`regel simulate --seed 7 --games 5 --coverage`) give the same summary,
// coverage warnings included.
// Run from anywhere after `cargo build --release` and `web/build.sh`;
// REGEL names another binary.
import { load } from '../engine.mjs';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import assert from 'node:assert/strict';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
process.chdir(root);
const regel = process.env.REGEL ?? 'target/release/regel';
const call = await load(fs.readFileSync('web/src/regel_web.wasm'));

const walk = (d) => fs.readdirSync(d, { recursive: true }).map((f) => path.join(d, f)).filter((p) => fs.statSync(p).isFile());
const files = {};
for (const p of [...walk('rulesets'), ...walk('examples'), ...walk('maps'), ...walk('tests/errors')]) {
  if (/\.(rules|toml)$/.test(p) && fs.statSync(p).size < 1 << 20) files[p] = fs.readFileSync(p, 'utf8');
}
call({ cmd: 'put', files });

// Cases of the corpus whose subject is the file system (a file missing, a
// device, a file too large): the page has no file system, so its reader
// answers differently by design.
const fileSystemCases = /board-file-missing|device-file|outside-root|missing-base/;

const untraced = (e) => e.replace(/; the whole game: `regel trace [^`]*`\)$/, ')');
function cli(args) {
  try {
    return execFileSync(regel, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    return e.stdout;
  }
}

let compared = 0;
let games = 0;
let failed = 0;
const skipped = [];
const shipped = Object.keys(files).filter((p) => p.endsWith('.rules') && !p.startsWith('tests/'));
const corpus = Object.keys(files).filter((p) => p.endsWith('.rules') && p.startsWith('tests/errors/'));
for (const p of [...shipped, ...corpus].sort()) {
  if (corpus.includes(p) && fileSystemCases.test(p)) {
    skipped.push(p);
    continue;
  }
  const [want] = JSON.parse(cli(['check', '--format', 'json', p]));
  const got = call({ cmd: 'check', path: p });
  try {
    assert.deepEqual({ file: got.file, ok: got.ok, diagnostics: got.diagnostics }, { file: want.file, ok: want.ok, diagnostics: want.diagnostics });
    compared++;
    if (!got.ok || !shipped.includes(p)) continue;
    const players = String(got.game.min_players);
    const sum = JSON.parse(cli(['simulate', p, '--games', '5', '--seed', '7', '--players', players, '--threads', '1', '--coverage', '--format', 'json']));
    call({ cmd: 'simulate', players: +players, seed: 7, seats: [], from: 0, count: 5, coverage: true });
    const mine = call({ cmd: 'summary' });
    for (const k of ['players', 'games', 'bots', 'errors', 'decisions_mean', 'decisions_min', 'decisions_max', 'seats']) {
      assert.deepEqual(mine[k], sum[k], `${k}`);
    }
    assert.deepEqual(mine.statistics ?? [], sum.statistics ?? [], 'statistics');
    // The same errors after the same decisions (the CLI adds how to trace the game).
    assert.deepEqual(mine.first_errors.map(untraced), sum.first_errors.map(untraced), 'first_errors');
    const { line, ...counted } = mine.coverage;
    assert.deepEqual(counted, sum.coverage, 'coverage');
    games++;
  } catch (e) {
    failed++;
    console.log(`FAIL ${p}: ${e.message.slice(0, 2000)}`);
  }
}
console.log(`${failed ? 'FAILED' : 'passed'}: ${compared} checks and ${games} seeded runs the same in the CLI and the wasm; ${failed} differ; ${skipped.length} file-system cases not compared (${skipped.join(', ')})`);
process.exit(failed ? 1 : 0);
