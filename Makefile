# Arachne: `make run` plays, `make test` tests. Both install what is missing first.
SHELL := /bin/bash
CARGO ?= cargo
# Debian/Ubuntu packages the native build needs (ALSA for sound).
APT_PACKAGES := pkg-config libasound2-dev
# And what the screenshot tests need: a virtual X server and Mesa's software Vulkan (llvmpipe).
TEST_PACKAGES := xvfb xauth mesa-vulkan-drivers
# The browser test: Chromium, Node for playwright-core. (`make web` installs a C++ compiler for
# wasm-opt, binaryen, which web/build.sh builds from crates.io when none is on PATH.)
WEB_PACKAGES := chromium nodejs
# WebKit, Safari's engine: WebKitGTK's MiniBrowser and its WebDriver, under a virtual X server.
WEBKIT_PACKAGES := webkit2gtk-driver xvfb xauth

.PHONY: run test soak deps toolchain packages fmt lint bench bench-frames wasm web serve test-web test-webkit test-webkit-only

run: deps
	$(CARGO) run -p arachne -- $(ARGS)

test: deps
	@$(MAKE) --no-print-directory packages APT_PACKAGES="$(TEST_PACKAGES)"
	$(CARGO) test --workspace

# The soak test's random storm, 100 times as long as in `make test` (tests/soak.rs).
soak: deps
	ARACHNE_SOAK_STEPS=100000 $(CARGO) test --workspace --test soak -- --nocapture

fmt:
	$(CARGO) fmt --all --check

lint: deps
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench: toolchain
	$(CARGO) run --release -p arachne-engine --example throughput

bench-frames: deps
	$(CARGO) run --release -p arachne --example frames

# The game for the browser's target, dev profile (quick to check that it compiles).
wasm: toolchain
	$(CARGO) build -p arachne --target wasm32-unknown-unknown

# The browser game in dist/ (see web/build.sh).
web: toolchain
	@$(MAKE) --no-print-directory packages APT_PACKAGES="g++"
	web/build.sh dist

# Serves dist/ for a player: open http://127.0.0.1:8080/
serve: web
	python3 -m http.server 8080 --bind 127.0.0.1 --directory dist

# Builds dist/ and plays it in headless Chromium (web/test.mjs), then in WebKit (test-webkit).
test-web: web
	@$(MAKE) --no-print-directory packages APT_PACKAGES="$(WEB_PACKAGES)"
	@# Some nodejs packages (NodeSource's) bring npm with them; Debian's is separate.
	@command -v npm >/dev/null || $(MAKE) --no-print-directory packages APT_PACKAGES=npm
	cd web && npm ci --no-audit --no-fund
	@# The desktop's solver, to compare the browser worker's answers with.
	$(CARGO) build -p arachne-engine --bin arachne-cli
	ARACHNE_CLI="$${CARGO_TARGET_DIR:-target}/debug/arachne-cli" node web/test.mjs dist
	@# Two tabs on one storage, played by turns: each takes up the other's game.
	node web/two-tabs.mjs dist
	@$(MAKE) --no-print-directory test-webkit-only

# dist/ played in WebKit, Safari's engine (web/webkit.mjs): WebKitGTK's MiniBrowser, driven
# through its WebDriver under xvfb-run.
test-webkit: web
	@$(MAKE) --no-print-directory test-webkit-only

test-webkit-only:
	@$(MAKE) --no-print-directory packages APT_PACKAGES="$(WEBKIT_PACKAGES) nodejs"
	xvfb-run -a -s "-screen 0 1400x1000x24" node web/webkit.mjs dist

deps: packages toolchain

# rustup 1.29 does not install the toolchain rust-toolchain.toml pins by itself.
toolchain:
	@command -v rustup >/dev/null || { echo "Install rustup first: https://rustup.rs"; exit 1; }
	rustup toolchain install

packages:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=""; else SUDO=sudo; fi; \
	  $$SUDO apt-get update && $$SUDO apt-get install -y $$missing; \
	fi
