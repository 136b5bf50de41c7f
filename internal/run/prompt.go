package run

import (
	"fmt"
	"sort"
	"strings"
)

// The model-facing prompt of an execute tool: fixed instructions, a summary of every
// namespace, then as many full tool signatures as a token budget allows, chosen round-robin
// across namespaces so that one large namespace cannot crowd out the others. The model finds
// the rest with search, which every program can call.

// promptHeader tells a model how to write a program for the execute tool.
const promptHeader = `Use the execute tool to run a JavaScript program that calls the tools below.
- The program is the body of an async function in strict mode: use await at the top level, and return the result (or end with an expression). The result must be JSON-compatible. TypeScript type annotations are accepted (and not checked).
- Call a tool with await tools.<namespace>.<name>(input); it returns a promise of the tool's output. Names that are not identifiers use brackets: tools.ns["my-tool"](input).
- Calls start when made: start independent calls together and await them with Promise.all to run them concurrently.
- A failing tool throws an Error; catch it with try/catch. Inputs and outputs are copied as JSON and checked against the tool's schema.
- console.log lines are returned as logs. There is no eval, network, file system or npm package: only the tools and standard JavaScript built-ins.
- ` + SearchSignature + ` finds tools by the words of their paths, descriptions and parameters; pass next as offset for more. It is always available.
`

// SearchSignature is the exact TypeScript signature of the search built-in every program
// can call, as the prompt shows it.
const SearchSignature = `search(input: { query: string; namespace?: string; limit?: number; offset?: number }): Promise<{ items: { path: string; description: string; signature: string }[]; remaining: number; next: number | null }>`

// CallExpression is the expression a program writes to call the tool at path with the
// JavaScript expression argument: CallExpression("context7.resolve-library-id", "{ q }") is
// `await tools.context7["resolve-library-id"]({ q })`.
func CallExpression(path, argument string) string {
	return "await " + AccessPath(path) + "(" + argument + ")"
}

// charsPerToken converts a token budget to characters (an estimate that holds for English
// and code in common tokenizers).
const charsPerToken = 4

// DefaultPromptBudget is the token budget of the tool signatures in a prompt when the caller
// gives none (0).
const DefaultPromptBudget = 2000

// RenderPrompt renders model-facing instructions for an execute tool over descriptors: how
// to write a program, a summary of every namespace (the tools' parent paths) with its tool
// count, then one line per tool ("- tools.math.add(input: { a: number; b: number }):
// Promise<{ sum: number }> // Add two numbers") for as many tools as budgetTokens allows.
// The budget (0: DefaultPromptBudget; negative: unlimited) counts only the tool lines, at
// about 4 characters per token: the instructions and namespace summaries are always shown.
// Tools are taken round-robin across namespaces, in path order within each, so every
// namespace gets its first tools listed before any namespace gets more; when some tools are
// left out, a closing note says how many and sends the model to search.
func RenderPrompt(descriptors []Descriptor, budgetTokens int) string {
	return renderPrompt(descriptors, nil, budgetTokens)
}

// Prompt is RenderPrompt over the toolbox's catalog, with each described namespace's
// description in its summary line.
func (b *Toolbox) Prompt(budgetTokens int) string {
	return renderPrompt(b.Catalog(), b.Namespaces(), budgetTokens)
}

// promptGroup is the tools of one namespace, in path order.
type promptGroup struct {
	path  string
	lines []string // full tool lines
	next  int      // first line not yet selected
	stuck bool     // its next line did not fit
}

func renderPrompt(descriptors []Descriptor, namespaces []Namespace, budgetTokens int) string {
	ds := append([]Descriptor(nil), descriptors...)
	sortDescriptors(ds)
	var b strings.Builder
	b.WriteString(promptHeader)
	if len(ds) == 0 {
		b.WriteString("\nNo tools are available.\n")
		return b.String()
	}
	described := make(map[string]string, len(namespaces))
	for _, ns := range namespaces {
		if ns.Description != "" {
			described[ns.Path] = firstLine(ns.Description)
		}
	}
	groups := groupForPrompt(ds)

	fmt.Fprintf(&b, "\nNamespaces (%s in %s):\n", plural(len(ds), "tool"), plural(len(groups), "namespace"))
	for _, g := range groups {
		fmt.Fprintf(&b, "- %s (%s)", AccessPath(g.path), plural(len(g.lines), "tool"))
		if desc, ok := described[g.path]; ok {
			b.WriteString(": " + desc)
		}
		b.WriteByte('\n')
	}

	listed := selectRoundRobin(groups, budgetTokens)
	b.WriteString("\nTools:\n")
	for _, g := range groups {
		for _, l := range g.lines[:g.next] {
			b.WriteString(l)
		}
	}
	if listed < len(ds) {
		fmt.Fprintf(&b, "\n%d of %d tools are listed above. Call search to find the others and read their signatures before calling them: every namespace above has tools that search returns.\n", listed, len(ds))
	}
	return b.String()
}

// groupForPrompt groups sorted descriptors by parent path ("" for tools at the top level),
// groups in path order, and renders each tool's line.
func groupForPrompt(ds []Descriptor) []*promptGroup {
	byPath := make(map[string]*promptGroup)
	var groups []*promptGroup
	for i := range ds {
		d := &ds[i]
		parent := ""
		if j := strings.LastIndexByte(d.Path, '.'); j >= 0 {
			parent = d.Path[:j]
		}
		g := byPath[parent]
		if g == nil {
			g = &promptGroup{path: parent}
			byPath[parent] = g
			groups = append(groups, g)
		}
		line := "- " + derive(d).compact
		if desc := firstLine(d.Description); desc != "" {
			line += " // " + desc
		}
		g.lines = append(g.lines, line+"\n")
	}
	sort.Slice(groups, func(i, j int) bool { return groups[i].path < groups[j].path })
	return groups
}

// selectRoundRobin advances each group's next over the lines that fit in the budget, one
// line per group per round, and returns how many lines it selected. A group whose next line
// does not fit takes no more lines, so each group's listed tools stay a prefix of its tools
// in path order.
func selectRoundRobin(groups []*promptGroup, budgetTokens int) int {
	avail := -1 // unlimited
	switch {
	case budgetTokens == 0:
		avail = DefaultPromptBudget * charsPerToken
	case budgetTokens > 0:
		avail = budgetTokens * charsPerToken
	}
	listed := 0
	for progress := true; progress; {
		progress = false
		for _, g := range groups {
			if g.stuck || g.next == len(g.lines) {
				continue
			}
			l := len(g.lines[g.next])
			if avail >= 0 && l > avail {
				g.stuck = true
				continue
			}
			if avail >= 0 {
				avail -= l
			}
			g.next++
			listed++
			progress = true
		}
	}
	return listed
}

// plural renders "1 tool", "3 tools".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
