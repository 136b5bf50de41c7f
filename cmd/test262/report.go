package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// summaryJSON is the machine-readable summary written by -json.
type summaryJSON struct {
	Passed  int      `json:"passed"`
	Failed  int      `json:"failed"`
	Skipped int      `json:"skipped"`
	Results []result `json:"results"`
}

// counts are the pass/fail/skip counts of a group of tests.
type counts struct {
	Pass, Fail, Skip int
}

func (c *counts) add(status string) {
	switch status {
	case statusPass:
		c.Pass++
	case statusFail:
		c.Fail++
	case statusSkip:
		c.Skip++
	}
}

// passRate is the share of run (not skipped) tests that passed, in percent; -1 when none ran.
func (c counts) passRate() float64 {
	if c.Pass+c.Fail == 0 {
		return -1
	}
	return 100 * float64(c.Pass) / float64(c.Pass+c.Fail)
}

// groupKey is the directory a test is counted under: the first two path levels below
// test/ (for example "built-ins/Array" or "language/expressions").
func groupKey(p string) string {
	parts := strings.Split(strings.TrimPrefix(p, "test/"), "/")
	if len(parts) <= 2 {
		return strings.Join(parts[:len(parts)-1], "/")
	}
	return parts[0] + "/" + parts[1]
}

// tally counts results per directory and in total.
func tally(results []result) (map[string]*counts, counts) {
	groups := map[string]*counts{}
	var total counts
	for _, r := range results {
		key := groupKey(r.Path)
		c := groups[key]
		if c == nil {
			c = &counts{}
			groups[key] = c
		}
		c.add(r.Status)
		total.add(r.Status)
	}
	return groups, total
}

func formatRate(c counts) string {
	rate := c.passRate()
	if rate < 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", rate)
}

// writeTable prints the per-directory table: counts of passed, failed and skipped tests,
// the pass rate among tests that ran, and the total.
func writeTable(w io.Writer, results []result) {
	groups, total := tally(results)
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	width := len("directory")
	for _, k := range keys {
		width = max(width, len(k))
	}
	row := func(name, pass, fail, skip, rate string) {
		fmt.Fprintf(w, "%-*s %7s %7s %7s %7s\n", width, name, pass, fail, skip, rate)
	}
	row("directory", "pass", "fail", "skip", "pass%")
	for _, k := range keys {
		c := groups[k]
		row(k, strconv.Itoa(c.Pass), strconv.Itoa(c.Fail), strconv.Itoa(c.Skip), formatRate(*c))
	}
	row("total", strconv.Itoa(total.Pass), strconv.Itoa(total.Fail), strconv.Itoa(total.Skip), formatRate(total))
}

// failureGroup is a failure message shared by several tests (numbers in it are folded, so
// that "line 3" and "line 7" count as one), with the first test that failed so.
type failureGroup struct {
	Message string
	Count   int
	Example string
}

var digits = regexp.MustCompile(`[0-9]+`)

// topFailures groups failures by message and returns the n largest groups, largest first
// (ties by message).
func topFailures(results []result, n int) []failureGroup {
	groups := map[string]*failureGroup{}
	for _, r := range results {
		if r.Status != statusFail {
			continue
		}
		key := digits.ReplaceAllString(r.Message, "N")
		g := groups[key]
		if g == nil {
			g = &failureGroup{Message: key, Example: r.Path}
			groups[key] = g
		}
		g.Count++
	}
	list := make([]failureGroup, 0, len(groups))
	for _, g := range groups {
		list = append(list, *g)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Count != list[j].Count {
			return list[i].Count > list[j].Count
		}
		return list[i].Message < list[j].Message
	})
	return list[:min(n, len(list))]
}

// writeTopFailures prints the most common failure messages with a count and an example.
func writeTopFailures(w io.Writer, results []result, n int) {
	top := topFailures(results, n)
	if len(top) == 0 {
		return
	}
	fmt.Fprintf(w, "most common failures:\n")
	for _, g := range top {
		fmt.Fprintf(w, "%7d  %s\n         e.g. %s\n", g.Count, g.Message, g.Example)
	}
}

// writeJSON writes the summary document to file.
func writeJSON(file string, results []result) error {
	_, total := tally(results)
	doc := summaryJSON{Passed: total.Pass, Failed: total.Fail, Skipped: total.Skip, Results: results}
	if doc.Results == nil {
		doc.Results = []result{}
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("encode json summary: %w", err)
	}
	if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write json summary: %w", err)
	}
	return nil
}

// readExpectations reads the expectations file: one known-failing test path per line;
// blank lines and '#' comments (whole-line or trailing) are ignored. A missing file reads
// as empty.
func readExpectations(file string) (map[string]bool, error) {
	f, err := os.Open(file)
	if err != nil {
		if os.IsNotExist(err) {
			return map[string]bool{}, nil
		}
		return nil, fmt.Errorf("read expectations: %w", err)
	}
	defer f.Close()
	known := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if line = strings.TrimSpace(line); line != "" {
			known[line] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read expectations: %w", err)
	}
	return known, nil
}

// expectationDiff lists the tests whose outcome differs from the expectations: failures
// not listed as known, and listed tests that passed.
type expectationDiff struct {
	UnexpectedFailures []result
	UnexpectedPasses   []string
}

// compareExpectations compares results with the known-failing set.
func compareExpectations(results []result, known map[string]bool) expectationDiff {
	var d expectationDiff
	for _, r := range results {
		switch {
		case r.Status == statusFail && !known[r.Path]:
			d.UnexpectedFailures = append(d.UnexpectedFailures, r)
		case r.Status == statusPass && known[r.Path]:
			d.UnexpectedPasses = append(d.UnexpectedPasses, r.Path)
		}
	}
	return d
}

// writeDiff prints the differences from the expectations.
func writeDiff(w io.Writer, d expectationDiff) {
	for _, r := range d.UnexpectedFailures {
		fmt.Fprintf(w, "UNEXPECTED FAIL %s: %s\n", r.Path, r.Message)
	}
	for _, p := range d.UnexpectedPasses {
		fmt.Fprintf(w, "UNEXPECTED PASS %s\n", p)
	}
	fmt.Fprintf(w, "unexpected failures: %d, unexpected passes: %d\n", len(d.UnexpectedFailures), len(d.UnexpectedPasses))
}

const expectationsHeader = `# Known test262 failures of the interpreter, one path (relative to the test262 root) per
# line. go run ./cmd/test262 -root DIR -expect cmd/test262/expectations.txt fails only on
# failures not listed here; add -update-expect to rewrite this file from a run.
`

// updateExpectations rewrites the expectations file: entries for tests that ran are
// replaced by this run's failures; entries for tests that did not run are kept.
func updateExpectations(file string, results []result, known map[string]bool) error {
	ran := make(map[string]bool, len(results))
	next := map[string]bool{}
	for _, r := range results {
		ran[r.Path] = true
		if r.Status == statusFail {
			next[r.Path] = true
		}
	}
	for p := range known {
		if !ran[p] {
			next[p] = true
		}
	}
	paths := make([]string, 0, len(next))
	for p := range next {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	var b strings.Builder
	b.WriteString(expectationsHeader)
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("write expectations: %w", err)
	}
	return nil
}
