#!/usr/bin/env python3
"""Regenerates internal/interp/testdata/errorpos/cases.json: for each program in
internal/interp/testdata/errorpos/programs.json, where node reports the error it throws (the
top frame of the stack in this file, or the caret of an uncaught non-Error value).

Usage: python3 scripts/error-positions.py   (needs node on PATH)
"""
import json, os, re, subprocess, tempfile

here = os.path.join(os.path.dirname(__file__), '..', 'internal', 'interp', 'testdata', 'errorpos')
programs = json.load(open(os.path.join(here, 'programs.json')))
out = []
with tempfile.TemporaryDirectory() as d:
    f = os.path.join(d, 'case.js')
    for src in programs:
        open(f, 'w').write(src)
        r = subprocess.run(['node', f], capture_output=True, text=True)
        r.stderr = r.stderr.lstrip('\n')
        m = re.search(r'case\.js:(\d+):(\d+)', r.stderr.split('\n', 1)[1])
        if m and 'at ' in r.stderr:
            line, col = int(m.group(1)), int(m.group(2))
        else:
            lines = r.stderr.split('\n')
            line = int(re.search(r'case\.js:(\d+)', lines[0]).group(1))
            col = lines[2].index('^') + 1
        # node prints the line, a caret under it, a blank line, then the error
        msg = next(l for l in r.stderr.split('\n')[3:] if l.strip())
        out.append({'src': src, 'line': line, 'column': col, 'error': msg.strip()})
json.dump(out, open(os.path.join(here, 'cases.json'), 'w'), indent=1, ensure_ascii=False)
print(len(out), 'cases')
