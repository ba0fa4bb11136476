// The playground is a static site: relative paths (`base: './'`), so that it
// works from any folder of any static host; the shipped rulesets, examples
// and maps are read from the repository at build time (`src/files.js`).
import { defineConfig } from 'vite';

export default defineConfig({
  base: './',
  worker: { format: 'es' },
  server: { fs: { allow: ['..'] } },
  build: { target: 'es2022', chunkSizeWarningLimit: 2000 },
});
