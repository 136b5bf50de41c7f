package compiler

import (
	"math/big"
	"strings"
)

// parseBigIntLiteral parses the text of a BigInt literal (123n, 0x1fn, 0o7n, 0b1n, with
// separators) into its decimal digits.
func parseBigIntLiteral(raw []byte) (string, bool) {
	s := strings.ReplaceAll(strings.TrimSuffix(string(raw), "n"), "_", "")
	base := 10
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		default:
			return "", false // legacy octal and leading zeros are not BigInt literals
		}
		s = s[2:]
	}
	if base == 10 {
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return "", false
			}
		}
		return s, s != ""
	}
	b, ok := new(big.Int).SetString(s, base)
	if !ok {
		return "", false
	}
	return b.String(), true
}
