package interp

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"fmt"
	"io"
)

// The program of a format-2 snapshot, compressed (format 2, minor version 1).
//
// A snapshot carries its program's source and compiled code: a fixed 1–3 KB that dominates
// the snapshot of a small heap. Minor version 1 writes both as one member, "program": binBytes
// of
//
//	uvarint n, DEFLATE (RFC 1951) of [uvarint len(source), source, compiled]
//
// where n is the length of the bracketed payload, source the quoted source (Program.quoted)
// and compiled the compiled code (Program.compiledBin). The member is computed once per
// program, like its parts, so writing it costs a snapshot nothing. Restore finds a program it
// holds by comparing these bytes, and inflates them only for a program it does not hold.
//
// Minor version 0 (the first format-2 snapshots) writes "source" and "compiled" instead, and
// no "minor" member; both are read.
const binMinor = 1

// maxPackedProgram bounds the inflated size of a "program" member: a larger claim fails
// before anything is inflated.
const maxPackedProgram = 256 << 20

// packedBin returns the "program" member of the program's format-2 snapshots.
func (p *Program) packedBin() []byte {
	p.packedOnce.Do(func() {
		q, c := p.quoted(), p.compiledBin()
		payload := binary.AppendUvarint(make([]byte, 0, len(q)+len(c)+8), uint64(len(q)))
		payload = append(append(payload, q...), c...)
		var buf bytes.Buffer
		buf.Write(binary.AppendUvarint(nil, uint64(len(payload))))
		w, err := flate.NewWriter(&buf, flate.BestCompression)
		if err != nil {
			panic(err) // a valid level
		}
		w.Write(payload) //nolint:errcheck // a bytes.Buffer does not fail
		w.Close()        //nolint:errcheck
		p.packed = buf.Bytes()
	})
	return p.packed
}

// unpackProgram returns the quoted source and compiled code of a "program" member.
func unpackProgram(packed []byte) (quoted, compiled []byte, err error) {
	n, k := binary.Uvarint(packed)
	stream := packed[max(k, 0):]
	// DEFLATE expands at most about 1032 times.
	if k <= 0 || n > maxPackedProgram || n > 1040*uint64(len(stream))+64 {
		return nil, nil, fmt.Errorf("program of %d bytes: %w", n, ErrSnapshotCorrupt)
	}
	payload, err := io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(stream)), int64(n)+1))
	if err != nil || uint64(len(payload)) != n {
		return nil, nil, fmt.Errorf("program: inflated %d of %d bytes (%v): %w", len(payload), n, err, ErrSnapshotCorrupt)
	}
	q, k := binary.Uvarint(payload)
	if k <= 0 || q > uint64(len(payload)-k) {
		return nil, nil, fmt.Errorf("program: bad source length: %w", ErrSnapshotCorrupt)
	}
	return payload[k : k+int(q)], payload[k+int(q):], nil
}

// restorePacked is restoreProgram for a "program" member: a cached program whose member is
// these bytes and whose fingerprint is code, else the program of the unpacked parts.
func (c *programCache) restorePacked(packed []byte, script bool, code string) (*Program, error) {
	if p := c.find(func(e *programCacheEntry) bool {
		return e.script == script && bytes.Equal(e.prog.packedBin(), packed) &&
			(code == "" || e.prog.CodeFingerprint() == code)
	}); p != nil {
		return p, nil
	}
	quoted, compiled, err := unpackProgram(packed)
	if err != nil {
		return nil, err
	}
	return c.restoreProgram(quoted, script, code, compiled)
}
