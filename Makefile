# Raceshot — the two commands a newcomer needs are `make run` and `make test`.

CARGO ?= cargo
RELEASE_BIN := $(or $(CARGO_TARGET_DIR),target)/release/raceshot

.PHONY: run build models test lint fmt openapi bench clean

## run: build everything, prepare models, seed the demo event, serve http://127.0.0.1:8080
# The demo takes payments through the SANDBOX gateway: no real money moves.
run: build
	$(RELEASE_BIN) migrate
	$(RELEASE_BIN) seed-demo
	RACESHOT__PAYMENTS__ALLOW_SANDBOX=true $(RELEASE_BIN) serve

## build: the release binary and the face models, without running anything
build: models
	$(CARGO) build --release --locked --bin raceshot

## models: fetch and verify face models, ONNX Runtime and test photos (idempotent)
models:
	scripts/fetch-models.sh

## test: formatting, clippy -D warnings and every test on SQLite and PostgreSQL
test: models lint
	RACESHOT_TEST_S3_SERVER="$$(scripts/test-tools.sh)" $(CARGO) test --workspace --locked

lint:
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --locked -- -D warnings

fmt:
	$(CARGO) fmt --all

## openapi: regenerate the committed API contract from the code
openapi:
	$(CARGO) run --quiet --locked --bin raceshot -- openapi > openapi.json

## bench: benchmarks against a release build (figures go to docs/benchmarks.md)
bench: build
	scripts/bench-catalogue.sh $(RELEASE_BIN)
	scripts/bench/faces.sh
	scripts/bench-ingest.sh $(RELEASE_BIN)
	$(CARGO) run --release --locked -p raceshot-server --example search_bench

clean:
	$(CARGO) clean
