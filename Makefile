# Arachne: `make run` plays, `make test` tests. Both install what is missing first.
SHELL := /bin/bash
CARGO ?= cargo
# Debian/Ubuntu packages the native build needs (ALSA for sound).
APT_PACKAGES := pkg-config libasound2-dev

.PHONY: run test deps toolchain packages fmt lint bench

run: deps
	$(CARGO) run -p arachne -- $(ARGS)

test: deps
	$(CARGO) test --workspace

fmt:
	$(CARGO) fmt --all --check

lint: deps
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench: toolchain
	$(CARGO) run --release -p arachne-engine --example throughput

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
