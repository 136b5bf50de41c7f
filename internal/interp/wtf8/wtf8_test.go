package wtf8

import (
	"slices"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		units []uint16
		text  string
	}{
		{"empty", nil, ""},
		{"ascii", []uint16{'a', 'b', 0}, "ab\x00"},
		{"two bytes", []uint16{0xE9}, "é"},
		{"pair", []uint16{0xD83D, 0xDE00}, "😀"},
		{"lone high", []uint16{'x', 0xD800}, "x\xED\xA0\x80"},
		{"lone low", []uint16{0xDC00, 'y'}, "\xED\xB0\x80y"},
		{"low then high", []uint16{0xDC00, 0xD800}, "\xED\xB0\x80\xED\xA0\x80"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Encode(tt.units); got != tt.text {
				t.Errorf("Encode(%x) = %q, want %q", tt.units, got, tt.text)
			}
			if got := Decode(tt.text); !slices.Equal(got, tt.units) && len(got)+len(tt.units) > 0 {
				t.Errorf("Decode(%q) = %x, want %x", tt.text, got, tt.units)
			}
		})
	}
}
