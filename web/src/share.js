// A file in the page's address: JSON, deflated by the browser's own
// CompressionStream, in URL-safe base64 (no library needed).
const b64 = (binary) => btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

async function through(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function pack(value) {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const z = await through(bytes, new CompressionStream('deflate-raw'));
  let s = '';
  for (let i = 0; i < z.length; i += 8192) s += String.fromCharCode(...z.subarray(i, i + 8192));
  return b64(s);
}

export async function unpack(s) {
  const bytes = await through(unb64(s), new DecompressionStream('deflate-raw'));
  return JSON.parse(new TextDecoder().decode(bytes));
}
