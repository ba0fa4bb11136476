// The engine runs here, never on the page's thread, so that a long check,
// a simulation or a runaway rule cannot freeze the page (the page can end
// this worker and start another). Messages: {id, req} answered by
// {id, res}; {id, sim} plays a simulation in batches, posting
// {id, progress} between them and {id, res: summary} at the end.
import wasmUrl from './regel_web.wasm?url';
import { load } from '../engine.mjs';

const ready = fetch(wasmUrl)
  .then((r) => r.arrayBuffer())
  .then((b) => load(b));

self.onmessage = async (ev) => {
  const call = await ready;
  const { id, req, sim } = ev.data;
  if (req) {
    self.postMessage({ id, res: call(req) });
    return;
  }
  const { players, seed, seats, games, coverage } = sim;
  const batch = 25;
  const started = performance.now();
  for (let from = 0; from < games; from += batch) {
    const count = Math.min(batch, games - from);
    const r = call({ cmd: 'simulate', players, seed, seats, from, count, coverage });
    if (r.error) {
      self.postMessage({ id, res: r });
      return;
    }
    self.postMessage({ id, progress: r.done / games });
  }
  const ms = performance.now() - started;
  self.postMessage({ id, res: { ...call({ cmd: 'summary' }), ms } });
};
