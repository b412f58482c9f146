# The two commands a newcomer needs: `make run` and `make test`. Both install what is missing first.
.PHONY: install build run migrate typecheck lint test test-scale clean

NPM ?= npm
JEST_ARGS ?=

# npm ci only when the lock file changed since the last install.
node_modules/.install-stamp: package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

install: node_modules/.install-stamp

build: install
	$(NPM) run build

# Starts the service; without DATABASE_URL it runs on the embedded database in PGLITE_DIR (.data/pglite).
run: build
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

# Type check, layering rule, API reference lint, then every test. Postgres tests run when DATABASE_URL is set.
test: typecheck lint lint-openapi
	$(NPM) test -- $(JEST_ARGS)

# Two real instances on one Postgres and one Redis (test/scale): a tenant made through one is
# served by the other, rate limits are shared, an invite is accepted once. Needs DATABASE_URL and
# REDIS_URL; fails rather than skips without them. `make test` (and so CI) runs it too.
test-scale: install
	REQUIRE_POSTGRES=1 REQUIRE_REDIS=1 $(NPM) test -- test/scale $(JEST_ARGS)

clean:
	rm -rf dist coverage

# Baseline and service side by side; writes docs/benchmarks.md.
.PHONY: bench
bench: install
	$(NPM) run bench
