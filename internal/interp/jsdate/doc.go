// Package jsdate implements the ECMAScript Date algorithms on time values (float64
// milliseconds since the epoch): MakeDay, MakeTime, MakeDate, TimeClip, field extraction,
// Date.parse with V8's accepted formats, and the toString family of formats.
//
// The interpreter has no local time zone: local time is UTC, so every function here works in
// UTC and the formats print "GMT+0000 (Coordinated Universal Time)" exactly as node does when
// run with TZ=UTC. All functions are pure and safe for concurrent use.
package jsdate
