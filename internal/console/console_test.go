package console_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/codemode/codemode/internal/console"
)

// apiStub stands for the API: it answers 418 with the path, so a test sees what reached it.
var apiStub = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusTeapot)
	_, _ = io.WriteString(w, r.Method+" "+r.URL.Path)
})

func get(t *testing.T, h http.Handler, method, path string) *http.Response {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec.Result()
}

func TestMountRoutes(t *testing.T) {
	h := console.Mount(apiStub)
	for _, path := range []string{"/", "/ui"} {
		resp := get(t, h, http.MethodGet, path)
		require.Equal(t, http.StatusFound, resp.StatusCode, path)
		require.Equal(t, "/ui/", resp.Header.Get("Location"), path)
	}
	// Everything else is the API's, / included for other methods.
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/runs"}, {"POST", "/v1/runs"}, {"GET", "/healthz"}, {"GET", "/metrics"}, {"POST", "/"}, {"GET", "/uix"},
	} {
		resp := get(t, h, c.method, c.path)
		require.Equal(t, http.StatusTeapot, resp.StatusCode, "%s %s", c.method, c.path)
		body, _ := io.ReadAll(resp.Body)
		require.Equal(t, c.method+" "+c.path, string(body))
	}
	resp := get(t, h, http.MethodPost, "/ui/")
	require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	require.Equal(t, http.StatusNotFound, get(t, h, http.MethodGet, "/ui/nothing.js").StatusCode)
}

func TestFilesAndHeaders(t *testing.T) {
	h := console.Mount(apiStub)
	for path, ctype := range map[string]string{
		"/ui/":          "text/html; charset=utf-8",
		"/ui/app.js":    "text/javascript; charset=utf-8",
		"/ui/style.css": "text/css; charset=utf-8",
	} {
		resp := get(t, h, http.MethodGet, path)
		require.Equal(t, http.StatusOK, resp.StatusCode, path)
		require.Equal(t, ctype, resp.Header.Get("Content-Type"), path)
		require.Equal(t, console.ContentSecurityPolicy, resp.Header.Get("Content-Security-Policy"), path)
		require.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"), path)
		require.Equal(t, "DENY", resp.Header.Get("X-Frame-Options"), path)
		require.Equal(t, "no-cache", resp.Header.Get("Cache-Control"), path)
	}
	csp := console.ContentSecurityPolicy
	require.Contains(t, csp, "default-src 'none'")
	require.Contains(t, csp, "script-src 'self';")
	require.NotContains(t, csp, "unsafe")
}

// TestNoInlineScriptOrStyle: the page loads its script and style from files, as the policy
// demands; an inline script, handler attribute or style attribute would be refused by the
// browser and break the console.
func TestNoInlineScriptOrStyle(t *testing.T) {
	f, err := os.Open("static/index.html")
	require.NoError(t, err)
	defer f.Close()
	doc, err := html.Parse(f)
	require.NoError(t, err)
	scripts := 0
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				require.False(t, strings.HasPrefix(a.Key, "on"), "handler attribute %s on <%s>", a.Key, n.Data)
				require.NotEqual(t, "style", a.Key, "style attribute on <%s>", n.Data)
			}
			require.NotEqual(t, "style", n.Data, "a <style> element")
			if n.Data == "script" {
				scripts++
				require.Nil(t, n.FirstChild, "an inline script")
				src := ""
				for _, a := range n.Attr {
					if a.Key == "src" {
						src = a.Val
					}
				}
				require.NotEmpty(t, src, "a script without src")
				require.NotContains(t, src, "//", "a script from another origin")
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	require.Equal(t, 1, scripts)
}

// TestScriptsNeverParseHTML: the console shows untrusted text (programs, results, logs); its
// scripts build the DOM with text nodes only, never through the APIs that parse HTML or code.
func TestScriptsNeverParseHTML(t *testing.T) {
	banned := regexp.MustCompile(`\binnerHTML\b|\bouterHTML\b|\binsertAdjacentHTML\b|\bdocument\.write|\beval\s*\(|\bnew Function\b|\bcreateContextualFragment\b|\bsetHTMLUnsafe\b|\bsrcdoc\b`)
	n := 0
	err := fs.WalkDir(os.DirFS("static"), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		n++
		src, err := os.ReadFile("static/" + path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			require.False(t, banned.MatchString(line), "%s:%d: %s", path, i+1, line)
		}
		return nil
	})
	require.NoError(t, err)
	require.Positive(t, n)
}
