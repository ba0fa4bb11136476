#!/usr/bin/env bash
# Builds the playground: the engine as wasm (profile `web`: a release
# without symbols), then the page with Vite into web/dist. `npm ci` must
# have run in web/ once. Open the page with `npm run dev` or serve dist/.
set -euo pipefail
cd "$(dirname "$0")"
cargo build -p regel-web --target wasm32-unknown-unknown --profile web
cp ../target/wasm32-unknown-unknown/web/regel_web.wasm src/regel_web.wasm
npx vite build --logLevel warn
