// The engine's wasm behind one function: `call(request)` sends a JSON
// request to `interpreter/web` (its exports alloc, call, out_len, dealloc)
// and returns the parsed answer. Used by the page's worker and by Node
// (tests/compare.mjs), so that both drive the engine the same way.

export async function load(bytes) {
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const x = instance.exports;
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  return function call(request) {
    const input = enc.encode(JSON.stringify(request));
    const p = x.alloc(input.length);
    new Uint8Array(x.memory.buffer, p, input.length).set(input);
    const q = x.call(p, input.length);
    x.dealloc(p, input.length);
    const n = x.out_len();
    const text = dec.decode(new Uint8Array(x.memory.buffer, q, n));
    x.dealloc(q, n);
    return JSON.parse(text);
  };
}
