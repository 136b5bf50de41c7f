package jsregexp

import "unicode/utf16"

// Input is a UTF-16 string prepared for matching: its characters as regexp2 runes and, in
// unicode mode, the map between rune and code unit positions. It is immutable once made.
type Input struct {
	units   []uint16 // nil for an input made by NewInputASCII
	runes   []rune
	offsets []int32 // unicode mode: UTF-16 index of each rune, plus len(units) at the end
	unicode bool
	ascii   bool // every unit is ASCII: rune and code unit positions agree in both modes
}

// NewInput prepares s for matching by expressions with (unicode true: u or v flag) or without
// code point semantics; it takes 4 bytes per code unit, 8 in unicode mode. s is retained, not
// copied: do not modify it while the Input is in use. Inputs longer than MaxInput fail with
// ErrInputTooLarge.
func NewInput(s []uint16, unicode bool) (*Input, error) {
	if len(s) > MaxInput {
		return nil, ErrInputTooLarge
	}
	in := &Input{units: s, unicode: unicode, runes: make([]rune, 0, len(s))}
	if !unicode {
		for _, c := range s {
			in.runes = append(in.runes, surrogateStandIn(c))
		}
		return in, nil
	}
	in.offsets = make([]int32, 0, len(s)+1)
	for i := 0; i < len(s); i++ {
		in.offsets = append(in.offsets, int32(i))
		c := s[i]
		if isHigh(c) && i+1 < len(s) && isLow(s[i+1]) {
			in.runes = append(in.runes, utf16.DecodeRune(rune(c), rune(s[i+1])))
			i++
			continue
		}
		in.runes = append(in.runes, rune(c))
	}
	in.offsets = append(in.offsets, int32(len(s)))
	return in, nil
}

// NewInputASCII prepares an ASCII string (every byte below 0x80) for matching; the Input
// serves expressions with and without the u or v flag alike and takes 4 bytes per
// character. Strings longer than MaxInput fail with ErrInputTooLarge.
func NewInputASCII(s string) (*Input, error) {
	if len(s) > MaxInput {
		return nil, ErrInputTooLarge
	}
	in := &Input{runes: make([]rune, len(s)), ascii: true}
	for i := 0; i < len(s); i++ {
		in.runes[i] = rune(s[i])
	}
	return in, nil
}

// ResetASCII makes in, an input made by NewInputASCII, the input of the ASCII string s
// instead, reusing its storage: whoever holds in sees s from then on.
func (in *Input) ResetASCII(s string) error {
	if !in.ascii {
		panic("jsregexp: ResetASCII of an input that is not ASCII")
	}
	if len(s) > MaxInput {
		return ErrInputTooLarge
	}
	if cap(in.runes) < len(s) {
		in.runes = make([]rune, len(s))
	}
	in.runes = in.runes[:len(s)]
	for i := 0; i < len(s); i++ {
		in.runes[i] = rune(s[i])
	}
	return nil
}

// SliceASCII returns the input of the characters [from, to) of an input made by
// NewInputASCII, sharing its storage: no character is converted again.
func (in *Input) SliceASCII(from, to int) *Input {
	if !in.ascii {
		panic("jsregexp: SliceASCII of an input that is not ASCII")
	}
	return &Input{runes: in.runes[from:to:to], ascii: true}
}

// SliceUnits returns the input of the code units [from, to) of an input made by NewInput
// without code point semantics, sharing its storage: each code unit is one rune there, so no
// character is converted again.
func (in *Input) SliceUnits(from, to int) *Input {
	if in.ascii || in.unicode {
		panic("jsregexp: SliceUnits of an input that is ASCII or in unicode mode")
	}
	return &Input{units: in.units[from:to:to], runes: in.runes[from:to:to]}
}

// Units returns the input's UTF-16 code units. The slice is shared unless the Input was
// made by NewInputASCII, which makes a new one each call: do not modify it.
func (in *Input) Units() []uint16 {
	if in.units != nil || !in.ascii {
		return in.units
	}
	u := make([]uint16, len(in.runes))
	for i, r := range in.runes {
		u[i] = uint16(r)
	}
	return u
}

// Len returns the input's length in UTF-16 code units.
func (in *Input) Len() int {
	if in.ascii {
		return len(in.runes)
	}
	return len(in.units)
}

// fits reports whether the input can be matched by an expression with (unicode true) or
// without code point semantics as it is.
func (in *Input) fits(unicode bool) bool { return in.ascii || in.unicode == unicode }

// unitIndex maps a rune index to a UTF-16 index.
func (in *Input) unitIndex(r int) int {
	if !in.unicode {
		return r
	}
	return int(in.offsets[r])
}

// runeIndex maps a UTF-16 index (0..len) to a rune index. An index inside a surrogate pair maps
// to the pair, as V8 does for lastIndex.
func (in *Input) runeIndex(u int) int {
	if !in.unicode {
		return u
	}
	lo, hi := 0, len(in.offsets)-1
	for lo < hi { // first rune whose offset >= u
		mid := (lo + hi) / 2
		if int(in.offsets[mid]) < u {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if int(in.offsets[lo]) > u {
		lo-- // u is the second unit of a pair
	}
	return lo
}
