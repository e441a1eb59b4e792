# SignInBridge: one entry point for people and CI.
#   make run    install what is missing, build release, start the server on the sample config
#   make test   install what is missing, run every test
SWIFT ?= swift
CONFIG ?= samples/bridge.yaml

.PHONY: deps test-deps run build release test bench clean

deps:
	@bash scripts/install-deps.sh run

test-deps:
	@bash scripts/install-deps.sh test
	@bash scripts/test/python-venv.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

test: test-deps
	$(SWIFT) test
	bash scripts/test/lint-cli.sh

run: release
	@if [ -f "$(CONFIG)" ] && .build/release/signin-bridge help serve >/dev/null 2>&1; then \
		.build/release/signin-bridge serve --config $(CONFIG); \
	else \
		.build/release/signin-bridge --help; \
	fi

bench:
	@bash scripts/install-deps.sh bench
	@for s in scripts/bench/*.sh; do echo "== $$s"; bash $$s || exit 1; done

clean:
	rm -rf .build
