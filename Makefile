# The two commands a newcomer needs: `make run` and `make test`. Both install what is missing first.
.PHONY: install build run migrate typecheck lint test test-scale clean

NPM ?= npm
JEST_ARGS ?=

# npm ci only when the lock file changed since the last install.
node_modules/.install-stamp: package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

# Compiled only when a source, a compiler setting or the installed packages changed since the last
# build, so that restarting `make run` starts at once. The stamp is touched after tsc succeeds: a
# failed build is tried again next time.
# Folders too: one changes when a file in it is added, removed or renamed.
SERVICE_SOURCES := $(shell find src 2>/dev/null) tsconfig.json tsconfig.build.json

dist/.build-stamp: node_modules/.install-stamp $(SERVICE_SOURCES)
	$(NPM) run build
	@touch $@

build: dist/.build-stamp

# Starts the service; without DATABASE_URL it runs on the embedded database in PGLITE_DIR (.data/pglite).
# The console is built first and served at http://localhost:3000/console/.
run: build console
	$(NPM) start

migrate: build
	$(NPM) run migrate

typecheck: install
	$(NPM) run typecheck

lint: install
	$(NPM) run lint

# The API reference (docs/openapi.yaml) stays lint-clean; redocly runs offline, without telemetry.
.PHONY: lint-openapi
lint-openapi: install
	$(NPM) run lint:openapi

# Type check, layering rule, API reference lint, the service's build (the tests of the documented
# start and migrate commands run dist/) and the console's build (its own type check), side by side
# once both packages are installed; then the console's component tests and every jest
# test, both always run. Postgres tests run when DATABASE_URL is set; the console's browser tests
# when Chromium is installed (REQUIRE_BROWSER=1 makes its absence a failure). Among the jest tests,
# test/packaging packs both packages and installs them into an empty project (npm, the registry
# for what the local cache lacks).
.PHONY: checks
checks: typecheck lint lint-openapi build console

test: install console/node_modules/.install-stamp
	@$(MAKE) --no-print-directory -j4 --output-sync=target checks
	@$(BROWSER_NOTE)
	@status=0; \
	$(NPM) --prefix console test -- $(VITEST_ARGS) || status=1; \
	$(NPM) test -- $(JEST_ARGS) || status=1; \
	$(BROWSER_NOTE); \
	exit $$status

# Two real instances on one Postgres and one Redis (test/scale): a tenant made through one is
# served by the other, rate limits are shared, an invite is accepted once. Needs DATABASE_URL and
# REDIS_URL; fails rather than skips without them. `make test` (and so CI) runs it too.
test-scale: install
	REQUIRE_POSTGRES=1 REQUIRE_REDIS=1 $(NPM) test -- test/scale $(JEST_ARGS)

clean:
	rm -rf dist dist-modules coverage console/dist

# The console (console/): a package of its own, installed when its lock file changes and built when
# its sources or the API reference (its generated types) change.
CHROMIUM_PATH ?= /usr/bin/chromium
VITEST_ARGS ?=
# Said before and after the tests, so that a run without the browser tests cannot pass unnoticed.
BROWSER_NOTE = [ -x "$(CHROMIUM_PATH)" ] || if [ "$$REQUIRE_BROWSER" = 1 ]; then \
	echo "*** Browser tests FAIL: no Chromium at $(CHROMIUM_PATH) and REQUIRE_BROWSER=1 ***"; else \
	echo "*** Browser tests SKIPPED: no Chromium at $(CHROMIUM_PATH) (apt-get install chromium) ***"; fi
CONSOLE_SOURCES := $(shell find console/src console/public console/test -type f 2>/dev/null) \
	console/index.html console/vite.config.ts console/tsconfig.json docs/openapi.yaml

console/node_modules/.install-stamp: console/package-lock.json
	$(NPM) --prefix console ci --no-audit --no-fund
	@touch $@

console/dist/index.html: console/node_modules/.install-stamp $(CONSOLE_SOURCES)
	$(NPM) --prefix console run build

.PHONY: console console-dev console-budget
console: console/dist/index.html

# Hot reload on http://localhost:5173/console/, against the API of `make run` on port 3000.
console-dev: console/node_modules/.install-stamp
	$(NPM) run console:dev

# The console's size and first-screen budgets, measured in Chromium; writes docs/console.md.
console-budget: build console
	$(NPM) run console:budget -- --write

# Baseline and service side by side; writes docs/benchmarks.md.
.PHONY: bench
bench: install
	$(NPM) run bench
