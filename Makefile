# Aubade — the two commands are `make run` and `make test` (see README.md); `make bench` measures.
SWIFT     ?= swift
CONFIG    ?= config/aubade.toml
DB        ?= var/aubade.sqlite
BUILD_DIR ?= .build
BIN       := $(BUILD_DIR)/debug/aubade
# Where hardware/hil/setup.sh keeps the VM's kernel, modules and initramfs.
HIL_DIR   ?= .build-hil-vm
# Where `make deb` puts aubade_<version>-1_<arch>.deb.
DIST      ?= dist

.PHONY: run test build deps deps-test deps-deb release deb install bench clean hil hil-vm hil-setup browser browser-run contract \
	contract-run

## Install what is missing, build, and start the clock on the default config and ./var/aubade.sqlite.
run: build
	@mkdir -p var
	@echo "Starting the clock on $(DB) with $(CONFIG). In another terminal, from this folder:"
	@echo "  $(BIN) status        (or put $(CURDIR)/$(BUILD_DIR)/debug on PATH and run: aubade status)"
	@echo "The CLI finds this clock without --db or --config while it runs. Ctrl-C stops it."
	@echo "Its page: http://127.0.0.1:8080/ (phone) and http://127.0.0.1:8080/kiosk (the clock face); to use the"
	@echo "phone page from this machine, open the kiosk, tap 'Pair a phone' and type the code on the phone page."
	$(BIN) run --config $(CONFIG) --db $(DB)

## Install what is missing, build, and run every test: swift test, the native face under memory pressure
## (Tests/Face/, skipped where no memory cgroup is writable), the pages in a real browser, the API against its
## OpenAPI document (schemathesis), the MQTT face against a real Home Assistant, then the hardware-in-the-loop VM (AUBADE_SKIP_HIL=1 skips the VM, for quick local runs only; CI never sets it).
## The browser, API, Home Assistant and native-face suites, the package checks (and the VM's set-up) run at the same time
## (Tests/Support/together.sh): they mostly wait on the daemons' real clocks. Then the VM's two boots, one after the other (hardware/hil/run.sh).
test: deps-test
	@$(MAKE) --no-print-directory format-check check-docs
	hardware/hil/test-kernel-version.sh
	$(SWIFT) build --build-tests --scratch-path $(BUILD_DIR)
	AUBADE_FDK_AAC=$(abspath $(BUILD_DIR))/fdk-aac $(SWIFT) test --scratch-path $(BUILD_DIR)
	AUBADE_FACE=$(BUILD_DIR)/debug/aubade-face python3 Tests/Face/test_pressure.py $(BIN)
	@if [ "$${AUBADE_SKIP_HIL:-}" = 1 ]; then \
	  Tests/Support/together.sh $(BUILD_DIR)/artefacts/together browser-run contract-run homeassistant-run face-run deploy-run; \
	  echo "AUBADE_SKIP_HIL=1: the hardware-in-the-loop VM is skipped (make hil runs it)."; \
	else \
	  Tests/Support/together.sh $(BUILD_DIR)/artefacts/together browser-run contract-run homeassistant-run face-run \
	    deploy-run hil-setup && \
	  hardware/hil/run.sh $(BIN) $(HIL_DIR); \
	fi

## The package checks alone (Tests/Deploy/run.sh): the debug build packaged (aubade and aubade-face), lintian, the
## file lists, install.sh into a scratch root, the kiosk launcher's choices.
.PHONY: deploy-run
deploy-run:
	Tests/Deploy/run.sh $(BIN) $(BUILD_DIR)/deploy-test

## The browser tests alone (Tests/Browser/): the phone page and the kiosk face in headless Chromium against
## the built daemon; screenshots in $(BUILD_DIR)/artefacts/screenshots (AUBADE_SCREENSHOTS=docs also copies
## them into docs/screenshots/). BROWSER_TESTS=test_kiosk (unittest names) runs some of them.
browser: deps-test
	$(SWIFT) build --scratch-path $(BUILD_DIR)
	@$(MAKE) --no-print-directory browser-run

browser-run:
	BUILD_DIR=$(BUILD_DIR) AUBADE_BROWSER_VENV=$(abspath $(BUILD_DIR))/browser-venv \
	  AUBADE_ARTEFACTS=$(abspath $(BUILD_DIR))/artefacts Tests/Browser/run.sh $(BIN) $(BROWSER_TESTS)

## The API fuzzer alone (Tests/Contract/): schemathesis against the built daemon in a network namespace, with a
## token (every check, fixed seed) and without; reports in $(BUILD_DIR)/artefacts/schemathesis.
contract: deps-test
	$(SWIFT) build --scratch-path $(BUILD_DIR)
	@$(MAKE) --no-print-directory contract-run

contract-run:
	AUBADE_API_VENV=$(abspath $(BUILD_DIR))/api-venv AUBADE_FUZZ_REPORT=$(abspath $(BUILD_DIR))/artefacts/schemathesis \
	  Tests/Contract/run.sh $(BIN)

.PHONY: homeassistant homeassistant-run face face-run

## The native face alone (Tests/Face/): the built `aubade-face` on SDL's offscreen driver against the built daemon —
## a touch on its Stop stops a real alarm, its background is the clock's sunrise, it outlives the clock. Frames it
## kept are in $(BUILD_DIR)/artefacts/face.
face: deps-test
	$(SWIFT) build --scratch-path $(BUILD_DIR)
	@$(MAKE) --no-print-directory face-run

face-run:
	AUBADE_ARTEFACTS=$(abspath $(BUILD_DIR))/artefacts Tests/Face/run.sh $(BIN) $(BUILD_DIR)/debug/aubade-face $(FACE_TESTS)


## The Home Assistant tests alone (Tests/HomeAssistant/): the clock's MQTT face against a real Home Assistant core
## (PyPI's homeassistant 2025.4.4 on Python 3.13, in $(BUILD_DIR)/ha-venv) and mosquitto on 127.0.0.1: every
## component taken, the states following the CLI, the API and Home Assistant, an automation stopping the alarm.
## HA_TESTS=test_home_assistant.RingingTests (unittest names) runs some of them.
homeassistant: deps-test
	$(SWIFT) build --scratch-path $(BUILD_DIR)
	@$(MAKE) --no-print-directory homeassistant-run

homeassistant-run:
	AUBADE_HA_VENV=$(abspath $(BUILD_DIR))/ha-venv AUBADE_ARTEFACTS=$(abspath $(BUILD_DIR))/artefacts \
	  Tests/HomeAssistant/run.sh $(BIN) $(HA_TESTS)

## The hardware-in-the-loop tests alone: build, set up the VM (hardware/hil/setup.sh), boot it and run the
## scenarios against the built binary (hardware/hil/run.sh). See hardware/README.md.
hil: build hil-vm

hil-vm: hil-setup
	hardware/hil/run.sh $(BIN) $(HIL_DIR)

hil-setup:
	hardware/hil/setup.sh $(HIL_DIR)

build: deps
	$(SWIFT) build --scratch-path $(BUILD_DIR)

deps:
	@deploy/install-deps.sh build

deps-test:
	@BUILD_DIR=$(BUILD_DIR) deploy/install-deps.sh test

## An optimised binary for the clock itself: .build/release/aubade, with the Swift runtime and Foundation linked in
## as the package has them (--static-swift-stdlib: no toolchain on the clock; issue 25 measures the footprint).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(BUILD_DIR)

## The Debian packages for this machine (a Pi makes the arm64 ones): $(DIST)/aubade_<version>-1_<arch>.deb, and beside
## it the native face's aubade-face_<version>-1_<arch>.deb (SDL2: its own package, so a headless clock pulls none of
## it), from one release build of every product with the Swift runtime linked in (the Pi needs no toolchain).
## Install: sudo apt install ./dist/aubade_*.deb (and ./dist/aubade-face_*.deb for a screen)
deb: deps-deb
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(BUILD_DIR)
	deploy/make-deb.sh $(BUILD_DIR)/release/aubade $(DIST)

deps-deb:
	@deploy/install-deps.sh deb

## For those who build from source: the release binary, the unit, the config (an existing one is kept), the
## aubade user, the native face and its unit (not enabled); then the clock enabled and started (deploy/install.sh;
## sudo when not root). PREFIX (default /usr/local) and DESTDIR as usual; deploy/install.sh --uninstall removes it.
install: release
	deploy/install.sh --binary $(BUILD_DIR)/release/aubade $(if $(PREFIX),--prefix $(PREFIX)) $(if $(DESTDIR),--destdir $(DESTDIR))

## Benchmarks, not tests, each printing a table and the targets: `aubade play` beside mpg123 on a local
## Icecast stream into a real-time paced ALSA sink, through the `file` and the `plug → file` chains, with the
## daemon's sleep timer on the same stream and the CPU ratio to mpg123 per chain, 3 runs each of 60 s
## (BENCH_SECONDS=10 for a quick look); then the formats (bench/formats_bench.py): `aubade play` and the daemon's sleep
## timer beside ffmpeg on a local Icecast AAC mount, a live HLS station and the same Icecast's MP3 mount, same sink
## and chains, with the daemon's CPU ratio to ffmpeg, times to first audio and its peak RSS on AAC against MP3
## (BENCH_STREAMS, BENCH_TTFA_RUNS; about an hour with the defaults); then the daemon: alarm onset error, fallback latency, cold start to READY, idle CPU (BENCH_IDLE_SECONDS);
## then a 5,000-event calendar import (bench/calendar_bench.py; BENCH_RUNS); a station search against a local
## directory mirror of 5,000 stations and a 3,000-episode podcast feed followed (bench/directory_bench.py); then
## the API under a flood of busy readers and event streams from other machines while an alarm rings: the phone's edits, target 2 s
## (bench/api_fairness_bench.py, in a network namespace of its own; BENCH_EDITS, BENCH_FLOOD_*); then the clock face
## (bench/face_bench.py, issue 38): Chromium and WPE WebKit (cog) under cage, default and tuned, and the native
## aubade-face (FACE=PATH, else $(BUILD_DIR)/release/aubade-face when built), beside the clock and the waker: PSS,
## first frame, CPU idle and in a sunrise (BENCH_SECONDS, BENCH_FACES). The footprint
## (bench/footprint_bench.py, issue 25) follows the radio: RSS, PSS and anonymous memory per mapping of `--help`,
## `version`, `play` beside mpg123 and the idle daemon with HTTP and MQTT, libraries mapped, a CLI command's time
## to its answer, the binary as built and as installed. The release build is the package's (--static-swift-stdlib). BENCH_LONG=1
## adds the long listen: 8 hours of audio of the daemon's sleep timer, sped up (bench/long_listen_bench.py;
## BENCH_LONG_HOURS, BENCH_LONG_SOURCE, BENCH_LONG_SPEED).
bench: deps-test
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path $(BUILD_DIR)
	python3 bench/radio_bench.py --aubade $(BUILD_DIR)/release/aubade
	python3 bench/formats_bench.py --aubade $(BUILD_DIR)/release/aubade
	python3 bench/footprint_bench.py --aubade $(BUILD_DIR)/release/aubade
	python3 bench/daemon_bench.py --aubade $(BUILD_DIR)/release/aubade
	python3 bench/calendar_bench.py --aubade $(BUILD_DIR)/release/aubade
	python3 bench/directory_bench.py --aubade $(BUILD_DIR)/release/aubade
	python3 bench/waker_bench.py --aubade $(BUILD_DIR)/release/aubade --waker $(BUILD_DIR)/release/aubade-waker
	SWIFTC="$$(dirname "$$(command -v $(SWIFT))")/swiftc" bench/room_check_bench.sh
	python3 bench/api_fairness_bench.py --aubade $(BUILD_DIR)/release/aubade
	python3 bench/face_bench.py --aubade $(BUILD_DIR)/release/aubade --waker $(BUILD_DIR)/release/aubade-waker \
	  $(if $(FACE),--face $(FACE),$(if $(wildcard $(BUILD_DIR)/release/aubade-face),--face $(BUILD_DIR)/release/aubade-face))
ifeq ($(BENCH_LONG),1)
	python3 bench/long_listen_bench.py --aubade $(BUILD_DIR)/release/aubade
endif

clean:
	rm -rf $(BUILD_DIR) $(HIL_DIR) $(DIST)

.PHONY: check-docs format format-check

## The docs and the code cite only what is in this repository: test files and functions named in the docs exist,
## every (Rn) is a rule of docs/RELIABILITY.md, every house rule a rule of docs/HOUSE-RULES.md (docs/check-references.sh).
check-docs:
	docs/check-references.sh

## Formats Sources/, Tests/ and Package.swift in place with swift-format (ships with the toolchain) and the
## repository's .swift-format (4 spaces, 130 columns; docs/FORMATTING.md says why each setting is what it is).
format:
	$(SWIFT) format --in-place --recursive --parallel Sources Tests Package.swift

## Fails on any formatting finding in Sources/, Tests/ and Package.swift (what `make format` would change, and the
## lint-only rules); changes nothing.
format-check:
	$(SWIFT) format lint --strict --recursive --parallel Sources Tests Package.swift
