// Package sse reads server-sent event streams (the text/event-stream format of the HTML
// standard), as the service writes a run's events (GET /v1/runs/{id}/events with Accept:
// text/event-stream). The Go client and the CLI read them with it.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"iter"
)

// maxLine bounds one line of a stream (an event's data is one line of JSON).
const maxLine = 16 << 20

// ErrLineTooLong is the error Read yields for a line above 16 MiB: reading the stream again
// meets it again.
var ErrLineTooLong = errors.New("sse: a line of the stream is above 16 MiB")

// Event is one event of a stream.
type Event struct {
	// ID is the event's own id field, "" when it had none (the standard's last event id
	// carries over to later events; a reader that needs it keeps it).
	ID string
	// Type is its event field, "" when it had none.
	Type string
	// Data is its data lines joined by newlines.
	Data []byte
}

// Read yields the events of r in order, as each blank line ends one. Comments and fields other
// than id, event and data are skipped; a block without data is no event, and an event cut
// short by the end of the stream is not yielded. A read error is yielded last (ErrLineTooLong
// for a line above 16 MiB).
func Read(r io.Reader) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 64*1024), maxLine)
		var (
			e       Event
			hasData bool
		)
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 {
				if hasData && !yield(e, nil) {
					return
				}
				e, hasData = Event{}, false
				continue
			}
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "data":
				if hasData {
					e.Data = append(e.Data, '\n')
				}
				e.Data = append(e.Data, value...)
				hasData = true
			case "id":
				e.ID = string(value)
			case "event":
				e.Type = string(value)
			}
		}
		if err := sc.Err(); err != nil {
			if errors.Is(err, bufio.ErrTooLong) {
				err = fmt.Errorf("%w (%w)", ErrLineTooLong, err)
			}
			yield(Event{}, err)
		}
	}
}
