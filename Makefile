# Everyday commands. CI runs .ci/run, which runs `go test ./...` as the README says.
.PHONY: test roundtrip codegen vet generate verify bench test262

test:
	go test ./...

roundtrip:
	CODEMODE_ROUNDTRIP=1 go test ./...

# codegen: the interpreter and code mode under a changed code generator (docs/snapshots.md).
codegen:
	go test -tags codegen_shift ./internal/interp/... ./internal/run/...

vet:
	gofmt -l . | tee /dev/stderr | (! read)
	go vet ./...

generate:
	go generate ./...

# verify fails when generated code is out of date.
verify: generate
	git diff --exit-code -- internal/api/gen

bench:
	cd bench && go run ./cmd/compare

TEST262 ?= /tmp/test262
test262:
	go run ./cmd/test262 -root $(TEST262) -expect cmd/test262/expectations.txt
