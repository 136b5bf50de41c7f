package run

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// referenceKinds are the diagnostic kinds of the code-mode contract codemode follows, with the
// warning kind Truncated; additionKinds are codemode's own. Together they are every kind a
// Result can carry.
var (
	referenceKinds = []Kind{KindParseError, KindUnsupportedSyntax, KindUnknownTool, KindInvalidToolInput,
		KindInvalidToolOutput, KindInvalidDataValue, KindToolCallLimitExceeded, KindTimeoutExceeded,
		KindToolFailure, KindExecutionFailure, KindTruncated}
	additionKinds = []Kind{KindMemoryLimitExceeded, KindSnapshotTooLarge, "InternalError"}
)

// TestKindsDocumented checks that docs/language.md's diagnostics table lists exactly these
// kinds, the additions marked as such, and that the reference's kinds keep their names.
func TestKindsDocumented(t *testing.T) {
	t.Parallel()
	require.Equal(t, []string{"ParseError", "UnsupportedSyntax", "UnknownTool", "InvalidToolInput",
		"InvalidToolOutput", "InvalidDataValue", "ToolCallLimitExceeded", "TimeoutExceeded",
		"ToolFailure", "ExecutionFailure", "Truncated"}, kindStrings(referenceKinds))
	doc, err := os.ReadFile("../../docs/language.md")
	require.NoError(t, err)
	section := regexp.MustCompile("(?s)\n## Diagnostics\n.*?\nCatchable kinds").FindString(string(doc))
	require.NotEmpty(t, section)
	rows := regexp.MustCompile("(?m)^\\| `([A-Za-z]+)`( \\(\\*addition\\*\\))? \\|").FindAllStringSubmatch(section, -1)
	var listed, added []string
	for _, r := range rows {
		listed = append(listed, r[1])
		if r[2] != "" {
			added = append(added, r[1])
		}
	}
	want := kindStrings(append(slices.Clone(referenceKinds[:len(referenceKinds)-1]), additionKinds...))
	slices.Sort(want)
	slices.Sort(listed)
	require.Equal(t, want, listed, "the diagnostics table")
	slices.Sort(added)
	wantAdded := kindStrings(additionKinds)
	slices.Sort(wantAdded)
	require.Equal(t, wantAdded, added, "the additions")
	require.Contains(t, string(doc), "- `Truncated`, last", "the Truncated warning")
}

func kindStrings(ks []Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = string(k)
	}
	return out
}
