package run

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolcall"
)

// The release archive: testdata/releases/<release>/<program>.json holds runs suspended by that
// release. Every later release must resume each of them to the recorded result (the upgrade
// guarantee of docs/snapshots.md). A release adds its own directory once, when it is cut:
//
//	go test ./internal/run -run TestReleaseArchive -update-release
//
// Files are never rewritten afterwards: they are what that release wrote.

// thisRelease names the directory -update-release writes.
const thisRelease = "2026-12-02"

var updateRelease = flag.Bool("update-release", false, "write this release's suspended runs to testdata/releases/"+thisRelease)

// archivedRun is one file of the archive.
type archivedRun struct {
	// Program is the run's source, for readers (the state holds what runs).
	Program string `json:"program"`
	// State is the suspended run as Suspend wrote it: one document (format 1), or
	// {"header": ..., "vm": ...} (see stateFile).
	State json.RawMessage `json:"state"`
	// Outcomes answer the run's durable calls by key, including those of later suspensions.
	Outcomes map[string]toolcall.Outcome `json:"outcomes"`
	// Result is the value the run returns.
	Result json.RawMessage `json:"result"`
}

// archivePrograms are the programs of this release's archive, with the value each returns
// when every approval is answered by approvalOutcome. They use only the tools math.add and
// approvals.request of setup, which must keep their meaning for the archive to resume.
var archivePrograms = []struct {
	name, src, result string
}{
	{name: "closures_generators", src: `
function* counter(start) { let i = start; while (true) { const step = yield i; i += step ?? 1 } }
const gen = counter(10); gen.next()
const adders = []
for (let i = 0; i < 3; i++) adders.push(x => x + i)
let total = 0
for (const what of ["a", "b"]) {
  const r = await tools.approvals.request({what})
  total += adders[total % 3](r.what.length)
}
return {total, next: gen.next(5).value, after: gen.next().value, adders: adders.map(f => f(100))}`,
		result: `{"total":3,"next":15,"after":16,"adders":[100,101,102]}`},
	{name: "async_promises", src: `
const log = []
const pending = new Promise(resolve => { globalThis.release = resolve })
pending.then(v => log.push("then " + v))
async function ask(what) { const r = await tools.approvals.request({what}); log.push(what); return r.approved }
const both = Promise.all([ask("x"), ask("y")])
const sum = (await tools.math.add({a: 2, b: 3})).sum
release(sum)
const oks = await both
await null
const settled = await Promise.allSettled([Promise.reject(new Error("no")), 1])
return {oks, sum, log, settled: settled.map(s => s.status)}`,
		result: `{"oks":[true,true],"sum":5,"log":["then 5","x","y"],"settled":["rejected","fulfilled"]}`},
	{name: "classes", src: `
class Shape {
  static count = 0
  #name
  constructor(name) { this.#name = name; Shape.count++ }
  get name() { return this.#name }
  describe() { return this.#name + ":" + this.area() }
}
class Rect extends Shape {
  constructor(w, h) { super("rect"); this.w = w; this.h = h }
  area() { return this.w * this.h }
  async grow(what) { const r = await tools.approvals.request({what}); if (r.approved) this.w *= 2; return this.describe() }
}
const r = new Rect(2, 3)
const grown = await r.grow("grow")
return {grown, count: Shape.count, isShape: r instanceof Shape, name: r.name}`,
		result: `{"grown":"rect:12","count":1,"isShape":true,"name":"rect"}`},
	{name: "maps_sets", src: `
const key = {id: 1}
const m = new Map([["a", 1], [key, "obj"]])
const s = new Set([1, 2, 3])
const wm = new WeakMap([[key, "weak"]])
const it = m.entries(); it.next()
s.delete(2)
const r = await tools.approvals.request({what: "maps"})
m.set("b", r.what)
s.add(4)
return {rest: [...it].map(([k, v]) => [typeof k, v]), keys: [...m.keys()].length, set: [...s], weak: wm.get(key), has: m.has(key)}`,
		result: `{"rest":[["object","obj"],["string","maps"]],"keys":3,"set":[1,3,4],"weak":"weak","has":true}`},
	{name: "regexps", src: `
const re = /(\d+)-(?<word>[a-z]+)/g
const text = "1-one 22-two 333-three"
const first = re.exec(text)
const sticky = /a/y; sticky.lastIndex = 1; sticky.test("ba")
const matches = text.matchAll(/(\d)(\d*)/g); matches.next()
const r = await tools.approvals.request({what: "regexps"})
const second = re.exec(text)
return {first: first.groups.word, second: second.groups.word, lastIndex: re.lastIndex,
  sticky: sticky.lastIndex, rest: [...matches].map(m => m[0]), ok: r.approved}`,
		result: `{"first":"one","second":"two","lastIndex":12,"sticky":2,"rest":["22","333"],"ok":true}`},
	{name: "dates", src: `
const d = new Date(Date.UTC(2024, 1, 29, 12, 30))
d.setUTCDate(d.getUTCDate() + 1)
const r = await tools.approvals.request({what: "dates"})
d.setUTCFullYear(2025)
return {iso: d.toISOString(), day: d.getUTCDay(), json: JSON.stringify({d}), ok: r.approved, invalid: String(new Date(NaN))}`,
		result: `{"iso":"2025-03-01T12:30:00.000Z","day":6,"json":"{\"d\":\"2025-03-01T12:30:00.000Z\"}","ok":true,"invalid":"Invalid Date"}`},
	{name: "tool_calls", src: `
const results = []
let denied = null
try {
  await tools.approvals.request({what: "deny-first"})
} catch (e) { denied = e.message }
const [a, b] = await Promise.all([tools.approvals.request({what: "p"}), tools.math.add({a: 1, b: 1})])
results.push(a.what, b.sum)
for (const what of ["q", "r"]) results.push((await tools.approvals.request({what})).what)
return {denied, results}`,
		result: `{"denied":"denied deny-first","results":["p",2,"q","r"]}`},
	{name: "async_iteration_builtins", src: `
async function* source() { for (const what of ["s1", "s2"]) yield (await tools.approvals.request({what})).what }
const got = []
for await (const v of source()) got.push(v)
const chunks = [...[1, 2, 3, 4, 5].values().chunks(2)]
const keyed = await Promise.allKeyed({a: Promise.resolve(1), b: tools.math.add({a: 2, b: 2}).then(r => r.sum)})
const zipped = [...Iterator.zip([[1, 2], ["x", "y"]])]
return {got, chunks, keyed, zipped, tagged: ((s, ...v) => s.raw.join("|") + v.join(","))` + "`a${1}b${2}c`" + `}`,
		result: `{"got":["s1","s2"],"chunks":[[1,2],[3,4],[5]],"keyed":{"a":1,"b":4},"zipped":[[1,"x"],[2,"y"]],"tagged":"a|b|c1,2"}`},
	{name: "typescript_imports_stacks", src: `import { URLSearchParams } from "node:url"
interface Answer { approved: boolean; what: string }
function make(): Error { return new RangeError("kept") }
const err = make()
const src = String(function twice(x: number): number { return x * 2 })
const q = new URLSearchParams("a=1&b=2")
const r = (await tools.approvals.request({what: "ts"})) as Answer
let thrown = ""
try { (null as any).x } catch (e) { thrown = (e as Error).stack!.split("\n")[1] }
return {stack: err.stack, src, b: q.get("b"), what: r.what, thrown}`,
		result: `{"b":"2","src":"function twice(x: number): number { return x * 2 }","stack":"RangeError: kept\n    at make (<anonymous>:3:33)\n    at <anonymous>:4:13","thrown":"    at <anonymous>:9:21","what":"ts"}`},
	{name: "binary_proxy_bigint", src: `
const buf = new ArrayBuffer(8, {maxByteLength: 16})
const u8 = new Uint8Array(buf)
const dv = new DataView(buf)
const tracked = new Uint16Array(buf)
u8.set([1, 2, 3, 4])
const big = 2n ** 70n + 5n
const b64 = new BigInt64Array([-1n, big])
const target = {hits: 0}
const p = new Proxy(target, {get(t, k) { t.hits++; return k === "hits" ? t.hits : k.length }})
const g = Function("return this")
const r = await tools.approvals.request({what: "bin"})
buf.resize(12)
dv.setUint16(8, 0x0506, true)
return {what: r.what, bytes: Array.from(u8), tracked: tracked.length, big: String(big * 2n), b64: String(b64), pLen: p.abc, hits: p.hits, global: g() === globalThis}`,
		result: `{"b64":"-1,5","big":"2361183241434822606858","bytes":[1,2,3,4,0,0,0,0,6,5,0,0],"global":true,"hits":2,"pLen":3,"tracked":6,"what":"bin"}`},
}

// approvalOutcome answers approvals.request({what}): approved, unless what starts with "deny".
func approvalOutcome(args json.RawMessage) toolcall.Outcome {
	var in struct{ What string }
	_ = json.Unmarshal(args, &in)
	if strings.HasPrefix(in.What, "deny") {
		return toolcall.Outcome{OK: false, Error: &toolcall.OutcomeError{Message: "denied " + in.What}}
	}
	v, _ := json.Marshal(map[string]any{"approved": true, "what": in.What})
	return toolcall.Outcome{OK: true, Value: v}
}

// resumeArchived resumes an archived run until it finishes, answering every durable call from
// the archive, and returns its result.
func resumeArchived(t *testing.T, b *testBundle, a archivedRun) *Result {
	t.Helper()
	state := parseStateFile(t, a.State)
	for range 20 {
		pending, err := PendingOf(state)
		require.NoError(t, err)
		var outcomes []OutcomeFor
		for _, p := range pending {
			o, ok := a.Outcomes[p.Key]
			require.True(t, ok, "no outcome archived for %s", p.Key)
			outcomes = append(outcomes, OutcomeFor{Key: p.Key, Outcome: o})
		}
		e, err := b.rt.Resume(context.Background(), state, outcomes, ExecOptions{})
		require.NoError(t, err)
		if res, done := e.Result(); done {
			return res
		}
		require.Equal(t, StateSuspended, e.State())
		s, err := e.Suspend()
		require.NoError(t, err)
		state = s.State
	}
	t.Fatal("the run suspends forever")
	return nil
}

// writeReleaseArchive runs archivePrograms to their first suspension and writes them to
// testdata/releases/<thisRelease>, with the outcomes of every call and the result.
func writeReleaseArchive(t *testing.T) {
	dir := filepath.Join("testdata", "releases", thisRelease)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for _, p := range archivePrograms {
		b, _ := setup(t, Limits{}, Hooks{})
		e := execute(t, b, p.src)
		require.Equal(t, StateSuspended, e.State(), p.name)
		s, err := e.Suspend()
		require.NoError(t, err)
		a := archivedRun{Program: p.src, State: stateFileOf(t, s.State), Outcomes: map[string]toolcall.Outcome{}}
		// Run on to the end, answering every call, to record the outcomes.
		state := s.State
		for e.State() == StateSuspended {
			pending, err := PendingOf(state)
			require.NoError(t, err)
			var outcomes []OutcomeFor
			for _, c := range pending {
				require.Equal(t, "approvals.request", c.Path)
				o := approvalOutcome(c.Args)
				a.Outcomes[c.Key] = o
				outcomes = append(outcomes, OutcomeFor{Key: c.Key, Outcome: o})
			}
			e, err = b.rt.Resume(context.Background(), state, outcomes, ExecOptions{})
			require.NoError(t, err)
			if e.State() == StateSuspended {
				s, err := e.Suspend()
				require.NoError(t, err)
				state = s.State
			}
		}
		res := resultOf(t, e)
		require.True(t, res.OK, "%s: %+v", p.name, res.Error)
		require.JSONEq(t, p.result, string(res.Value), p.name)
		a.Result = res.Value
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(a))
		require.NoError(t, os.WriteFile(filepath.Join(dir, p.name+".json"), out.Bytes(), 0o644))
	}
}

// TestReleaseArchive resumes every run of every release in testdata/releases and checks each
// finishes with its recorded result. Runs whose states carry no compiled code (written before
// snapshots did) resume only while the compiler generates the same code for them: under a
// changed code generator (the codegen_shift build tag) they are skipped.
func TestReleaseArchive(t *testing.T) {
	if *updateRelease {
		writeReleaseArchive(t)
	}
	t.Parallel()
	files, err := filepath.Glob(filepath.Join("testdata", "releases", "*", "*.json"))
	require.NoError(t, err)
	releases := map[string]bool{}
	for _, f := range files {
		releases[filepath.Base(filepath.Dir(f))] = true
	}
	require.True(t, releases[thisRelease], "this release's runs are not archived: go test ./internal/run -run TestReleaseArchive -update-release")
	require.GreaterOrEqual(t, len(releases), 2)
	for _, file := range files {
		name := filepath.Base(filepath.Dir(file)) + "/" + strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var a archivedRun
			require.NoError(t, json.Unmarshal(data, &a))
			if codegenShifted && !bytes.Contains(a.State, []byte(`"compiled":`)) {
				t.Skip("the state carries no compiled code, and this build's code generator differs")
			}
			b, _ := setup(t, Limits{}, Hooks{})
			res := resumeArchived(t, b, a)
			require.True(t, res.OK, "%+v", res.Error)
			require.JSONEq(t, string(a.Result), string(res.Value), fmt.Sprintf("program:\n%s", a.Program))
		})
	}
}
