package run

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTypeScriptCompact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		want   string
	}{
		{name: "nil", schema: ``, want: "unknown"},
		{name: "true", schema: `true`, want: "unknown"},
		{name: "false", schema: `false`, want: "never"},
		{name: "malformed", schema: `{"type":`, want: "unknown"},
		{name: "primitives", schema: `{"type":"object","properties":{"s":{"type":"string"},"n":{"type":"number"},"i":{"type":"integer"},"b":{"type":"boolean"},"z":{"type":"null"}},"required":["s","n","i","b","z"]}`,
			want: "{ s: string; n: number; i: number; b: boolean; z: null }"},
		{name: "property order kept and optional marked", schema: `{"type":"object","properties":{"zeta":{"type":"string"},"alpha":{"type":"number"}},"required":["alpha"]}`,
			want: "{ zeta?: string; alpha: number }"},
		{name: "enum literal union", schema: `{"enum":["open","closed",3,null,true]}`, want: `"open" | "closed" | 3 | null | true`},
		{name: "const", schema: `{"const":{"b":1,"a":[2]}}`, want: `{"b":1,"a":[2]}`},
		{name: "array", schema: `{"type":"array","items":{"type":"string"}}`, want: "Array<string>"},
		{name: "array without items", schema: `{"type":"array"}`, want: "Array<unknown>"},
		{name: "tuple 2020", schema: `{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"items":false}`, want: "[string, number]"},
		{name: "tuple draft 7 open", schema: `{"type":"array","items":[{"type":"string"}],"additionalItems":{"type":"boolean"}}`, want: "[string, ...Array<boolean>]"},
		{name: "type list", schema: `{"type":["string","null"]}`, want: "string | null"},
		{name: "nullable", schema: `{"type":"string","nullable":true}`, want: "string | null"},
		{name: "any of", schema: `{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"number"}}]}`, want: "string | Array<number>"},
		{name: "one of objects", schema: `{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","properties":{"b":{"type":"number"}},"required":["b"]}]}`,
			want: "{ a: string } | { b: number }"},
		{name: "all of", schema: `{"allOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"number"}}}]}`,
			want: "{ a?: string } & { b?: number }"},
		{name: "intersection parenthesises unions", schema: `{"allOf":[{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","properties":{"b":{"type":"string"}}}]},{"type":"object","properties":{"c":{"type":"string"}}}]}`,
			want: "({ a?: string } | { b?: string }) & { c?: string }"},
		{name: "index signature", schema: `{"type":"object","additionalProperties":{"type":"number"}}`, want: "{ [key: string]: number }"},
		{name: "properties and index signature", schema: `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":{"type":"string"}}`,
			want: "{ id: string; [key: string]: string }"},
		{name: "open empty object", schema: `{"type":"object"}`, want: "{ [key: string]: unknown }"},
		{name: "closed empty object", schema: `{"type":"object","additionalProperties":false}`, want: "{}"},
		{name: "pattern properties", schema: `{"type":"object","patternProperties":{"^x":{"type":"integer"}}}`, want: "{ [key: string]: number }"},
		{name: "implicit object", schema: `{"properties":{"a":{"type":"string"}}}`, want: "{ a?: string }"},
		{name: "non-identifier keys quoted", schema: `{"type":"object","properties":{"x-y":{"type":"string"},"2fa":{"type":"boolean"},"ok_$":{"type":"null"}}}`,
			want: `{ "x-y"?: string; "2fa"?: boolean; ok_$?: null }`},
		{name: "ref resolved", schema: `{"type":"object","properties":{"user":{"$ref":"#/$defs/User"}},"$defs":{"User":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`,
			want: "{ user?: { name: string } }"},
		{name: "draft 7 definitions ref", schema: `{"definitions":{"Id":{"type":"integer"}},"type":"array","items":{"$ref":"#/definitions/Id"}}`, want: "Array<number>"},
		{name: "recursive ref by name", schema: `{"$ref":"#/$defs/Node","$defs":{"Node":{"type":"object","properties":{"child":{"$ref":"#/$defs/Node"},"name":{"type":"string"}}}}}`,
			want: "{ child?: Node; name?: string }"},
		{name: "root recursion uses title", schema: `{"title":"Tree","type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}}}`,
			want: "{ kids?: Array<Tree> }"},
		{name: "dangling ref", schema: `{"$ref":"#/$defs/Missing"}`, want: "unknown"},
		{name: "remote ref", schema: `{"$ref":"https://example.com/x.json"}`, want: "unknown"},
		{name: "unknown member poisons union", schema: `{"anyOf":[{"type":"string"},{}]}`, want: "unknown"},
		{name: "literal string escaping", schema: `{"enum":["a\"b"]}`, want: `"a\"b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, TypeScript(json.RawMessage(tt.schema), false))
		})
	}
}

func TestTypeScriptDepthCap(t *testing.T) {
	t.Parallel()
	schema := `{"type":"string"}`
	for range 12 {
		schema = `{"type":"object","properties":{"next":` + schema + `}}`
	}
	for _, pretty := range []bool{false, true} {
		got := TypeScript(json.RawMessage(schema), pretty)
		require.Contains(t, got, "next?: unknown")
		require.NotContains(t, got, "string")
	}
}

func TestTypeScriptPretty(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		schema string
		want   []string
	}{
		{
			name: "descriptions and constraints become JSDoc",
			schema: `{"type":"object","properties":{
				"owner":{"type":"string","description":"Repository owner"},
				"perPage":{"type":"integer","description":"Results per page","default":30,"minimum":1,"maximum":100},
				"labels":{"type":"array","items":{"type":"string"},"minItems":1,"maxItems":10,"uniqueItems":true},
				"state":{"type":"string","enum":["open","closed"]},
				"homepage":{"type":"string","format":"uri","maxLength":200,"pattern":"^https://"},
				"legacy":{"type":"string","deprecated":true},
				"query":{"type":"string","description":"\nFirst line\n\nSecond line\n","examples":["is:open"]}
			},"required":["owner"]}`,
			want: []string{
				"{",
				"  /** Repository owner */",
				"  owner: string",
				"  /**",
				"   * Results per page",
				"   * @default 30",
				"   * @integer",
				"   * @minimum 1",
				"   * @maximum 100",
				"   */",
				"  perPage?: number",
				"  /**",
				"   * @minItems 1",
				"   * @maxItems 10",
				"   * @uniqueItems",
				"   */",
				"  labels?: Array<string>",
				`  state?: "open" | "closed"`,
				"  /**",
				"   * @format uri",
				"   * @maxLength 200",
				"   * @pattern ^https://",
				"   */",
				"  homepage?: string",
				"  /** @deprecated */",
				"  legacy?: string",
				"  /**",
				"   * First line",
				"   *",
				"   * Second line",
				`   * @example "is:open"`,
				"   */",
				"  query?: string",
				"}",
			},
		},
		{
			name:   "nested objects indent",
			schema: `{"type":"object","properties":{"filter":{"type":"object","description":"Search filter","properties":{"state":{"type":"string","description":"Issue state"}}}}}`,
			want: []string{
				"{",
				"  /** Search filter */",
				"  filter?: {",
				"    /** Issue state */",
				"    state?: string",
				"  }",
				"}",
			},
		},
		{
			name:   "comment terminator neutralised",
			schema: `{"type":"object","properties":{"note":{"type":"string","description":"Ends */ early"}}}`,
			want:   []string{"{", "  /** Ends * / early */", "  note?: string", "}"},
		},
		{
			name:   "ref description used",
			schema: `{"type":"object","properties":{"id":{"$ref":"#/$defs/Id"}},"$defs":{"Id":{"type":"string","description":"Opaque id"}}}`,
			want:   []string{"{", "  /** Opaque id */", "  id?: string", "}"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, strings.Join(tt.want, "\n"), TypeScript(json.RawMessage(tt.schema), true))
		})
	}
}

func TestSignature(t *testing.T) {
	t.Parallel()
	add := json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	sum := json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number","description":"The sum"}},"required":["sum"]}`)
	tests := []struct {
		name   string
		path   string
		in     json.RawMessage
		out    json.RawMessage
		pretty bool
		want   string
	}{
		{name: "compact", path: "math.add", in: add, out: sum, want: "tools.math.add(input: { a: number; b: number }): Promise<{ sum: number }>"},
		{name: "pretty", path: "math.add", in: add, out: sum, pretty: true,
			want: "tools.math.add(input: {\n  a: number\n  b: number\n}): Promise<{\n  /** The sum */\n  sum: number\n}>"},
		{name: "bracket path, no schemas", path: "context7.resolve-library-id", want: `tools.context7["resolve-library-id"](input?: unknown): Promise<unknown>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, Signature(tt.path, tt.in, tt.out, tt.pretty))
		})
	}
}

func catalogToolbox(t *testing.T) *Toolbox {
	t.Helper()
	add := plain("math.add")
	add.Description = "Add two numbers"
	add.Input = json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	add.Output = json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`)
	upper := plain("strings.upper")
	upper.Description = "Upper-case a string\nMore detail on a second line."
	upper.Input = json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)
	approve := Tool{Path: "approvals.request", Description: "Ask a human", Durable: fakeDurable{},
		Input: json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string"}},"required":["reason"]}`)}
	b, err := NewToolbox([]Tool{upper, add, approve, plain("context7.resolve-library-id")}, nil)
	require.NoError(t, err)
	return b
}

func TestCatalog(t *testing.T) {
	t.Parallel()
	cat := catalogToolbox(t).Catalog()
	var paths []string
	for _, d := range cat {
		paths = append(paths, d.Path)
	}
	require.Equal(t, []string{"approvals.request", "context7.resolve-library-id", "math.add", "strings.upper"}, paths)
	require.True(t, cat[0].Durable)
	require.False(t, cat[2].Durable)
	require.Equal(t, "tools.approvals.request(input: {\n  reason: string\n}): Promise<unknown>", cat[0].Signature)
	require.Equal(t, "Add two numbers", cat[2].Description)

	b, err := json.Marshal(cat[2])
	require.NoError(t, err)
	require.JSONEq(t, `{"path":"math.add","description":"Add two numbers","durable":false,
		"signature":"tools.math.add(input: {\n  a: number\n  b: number\n}): Promise<{\n  sum: number\n}>",
		"input":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]},
		"output":{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}}`, string(b))
}

func TestRenderPrompt(t *testing.T) {
	t.Parallel()
	cat := catalogToolbox(t).Catalog()
	lines := []string{
		"- tools.approvals.request(input: { reason: string }): Promise<unknown> // Ask a human\n",
		"- tools.context7[\"resolve-library-id\"](input?: unknown): Promise<unknown>\n",
		"- tools.math.add(input: { a: number; b: number }): Promise<{ sum: number }> // Add two numbers\n",
		"- tools.strings.upper(input: { text: string }): Promise<unknown> // Upper-case a string\n",
	}
	summary := "\nNamespaces (4 tools in 4 namespaces):\n- tools.approvals (1 tool)\n- tools.context7 (1 tool)\n- tools.math (1 tool)\n- tools.strings (1 tool)\n"

	t.Run("unlimited", func(t *testing.T) {
		t.Parallel()
		// Reverse the input: the prompt sorts by path itself.
		rev := []Descriptor{cat[3], cat[2], cat[1], cat[0]}
		got := RenderPrompt(rev, -1)
		require.Equal(t, promptHeader+summary+"\nTools:\n"+strings.Join(lines, ""), got)
		require.Contains(t, got, SearchSignature)
		require.NotContains(t, got, "/**")
	})
	t.Run("the default budget holds a small catalog", func(t *testing.T) {
		t.Parallel()
		require.Equal(t, RenderPrompt(cat, -1), RenderPrompt(cat, 0))
		require.Equal(t, RenderPrompt(cat, 0), RenderPrompt(cat, DefaultPromptBudget))
	})
	t.Run("tight budget lists the lines that fit and sends the model to search", func(t *testing.T) {
		t.Parallel()
		// Room for the first two lines only: the budget counts tool lines only.
		budget := (len(lines[0]) + len(lines[1]) + 3) / 4
		got := RenderPrompt(cat, budget)
		require.Equal(t, promptHeader+summary+"\nTools:\n"+lines[0]+lines[1]+
			"\n2 of 4 tools are listed above. Call search to find the others and read their signatures before calling them: every namespace above has tools that search returns.\n", got)
	})
	t.Run("no tools", func(t *testing.T) {
		t.Parallel()
		require.Contains(t, RenderPrompt(nil, 0), "No tools are available.")
	})
}

// bigCatalog is 500 tools in 12 namespaces of very different sizes: one namespace holds
// more than half of the tools, and its tools have the longest signatures.
func bigCatalog(t testing.TB) *Toolbox {
	t.Helper()
	sizes := []int{260, 60, 40, 30, 25, 20, 20, 15, 12, 8, 6, 4}
	var (
		tools      []Tool
		namespaces []Namespace
	)
	for n, size := range sizes {
		ns := fmt.Sprintf("ns%02d", n)
		namespaces = append(namespaces, Namespace{Path: ns, Description: "Namespace number " + strconv.Itoa(n)})
		for i := range size {
			tool := plain(fmt.Sprintf("%s.op%03d", ns, i))
			tool.Description = "Operation " + strconv.Itoa(i) + " of " + ns
			props := `"id":{"type":"string"}`
			if n == 0 {
				props += `,"filter":{"type":"object","properties":{"state":{"enum":["open","closed","merged"]},"labels":{"type":"array","items":{"type":"string"}}}}`
			}
			tool.Input = json.RawMessage(`{"type":"object","properties":{` + props + `},"required":["id"]}`)
			tools = append(tools, tool)
		}
	}
	b, err := NewToolbox(tools, namespaces)
	require.NoError(t, err)
	return b
}

func TestPromptOfALargeCatalog(t *testing.T) {
	t.Parallel()
	box := bigCatalog(t)
	require.Equal(t, 500, box.Len())
	prompt := box.Prompt(0)
	head, tools, ok := strings.Cut(prompt, "\nTools:\n")
	require.True(t, ok)

	// Every namespace is summarised, with its description and tool count, whatever the budget.
	require.Contains(t, head, "Namespaces (500 tools in 12 namespaces):\n")
	require.Contains(t, head, "- tools.ns00 (260 tools): Namespace number 0\n")
	require.Contains(t, head, "- tools.ns11 (4 tools): Namespace number 11\n")

	// The tool lines stay within the default budget; the rest are left to search.
	body, note, ok := strings.Cut(tools, "\n\n")
	require.True(t, ok, "a partial list ends with a note")
	require.LessOrEqual(t, len(body)+1, DefaultPromptBudget*charsPerToken)
	require.Greater(t, len(body), DefaultPromptBudget*charsPerToken*9/10, "the budget is used")
	require.Contains(t, note, "tools are listed above. Call search")

	// Round-robin: every namespace has its first tools listed, and no namespace has more than
	// one tool more than any namespace that still had tools left.
	perNS := map[string]int{}
	for _, l := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
		path := strings.TrimPrefix(l, "- tools.")
		perNS[path[:strings.IndexByte(path, '.')]]++
	}
	require.Len(t, perNS, 12)
	sizes := []int{260, 60, 40, 30, 25, 20, 20, 15, 12, 8, 6, 4}
	least := 1 << 30
	for n, size := range sizes {
		if c := perNS[fmt.Sprintf("ns%02d", n)]; c < size {
			least = min(least, c)
		}
	}
	for n := range sizes {
		require.LessOrEqual(t, perNS[fmt.Sprintf("ns%02d", n)], least+1, "namespace ns%02d", n)
	}
	require.Less(t, perNS["ns00"], 260/4, "the large namespace does not crowd out the others")

	// A bigger budget lists more, an unlimited one lists all 500 with no note.
	require.Greater(t, strings.Count(box.Prompt(6000), "\n- tools."), strings.Count(prompt, "\n- tools."))
	all := box.Prompt(-1)
	require.Equal(t, 500+12, strings.Count(all, "\n- tools."))
	require.NotContains(t, all, "are listed above")
}

func TestCallableForms(t *testing.T) {
	t.Parallel()
	require.Equal(t, `await tools.context7["resolve-library-id"]({ q })`, CallExpression("context7.resolve-library-id", "{ q }"))
	require.Equal(t, `await tools.math.add({ a: 1, b: 2 })`, CallExpression("math.add", "{ a: 1, b: 2 }"))
	// The signature the prompt shows is the search built-in's: a program calling search
	// the way it says gets the page it describes.
	b, _ := setup(t, Limits{}, Hooks{})
	res := resultOf(t, execute(t, b, `const p = await search({ query: "add", namespace: "math", limit: 5, offset: 0 }); return [p.items[0].path, typeof p.items[0].signature, p.remaining, p.next]`))
	require.True(t, res.OK, "%+v", res)
	require.JSONEq(t, `["tools.math.add","string",0,null]`, string(res.Value))
	for _, member := range []string{"query: string", "namespace?: string", "limit?: number", "offset?: number", "path: string", "remaining: number", "next: number | null"} {
		require.Contains(t, SearchSignature, member)
	}
}

func BenchmarkSignature(b *testing.B) {
	in := json.RawMessage(`{"type":"object","properties":{"owner":{"type":"string","description":"Repository owner"},"perPage":{"type":"integer","default":30,"minimum":1},"labels":{"type":"array","items":{"type":"string"}},"tree":{"$ref":"#/$defs/Node"}},"required":["owner"],"$defs":{"Node":{"type":"object","properties":{"child":{"$ref":"#/$defs/Node"},"name":{"type":"string"}}}}}`)
	out := json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"}}}}}}`)
	b.ReportAllocs()
	for b.Loop() {
		_ = Signature("github.list_issues", in, out, true)
	}
}

func BenchmarkRenderPrompt(b *testing.B) {
	cat := benchCatalog(500)
	b.ReportAllocs()
	for b.Loop() {
		_ = RenderPrompt(cat, 4000)
	}
}

var update = flag.Bool("update", false, "rewrite golden files under testdata")

// goldenToolbox loads testdata/catalog/tools.json (a manifest-shaped list).
func goldenToolbox(t *testing.T) *Toolbox {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "catalog", "tools.json"))
	require.NoError(t, err)
	var m struct {
		Tools []struct {
			Path        string          `json:"path"`
			Description string          `json:"description"`
			Input       json.RawMessage `json:"input"`
			Output      json.RawMessage `json:"output"`
			Durable     bool            `json:"durable"`
		} `json:"tools"`
		Namespaces []Namespace `json:"namespaces"`
	}
	require.NoError(t, json.Unmarshal(raw, &m))
	var tools []Tool
	for _, mt := range m.Tools {
		tool := Tool{Path: mt.Path, Description: mt.Description, Input: mt.Input, Output: mt.Output}
		if mt.Durable {
			tool.Durable = fakeDurable{}
		} else {
			tool.Execute = plain(mt.Path).Execute
		}
		tools = append(tools, tool)
	}
	b, err := NewToolbox(tools, m.Namespaces)
	require.NoError(t, err)
	return b
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "catalog", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run Golden -update to create it")
	require.Equal(t, string(want), got)
}

func TestCatalogGolden(t *testing.T) {
	t.Parallel()
	b := goldenToolbox(t)
	var sigs strings.Builder
	for _, d := range b.Catalog() {
		sigs.WriteString("// " + d.Path + "\n" + d.Signature + "\n\n")
	}
	tests := []struct {
		name string
		file string
		got  string
	}{
		{name: "pretty signatures", file: "signatures.golden", got: sigs.String()},
		{name: "prompt", file: "prompt.golden", got: b.Prompt(-1)},
		{name: "prompt within 150 tokens", file: "prompt_150.golden", got: b.Prompt(150)},
		{name: "prompt within 300 tokens", file: "prompt_300.golden", got: b.Prompt(300)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			golden(t, tt.file, tt.got)
		})
	}
	for _, budget := range []int{1, 100, 150, 300, 450, 1000} {
		_, tools, _ := strings.Cut(b.Prompt(budget), "\nTools:\n")
		listed := 0
		for _, l := range strings.SplitAfter(tools, "\n") {
			if strings.HasPrefix(l, "- ") {
				listed += len(l)
			}
		}
		require.LessOrEqual(t, listed, budget*4, budget)
	}
}

func ExampleSignature() {
	in := json.RawMessage(`{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`)
	out := json.RawMessage(`{"type":"object","properties":{"sum":{"type":"number"}},"required":["sum"]}`)
	fmt.Println(Signature("math.add", in, out, false))
	fmt.Println(Signature("context7.resolve-library-id", nil, nil, false))
	// Output:
	// tools.math.add(input: { a: number; b: number }): Promise<{ sum: number }>
	// tools.context7["resolve-library-id"](input?: unknown): Promise<unknown>
}

// FuzzTypeScript checks that rendering is total: any bytes render to some
// type without panicking, in both modes.
func FuzzTypeScript(f *testing.F) {
	for _, seed := range []string{
		`{"type":"object","properties":{"a":{"$ref":"#"}}}`,
		`{"$ref":"#/$defs/A","$defs":{"A":{"allOf":[{"$ref":"#/$defs/A"}]}}}`,
		`{"anyOf":[{"type":["string","null"]},{"enum":[1,{"x":[]}]}]}`,
		`{"type":"array","items":[{"type":"string"}],"prefixItems":true}`,
		`{"properties":{"x":{"$ref":"#/properties/x"}}}`,
		`[1,2`, `"str"`, `{"$ref":"#/a~1b/~0c"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, pretty := range []bool{false, true} {
			if TypeScript(json.RawMessage(data), pretty) == "" {
				t.Fatalf("empty rendering of %q", data)
			}
		}
	})
}

func TestTypeScriptFanOutBounded(t *testing.T) {
	t.Parallel()
	// Each level refers to the next one ten times: 10^8 leaves if expanded.
	var defs []string
	for i := range 8 {
		var props []string
		for j := range 10 {
			props = append(props, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/L%d"}`, j, i+1))
		}
		defs = append(defs, fmt.Sprintf(`"L%d":{"type":"object","properties":{%s}}`, i, strings.Join(props, ",")))
	}
	defs = append(defs, `"L8":{"type":"string"}`)
	schema := `{"$ref":"#/$defs/L0","$defs":{` + strings.Join(defs, ",") + `}}`
	for _, pretty := range []bool{false, true} {
		got := TypeScript(json.RawMessage(schema), pretty)
		require.Contains(t, got, "unknown")
		require.Less(t, len(got), 200_000)
	}
}
