package interp

// Symbol is a JavaScript symbol: a unique identity with an optional description. Registered
// symbols (Symbol.for) carry their registry key; well-known symbols (Symbol.iterator, ...) are
// shared by name across every VM in the process, so that a snapshot can name them.
type Symbol struct {
	description *jsString // nil when the description is undefined
	registered  bool      // created by Symbol.for; description is the registry key
	wellKnown   string    // "iterator" for Symbol.iterator; "" otherwise
}

// descriptiveString is SymbolDescriptiveString: "Symbol(desc)".
func (s *Symbol) descriptiveString() string {
	if s.description == nil {
		return "Symbol()"
	}
	return "Symbol(" + s.description.String() + ")"
}

// newSymbol creates a fresh unique symbol; desc may be nil (undefined description).
func newSymbol(desc *jsString) *Symbol { return &Symbol{description: desc} }

// The well-known symbols. They are process-wide constants: every realm shares them.
var (
	symAsyncIterator      = wellKnownSymbol("asyncIterator")
	symHasInstance        = wellKnownSymbol("hasInstance")
	symIsConcatSpreadable = wellKnownSymbol("isConcatSpreadable")
	symIterator           = wellKnownSymbol("iterator")
	symMatch              = wellKnownSymbol("match")
	symMatchAll           = wellKnownSymbol("matchAll")
	symReplace            = wellKnownSymbol("replace")
	symSearch             = wellKnownSymbol("search")
	symSpecies            = wellKnownSymbol("species")
	symSplit              = wellKnownSymbol("split")
	symToPrimitive        = wellKnownSymbol("toPrimitive")
	symToStringTag        = wellKnownSymbol("toStringTag")
	symUnscopables        = wellKnownSymbol("unscopables")
)

// wellKnownSymbols lists the well-known symbols in a fixed order, by name.
var wellKnownSymbols []*Symbol

func wellKnownSymbol(name string) *Symbol {
	s := &Symbol{description: newASCII("Symbol." + name), wellKnown: name}
	wellKnownSymbols = append(wellKnownSymbols, s)
	return s
}

// wellKnownSymbolByName returns the well-known symbol with the given name ("iterator"), or nil.
func wellKnownSymbolByName(name string) *Symbol {
	for _, s := range wellKnownSymbols {
		if s.wellKnown == name {
			return s
		}
	}
	return nil
}

// descriptiveStringWTF8 is SymbolDescriptiveString in WTF-8 (lossless).
func (s *Symbol) descriptiveStringWTF8() string {
	if s.description == nil {
		return "Symbol()"
	}
	return "Symbol(" + s.description.wtf8() + ")"
}
