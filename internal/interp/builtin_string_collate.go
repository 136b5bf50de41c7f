package interp

import (
	"strings"
	"sync"
	"sync/atomic"
	"unicode"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// String.prototype.localeCompare. node compares with ICU's collation for its locale (en-US
// unless told otherwise), which is CLDR's root order for English: letters before their
// case and accent variants ("a" < "B", "a" < "á" < "b"), punctuation and digits before
// letters. Programs sort names with it, so comparing code units instead ("B" < "a") would
// order their results differently from node. golang.org/x/text/collate implements the same
// CLDR tables, with tailorings for other locales.

// collatorKey selects a collator: the locale as given and the options that change order.
type collatorKey struct {
	locale      string
	numeric     bool
	sensitivity string // base, accent, case or variant ("" is variant)
}

// collators pools collators per key: a *collate.Collator keeps buffers and is not safe for
// concurrent use, and building one costs far more than a comparison. The locale is the
// program's own string, so the keys are bounded: past maxCollatorKeys a new key's collator is
// built for its one comparison and dropped, so that a program naming ever new locales spends
// its own time, not the process's memory.
var (
	collators    sync.Map // collatorKey -> *sync.Pool
	collatorKeys atomic.Int32
)

// maxCollatorKeys bounds the keys collators holds.
const maxCollatorKeys = 256

// compare compares a and b with the collator of k for tag.
func (k collatorKey) compare(tag language.Tag, a, b string) int {
	return k.with(tag, func(col *collate.Collator) int { return col.CompareString(a, b) })
}

// compareStrings compares s and t with the collator of k for tag, as ICU does: by their sort
// keys spliced with ICU's weights when one of them holds code points x/text weighs otherwise
// (lone surrogates, U+FFFD, U+FFFF, and digits with the numeric option; see
// builtin_string_collate_weights.go).
func (k collatorKey) compareStrings(tag language.Tag, s, t *jsString) int {
	if k.weighedApart(s) || k.weighedApart(t) {
		return k.with(tag, func(col *collate.Collator) int { return k.compareSpliced(col, s, t) })
	}
	a, b := s.String(), t.String()
	if k.sensitivity == "case" {
		// case sensitivity (ICU: primary strength with the case level) compares the strings
		// without their accents: x/text's IgnoreDiacritics still sees the marks
		a, b = stripMarks(a), stripMarks(b)
	}
	return k.compare(tag, a, b)
}

// with calls f with a collator of k for tag from its pool.
func (k collatorKey) with(tag language.Tag, f func(*collate.Collator) int) int {
	if p, ok := collators.Load(k); ok {
		pool := p.(*sync.Pool)
		col := pool.Get().(*collate.Collator)
		defer pool.Put(col)
		return f(col)
	}
	newCollator := func() any { return k.collator(tag) }
	if collatorKeys.Add(1) > maxCollatorKeys {
		collatorKeys.Add(-1)
		return f(k.collator(tag))
	}
	p, loaded := collators.LoadOrStore(k, &sync.Pool{New: newCollator})
	if loaded {
		collatorKeys.Add(-1)
	}
	pool := p.(*sync.Pool)
	col := pool.Get().(*collate.Collator)
	defer pool.Put(col)
	return f(col)
}

// collator builds the collator of k for tag. Numbers are weighed by compareSpliced, not by
// x/text's numeric option.
func (k collatorKey) collator(tag language.Tag) *collate.Collator {
	var opts []collate.Option
	switch k.sensitivity {
	case "base":
		opts = append(opts, collate.IgnoreCase, collate.IgnoreDiacritics)
	case "accent":
		opts = append(opts, collate.IgnoreCase)
	}
	return collate.New(tag, opts...)
}

// stringLocaleCompare is String.prototype.localeCompare(that, locales, options), giving -1, 0
// or 1 as node does. The options read are numeric and sensitivity (ignorePunctuation and
// caseFirst are not supported).
func stringLocaleCompare(vm *VM, c NativeCall) Value {
	s := thisStr(vm, c, "localeCompare")
	t := vm.toString(c.Arg(0))
	var k collatorKey
	tag := language.AmericanEnglish
	if tags := vm.localeList(c.Arg(1), false); len(tags) > 0 {
		k.locale = tags[0]
		var err error
		if tag, err = language.Parse(k.locale); err != nil {
			tag = language.Und // well-formed but unknown to x/text: ICU falls back to the root order
		}
		if _, ok := tag.Extension('u'); ok {
			kn, ok := unicodeKeyword(tag, "kn")
			k.numeric = ok && (kn == "" || kn == "true" || kn == "yes")
			tag = withoutCollationKeywords(tag)
		}
	}
	if opts := c.Arg(2); opts.kind == KindNull {
		vm.throwTypeError("String.prototype.localeCompare called on null or undefined")
	} else if o := opts.asObject(); o != nil {
		if v := vm.getProp(o, strKey("numeric")); !v.IsUndefined() {
			k.numeric = ToBoolean(v) // the option overrides the locale's kn
		}
		if v := vm.getProp(o, strKey("sensitivity")); !v.IsUndefined() {
			k.sensitivity = vm.toString(v).String()
			switch k.sensitivity {
			case "base", "accent", "case", "variant":
			default:
				vm.throwRangeError("Value %s out of range for String.prototype.localeCompare options property sensitivity", k.sensitivity)
			}
		}
	}
	if k.sensitivity == "variant" {
		k.sensitivity = ""
	}
	return intValue(k.compareStrings(tag, s, t))
}

// withoutCollationKeywords removes from tag the collation settings of its -u- extension that
// x/text reads: strength (ks), alternate handling (ka), backward secondary (kb) and the case
// level (kc), which node's collator ignores (it takes co, kn and kf from the locale, so
// "a".localeCompare("A", "en-u-ks-level1") is -1 there), and numeric (kn), which
// stringLocaleCompare reads itself. The spliced keys of compareSpliced rely on the levels being
// those of the sensitivity and on x/text not weighing numbers.
func withoutCollationKeywords(tag language.Tag) language.Tag {
	for _, key := range []string{"ks", "ka", "kb", "kc", "kn"} {
		if t, err := tag.SetTypeForKey(key, ""); err == nil {
			tag = t
		}
	}
	return tag
}

// unicodeKeyword returns the type of key in tag's -u- extension ("" for the key alone, which
// means true) and whether the key is there.
func unicodeKeyword(tag language.Tag, key string) (string, bool) {
	ext, ok := tag.Extension('u')
	if !ok {
		return "", false
	}
	parts := strings.Split(ext.String(), "-")
	for i := 1; i < len(parts); i++ {
		if parts[i] != key {
			continue
		}
		j := i + 1
		for j < len(parts) && len(parts[j]) > 2 { // keys have two characters, types three to eight
			j++
		}
		return strings.Join(parts[i+1:j], "-"), true
	}
	return "", false
}

// stripMarks removes the combining marks of s's canonical decomposition ("á" is "a").
func stripMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s))
}
