package sse

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRead(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, stream string
		want         []Event
	}{
		{name: "events, comments and keep-alives",
			stream: ": hello\n\nid: 1\nevent: created\ndata: {\"seq\":1}\n\n: keep-alive\n\nid: 2\nevent: started\ndata: {\"seq\":2}\n\n",
			want: []Event{{ID: "1", Type: "created", Data: []byte(`{"seq":1}`)},
				{ID: "2", Type: "started", Data: []byte(`{"seq":2}`)}}},
		{name: "data lines are joined by newlines", stream: "data: a\ndata:b\ndata\n\n",
			want: []Event{{Data: []byte("a\nb\n")}}},
		{name: "one space after the colon is dropped, not more", stream: "data:  x\n\n",
			want: []Event{{Data: []byte(" x")}}},
		{name: "CRLF line ends", stream: "id: 3\r\ndata: x\r\n\r\n",
			want: []Event{{ID: "3", Data: []byte("x")}}},
		{name: "an empty data line is an event", stream: "data:\n\n", want: []Event{{}}},
		{name: "a block without data is no event", stream: "id: 4\nevent: ping\n\ndata: y\n\n",
			want: []Event{{Data: []byte("y")}}},
		{name: "an event cut short is not yielded", stream: "id: 2\ndata: {\"seq\":2}\n\nid: 3\ndata: {\"se",
			want: []Event{{ID: "2", Data: []byte(`{"seq":2}`)}}},
		{name: "unknown fields are skipped", stream: "retry: 10\nfoo: bar\ndata: z\n\n",
			want: []Event{{Data: []byte("z")}}},
		{name: "nothing", stream: "", want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []Event
			for e, err := range Read(strings.NewReader(tt.stream)) {
				require.NoError(t, err)
				got = append(got, e)
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func TestReadYieldsTheReadErrorLast(t *testing.T) {
	t.Parallel()
	broken := errors.New("connection reset")
	data, last := readAll(&failAfter{r: strings.NewReader("data: 1\n\ndata: 2"), err: broken})
	require.Equal(t, []string{"1"}, data)
	require.ErrorIs(t, last, broken)
}

func TestReadStopsWhenTheConsumerDoes(t *testing.T) {
	t.Parallel()
	n := 0
	for range Read(strings.NewReader("data: 1\n\ndata: 2\n\ndata: 3\n\n")) {
		n++
		if n == 2 {
			break
		}
	}
	require.Equal(t, 2, n)
}

// failAfter reads r, then fails with err.
type failAfter struct {
	r   *strings.Reader
	err error
}

func (f *failAfter) Read(p []byte) (int, error) {
	if f.r.Len() == 0 {
		return 0, f.err
	}
	return f.r.Read(p)
}

func TestReadRefusesALineAbove16MiB(t *testing.T) {
	t.Parallel()
	data, last := readAll(strings.NewReader("data: 1\n\ndata: " + strings.Repeat("x", maxLine) + "\n\n"))
	require.Equal(t, []string{"1"}, data)
	require.ErrorIs(t, last, ErrLineTooLong)
}

// readAll reads the stream of r with Read: the events' data, and the last error yielded.
func readAll(r io.Reader) (data []string, last error) {
	for e, err := range Read(r) {
		if err != nil {
			last = err
			continue
		}
		data = append(data, string(e.Data))
	}
	return data, last
}
