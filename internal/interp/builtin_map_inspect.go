package interp

import "strconv"

// Console formatting of Map, Set, WeakMap, WeakSet and their iterators, as node's
// util.inspect prints them: "Map(2) { 'a' => 1, 'b' => 2 }", "Set(1) { 1 }",
// "WeakMap { <items unknown> }", "[Map Iterator] { 'a' }".

// consoleInspect implements consoleInspector for Map, Set, WeakMap and WeakSet objects.
func (s *collSlot) consoleInspect(vm *VM, format func(Value) string) (string, []string, string) {
	c := s.data
	if s.weak {
		if c.isMap {
			return "", nil, "WeakMap { <items unknown> }"
		}
		return "", nil, "WeakSet { <items unknown> }"
	}
	var entries []string
	for i, k := range c.keys {
		if k.kind == kindHole {
			continue
		}
		if c.isMap {
			entries = append(entries, format(k)+" => "+format(c.vals[i]))
		} else {
			entries = append(entries, format(k))
		}
	}
	name := "Set"
	if c.isMap {
		name = "Map"
	}
	name += "(" + strconv.Itoa(c.live) + ")"
	if len(entries) == 0 {
		return "", nil, name + " {}"
	}
	return name, entries, ""
}

// consoleInspect implements consoleInspector for Map and Set iterators: the entries not yet
// visited.
func (it *collIterator) consoleInspect(vm *VM, format func(Value) string) (string, []string, string) {
	name := "[Set Iterator]"
	if it.isMap {
		name = "[Map Iterator]"
	}
	if it.kind == collEntries {
		name = "[Set Entries]"
		if it.isMap {
			name = "[Map Entries]"
		}
	}
	var entries []string
	if c := it.data; c != nil {
		for i := it.pos; i < len(c.keys); i++ {
			k := c.keys[i]
			if k.kind == kindHole {
				continue
			}
			v := k
			if c.isMap {
				v = c.vals[i]
			}
			switch {
			case it.kind == collEntries:
				entries = append(entries, "[ "+format(k)+", "+format(v)+" ]")
			case it.kind == collValues:
				entries = append(entries, format(v))
			default:
				entries = append(entries, format(k))
			}
		}
	}
	return name, entries, ""
}
