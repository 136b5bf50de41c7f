package run

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// Search limits.
const (
	// DefaultSearchLimit is the page size when Query.Limit is 0.
	DefaultSearchLimit = 10
	// MaxSearchLimit caps Query.Limit.
	MaxSearchLimit = 100
)

// ErrInvalidQuery is wrapped by errors about a malformed search query.
var ErrInvalidQuery = errors.New("invalid search query")

// Query is the argument of the search() built-in.
type Query struct {
	// Query is free text; empty lists every tool (in the namespace) by path.
	Query string `json:"query"`
	// Namespace restricts results to tools under this dotted path ("math";
	// a leading "tools." is accepted). Empty means every tool.
	Namespace string `json:"namespace,omitempty"`
	// Limit is the page size: 0 means DefaultSearchLimit; larger than
	// MaxSearchLimit means MaxSearchLimit.
	Limit int `json:"limit,omitempty"`
	// Offset is how many ranked results to skip (from Page.Next).
	Offset int `json:"offset,omitempty"`
}

// Validate rejects negative limits and offsets.
func (q Query) Validate() error {
	if q.Limit < 0 {
		return fmt.Errorf("%w: limit is %d, want 0 or more", ErrInvalidQuery, q.Limit)
	}
	if q.Offset < 0 {
		return fmt.Errorf("%w: offset is %d, want 0 or more", ErrInvalidQuery, q.Offset)
	}
	return nil
}

// Item is one search hit.
type Item struct {
	// Path is the access path a program writes ("tools.math.add").
	Path string `json:"path"`
	// Description is the tool's description.
	Description string `json:"description"`
	// Signature is the tool's TypeScript signature with JSDoc.
	Signature string `json:"signature"`
}

// Page is one page of search results: {items, remaining, next}.
type Page struct {
	// Items are the hits of this page, best first.
	Items []Item `json:"items"`
	// Remaining is how many ranked hits come after this page.
	Remaining int `json:"remaining"`
	// Next is the offset of the next page, nil on the last page.
	Next *int `json:"next"`
}

// Match strengths and field weights of the ranking. A query word scores
// 10×strength+weight for its best match among a tool's words, so an exact
// match anywhere beats a match of singular and plural ("issue", "issues"),
// which beats a prefix match anywhere, which beats a substring match;
// between equal strengths path words beat parameter names, which beat
// description words.
const (
	strengthSubstring = 1
	strengthPrefix    = 2
	strengthStem      = 3
	strengthExact     = 4

	weightDescription = 1
	weightParameter   = 2
	weightPath        = 3

	// exactPathBonus ranks a query that names a tool's path first.
	exactPathBonus = 1000
)

// stopwords are query words too common to rank by.
var stopwords = map[string]bool{
	"a": true, "an": true, "the": true, "of": true, "in": true, "on": true, "for": true,
	"to": true, "and": true, "or": true, "with": true, "by": true, "is": true, "from": true,
}

type scored struct {
	d       *Descriptor
	matched int
	score   int
}

// Search ranks tools against q deterministically and returns one page.
// Query and tool text are split into lowercase words (camelCase, snake_case,
// kebab-case and dots all separate words). Hits are ordered by the number of
// query words matched, then by total score (see the strength and weight
// constants), then by path. Tools matching no query word are left out; an
// empty query lists every tool by path. A query equal to a tool's path
// (with or without "tools.") ranks that tool first. Negative Limit or Offset
// are treated as 0; use Query.Validate to reject them.
func Search(tools []Descriptor, q Query) Page {
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	offset := max(q.Offset, 0)
	ns := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(q.Namespace), "tools"), ".")

	var terms []string
	for _, w := range words(q.Query) {
		if !stopwords[w] {
			terms = append(terms, w)
		}
	}
	whole := strings.ToLower(strings.TrimPrefix(strings.TrimSpace(q.Query), "tools."))

	var hits []scored
	for i := range tools {
		d := &tools[i]
		if ns != "" && d.Path != ns && !strings.HasPrefix(d.Path, ns+".") {
			continue
		}
		if len(terms) == 0 && whole == "" {
			hits = append(hits, scored{d: d})
			continue
		}
		dv := derive(d)
		s := scoreTool(d, dv, terms)
		if whole != "" && (whole == dv.lowerPath || whole == dv.lowerAcc) {
			s.score += exactPathBonus
			s.matched = max(s.matched, 1)
		}
		if s.matched > 0 {
			hits = append(hits, s)
		}
	}
	sort.Slice(hits, func(i, j int) bool {
		a, b := hits[i], hits[j]
		if a.matched != b.matched {
			return a.matched > b.matched
		}
		if a.score != b.score {
			return a.score > b.score
		}
		return a.d.Path < b.d.Path
	})

	page := Page{Items: []Item{}}
	if offset >= len(hits) {
		return page
	}
	end := min(offset+limit, len(hits))
	for _, h := range hits[offset:end] {
		sig := h.d.Signature
		if sig == "" {
			sig = Signature(h.d.Path, h.d.Input, h.d.Output, true)
		}
		page.Items = append(page.Items, Item{Path: AccessPath(h.d.Path), Description: h.d.Description, Signature: sig})
	}
	page.Remaining = len(hits) - end
	if page.Remaining > 0 {
		next := end
		page.Next = &next
	}
	return page
}

// scoreTool scores one tool against the query terms.
func scoreTool(d *Descriptor, dv *derived, terms []string) scored {
	fields := [...]struct {
		words  []string
		weight int
	}{
		{dv.pathWords, weightPath},
		{dv.paramWords, weightParameter},
		{dv.descWords, weightDescription},
	}
	s := scored{d: d}
	for _, t := range terms {
		best := 0
		for _, f := range fields {
			for _, w := range f.words {
				strength := matchStrength(t, w)
				if strength == 0 {
					continue
				}
				best = max(best, strength*10+f.weight)
			}
		}
		if best > 0 {
			s.matched++
			s.score += best
		}
	}
	return s
}

// matchStrength grades how term matches word: exact, equal but for a
// plural "s", prefix (terms of two or more characters) or substring (three
// or more).
func matchStrength(term, word string) int {
	switch {
	case term == word:
		return strengthExact
	case stem(term) == stem(word):
		return strengthStem
	case len(term) >= 2 && strings.HasPrefix(word, term):
		return strengthPrefix
	case len(term) >= 3 && strings.Contains(word, term):
		return strengthSubstring
	}
	return 0
}

// stem drops a plural "s" from words of four or more letters ("issues" →
// "issue", but not "class" or "bus").
func stem(w string) string {
	if len(w) >= 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
		return w[:len(w)-1]
	}
	return w
}

// parameterWords returns the words of the top-level input property names,
// plus each whole name lowercased.
func parameterWords(d *Descriptor) []string {
	if len(d.Input) == 0 {
		return nil
	}
	doc, err := decodeOrdered(d.Input)
	if err != nil {
		return nil
	}
	m, _ := doc.(*omap)
	if ref := m.str("$ref"); ref != "" {
		r := &tsRenderer{root: doc}
		target, _ := r.resolve(ref)
		m, _ = target.(*omap)
	}
	props, _ := m.get("properties")
	pm, _ := props.(*omap)
	if pm == nil {
		return nil
	}
	var out []string
	for _, k := range pm.keys {
		out = append(out, strings.ToLower(k))
		out = append(out, words(k)...)
	}
	return out
}

// words splits s into lowercase words at non-alphanumeric characters and at
// camelCase boundaries ("getHTTPResponse" → get, http, response).
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prev := rs[i-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}
