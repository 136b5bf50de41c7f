package interp

import (
	"fmt"
	"testing"

	"golang.org/x/text/language"
)

// TestCollatorCacheIsBounded: locales are the program's strings, so a program naming ever new
// ones must not grow the process's collator cache past its bound, and still compares right.
func TestCollatorCacheIsBounded(t *testing.T) {
	for i := range maxCollatorKeys + 50 {
		k := collatorKey{locale: fmt.Sprintf("en-x-t%d", i)}
		if got := k.compare(language.AmericanEnglish, "a", "B"); got != -1 {
			t.Fatalf("compare(a, B) with key %d = %d, want -1", i, got)
		}
	}
	if n := collatorKeys.Load(); n > maxCollatorKeys {
		t.Fatalf("collator cache holds %d keys, bound %d", n, maxCollatorKeys)
	}
	held := 0
	collators.Range(func(any, any) bool { held++; return true })
	if held > maxCollatorKeys {
		t.Fatalf("collator cache holds %d entries, bound %d", held, maxCollatorKeys)
	}
}
