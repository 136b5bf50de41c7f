package interp

import (
	"math"
	"strings"
	"unicode/utf8"
)

// console.table and the options of console.dir, formatted as node 20 formats them.

// consoleDir is console.dir(value, options): util.inspect of its first argument (strings
// quoted) with the options depth (a number, Infinity or null for no limit), showHidden,
// maxArrayLength and breakLength; node's other inspect options (colors, compact, sorted, ...)
// are read by nobody here.
func consoleDir(vm *VM, c NativeCall) Value {
	in := &inspector{vm: vm, depth: 2, circular: map[*Object]int{}}
	if opts := c.Arg(1).asObject(); opts != nil {
		if d := vm.getProp(opts, strKey("depth")); d.kind == KindNull {
			in.depth = math.MaxInt32
		} else if !d.IsUndefined() {
			in.depth = inspectCount(vm, d, -1)
		}
		in.showHidden = ToBoolean(vm.getProp(opts, strKey("showHidden")))
		if m := vm.getProp(opts, strKey("maxArrayLength")); m.kind == KindNull {
			in.maxArray = math.MaxInt32
		} else if !m.IsUndefined() {
			// 0 shows no element: "[ ... 3 more items ]"
			in.maxArray = max(inspectCount(vm, m, 0), 0)
			if in.maxArray == 0 {
				in.maxArray = -1
			}
		}
		if b := vm.getProp(opts, strKey("breakLength")); !b.IsUndefined() {
			in.breakLength = max(inspectCount(vm, b, 1), 1)
		}
	}
	vm.emit("log", in.format(c.Arg(0), 0, true))
	return undefinedValue
}

// inspectCount reads a numeric inspect option: Infinity is no limit, NaN is zero, and values
// are cut to integers no lower than min.
func inspectCount(vm *VM, v Value, min int) int {
	f := vm.toNumber(v)
	switch {
	case math.IsNaN(f):
		return 0
	case f > math.MaxInt32:
		return math.MaxInt32
	case f < float64(min):
		return min
	}
	return int(f)
}

// Column titles of node's console.table.
const (
	tableIndexKey = "(index)"
	tableIterKey  = "(iteration index)"
	tableKeyKey   = "Key"
	tableValues   = "Values"
)

// consoleTable is console.table(data, properties): data that is not an object is logged as
// console.log would; otherwise its rows (own enumerable keys, or the entries of a Map or Set)
// make a box-drawn table, each cell inspected as node does (objects shallowly, arrays up to
// three elements, on one line). properties, an array, chooses and orders the columns.
func consoleTable(vm *VM, c NativeCall) Value {
	data := c.Arg(0)
	var props []Value
	if p := c.Arg(1); !p.IsUndefined() {
		po := p.asObject()
		if po == nil || po.class != ClassArray {
			vm.throwTypeError("The \"properties\" argument must be an instance of Array. Received %s", describeReceived(vm, p))
		}
		props = vm.iterableToList(p)
	}
	o := data.asObject()
	if o == nil {
		vm.emit("log", vm.consoleFormat([]Value{data}))
		return undefinedValue
	}
	cell := func(v Value) string {
		depth := 0
		if vo := v.asObject(); vo != nil && vo.class != ClassArray && len(vm.enumerableOwn(vo, iterKeys)) > 2 {
			depth = -1
		}
		in := &inspector{vm: vm, depth: depth, circular: map[*Object]int{}, maxArray: 3, breakLength: math.MaxInt32}
		return in.format(v, 0, true)
	}
	indexes := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = cell(intValue(i))
		}
		return out
	}
	switch o.class {
	case ClassMap:
		var keys, values []string
		vm.forOf(data, func(entry Value) bool {
			keys = append(keys, cell(vm.getV(entry, indexKey(0))))
			values = append(values, cell(vm.getV(entry, indexKey(1))))
			return true
		})
		vm.emit("log", renderTable([]string{tableIterKey, tableKeyKey, tableValues}, [][]string{indexes(len(keys)), keys, values}))
		return undefinedValue
	case ClassSet:
		var values []string
		vm.forOf(data, func(v Value) bool {
			values = append(values, cell(v))
			return true
		})
		vm.emit("log", renderTable([]string{tableIterKey, tableValues}, [][]string{indexes(len(values)), values}))
		return undefinedValue
	}
	// columns in first-seen order; a row without the key leaves its cell empty
	type column struct {
		key   string
		cells map[int]string
	}
	var columns []*column
	byKey := map[string]*column{}
	col := func(k string) *column {
		if cl, ok := byKey[k]; ok {
			return cl
		}
		cl := &column{key: k, cells: map[int]string{}}
		byKey[k] = cl
		columns = append(columns, cl)
		return cl
	}
	rowKeys := vm.enumerableOwn(o, iterKeys)
	index := make([]string, len(rowKeys))
	primitives := map[int]string{}
	for i, rk := range rowKeys {
		index[i] = rk.String()
		item := vm.getV(data, vm.toPropertyKey(rk))
		io := item.asObject()
		if props == nil && io == nil {
			primitives[i] = cell(item)
			continue
		}
		keys := props
		if keys == nil {
			keys = vm.enumerableOwn(io, iterKeys)
		}
		for _, k := range keys {
			pk := vm.toPropertyKey(k)
			cl := col(pk.String())
			if io == nil || !io.hasOwn(pk) {
				cl.cells[i] = ""
				continue
			}
			cl.cells[i] = cell(vm.getProp(io, pk))
		}
	}
	head := []string{tableIndexKey}
	cols := [][]string{index}
	sparse := func(cells map[int]string) []string {
		n := 0
		for i := range cells {
			n = max(n, i+1)
		}
		out := make([]string, n)
		for i, s := range cells {
			out[i] = s
		}
		return out
	}
	for _, cl := range columns {
		head = append(head, cl.key)
		cols = append(cols, sparse(cl.cells))
	}
	if len(primitives) > 0 {
		head = append(head, tableValues)
		cols = append(cols, sparse(primitives))
	}
	vm.emit("log", renderTable(head, cols))
	return undefinedValue
}

// renderTable draws node's console.table box: a header row, a rule, then one row per index
// up to the longest column, each cell aligned to the left of its column (node 20's layout).
func renderTable(head []string, columns [][]string) string {
	widths := make([]int, len(head))
	rowCount := 0
	for i, h := range head {
		widths[i] = tableWidth(h)
		rowCount = max(rowCount, len(columns[i]))
	}
	rows := make([][]string, rowCount)
	for j := range rows {
		rows[j] = make([]string, len(head))
		for i := range head {
			if j < len(columns[i]) {
				rows[j][i] = columns[i][j]
			}
			widths[i] = max(widths[i], tableWidth(rows[j][i]))
		}
	}
	rule := func(left, mid, right string) string {
		parts := make([]string, len(widths))
		for i, w := range widths {
			parts[i] = strings.Repeat("─", w+2)
		}
		return left + strings.Join(parts, mid) + right
	}
	row := func(cells []string) string {
		var b strings.Builder
		b.WriteString("│ ")
		for i, s := range cells {
			b.WriteString(s)
			b.WriteString(strings.Repeat(" ", widths[i]-tableWidth(s)))
			if i < len(cells)-1 {
				b.WriteString(" │ ")
			}
		}
		b.WriteString(" │")
		return b.String()
	}
	var b strings.Builder
	b.WriteString(rule("┌", "┬", "┐") + "\n")
	b.WriteString(row(head) + "\n")
	b.WriteString(rule("├", "┼", "┤") + "\n")
	for _, r := range rows {
		b.WriteString(row(r) + "\n")
	}
	b.WriteString(rule("└", "┴", "┘"))
	return b.String()
}

// tableWidth is the width of a cell in columns: one per code point (node also counts wide
// East Asian characters twice and combining marks not at all; cells are rarely such text).
func tableWidth(s string) int { return utf8.RuneCountInString(s) }

// describeReceived names a wrong argument as node's ERR_INVALID_ARG_TYPE messages do.
func describeReceived(vm *VM, v Value) string {
	switch v.kind {
	case KindUndefined, KindNull:
		return v.String()
	case KindString:
		return "type string (" + quoteJS(v.str().String()) + ")"
	case KindNumber:
		return "type number (" + formatConsoleNumber(v.num) + ")"
	case KindBool:
		return "type boolean (" + v.String() + ")"
	case KindObject:
		if v.obj().isCallable() {
			return "function"
		}
		return "an instance of " + (&inspector{vm: vm}).constructorNameOr(v.obj(), "Object")
	}
	return "type " + v.typeOf()
}
