package run

import (
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

func searchCatalog() []Descriptor {
	d := func(path, desc, input string) Descriptor {
		var in json.RawMessage
		if input != "" {
			in = json.RawMessage(input)
		}
		return Describe(Tool{Path: path, Description: desc, Input: in, Execute: plain(path).Execute})
	}
	return []Descriptor{
		d("github.list_issues", "List issues in a repository", `{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"},"perPage":{"type":"number"}}}`),
		d("github.createIssue", "Open a new issue", `{"type":"object","properties":{"title":{"type":"string"},"body":{"type":"string"}}}`),
		d("github.get-repository", "Fetch repository metadata", `{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"}}}`),
		d("math.add", "Add two numbers", `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}`),
		d("math.subtract", "Subtract b from a", `{"$ref":"#/$defs/Pair","$defs":{"Pair":{"type":"object","properties":{"minuend":{"type":"number"},"subtrahend":{"type":"number"}}}}}`),
		d("weather.forecast", "Forecast for a city; mentions issues rarely", `{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}}}`),
		d("slack.postMessage", "Post a message to a channel", `{"type":"object","properties":{"channel":{"type":"string"},"text":{"type":"string"}}}`),
	}
}

func paths(p Page) []string {
	out := []string{}
	for _, it := range p.Items {
		out = append(out, it.Path)
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	t.Parallel()
	cat := searchCatalog()
	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{name: "empty query lists all by path", q: Query{}, want: []string{
			"tools.github.createIssue", `tools.github["get-repository"]`, "tools.github.list_issues",
			"tools.math.add", "tools.math.subtract", "tools.slack.postMessage", "tools.weather.forecast",
		}},
		{name: "path word beats description word", q: Query{Query: "issues"}, want: []string{
			"tools.github.list_issues", "tools.weather.forecast", "tools.github.createIssue",
		}},
		{name: "camel case split", q: Query{Query: "create issue"}, want: []string{"tools.github.createIssue", "tools.github.list_issues", "tools.weather.forecast"}},
		{name: "plural matches singular", q: Query{Query: "messages"}, want: []string{"tools.slack.postMessage"}},
		{name: "kebab split", q: Query{Query: "repository"}, want: []string{`tools.github["get-repository"]`, "tools.github.list_issues"}},
		{name: "more words matched first", q: Query{Query: "list issues repository"}, want: []string{
			"tools.github.list_issues", `tools.github["get-repository"]`, "tools.weather.forecast", "tools.github.createIssue",
		}},
		{name: "parameter names", q: Query{Query: "channel"}, want: []string{"tools.slack.postMessage"}},
		{name: "parameter behind ref", q: Query{Query: "subtrahend"}, want: []string{"tools.math.subtract"}},
		{name: "prefix match", q: Query{Query: "subtr"}, want: []string{"tools.math.subtract"}},
		{name: "substring match", q: Query{Query: "cast"}, want: []string{"tools.weather.forecast"}},
		{name: "exact beats prefix", q: Query{Query: "post"}, want: []string{"tools.slack.postMessage"}},
		{name: "stopwords ignored", q: Query{Query: "the a of"}, want: []string{}},
		{name: "no match", q: Query{Query: "kubernetes"}, want: []string{}},
		{name: "exact path first", q: Query{Query: "tools.math.add"}, want: []string{"tools.math.add", "tools.math.subtract"}},
		{name: "namespace scoping", q: Query{Query: "issue", Namespace: "github"}, want: []string{"tools.github.createIssue", "tools.github.list_issues"}},
		{name: "namespace with tools prefix", q: Query{Namespace: "tools.math"}, want: []string{"tools.math.add", "tools.math.subtract"}},
		{name: "namespace is not a string prefix", q: Query{Namespace: "mat"}, want: []string{}},
		{name: "case insensitive", q: Query{Query: "ADD"}, want: []string{"tools.math.add"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, paths(Search(cat, tt.q)))
		})
	}
}

func TestSearchDeterministicTies(t *testing.T) {
	t.Parallel()
	cat := searchCatalog()
	// Reversing the input must not change the order.
	rev := make([]Descriptor, len(cat))
	for i := range cat {
		rev[i] = cat[len(cat)-1-i]
	}
	q := Query{Query: "owner repo"}
	require.Equal(t, paths(Search(cat, q)), paths(Search(rev, q)))
	require.Equal(t, []string{`tools.github["get-repository"]`, "tools.github.list_issues"}, paths(Search(cat, q)))
}

func TestSearchPagination(t *testing.T) {
	t.Parallel()
	cat := searchCatalog()
	ptr := func(i int) *int { return &i }
	tests := []struct {
		name          string
		q             Query
		want          []string
		wantRemaining int
		wantNext      *int
	}{
		{name: "first page", q: Query{Limit: 3}, want: []string{"tools.github.createIssue", `tools.github["get-repository"]`, "tools.github.list_issues"}, wantRemaining: 4, wantNext: ptr(3)},
		{name: "middle page", q: Query{Limit: 3, Offset: 3}, want: []string{"tools.math.add", "tools.math.subtract", "tools.slack.postMessage"}, wantRemaining: 1, wantNext: ptr(6)},
		{name: "last page", q: Query{Limit: 3, Offset: 6}, want: []string{"tools.weather.forecast"}},
		{name: "past the end", q: Query{Limit: 3, Offset: 50}, want: []string{}},
		{name: "default limit covers all", q: Query{}, want: paths(Search(cat, Query{Limit: 100}))},
		{name: "negative values act as defaults", q: Query{Limit: -1, Offset: -5}, want: paths(Search(cat, Query{}))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p := Search(cat, tt.q)
			require.Equal(t, tt.want, paths(p))
			require.Equal(t, tt.wantRemaining, p.Remaining)
			require.Equal(t, tt.wantNext, p.Next)
		})
	}
}

func TestSearchDefaultLimit(t *testing.T) {
	t.Parallel()
	var cat []Descriptor
	for _, p := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		cat = append(cat, Describe(plain("ns."+p)))
	}
	p := Search(cat, Query{})
	require.Len(t, p.Items, DefaultSearchLimit)
	require.Equal(t, 2, p.Remaining)
	require.Equal(t, 10, *p.Next)
}

func TestSearchPageJSON(t *testing.T) {
	t.Parallel()
	p := Search(searchCatalog(), Query{Query: "add"})
	b, err := json.Marshal(p)
	require.NoError(t, err)
	require.JSONEq(t, `{"items":[{"path":"tools.math.add","description":"Add two numbers",
		"signature":"tools.math.add(input: {\n  a?: number\n  b?: number\n}): Promise<unknown>"}],"remaining":0,"next":null}`, string(b))
	empty, err := json.Marshal(Search(nil, Query{Query: "x"}))
	require.NoError(t, err)
	require.JSONEq(t, `{"items":[],"remaining":0,"next":null}`, string(empty))
}

func TestQueryValidate(t *testing.T) {
	t.Parallel()
	require.NoError(t, Query{Limit: 5, Offset: 10}.Validate())
	require.ErrorIs(t, Query{Limit: -1}.Validate(), ErrInvalidQuery)
	require.ErrorIs(t, Query{Offset: -1}.Validate(), ErrInvalidQuery)
}

func TestWords(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{name: "camel", in: "postMessage", want: []string{"post", "message"}},
		{name: "acronym", in: "getHTTPResponse", want: []string{"get", "http", "response"}},
		{name: "snake kebab dots", in: "a_b-c.d", want: []string{"a", "b", "c", "d"}},
		{name: "digits stay", in: "context7.v2Api", want: []string{"context7", "v2", "api"}},
		{name: "punctuation", in: "Hello, world!", want: []string{"hello", "world"}},
		{name: "empty", in: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, words(tt.in))
		})
	}
}

// benchCatalog builds n tools with schemas and descriptions.
func benchCatalog(n int) []Descriptor {
	out := make([]Descriptor, n)
	for i := range n {
		path := "ns" + string(rune('a'+i%26)) + ".tool_" + strconv.Itoa(i) + "Items"
		out[i] = Describe(Tool{
			Path:        path,
			Description: "List the items of project " + strconv.Itoa(i) + " with paging and filters",
			Input:       json.RawMessage(`{"type":"object","properties":{"projectId":{"type":"string"},"pageSize":{"type":"integer","minimum":1},"cursor":{"type":"string"},"filter":{"type":"object","properties":{"state":{"enum":["open","closed"]}}}},"required":["projectId"]}`),
			Output:      json.RawMessage(`{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"id":{"type":"string"}}}},"next":{"type":["string","null"]}}}`),
			Execute:     plain(path).Execute,
		})
	}
	return out
}

func BenchmarkSearch(b *testing.B) {
	for _, n := range []int{100, 1000} {
		cat := benchCatalog(n)
		b.Run(strconv.Itoa(n)+"_tools", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p := Search(cat, Query{Query: "list project items page size", Limit: 10})
				if len(p.Items) != 10 {
					b.Fatal(len(p.Items))
				}
			}
		})
	}
}

func TestSearchDecodedDescriptors(t *testing.T) {
	t.Parallel()
	cat := searchCatalog()
	raw, err := json.Marshal(cat)
	require.NoError(t, err)
	var decoded []Descriptor
	require.NoError(t, json.Unmarshal(raw, &decoded))
	for _, q := range []Query{{Query: "issues"}, {Query: "channel"}, {Query: "subtrahend"}, {Namespace: "math"}} {
		require.Equal(t, Search(cat, q), Search(decoded, q), q.Query)
	}
	require.Equal(t, RenderPrompt(cat, 0), RenderPrompt(decoded, 0))
}

func ExampleSearch() {
	tools := []Descriptor{
		Describe(Tool{Path: "github.list_issues", Description: "List issues in a repository", Execute: plain("x").Execute}),
		Describe(Tool{Path: "github.createIssue", Description: "Open a new issue", Execute: plain("x").Execute}),
		Describe(Tool{Path: "math.add", Description: "Add two numbers", Execute: plain("x").Execute}),
	}
	page := Search(tools, Query{Query: "issues", Limit: 1})
	fmt.Println(page.Items[0].Path, page.Remaining, *page.Next)
	// Output: tools.github.list_issues 1 1
}
