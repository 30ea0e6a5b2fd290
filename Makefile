# Raceshot — the two commands a newcomer needs are `make run` and `make test`.

CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
RELEASE_BIN := $(TARGET_DIR)/release/raceshot
NPM ?= npm
WEB_DEPS := web/node_modules/.installed

.PHONY: run build setup setup-test setup-bench web models test lint web-lint web-test fmt openapi bench clean

## run: build everything, prepare models, seed the demo event, serve http://127.0.0.1:8080
# The demo takes payments through the SANDBOX gateway: no real money moves.
run: build
	@$(RELEASE_BIN) faces licence
	$(RELEASE_BIN) migrate
	$(RELEASE_BIN) seed-demo
	RACESHOT__PAYMENTS__ALLOW_SANDBOX=true $(RELEASE_BIN) serve

## build: the release binary, the web app and the face models, without running anything
build: setup models web
	$(CARGO) build --release --locked --bin raceshot

## setup: check the system packages the build needs (installs missing ones as root)
setup:
	scripts/setup.sh build

## setup-test: the same for the tests (PostgreSQL client, Chromium, Thai fonts)
setup-test:
	scripts/setup.sh test

## setup-bench: the same for the benchmarks (wrk, nginx, Chromium)
setup-bench:
	scripts/setup.sh bench

## web: the shop's web app, built into web/dist (served by `raceshot serve`)
web: setup $(WEB_DEPS)
	cd web && $(NPM) run build

# `npm install` rather than `npm ci`: the lock file carries no registry addresses, and
# `npm ci` then refuses it for want of other platforms' optional packages.
$(WEB_DEPS): web/package.json web/package-lock.json
	cd web && $(NPM) install --no-audit --no-fund --prefer-offline
	touch $@

## models: fetch and verify the face and bib models, OpenVINO, ONNX Runtime and test photos (idempotent)
models:
	scripts/fetch-models.sh

## test: formatting, lints, every Rust test on SQLite and PostgreSQL, the web app's unit
## tests, then the browser suite against a real server (Debian's Chromium)
test: setup-test models lint web-lint
	RACESHOT_TEST_S3_SERVER="$$(scripts/test-tools.sh)" $(CARGO) test --workspace --locked
	$(MAKE) web-test

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

## web-lint: API types match openapi.json, TypeScript strict, ESLint
web-lint: $(WEB_DEPS)
	cd web && $(NPM) run --silent api-types:check
	cd web && npx tsc -b
	cd web && npx eslint . --max-warnings 0

## web-test: Vitest, then the end-to-end suite against the debug build `cargo test` made
web-test: web
	cd web && npx vitest run
	cd web && RACESHOT_BIN="$(abspath $(TARGET_DIR))/debug/raceshot" npx vitest run --config vitest.e2e.config.ts

fmt:
	$(CARGO) fmt --all

## openapi: regenerate the committed API contract from the code
openapi: $(WEB_DEPS)
	$(CARGO) run --quiet --locked --bin raceshot -- openapi > openapi.json
	cd web && $(NPM) run --silent api-types

## bench: benchmarks against a release build (figures go to docs/benchmarks.md)
bench: build setup-bench
	scripts/bench-catalogue.sh $(RELEASE_BIN)
	scripts/bench-load.sh $(RELEASE_BIN)
	scripts/bench/faces.sh
	scripts/bench-ingest.sh $(RELEASE_BIN)
	scripts/bench/workers.sh $(RELEASE_BIN) $${XDG_CACHE_HOME:-$$HOME/.cache}/raceshot/bench-photos-race
	scripts/bench/raceday.sh $(RELEASE_BIN)
	scripts/bench/alerts.sh $(RELEASE_BIN)
	$(CARGO) run --release --locked -p raceshot-server --example search_bench -- 333334 3
	$(CARGO) run --release --locked -p raceshot-server --example certificate_bench
	cd web && RACESHOT_BIN="$(abspath $(RELEASE_BIN))" npx vitest run --config vitest.e2e.config.ts e2e/performance.e2e.ts

clean:
	$(CARGO) clean
