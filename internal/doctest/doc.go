// Package doctest runs the examples of README.md and docs/*.md, so that they cannot rot. It has
// no code of its own beyond the tests.
//
// A block is run when an HTML comment marks it. The comment lines stand directly above the
// opening fence:
//
//	<!-- doctest -->                          run this sh block
//	<!-- doctest: expect "status":"succeeded" -->  run it; its output must contain the text
//	<!-- doctest: file toolset.py -->         write this block (any language) to the file
//	<!-- doctest: needs python3 -->           skip the document when python3 is not on PATH
//
// A line may carry several expectations; each doctest comment line adds its own. The marked
// blocks of one document run in order, in one bash (-e, pipefail) in a fresh directory, against
// a fresh service: `codemode dev` on its own database, with CODEMODE_URL set to its address, so
// examples name the service as ${CODEMODE_URL:-http://127.0.0.1:8080}. PATH starts with freshly
// built codemode, toolsetd and webhook-receiver binaries, and a shell function stands in for
// `go run` of them and `go build` of codemode. The documented toolset ports 8765 and 8766 (and
// the example receiver's 8767) are replaced by free ones, so documents run in parallel with each other and with other tests. Everything the
// blocks start in the background is killed when the document ends.
//
// Unmarked blocks (docker compose, Kubernetes, test262, `codemode dev` itself) are not run.
package doctest
