# Aubade — the two commands are `make run` and `make test` (see README.md).
SWIFT   ?= swift
CONFIG  ?= config/aubade.toml
DB      ?= var/aubade.sqlite
BIN     := .build/debug/aubade

.PHONY: run test build deps deps-test release clean

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

clean:
	rm -rf .build
