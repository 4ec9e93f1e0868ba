#!/usr/bin/env bash
# Builds the browser game into dist/: the wasm (profile web-release), wasm-bindgen's JS glue
# (wasm-bindgen-cli at exactly the version in Cargo.lock), wasm-opt when Debian's binaryen is
# there, and the page. Usage: web/build.sh [DIST_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dist="${1:-dist}"
target_dir="${CARGO_TARGET_DIR:-target}"
tools="${ARACHNE_TOOLS:-$HOME/.cache/arachne-tools}"

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
bindgen="$tools/bin/wasm-bindgen"
if ! "$bindgen" --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  echo "Installing wasm-bindgen-cli $version into $tools"
  # --locked first, as Cargo.lock-exact as can be; a registry that lacks one of its pinned
  # crates (a yanked or missing version) falls back to the newest compatible ones.
  cargo install --locked wasm-bindgen-cli --version "=$version" --root "$tools" ||
    cargo install wasm-bindgen-cli --version "=$version" --root "$tools"
fi

cargo build -p arachne --profile web-release --target wasm32-unknown-unknown
wasm="$target_dir/wasm32-unknown-unknown/web-release/arachne.wasm"

rm -rf "$dist"
mkdir -p "$dist"
"$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
  --out-dir "$dist" --out-name arachne "$wasm"

# wasm-opt when it is new enough. Checked here: Debian's binaryen 108 rewrites wasm-bindgen's
# externref table into one the browser refuses (-O1 and -Oz, with or without
# --enable-reference-types), and wasm-bindgen cannot read its output when it runs first; so
# older versions are skipped.
opt_version=$(wasm-opt --version 2>/dev/null | grep -o '[0-9]\+' | head -1 || true)
if [ "${WASM_OPT:-1}" != 0 ] && [ "${opt_version:-0}" -ge 116 ]; then
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types \
    "$dist/arachne_bg.wasm" -o "$dist/arachne_bg.wasm.opt"
  mv "$dist/arachne_bg.wasm.opt" "$dist/arachne_bg.wasm"
elif [ -n "${opt_version:-}" ]; then
  echo "wasm-opt $opt_version is too old to keep wasm-bindgen's output working: skipped"
fi
cp web/index.html "$dist/"
ls -l "$dist"
