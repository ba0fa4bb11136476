// Random playouts per second in the page's worker, for the note in issue 23
// (not part of tests/run): `node tests/speed.mjs [GAMES]` after web/build.sh;
// compare with `regel simulate FILE --games N --threads 1` on the same machine.
import { chromium } from 'playwright-core';
import path from 'node:path';
import { serve } from './serve.mjs';

const here = path.dirname(new URL(import.meta.url).pathname);
const games = process.argv[2] ?? '2000';
const server = await serve(path.resolve(here, '../dist'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${server.address().port}/`);
for (const p of ['examples/connect-four/connect-four.rules', 'rulesets/auf-heller-und-pfennig/auf-heller-und-pfennig.rules']) {
  await page.selectOption('#open', p);
  await page.waitForFunction((p) => document.getElementById('status').textContent.startsWith(p + ': ok'), p);
  await page.click('#panes button[data-pane="measure"]');
  await page.fill('#games', games);
  await page.evaluate(() => (document.getElementById('results').textContent = ''));
  await page.click('#run');
  await page.waitForSelector('#sumline', { timeout: 600000 });
  console.log(p, await page.textContent('#sumline'));
  await page.click('#panes button[data-pane="play"]');
}
await browser.close();
server.close();
