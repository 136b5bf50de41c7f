package syntax

import (
	"strings"
	"testing"
)

// benchProgram is a typical code-mode program repeated (in blocks) to about 60 KB.
var benchProgram = strings.Repeat(`{
const { items = [] } = await tools.search.query({ q: "x", limit: 10 });
const out = [];
for (const [i, item] of items.entries()) {
  if (!item?.id) continue;
  const detail = await tools.store.get({ id: item.id }).catch((e) => ({ error: e.message }));
  out.push({ i, id: item.id, name: detail.name ?? "unknown", tags: (detail.tags || []).map(t => t.toLowerCase()) });
}
class Acc { #n = 0; add(v) { this.#n += v; return this } get n() { return this.#n } }
const acc = new Acc();
out.forEach(o => acc.add(o.tags.length));
}
`, 100)

func BenchmarkParse(b *testing.B) {
	b.SetBytes(int64(len(benchProgram)))
	for b.Loop() {
		if _, err := Parse(benchProgram, ModeAsyncBody); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseSmall parses one block of benchProgram (about 600 bytes), the
// size of a typical program.
func BenchmarkParseSmall(b *testing.B) {
	src := benchProgram[:len(benchProgram)/100]
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse(src, ModeAsyncBody); err != nil {
			b.Fatal(err)
		}
	}
}

// benchProgramTS is one block of benchProgram with TypeScript annotations:
// the JavaScript parse fails, the types are blanked and the text parsed again.
var benchProgramTS = `{
interface Item { id?: string; tags?: string[] }
const { items = [] } = (await tools.search.query({ q: "x", limit: 10 })) as { items: Item[] };
const out: Array<{ i: number; id: string; name: string; tags: string[] }> = [];
for (const [i, item] of items.entries()) {
  if (!item?.id) continue;
  const detail: any = await tools.store.get({ id: item.id }).catch((e: Error) => ({ error: e.message }));
  out.push({ i, id: item.id!, name: detail.name ?? "unknown", tags: (detail.tags || []).map((t: string): string => t.toLowerCase()) });
}
class Acc { #n: number = 0; add(v: number): this { this.#n += v; return this } get n(): number { return this.#n } }
const acc = new Acc();
out.forEach(o => acc.add(o.tags.length));
}
`

func BenchmarkParseTypeScriptSmall(b *testing.B) {
	b.SetBytes(int64(len(benchProgramTS)))
	for b.Loop() {
		if _, err := Parse(benchProgramTS, ModeAsyncBody); err != nil {
			b.Fatal(err)
		}
	}
}
