package jsregexp

// Flags are the flags of a regular expression literal or RegExp constructor call.
type Flags struct {
	HasIndices  bool // d: the caller builds match.indices (Exec always reports indices)
	Global      bool // g: the caller advances lastIndex between matches
	IgnoreCase  bool // i
	Multiline   bool // m: ^ and $ also match at line terminators
	DotAll      bool // s: . also matches line terminators
	Unicode     bool // u: code point semantics and strict syntax
	UnicodeSets bool // v: like u; set operations in classes are not supported
	Sticky      bool // y: a match must start exactly at lastIndex
}

// ParseFlags parses a flags string such as "gi". An unknown or repeated flag, or u together
// with v, is a *FlagsError.
func ParseFlags(s string) (Flags, error) {
	var f Flags
	for _, c := range s {
		var p *bool
		switch c {
		case 'd':
			p = &f.HasIndices
		case 'g':
			p = &f.Global
		case 'i':
			p = &f.IgnoreCase
		case 'm':
			p = &f.Multiline
		case 's':
			p = &f.DotAll
		case 'u':
			p = &f.Unicode
		case 'v':
			p = &f.UnicodeSets
		case 'y':
			p = &f.Sticky
		}
		if p == nil || *p {
			return Flags{}, &FlagsError{Flags: s}
		}
		*p = true
	}
	if f.Unicode && f.UnicodeSets {
		return Flags{}, &FlagsError{Flags: s}
	}
	return f, nil
}

// String returns the flags in the canonical order of RegExp.prototype.flags ("dgimsuvy").
func (f Flags) String() string {
	b := make([]byte, 0, 8)
	for _, fl := range []struct {
		on bool
		c  byte
	}{{f.HasIndices, 'd'}, {f.Global, 'g'}, {f.IgnoreCase, 'i'}, {f.Multiline, 'm'}, {f.DotAll, 's'},
		{f.Unicode, 'u'}, {f.UnicodeSets, 'v'}, {f.Sticky, 'y'}} {
		if fl.on {
			b = append(b, fl.c)
		}
	}
	return string(b)
}

// unicodeMode reports whether the pattern and input use code points (u or v).
func (f Flags) unicodeMode() bool {
	return f.Unicode || f.UnicodeSets
}
