package interp

// V8's sorting algorithms, reproduced comparison for comparison. With a consistent
// comparator every stable sort gives the same order, but programs also pass inconsistent
// ones ((a, b) => a > b, () => -1, random answers) and comparators that log or count their
// calls: what those see and what order they produce is decided by the exact sequence of
// calls V8 makes, and node is the oracle programs are written against. Array.prototype.sort
// and toSorted use TimSort (V8's port of CPython's listsort); the TypedArray methods use a
// plain top-down merge sort.
//
// The comparators return the sign of SortCompare's result: negative, zero (also for NaN) or
// positive. They may panic (a JavaScript exception); the slice being sorted is then left in
// an unspecified state, possibly with some elements duplicated and others missing, so
// callers sort a copy and discard it on a panic, which leaves the receiver untouched as V8
// does (V8 sorts a work array and writes it back only when the sort completes).

// v8MinGallop is the initial number of consecutive wins of one run after which a merge
// switches to galloping; the threshold then adapts per sort.
const v8MinGallop = 7

// v8TimSort sorts a as V8's Array.prototype.sort sorts its work array.
func v8TimSort[T any](a []T, cmp func(x, y T) int) {
	n := len(a)
	if n < 2 {
		return
	}
	ts := timSort[T]{a: a, cmp: cmp, minGallop: v8MinGallop}
	minRun := v8MinRunLength(n)
	for low := 0; low < n; {
		runLen := ts.countAndMakeRun(low, n)
		if runLen < minRun {
			forced := min(minRun, n-low)
			ts.binaryInsertionSort(low, low+runLen, low+forced)
			runLen = forced
		}
		ts.runs = append(ts.runs, timRun{low, runLen})
		ts.mergeCollapse()
		low += runLen
	}
	ts.mergeForceCollapse()
}

// v8MinRunLength is the minimum run length for n elements: n itself below 64, else a k in
// [32, 64] such that n/k is a power of two or a little less than one.
func v8MinRunLength(n int) int {
	r := 0
	for n >= 64 {
		r |= n & 1
		n >>= 1
	}
	return n + r
}

// timRun is a sorted run a[base : base+length] waiting on the merge stack.
type timRun struct{ base, length int }

// timSort is the state of one TimSort: the slice, the comparator, the adaptive galloping
// threshold, the stack of pending runs and the merge buffer.
type timSort[T any] struct {
	a         []T
	cmp       func(x, y T) int
	minGallop int
	runs      []timRun
	tmp       []T
}

// countAndMakeRun returns the length of the run starting at low (low < high): the longest
// non-descending prefix, or the longest strictly descending one, which is reversed in place
// (strictness keeps the reversal stable).
func (ts *timSort[T]) countAndMakeRun(low, high int) int {
	a := ts.a
	if low+1 == high {
		return 1
	}
	runLen := 2
	desc := ts.cmp(a[low+1], a[low]) < 0
	for i := low + 2; i < high; i++ {
		o := ts.cmp(a[i], a[i-1])
		if desc {
			if o >= 0 {
				break
			}
		} else if o < 0 {
			break
		}
		runLen++
	}
	if desc {
		for i, j := low, low+runLen-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
	}
	return runLen
}

// binaryInsertionSort sorts a[low:high] given that a[low:start] is sorted, inserting each
// further element after the last one that does not compare greater than it (stable).
func (ts *timSort[T]) binaryInsertionSort(low, start, high int) {
	a := ts.a
	if start == low {
		start++
	}
	for ; start < high; start++ {
		pivot := a[start]
		left, right := low, start
		for left < right {
			mid := left + (right-left)>>1
			if ts.cmp(pivot, a[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(a[left+1:start+1], a[left:start])
		a[left] = pivot
	}
}

// runInvariant reports whether run n-2 is longer than runs n-1 and n together (true when
// there are not three runs to compare).
func (ts *timSort[T]) runInvariant(n int) bool {
	if n < 2 {
		return true
	}
	r := ts.runs
	return r[n-2].length > r[n-1].length+r[n].length
}

// mergeCollapse merges runs at the top of the stack until its invariants hold again: each
// run is longer than the next one, and than the next two together.
func (ts *timSort[T]) mergeCollapse() {
	for len(ts.runs) > 1 {
		n := len(ts.runs) - 2
		r := ts.runs
		if !ts.runInvariant(n+1) || !ts.runInvariant(n) {
			if r[n-1].length < r[n+1].length {
				n--
			}
			ts.mergeAt(n)
		} else if r[n].length <= r[n+1].length {
			ts.mergeAt(n)
		} else {
			break
		}
	}
}

// mergeForceCollapse merges all pending runs into one, at the end of the sort.
func (ts *timSort[T]) mergeForceCollapse() {
	for len(ts.runs) > 1 {
		n := len(ts.runs) - 2
		if n > 0 && ts.runs[n-1].length < ts.runs[n+1].length {
			n--
		}
		ts.mergeAt(n)
	}
}

// mergeAt merges runs i and i+1 of the stack (i is the second or third from the top). The
// prefix of run A already below B's first element and the suffix of run B already above
// A's last element stay in place; the rest is merged through a buffer holding the shorter
// side.
func (ts *timSort[T]) mergeAt(i int) {
	a := ts.a
	baseA, lenA := ts.runs[i].base, ts.runs[i].length
	baseB, lenB := ts.runs[i+1].base, ts.runs[i+1].length
	ts.runs[i].length = lenA + lenB
	if i == len(ts.runs)-3 {
		ts.runs[i+1] = ts.runs[i+2]
	}
	ts.runs = ts.runs[:len(ts.runs)-1]

	k := ts.gallopRight(a, a[baseB], baseA, lenA, 0)
	baseA += k
	lenA -= k
	if lenA == 0 {
		return
	}
	lenB = ts.gallopLeft(a, a[baseA+lenA-1], baseB, lenB, lenB-1)
	if lenB == 0 {
		return
	}
	if lenA <= lenB {
		ts.mergeLow(baseA, lenA, baseB, lenB)
	} else {
		ts.mergeHigh(baseA, lenA, baseB, lenB)
	}
}

// gallopLeft returns the offset k in [0, length] at which key belongs in the sorted
// arr[base : base+length], left of any elements equal to it: arr[base+k-1] < key <=
// arr[base+k]. The search starts at base+hint with exponentially growing steps, then
// finishes with a binary search; every comparison is cmp(element, key).
func (ts *timSort[T]) gallopLeft(arr []T, key T, base, length, hint int) int {
	lastOfs, ofs := 0, 1
	if ts.cmp(arr[base+hint], key) < 0 {
		// gallop right until arr[base+hint+lastOfs] < key <= arr[base+hint+ofs]
		maxOfs := length - hint
		for ofs < maxOfs {
			if ts.cmp(arr[base+hint+ofs], key) >= 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs += hint
		ofs += hint
	} else {
		// gallop left until arr[base+hint-ofs] < key <= arr[base+hint-lastOfs]
		maxOfs := hint + 1
		for ofs < maxOfs {
			if ts.cmp(arr[base+hint-ofs], key) < 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs, ofs = hint-ofs, hint-lastOfs
	}
	for lastOfs++; lastOfs < ofs; {
		m := lastOfs + (ofs-lastOfs)>>1
		if ts.cmp(arr[base+m], key) < 0 {
			lastOfs = m + 1
		} else {
			ofs = m
		}
	}
	return ofs
}

// gallopRight is gallopLeft placing key right of any elements equal to it: arr[base+k-1]
// <= key < arr[base+k]. Every comparison is cmp(key, element).
func (ts *timSort[T]) gallopRight(arr []T, key T, base, length, hint int) int {
	lastOfs, ofs := 0, 1
	if ts.cmp(key, arr[base+hint]) < 0 {
		// gallop left until arr[base+hint-ofs] <= key < arr[base+hint-lastOfs]
		maxOfs := hint + 1
		for ofs < maxOfs {
			if ts.cmp(key, arr[base+hint-ofs]) >= 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs, ofs = hint-ofs, hint-lastOfs
	} else {
		// gallop right until arr[base+hint+lastOfs] <= key < arr[base+hint+ofs]
		maxOfs := length - hint
		for ofs < maxOfs {
			if ts.cmp(key, arr[base+hint+ofs]) < 0 {
				break
			}
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs += hint
		ofs += hint
	}
	for lastOfs++; lastOfs < ofs; {
		m := lastOfs + (ofs-lastOfs)>>1
		if ts.cmp(key, arr[base+m]) < 0 {
			ofs = m
		} else {
			lastOfs = m + 1
		}
	}
	return ofs
}

// buffer returns the merge buffer with room for at least n elements.
func (ts *timSort[T]) buffer(n int) []T {
	if cap(ts.tmp) < n {
		ts.tmp = make([]T, max(n, 32))
	}
	return ts.tmp[:cap(ts.tmp)]
}

// mergeLow merges the adjacent runs a[baseA : baseA+lenA] and a[baseB : baseB+lenB] (lenA
// <= lenB) from the left, with run A moved to the buffer. It expects a[baseB] to belong
// before run A and A's last element to belong at the end. A comparison cmp(b, a) < 0 takes
// from B, anything else from A; after minGallop consecutive wins of one side it gallops
// until neither side wins v8MinGallop times in a row. Since the comparator may be
// inconsistent, the expected relations are never relied on for memory safety.
func (ts *timSort[T]) mergeLow(baseA, lenA, baseB, lenB int) {
	a := ts.a
	tmp := ts.buffer(lenA)
	copy(tmp, a[baseA:baseA+lenA])
	dest, curT, curB := baseA, 0, baseB
	a[dest] = a[curB]
	dest++
	curB++
	lenB--
	if lenB == 0 {
		copy(a[dest:], tmp[curT:curT+lenA])
		return
	}
	if lenA == 1 {
		goto copyB
	}
	for minGallop := ts.minGallop; ; {
		winsA, winsB := 0, 0
		for {
			if ts.cmp(a[curB], tmp[curT]) < 0 {
				a[dest] = a[curB]
				dest++
				curB++
				winsB++
				lenB--
				winsA = 0
				if lenB == 0 {
					goto succeed
				}
				if winsB >= minGallop {
					break
				}
			} else {
				a[dest] = tmp[curT]
				dest++
				curT++
				winsA++
				lenA--
				winsB = 0
				if lenA == 1 {
					goto copyB
				}
				if winsA >= minGallop {
					break
				}
			}
		}
		minGallop++
		for first := true; first || winsA >= v8MinGallop || winsB >= v8MinGallop; first = false {
			minGallop = max(1, minGallop-1)
			ts.minGallop = minGallop
			winsA = ts.gallopRight(tmp, a[curB], curT, lenA, 0)
			if winsA > 0 {
				copy(a[dest:], tmp[curT:curT+winsA])
				dest += winsA
				curT += winsA
				lenA -= winsA
				if lenA == 1 {
					goto copyB
				}
				// lenA == 0 cannot happen with a consistent comparator
				if lenA == 0 {
					goto succeed
				}
			}
			a[dest] = a[curB]
			dest++
			curB++
			lenB--
			if lenB == 0 {
				goto succeed
			}
			winsB = ts.gallopLeft(a, tmp[curT], curB, lenB, 0)
			if winsB > 0 {
				copy(a[dest:], a[curB:curB+winsB])
				dest += winsB
				curB += winsB
				lenB -= winsB
				if lenB == 0 {
					goto succeed
				}
			}
			a[dest] = tmp[curT]
			dest++
			curT++
			lenA--
			if lenA == 1 {
				goto copyB
			}
		}
		minGallop++ // penalize leaving galloping mode
		ts.minGallop = minGallop
	}
succeed:
	if lenA > 0 {
		copy(a[dest:], tmp[curT:curT+lenA])
	}
	return
copyB:
	// the last element of run A belongs after what remains of run B
	copy(a[dest:], a[curB:curB+lenB])
	a[dest+lenB] = tmp[curT]
}

// mergeHigh is mergeLow from the right, for lenA >= lenB, with run B moved to the buffer.
// It expects A's last element to belong at the end. A comparison cmp(b, a) < 0 takes from
// A, anything else from B.
func (ts *timSort[T]) mergeHigh(baseA, lenA, baseB, lenB int) {
	a := ts.a
	tmp := ts.buffer(lenB)
	copy(tmp, a[baseB:baseB+lenB])
	dest, curT, curA := baseB+lenB-1, lenB-1, baseA+lenA-1
	a[dest] = a[curA]
	dest--
	curA--
	lenA--
	if lenA == 0 {
		goto succeed
	}
	if lenB == 1 {
		goto copyA
	}
	for minGallop := ts.minGallop; ; {
		winsA, winsB := 0, 0
		for {
			if ts.cmp(tmp[curT], a[curA]) < 0 {
				a[dest] = a[curA]
				dest--
				curA--
				winsA++
				lenA--
				winsB = 0
				if lenA == 0 {
					goto succeed
				}
				if winsA >= minGallop {
					break
				}
			} else {
				a[dest] = tmp[curT]
				dest--
				curT--
				winsB++
				lenB--
				winsA = 0
				if lenB == 1 {
					goto copyA
				}
				if winsB >= minGallop {
					break
				}
			}
		}
		minGallop++
		for first := true; first || winsA >= v8MinGallop || winsB >= v8MinGallop; first = false {
			minGallop = max(1, minGallop-1)
			ts.minGallop = minGallop
			k := ts.gallopRight(a, tmp[curT], baseA, lenA, lenA-1)
			winsA = lenA - k
			if winsA > 0 {
				dest -= winsA
				curA -= winsA
				copy(a[dest+1:dest+1+winsA], a[curA+1:curA+1+winsA])
				lenA -= winsA
				if lenA == 0 {
					goto succeed
				}
			}
			a[dest] = tmp[curT]
			dest--
			curT--
			lenB--
			if lenB == 1 {
				goto copyA
			}
			k = ts.gallopLeft(tmp, a[curA], 0, lenB, lenB-1)
			winsB = lenB - k
			if winsB > 0 {
				dest -= winsB
				curT -= winsB
				copy(a[dest+1:dest+1+winsB], tmp[curT+1:curT+1+winsB])
				lenB -= winsB
				if lenB == 1 {
					goto copyA
				}
				// lenB == 0 cannot happen with a consistent comparator
				if lenB == 0 {
					goto succeed
				}
			}
			a[dest] = a[curA]
			dest--
			curA--
			lenA--
			if lenA == 0 {
				goto succeed
			}
		}
		minGallop++ // penalize leaving galloping mode
		ts.minGallop = minGallop
	}
succeed:
	if lenB > 0 {
		copy(a[dest-(lenB-1):dest+1], tmp[:lenB])
	}
	return
copyA:
	// the first element of run B belongs before what remains of run A
	dest -= lenA
	curA -= lenA
	copy(a[dest+1:dest+1+lenA], a[curA+1:curA+1+lenA])
	a[dest] = tmp[curT]
}

// v8TypedArrayMergeSort sorts a as V8's %TypedArray%.prototype.sort and toSorted do with a
// comparator: a top-down merge sort alternating between two copies, splitting at the
// midpoint (left half the shorter one) and taking from the left half when cmp(left, right)
// <= 0.
func v8TypedArrayMergeSort[T any](a []T, cmp func(x, y T) int) {
	if len(a) < 2 {
		return
	}
	src := append([]T(nil), a...)
	typedArrayMergeSortRec(src, a, 0, len(a), cmp)
}

// typedArrayMergeSortRec sorts source[from:to] into target[from:to]; both hold the same
// elements there on entry. The halves are sorted into source (with the roles swapped) and
// then merged into target.
func typedArrayMergeSortRec[T any](source, target []T, from, to int, cmp func(x, y T) int) {
	mid := from + (to-from)>>1
	if mid-from > 1 {
		typedArrayMergeSortRec(target, source, from, mid, cmp)
	}
	if to-mid > 1 {
		typedArrayMergeSortRec(target, source, mid, to, cmp)
	}
	left, right := from, mid
	for k := from; k < to; k++ {
		switch {
		case left < mid && right >= to:
			target[k] = source[left]
			left++
		case left < mid:
			if cmp(source[left], source[right]) <= 0 {
				target[k] = source[left]
				left++
			} else {
				target[k] = source[right]
				right++
			}
		default:
			target[k] = source[right]
			right++
		}
	}
}
