package interp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegExpLegacyStatics checks RegExp.$1 … $9, input, lastMatch, lastParen, leftContext
// and rightContext (and their $-names) against node's values for the same program.
func TestRegExpLegacyStatics(t *testing.T) {
	t.Parallel()
	const src = `const out = [];
/(\d)(\d)?-(x)/.exec("ab12-xcd");
out.push([RegExp.$1, RegExp.$2, RegExp.$3, RegExp.$4, RegExp.lastMatch, RegExp["$&"], RegExp.lastParen, RegExp["$+"], RegExp.leftContext, RegExp["$` + "`" + `"], RegExp.rightContext, RegExp["$'"], RegExp.input, RegExp.$_]);
"q1".replace(/(\d)/, "z"); out.push([RegExp.$1, RegExp.input]);
/(a)|(b)/.exec("b"); out.push([RegExp.$1, RegExp.$2, RegExp.lastParen]);
/nomatch/.exec("zz"); out.push(RegExp.$1);
RegExp.input = "set"; out.push([RegExp.$_, RegExp.input]);
"a-b".split(/(-)/); out.push(RegExp.$1);
"x7y8".replace(/\d/g, d => d + RegExp.lastMatch); out.push(RegExp.lastMatch);
const d = Object.getOwnPropertyDescriptor(RegExp, "$1"); out.push([typeof d.get, typeof d.set, d.enumerable, d.configurable]);
RegExp.$1 = "ignored"; out.push(RegExp.$1);
"abc".match(/b/); out.push([RegExp.leftContext, RegExp.rightContext]);
/x/.test("--x--"); out.push(RegExp["$` + "`" + `"]);
JSON.stringify(out)`
	got, thrown := runProgram(t, src)
	require.False(t, thrown, got)
	require.Equal(t, `[["1","2","x","","12-x","12-x","x","x","ab","ab","cd","cd","ab12-xcd","ab12-xcd"],["1","q1"],["","b","b"],"",["set","set"],"-","8",["function","function",false,true],"",["a","c"],"--"]`, got)
}

// The last match is part of the execution state: the statics read after a restore are those
// of the match made before the snapshot, in both formats.
func TestRegExpLegacyStaticsSurviveSnapshots(t *testing.T) {
	t.Parallel()
	const src = `/(\w+)@(\w+)/.exec("mail: ann@example now"); await later();
[RegExp.$1, RegExp.$2, RegExp.lastMatch, RegExp.leftContext, RegExp.rightContext, RegExp.lastParen].join("|")`
	for _, format1 := range []bool{false, true} {
		require.Equal(t, "ann|example|ann@example|mail: | now|example", resultAfterRestore(t, src, format1), "format 1: %v", format1)
	}
}

// The input the legacy statics keep is live data: the memory limit counts it after the
// program has dropped every reference of its own.
func TestRegExpLegacyInputIsLive(t *testing.T) {
	t.Parallel()
	vm := newTestVM(t)
	base := vm.liveHeapSize(vm.execRoots)
	vm.recordLegacyMatch(newASCII(string(make([]byte, 100_000))), 0, 1, nil)
	require.GreaterOrEqual(t, vm.liveHeapSize(vm.execRoots)-base, int64(100_000))
}
