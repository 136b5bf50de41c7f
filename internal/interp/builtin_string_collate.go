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
	if p, ok := collators.Load(k); ok {
		pool := p.(*sync.Pool)
		col := pool.Get().(*collate.Collator)
		defer pool.Put(col)
		return col.CompareString(a, b)
	}
	newCollator := func() any { return k.collator(tag) }
	if collatorKeys.Add(1) > maxCollatorKeys {
		collatorKeys.Add(-1)
		return k.collator(tag).CompareString(a, b)
	}
	p, loaded := collators.LoadOrStore(k, &sync.Pool{New: newCollator})
	if loaded {
		collatorKeys.Add(-1)
	}
	pool := p.(*sync.Pool)
	col := pool.Get().(*collate.Collator)
	defer pool.Put(col)
	return col.CompareString(a, b)
}

// collator builds the collator of k for tag.
func (k collatorKey) collator(tag language.Tag) *collate.Collator {
	var opts []collate.Option
	if k.numeric {
		opts = append(opts, collate.Numeric)
	}
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
	}
	if opts := c.Arg(2); opts.kind == KindNull {
		vm.throwTypeError("String.prototype.localeCompare called on null or undefined")
	} else if o := opts.asObject(); o != nil {
		k.numeric = ToBoolean(vm.getProp(o, strKey("numeric")))
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
	a, b := s.String(), t.String()
	if k.sensitivity == "case" {
		// case sensitivity (ICU: primary strength with the case level) compares the strings
		// without their accents: x/text's IgnoreDiacritics still sees the marks
		a, b = stripMarks(a), stripMarks(b)
	}
	return intValue(k.compare(tag, a, b))
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
