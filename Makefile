# Aubade — the two commands are `make run` and `make test` (see README.md); `make bench` measures the radio.
SWIFT   ?= swift
SCRATCH ?= .build
CONFIG  ?= config/aubade.toml
DB      ?= var/aubade.sqlite
BIN     := .build/debug/aubade

.PHONY: run test build deps deps-test release bench clean

## Install what is missing, build, and start the clock on the default config and ./var/aubade.sqlite.
run: build
	@mkdir -p var
	$(BIN) run --config $(CONFIG) --db $(DB)

## Install what is missing, build, and run every test.
test: deps-test
	$(SWIFT) build --build-tests
	$(SWIFT) test

build: deps
	$(SWIFT) build

deps:
	@deploy/install-deps.sh build

deps-test:
	@deploy/install-deps.sh test

## An optimised binary for the clock itself: .build/release/aubade
release: deps
	$(SWIFT) build -c release

## A benchmark, not a test: `aubade play` beside mpg123 on a local Icecast stream into a real-time paced
## ALSA sink, 3 runs each of 60 s (BENCH_SECONDS=10 for a quick look). Prints a table and the targets.
bench: deps-test
	$(SWIFT) build -c release --scratch-path $(SCRATCH)
	python3 bench/radio_bench.py --aubade $(SCRATCH)/release/aubade

clean:
	rm -rf .build
