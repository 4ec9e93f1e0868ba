#!/usr/bin/env bash
# Builds the browser game into dist/: the wasm (profile web-release), pruned of Bevy's unused
# reflection registrations (web/prune), wasm-bindgen's JS glue (wasm-bindgen-cli at exactly the
# version in Cargo.lock), wasm-opt -Oz (binaryen 116 or newer), and the page. Usage: web/build.sh [DIST_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dist="${1:-dist}"
target_dir="${CARGO_TARGET_DIR:-target}"
tools="${ARACHNE_TOOLS:-$HOME/.cache/arachne-tools}"

# wasm-opt (binaryen) must be 116 or newer: Debian 12's 108 rewrites wasm-bindgen's externref
# table into one the browser refuses (checked with -O1 and -Oz, with and without
# --enable-reference-types), and wasm-bindgen cannot read its output when it runs first.
# A wasm-opt on PATH that is new enough is used; otherwise binaryen 116 is built once from
# crates.io (the `wasm-opt` crate compiles binaryen's C++, ~20 CPU-minutes here) into
# $tools, in the background while the game builds. WASM_OPT=0 skips it.
opt_version() { "$1" --version 2>/dev/null | grep -o '[0-9]\+' | head -1 || true; }
wasm_opt=""
opt_install=""
if [ "${WASM_OPT:-1}" != 0 ]; then
  if [ "$(opt_version wasm-opt)" -ge 116 ] 2>/dev/null; then
    wasm_opt=wasm-opt
  elif [ "$(opt_version "$tools/bin/wasm-opt")" -ge 116 ] 2>/dev/null; then
    wasm_opt="$tools/bin/wasm-opt"
  else
    echo "Installing wasm-opt 116 (binaryen) into $tools in the background"
    mkdir -p "$tools"
    # Its own temporary build directory (no CARGO_TARGET_DIR): the game's build, running at
    # the same time, holds the lock on the shared one.
    # In a process group of its own (setsid), so that it can be stopped whole.
    setsid env -u CARGO_TARGET_DIR cargo install --locked wasm-opt --version =0.116.1 --no-default-features --root "$tools" \
      >"$tools/wasm-opt-install.log" 2>&1 &
    opt_install=$!
    # A build that fails or is stopped (Ctrl+C) takes it along: otherwise it would run on, and
    # the next run would start a second one beside it.
    trap 'kill -- -"$opt_install" 2>/dev/null || true' EXIT
    wasm_opt="$tools/bin/wasm-opt"
  fi
fi

version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
bindgen="$tools/bin/wasm-bindgen"
if ! "$bindgen" --version 2>/dev/null | grep -qx "wasm-bindgen $version"; then
  echo "Installing wasm-bindgen-cli $version into $tools"
  # --locked first, as Cargo.lock-exact as can be; a registry that lacks one of its pinned
  # crates (a yanked or missing version) falls back to the newest compatible ones.
  cargo install --locked wasm-bindgen-cli --version "=$version" --root "$tools" ||
    cargo install wasm-bindgen-cli --version "=$version" --root "$tools"
fi

# --emit-relocs keeps the linker's relocations in the module, for the prune step below.
cargo rustc -p arachne --bin arachne --profile web-release --target wasm32-unknown-unknown \
  -- -C link-arg=--emit-relocs
linked="$target_dir/wasm32-unknown-unknown/web-release/arachne.wasm"

# Drops what only Bevy's reflection auto-registration keeps alive (its list is never read in
# this build: bevy_app's reflect_auto_register feature is off), about 3 MB of the optimized
# module. See web/prune/src/lib.rs. The pruned module keeps its names for twiggy.
cargo build --release -p arachne-wasm-prune
wasm="$target_dir/wasm32-unknown-unknown/web-release/arachne.pruned.wasm"
"$target_dir/release/arachne-wasm-prune" "$linked" "$wasm"

# The solver's own module for its Web Worker (web/solver): the engine alone, built for speed.
cargo build -p arachne-solver-worker --lib --profile web-solver --target wasm32-unknown-unknown
solver_wasm="$target_dir/wasm32-unknown-unknown/web-solver/arachne_solver_worker.wasm"

rm -rf "$dist"
mkdir -p "$dist"
"$bindgen" --target web --no-typescript --remove-name-section --remove-producers-section \
  --out-dir "$dist" --out-name arachne "$wasm"
# It has no JavaScript glue (its worker script instantiates it: web/solver/src/lib.rs).
cp "$solver_wasm" "$dist/arachne_solver.wasm"

if [ -n "$opt_install" ] && ! wait "$opt_install"; then
  # An unoptimised dist/ is 20% larger than the size budget allows and would be deployed as
  # is (the Pages workflow runs this script): fail, unless the caller asked for WASM_OPT=0.
  echo "Installing wasm-opt failed (log: $tools/wasm-opt-install.log):" >&2
  tail -20 "$tools/wasm-opt-install.log" >&2
  echo "dist/ was not finished. Install binaryen 116+ (wasm-opt on PATH) or run with WASM_OPT=0 for an unoptimised build." >&2
  rm -rf "$dist"
  exit 1
fi
if [ -n "$wasm_opt" ]; then
  # --low-memory-unused lets constant address arithmetic fold into load and store offsets
  # (-98 KB). It only changes what an access that wraps past 4 GiB into the first KiB does: it
  # now traps. Rust links the stack first (it grows down from 1 MiB to 0), so only a stack
  # overflow could make such an access, and trapping there is what we want.
  # The --enable flags: the features wasm-bindgen's output uses (Rust's default wasm32 features).
  "$wasm_opt" -Oz --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$dist/arachne_bg.wasm" -o "$dist/arachne_bg.wasm.opt"
  mv "$dist/arachne_bg.wasm.opt" "$dist/arachne_bg.wasm"
  # The solver's module: speed first (-O3), same features; without the names and producers
  # sections (wasm-bindgen dropped them when it made the module's glue).
  "$wasm_opt" -O3 --strip-debug --strip-producers \
    --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$dist/arachne_solver.wasm" -o "$dist/arachne_solver.wasm.opt"
  mv "$dist/arachne_solver.wasm.opt" "$dist/arachne_solver.wasm"
fi
cp web/index.html web/solver-worker.js web/manifest.webmanifest web/icon-192.png web/icon-512.png "$dist/"
# The page asks for the glue and the module under the build's stamp (their hash), so that a
# browser's or a CDN's cache does not pair the glue of one version with the module of another.
# (A page cached from before still asks for its own version, which the server no longer has.)
stamp=$(cat "$dist/arachne.js" "$dist/arachne_bg.wasm" | sha256sum | cut -c1-12)
sed -i "s/__ARACHNE_BUILD__/$stamp/g" "$dist/index.html"
ls -l "$dist"
