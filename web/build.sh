#!/usr/bin/env bash
# Builds the playground: the engine as wasm (profile `web`: a release
# without symbols), then the page with Vite into web/dist, a static site.
# Installs web/'s npm packages first when they are missing. With `--serve`
# it then serves the page on http://127.0.0.1:4173/ until stopped.
set -euo pipefail
cd "$(dirname "$0")"
[ -d node_modules ] || npm ci --no-audit --no-fund
cargo build -p regel-web --target wasm32-unknown-unknown --profile web
cp ../target/wasm32-unknown-unknown/web/regel_web.wasm src/regel_web.wasm
npx vite build --logLevel warn
if [ "${1:-}" = "--serve" ]; then
    echo "the playground: http://127.0.0.1:4173/"
    exec npx vite preview --host 127.0.0.1 --port 4173 --strictPort
fi
