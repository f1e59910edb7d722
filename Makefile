# stategraph: make run starts a dev server; make test runs every check.
GO          ?= go
BIN         := bin/stategraph
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
TOOLS       := $(CURDIR)/bin/tools
export GOFLAGS := -buildvcs=false
# COMMIT is stamped into the binary for 'stategraph version' (-buildvcs is off above).
COMMIT      := $(shell c=$$(git rev-parse --short HEAD 2>/dev/null) && { git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; echo $$c; })
LDFLAGS     := -X main.commit=$(COMMIT)

.PHONY: all run build generate check-generate lint vet staticcheck test test-go test-tikv test-ui test-ui-if-chromium crashtest crashtest-short bench bench-turn bench-writes bench-scaling bench-conversations fuzz clean

all: build

## run: build bin/stategraph, then start a development server on 127.0.0.1:8080 with the embedded Badger store in ./data
run:
	@echo "building $(BIN) (the first build takes about a minute, later ones a few seconds)..."
	@$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/server
	@echo "starting $(BIN) serve --dev (data in ./data; Ctrl-C stops it)"
	@$(BIN) serve --dev

## build: build bin/stategraph
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/server

## generate: regenerate the gqlgen output from graph/*.graphqls, and the Go client (genqlient) from it and client/*.graphql
generate:
	$(GO) generate . ./client

## check-generate: fail when the committed gqlgen output or generated client is stale
check-generate:
	@rm -rf $(TOOLS)/.gen-check && mkdir -p $(TOOLS)/.gen-check
	@cp -r graph/generated graph/model graph/resolvers $(TOOLS)/.gen-check/
	@cp client/generated.go $(TOOLS)/.gen-check/client-generated.go
	@$(MAKE) --no-print-directory generate
	@for d in generated model resolvers; do \
		if ! diff -r $(TOOLS)/.gen-check/$$d graph/$$d >/dev/null; then \
			diff -r $(TOOLS)/.gen-check/$$d graph/$$d | head -40; \
			echo "graph/$$d is stale: run 'make generate' and commit the result"; exit 1; \
		fi; \
	done
	@if ! diff $(TOOLS)/.gen-check/client-generated.go client/generated.go >/dev/null; then \
		diff $(TOOLS)/.gen-check/client-generated.go client/generated.go | head -40; \
		echo "client/generated.go is stale: run 'make generate' and commit the result"; exit 1; \
	fi
	@echo "generated code is up to date"

$(TOOLS)/staticcheck:
	GOBIN=$(TOOLS) $(GO) install $(STATICCHECK)

## lint: gofmt, go vet and staticcheck (and go vet for macOS and Windows: the service builds there too)
lint: $(TOOLS)/staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go' -not -path './bin/*')); \
		if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(TOOLS)/staticcheck ./...
	GOOS=darwin GOARCH=arm64 $(GO) vet ./store ./cmd/...
	GOOS=windows GOARCH=amd64 $(GO) vet ./store ./cmd/...

## test: every check and every test, with the race detector, the API tests again on the TiKV mock, the browser tests when a Chromium is found, and a short crashtest
test: check-generate lint test-go test-tikv test-ui-if-chromium crashtest-short

# CHROMIUM is the browser the explorer's tests drive (headless): $CHROMIUM, else the first found on PATH.
CHROMIUM ?= $(shell command -v chromium || command -v chromium-browser || command -v google-chrome || command -v google-chrome-stable || command -v headless-shell)
export CHROMIUM

## test-ui: the explorer's browser tests (headless Chromium via chromedp, build tag uitest); fails without a Chromium
test-ui:
	@if [ -z "$(CHROMIUM)" ]; then echo "test-ui: no Chromium found: install one (apt-get install -y chromium) or set CHROMIUM"; exit 1; fi
	$(GO) vet -tags uitest ./explorer
	$(GO) test -race -tags uitest -count=1 -timeout 10m ./explorer

test-ui-if-chromium:
	@if [ -n "$(CHROMIUM)" ]; then $(MAKE) --no-print-directory test-ui; else \
		echo "*** BROWSER TESTS DID NOT RUN: no Chromium found (apt-get install -y chromium, or set CHROMIUM); make test-ui runs them ***"; fi

# The isolation sweep (internal/sweep) sends thousands of requests one after another to check
# authorization, not concurrency, and so does the sentence corpus (statebench's TestSentenceSupersession
# replays 7,000 rows through one server, one at a time): both run without the race detector, which
# would multiply their time by four to six (the corpus: 50 s, 280 s under -race).
SERIAL_TESTS = ^TestSentenceSupersession$$
test-go:
	$(GO) test -race -timeout 10m -count=1 -skip '$(SERIAL_TESTS)' $$($(GO) list ./... | grep -v '/internal/sweep$$')
	$(GO) test -timeout 10m -count=1 ./internal/sweep
	$(GO) test -timeout 10m -count=1 -run '$(SERIAL_TESTS)' ./statebench

## test-tikv: the tests that start a server through internal/apitest, again on client-go's in-process TiKV mock cluster
## instead of Badger (build tag tikvtest; without -race, which the Badger run has); part of make test. The store's own
## conformance tests already run on both engines in test-go; tests of other packages would only repeat themselves, and
## so would two that only read through the API: the isolation sweep (authorization over every field, which no engine
## decides) and the StateBench harness (replays and scores).
TIKV_PKGS = $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | awk '/internal\/apitest/ && $$1 !~ /\/(internal\/sweep|statebench)$$/ {print $$1}'
test-tikv:
	@pkgs=$$($(TIKV_PKGS)); if [ -z "$$pkgs" ]; then echo "test-tikv: no package's tests import internal/apitest"; exit 1; fi; \
		echo "go test -tags tikvtest -count=1 -timeout 20m" $$pkgs; \
		$(GO) test -tags tikvtest -count=1 -timeout 20m $$pkgs

## crashtest: SIGKILL a server 20 times under concurrent writes; no acknowledged write may be lost
CRASHTEST_CYCLES ?= 20
crashtest: build
	$(GO) run ./cmd/crashtest -bin $(BIN) -cycles $(CRASHTEST_CYCLES)

## crashtest-short: the same with 3 cycles (part of make test)
crashtest-short: build
	$(GO) run ./cmd/crashtest -bin $(BIN) -cycles 3 -max-run 800ms

## bench: the benchmarks (writeFact throughput, writeFacts, group commit, recordTurn with 10k facts, scaling replay, assembleContext latency and RSS)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 5 -timeout 60m ./...

## bench-turn: recordTurn over HTTP with 10,000 facts in the partition (p50 target <= 2 ms), 5 runs
bench-turn:
	$(GO) test -run '^$$' -bench 'RecordTurn$$' -benchtime 500x -count 5 ./server

## bench-writes: acknowledged writes over HTTP with SyncWrites on (1 and 32 clients), writeFacts of 1,000, commits per sync
bench-writes:
	$(GO) test -run '^$$' -bench 'WriteFact$$' -benchtime 3000x -count 5 ./server
	$(GO) test -run '^$$' -bench 'WriteFacts$$' -benchtime 20x -count 5 ./server
	$(GO) test -run '^$$' -bench DurableCommit -benchtime 3000x -count 5 ./store

## bench-scaling: the scaling timeline (N=1,000 and N=5,000) replayed end to end by statebench, 5 runs each
bench-scaling:
	$(GO) test -run '^$$' -bench ScalingReplay -benchtime 1x -count 5 -timeout 30m ./cmd/server

## bench-conversations: our own conversations (20 long, 30 short; testdata/longconv) replayed through the
## StateBench runner, and the sentence table: prints cSFRR / cMMR next to transcript replay, and recall and
## false supersessions per sentence; fails while the goals of issue 12 are not met
bench-conversations:
	$(GO) test -run 'TestConversationHarness$$|TestSentenceSupersession$$' -count=1 -v -timeout 30m ./statebench -args -longconv.full

## fuzz: run each fuzz target for FUZZTIME (default 30s); their seeds also run in make test
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

clean:
	rm -rf bin
