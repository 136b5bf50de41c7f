package jsregexp

import "strings"

// Pattern modifiers (ES2025): a group "(?ims-ims:...)" turns the i, m and s flags on or off
// for its body only. regexp2 implements inline options with the same scope and meaning for
// these three letters (case-insensitive characters, classes, escapes and back references;
// ^ and $ at line terminators; . matching line terminators), so a modifier group is checked
// here and copied through; what regexp2 would also accept but JavaScript does not (other
// letters, repeats, a bare "-", inline options without a body) is rejected.

// modifierLetters are the flags a modifier group may add or remove.
const modifierLetters = "ims"

// isModifierStart reports whether c may follow "(?" to begin a modifier group.
func isModifierStart(c uint16) bool {
	return c == '-' || c < 0x80 && strings.ContainsRune(modifierLetters, rune(c))
}

// Modifier errors carry V8's messages.
const (
	msgInvalidFlagGroup = "Invalid flag group"            // a letter other than i, m, s; or "(?-:"
	msgRepeatedFlag     = "Repeated flag in flag group"   // a letter twice, or added and removed
	msgMultipleFlagDash = "Multiple dashes in flag group" // "(?i-m-s:"
	msgNoBody           = "Invalid group"                 // "(?i)" or an unfinished header
)

// modifierGroup is a parsed "(?add-remove:" header.
type modifierGroup struct {
	add, remove string // the letters as written, each in "ims"
	dash        bool   // a "-" was written
	end         int    // index after the ':'
}

// parseModifiers parses the modifier group header whose first letter (or '-') is src[i],
// just after "(?". It applies the early errors of the specification: only i, m and s, none
// twice in a group, none both added and removed, and not "(?-:".
func parseModifiers(src []uint16, i int) (modifierGroup, error) {
	var g modifierGroup
	var seen uint8 // bit k: modifierLetters[k] was written
	for ; i < len(src); i++ {
		c := src[i]
		switch {
		case c == ':':
			if g.dash && g.add == "" && g.remove == "" {
				return modifierGroup{}, errMessage(msgInvalidFlagGroup)
			}
			g.end = i + 1
			return g, nil
		case c == '-':
			if g.dash {
				return modifierGroup{}, errMessage(msgMultipleFlagDash)
			}
			g.dash = true
		case c < 0x80 && strings.ContainsRune(modifierLetters, rune(c)):
			bit := uint8(1) << strings.IndexByte(modifierLetters, byte(c))
			if seen&bit != 0 {
				return modifierGroup{}, errMessage(msgRepeatedFlag)
			}
			seen |= bit
			if g.dash {
				g.remove += string(rune(c))
			} else {
				g.add += string(rune(c))
			}
		case c == ')':
			// "(?i)" and "(?-i)": inline options without a body do not exist in JavaScript.
			return modifierGroup{}, errMessage(msgNoBody)
		default:
			return modifierGroup{}, errMessage(msgInvalidFlagGroup)
		}
	}
	return modifierGroup{}, errMessage(msgNoBody)
}

// regexp2 returns the group header as regexp2 reads it: "(?add-remove:", or "(?add:" without
// removed flags.
func (g modifierGroup) regexp2() string {
	if g.remove == "" {
		return "(?" + g.add + ":"
	}
	return "(?" + g.add + "-" + g.remove + ":"
}
