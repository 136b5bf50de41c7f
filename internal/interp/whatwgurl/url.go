// Package whatwgurl is the WHATWG URL Standard's parser and serializer: the basic URL parser
// state machine (with the state overrides the URL setters use), host parsing (domains, IPv4 with
// its hex and octal forms, IPv6, opaque hosts) and percent-encoding. Domains go through UTS #46
// (golang.org/x/net/idna), so non-ASCII domains become xn-- labels as in node.
//
// It knows nothing of JavaScript values: the interpreter's URL and URLSearchParams built-ins
// wrap it.
package whatwgurl

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// URL is a parsed URL. Strings are UTF-8 and already percent-encoded.
type URL struct {
	Scheme      string
	Username    string
	Password    string
	Host        string // serialized host; meaningful when hasHost
	HasHost     bool
	Port        int // -1 when null
	Path        []string
	Opaque      bool   // the URL has an opaque path (mailto:x, data:...)
	OpaquePath  string // the opaque path when opaque
	Query       string
	HasQuery    bool
	Fragment    string
	HasFragment bool
}

// State is a state of the basic URL parser. The exported states are the state overrides the
// URL setters pass to Parse; NoState parses a whole URL.
type State uint8

const (
	NoState State = iota
	SchemeStartState
	schemeState
	noSchemeState
	specialRelativeOrAuthorityState
	pathOrAuthorityState
	relativeState
	relativeSlashState
	specialAuthoritySlashesState
	specialAuthorityIgnoreSlashesState
	authorityState
	HostState
	HostnameState
	PortState
	fileState
	fileSlashState
	fileHostState
	PathStartState
	pathState
	opaquePathState
	QueryState
	FragmentState
)

// specialPorts are the special schemes with their default ports (file has none: -1).
var specialPorts = map[string]int{"ftp": 21, "file": -1, "http": 80, "https": 443, "ws": 80, "wss": 443}

func isSpecialScheme(s string) bool { _, ok := specialPorts[s]; return ok }

// defaultPort returns the default port of scheme, or -1.
func defaultPort(scheme string) int {
	if p, ok := specialPorts[scheme]; ok {
		return p
	}
	return -1
}

// Percent-encode sets, as predicates on bytes.
func inC0ControlSet(b byte) bool { return b < 0x20 || b > 0x7E }
func inFragmentSet(b byte) bool {
	return inC0ControlSet(b) || b == ' ' || b == '"' || b == '<' || b == '>' || b == '`'
}
func inQuerySet(b byte) bool {
	return inC0ControlSet(b) || b == ' ' || b == '"' || b == '#' || b == '<' || b == '>'
}
func inSpecialQuerySet(b byte) bool { return inQuerySet(b) || b == '\'' }
func inPathSet(b byte) bool         { return inQuerySet(b) || b == '?' || b == '`' || b == '{' || b == '}' }
func InUserinfoSet(b byte) bool {
	return inPathSet(b) || b == '/' || b == ':' || b == ';' || b == '=' || b == '@' ||
		(b >= '[' && b <= '^') || b == '|'
}

// PercentEncode percent-encodes the bytes of s that are in set.
func PercentEncode(s string, set func(byte) bool) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if set(c) {
			b.WriteByte('%')
			b.WriteByte("0123456789ABCDEF"[c>>4])
			b.WriteByte("0123456789ABCDEF"[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// percentEncodeRune percent-encodes the UTF-8 bytes of r that are in set.
func percentEncodeRune(r rune, set func(byte) bool) string {
	var buf [4]byte
	n := utf8.EncodeRune(buf[:], r)
	return PercentEncode(string(buf[:n]), set)
}

// PercentDecode decodes %XX escapes into bytes (invalid escapes stay as they are).
func PercentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			out = append(out, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		out = append(out, s[i])
	}
	return out
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func isASCIIAlpha(c rune) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isASCIIDigit(c rune) bool { return c >= '0' && c <= '9' }

// isWindowsDriveLetter reports whether s is a letter followed by ':' or '|' (normalized: ':'
// only).
func isWindowsDriveLetter(s string, normalized bool) bool {
	if len(s) != 2 || !isASCIIAlpha(rune(s[0])) {
		return false
	}
	return s[1] == ':' || (!normalized && s[1] == '|')
}

// startsWithWindowsDriveLetter checks the code points from i of in.
func startsWithWindowsDriveLetter(in []rune, i int) bool {
	if len(in)-i < 2 || !isASCIIAlpha(in[i]) || (in[i+1] != ':' && in[i+1] != '|') {
		return false
	}
	if len(in)-i == 2 {
		return true
	}
	switch in[i+2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

// IncludesCredentials reports whether the URL has a username or password.
func (u *URL) IncludesCredentials() bool { return u.Username != "" || u.Password != "" }

// CannotHaveCredentialsOrPort reports whether username, password and port cannot be set.
func (u *URL) CannotHaveCredentialsOrPort() bool {
	return !u.HasHost || u.Host == "" || u.Scheme == "file"
}

// shortenPath removes the last path segment (keeping a lone Windows drive letter of file
// URLs).
func (u *URL) shortenPath() {
	if u.Scheme == "file" && len(u.Path) == 1 && isWindowsDriveLetter(u.Path[0], true) {
		return
	}
	if len(u.Path) > 0 {
		u.Path = u.Path[:len(u.Path)-1]
	}
}

func isSingleDot(s string) bool { return s == "." || strings.EqualFold(s, "%2e") }
func isDoubleDot(s string) bool {
	switch strings.ToLower(s) {
	case "..", ".%2e", "%2e.", "%2e%2e":
		return true
	}
	return false
}

// Parse is the basic URL parser. With override set it modifies url in place (a setter)
// and returns false only on failure; without, it parses input against base into url.
func Parse(input string, base *URL, url *URL, override State) bool {
	if override == NoState {
		*url = URL{Port: -1}
		input = strings.TrimFunc(input, func(r rune) bool { return r <= 0x20 })
	}
	input = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, input)
	in := []rune(input)
	state := override
	if state == NoState {
		state = SchemeStartState
	}
	var buf strings.Builder
	atSignSeen, insideBrackets, passwordTokenSeen := false, false, false
	special := isSpecialScheme(url.Scheme)
	remainingStarts := func(p int, s string) bool {
		return strings.HasPrefix(string(in[min(p+1, len(in)):]), s)
	}
	for p := 0; ; p++ {
		c := rune(-1) // EOF
		if p < len(in) {
			c = in[p]
		}
		switch state {
		case SchemeStartState:
			if isASCIIAlpha(c) {
				buf.WriteRune(c | 0x20)
				state = schemeState
			} else if override == NoState {
				state = noSchemeState
				p--
			} else {
				return false
			}
		case schemeState:
			if isASCIIAlpha(c) || isASCIIDigit(c) || c == '+' || c == '-' || c == '.' {
				if c < 'a' && isASCIIAlpha(c) {
					c |= 0x20
				}
				buf.WriteRune(c)
			} else if c == ':' {
				s := buf.String()
				if override != NoState {
					if isSpecialScheme(url.Scheme) != isSpecialScheme(s) {
						return true
					}
					if (url.IncludesCredentials() || url.Port >= 0) && s == "file" {
						return true
					}
					if url.Scheme == "file" && url.HasHost && url.Host == "" {
						return true
					}
				}
				url.Scheme = s
				special = isSpecialScheme(s)
				if override != NoState {
					if url.Port == defaultPort(s) {
						url.Port = -1
					}
					return true
				}
				buf.Reset()
				switch {
				case s == "file":
					state = fileState
				case special && base != nil && base.Scheme == s:
					state = specialRelativeOrAuthorityState
				case special:
					state = specialAuthoritySlashesState
				case remainingStarts(p, "/"):
					state = pathOrAuthorityState
					p++
				default:
					url.Opaque = true
					url.OpaquePath = ""
					state = opaquePathState
				}
			} else if override == NoState {
				buf.Reset()
				state = noSchemeState
				p = -1
			} else {
				return false
			}
		case noSchemeState:
			if base == nil || (base.Opaque && c != '#') {
				return false
			}
			if base.Opaque && c == '#' {
				url.Scheme, url.Opaque, url.OpaquePath = base.Scheme, true, base.OpaquePath
				url.Query, url.HasQuery = base.Query, base.HasQuery
				url.Fragment, url.HasFragment = "", true
				special = isSpecialScheme(url.Scheme)
				state = FragmentState
			} else if base.Scheme != "file" {
				state = relativeState
				p--
			} else {
				state = fileState
				p--
			}
		case specialRelativeOrAuthorityState:
			if c == '/' && remainingStarts(p, "/") {
				state = specialAuthorityIgnoreSlashesState
				p++
			} else {
				state = relativeState
				p--
			}
		case pathOrAuthorityState:
			if c == '/' {
				state = authorityState
			} else {
				state = pathState
				p--
			}
		case relativeState:
			url.Scheme = base.Scheme
			special = isSpecialScheme(url.Scheme)
			if c == '/' || (special && c == '\\') {
				state = relativeSlashState
			} else {
				url.Username, url.Password = base.Username, base.Password
				url.Host, url.HasHost, url.Port = base.Host, base.HasHost, base.Port
				url.Path = append([]string(nil), base.Path...)
				url.Query, url.HasQuery = base.Query, base.HasQuery
				switch {
				case c == '?':
					url.Query, url.HasQuery = "", true
					state = QueryState
				case c == '#':
					url.Fragment, url.HasFragment = "", true
					state = FragmentState
				case c != -1:
					url.Query, url.HasQuery = "", false
					url.shortenPath()
					state = pathState
					p--
				}
			}
		case relativeSlashState:
			if special && (c == '/' || c == '\\') {
				state = specialAuthorityIgnoreSlashesState
			} else if c == '/' {
				state = authorityState
			} else {
				url.Username, url.Password = base.Username, base.Password
				url.Host, url.HasHost, url.Port = base.Host, base.HasHost, base.Port
				state = pathState
				p--
			}
		case specialAuthoritySlashesState:
			state = specialAuthorityIgnoreSlashesState
			if c == '/' && remainingStarts(p, "/") {
				p++
			} else {
				p--
			}
		case specialAuthorityIgnoreSlashesState:
			if c != '/' && c != '\\' {
				state = authorityState
				p--
			}
		case authorityState:
			if c == '@' {
				s := buf.String()
				if atSignSeen {
					s = "%40" + s
				}
				atSignSeen = true
				for _, r := range s {
					if r == ':' && !passwordTokenSeen {
						passwordTokenSeen = true
						continue
					}
					enc := percentEncodeRune(r, InUserinfoSet)
					if passwordTokenSeen {
						url.Password += enc
					} else {
						url.Username += enc
					}
				}
				buf.Reset()
			} else if c == -1 || c == '/' || c == '?' || c == '#' || (special && c == '\\') {
				if atSignSeen && buf.Len() == 0 {
					return false
				}
				p -= utf8.RuneCountInString(buf.String()) + 1
				buf.Reset()
				state = HostState
			} else {
				buf.WriteRune(c)
			}
		case HostState, HostnameState:
			if override != NoState && url.Scheme == "file" {
				p--
				state = fileHostState
			} else if c == ':' && !insideBrackets {
				if buf.Len() == 0 {
					return false
				}
				if override == HostnameState {
					return false
				}
				h, ok := parseHost(buf.String(), !special)
				if !ok {
					return false
				}
				url.Host, url.HasHost = h, true
				buf.Reset()
				state = PortState
			} else if c == -1 || c == '/' || c == '?' || c == '#' || (special && c == '\\') {
				p--
				if special && buf.Len() == 0 {
					return false
				} else if override != NoState && buf.Len() == 0 && (url.IncludesCredentials() || url.Port >= 0) {
					return false
				}
				h, ok := parseHost(buf.String(), !special)
				if !ok {
					return false
				}
				url.Host, url.HasHost = h, true
				buf.Reset()
				state = PathStartState
				if override != NoState {
					return true
				}
			} else {
				if c == '[' {
					insideBrackets = true
				} else if c == ']' {
					insideBrackets = false
				}
				buf.WriteRune(c)
			}
		case PortState:
			if isASCIIDigit(c) {
				buf.WriteRune(c)
			} else if c == -1 || c == '/' || c == '?' || c == '#' || (special && c == '\\') || override != NoState {
				if buf.Len() != 0 {
					digits := strings.TrimLeft(buf.String(), "0")
					n, err := strconv.Atoi("0" + digits)
					if err != nil || len(digits) > 5 || n > 65535 {
						return false
					}
					if n == defaultPort(url.Scheme) {
						url.Port = -1
					} else {
						url.Port = n
					}
					buf.Reset()
				}
				if override != NoState {
					return true
				}
				state = PathStartState
				p--
			} else {
				return false
			}
		case fileState:
			url.Scheme = "file"
			special = true
			url.Host, url.HasHost = "", true
			if c == '/' || c == '\\' {
				state = fileSlashState
			} else if base != nil && base.Scheme == "file" {
				url.Host, url.HasHost = base.Host, base.HasHost
				url.Path = append([]string(nil), base.Path...)
				url.Query, url.HasQuery = base.Query, base.HasQuery
				switch {
				case c == '?':
					url.Query, url.HasQuery = "", true
					state = QueryState
				case c == '#':
					url.Fragment, url.HasFragment = "", true
					state = FragmentState
				case c != -1:
					url.Query, url.HasQuery = "", false
					if !startsWithWindowsDriveLetter(in, p) {
						url.shortenPath()
					} else {
						url.Path = nil
					}
					state = pathState
					p--
				}
			} else {
				state = pathState
				p--
			}
		case fileSlashState:
			if c == '/' || c == '\\' {
				state = fileHostState
			} else {
				if base != nil && base.Scheme == "file" {
					url.Host, url.HasHost = base.Host, base.HasHost
					if !startsWithWindowsDriveLetter(in, p) && len(base.Path) > 0 && isWindowsDriveLetter(base.Path[0], true) {
						url.Path = append(url.Path, base.Path[0])
					}
				}
				state = pathState
				p--
			}
		case fileHostState:
			if c == -1 || c == '/' || c == '\\' || c == '?' || c == '#' {
				p--
				if override == NoState && isWindowsDriveLetter(buf.String(), false) {
					state = pathState
				} else if buf.Len() == 0 {
					url.Host, url.HasHost = "", true
					if override != NoState {
						return true
					}
					state = PathStartState
				} else {
					h, ok := parseHost(buf.String(), false)
					if !ok {
						return false
					}
					if h == "localhost" {
						h = ""
					}
					url.Host, url.HasHost = h, true
					if override != NoState {
						return true
					}
					buf.Reset()
					state = PathStartState
				}
			} else {
				buf.WriteRune(c)
			}
		case PathStartState:
			switch {
			case special:
				state = pathState
				if c != '/' && c != '\\' {
					p--
				}
			case override == NoState && c == '?':
				url.Query, url.HasQuery = "", true
				state = QueryState
			case override == NoState && c == '#':
				url.Fragment, url.HasFragment = "", true
				state = FragmentState
			case c != -1:
				state = pathState
				if c != '/' {
					p--
				}
			case override != NoState && !url.HasHost:
				url.Path = append(url.Path, "")
			}
		case pathState:
			if c == -1 || c == '/' || (special && c == '\\') || (override == NoState && (c == '?' || c == '#')) {
				seg := buf.String()
				slash := c == '/' || (special && c == '\\')
				switch {
				case isDoubleDot(seg):
					url.shortenPath()
					if !slash {
						url.Path = append(url.Path, "")
					}
				case isSingleDot(seg) && !slash:
					url.Path = append(url.Path, "")
				case !isSingleDot(seg):
					if url.Scheme == "file" && len(url.Path) == 0 && isWindowsDriveLetter(seg, false) {
						seg = seg[:1] + ":"
					}
					url.Path = append(url.Path, seg)
				}
				buf.Reset()
				if c == '?' {
					url.Query, url.HasQuery = "", true
					state = QueryState
				} else if c == '#' {
					url.Fragment, url.HasFragment = "", true
					state = FragmentState
				}
			} else {
				buf.WriteString(percentEncodeRune(c, inPathSet))
			}
		case opaquePathState:
			switch {
			case c == '?':
				url.Query, url.HasQuery = "", true
				state = QueryState
			case c == '#':
				url.Fragment, url.HasFragment = "", true
				state = FragmentState
			case c != -1:
				url.OpaquePath += percentEncodeRune(c, inC0ControlSet)
			}
		case QueryState:
			if (override == NoState && c == '#') || c == -1 {
				set := inQuerySet
				if special {
					set = inSpecialQuerySet
				}
				url.Query += PercentEncode(buf.String(), set)
				url.HasQuery = true
				buf.Reset()
				if c == '#' {
					url.Fragment, url.HasFragment = "", true
					state = FragmentState
				}
			} else if c != -1 {
				buf.WriteRune(c)
			}
		case FragmentState:
			if c != -1 {
				url.Fragment += percentEncodeRune(c, inFragmentSet)
			}
		}
		if p >= len(in) {
			break
		}
	}
	return true
}

// idnaProfile is WHATWG's "domain to ASCII" with beStrict false: UTS #46 processing,
// non-transitional, hyphens and DNS lengths not checked, STD3 rules off, Bidi and joiner
// rules on.
var idnaProfile = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.CheckHyphens(false),
	idna.BidiRule(), idna.CheckJoiners(true), idna.StrictDomainName(false), idna.VerifyDNSLength(false))

// forbiddenHost reports forbidden host code points (forbidden domain code points add C0
// controls, '%' and DEL).
func forbiddenHost(r rune, domain bool) bool {
	switch r {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	if domain && (r <= 0x1F || r == '%' || r == 0x7F) {
		return true
	}
	return false
}

// parseHost is the host parser: it returns the serialized host.
func parseHost(input string, notSpecial bool) (string, bool) {
	if strings.HasPrefix(input, "[") {
		if !strings.HasSuffix(input, "]") {
			return "", false
		}
		a, ok := parseIPv6(input[1 : len(input)-1])
		if !ok {
			return "", false
		}
		return "[" + serializeIPv6(a) + "]", true
	}
	if notSpecial {
		for _, r := range input {
			if r != '%' && forbiddenHost(r, false) {
				return "", false
			}
		}
		return PercentEncode(input, inC0ControlSet), true
	}
	domain := strings.ToValidUTF8(string(PercentDecode(input)), "\uFFFD")
	ascii, err := idnaProfile.ToASCII(domain)
	if err != nil || ascii == "" {
		return "", false
	}
	for _, r := range ascii {
		if forbiddenHost(r, true) {
			return "", false
		}
	}
	if endsInANumber(ascii) {
		v, ok := parseIPv4(ascii)
		if !ok {
			return "", false
		}
		return serializeIPv4(v), true
	}
	return ascii, true
}

// endsInANumber is the "ends in a number" checker.
func endsInANumber(s string) bool {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseIPv4Number parses one IPv4 part: decimal, 0x hexadecimal or 0-prefixed octal.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	if len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X") {
		s, base = s[2:], 16
	} else if len(s) >= 2 && s[0] == '0' {
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		// digits valid for the base but too large still make a number (failure later)
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 1 << 40, true
		}
		return 0, false
	}
	return n, true
}

// parseIPv4 is the IPv4 parser.
func parseIPv4(s string) (uint32, bool) {
	parts := strings.Split(s, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return 0, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return 0, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return 0, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return 0, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return uint32(v), true
}

// serializeIPv4 writes a.b.c.d.
func serializeIPv4(v uint32) string {
	return strconv.Itoa(int(v>>24)) + "." + strconv.Itoa(int(v>>16&255)) + "." +
		strconv.Itoa(int(v>>8&255)) + "." + strconv.Itoa(int(v&255))
}

// parseIPv6 is the IPv6 parser.
func parseIPv6(s string) ([8]uint16, bool) {
	var a [8]uint16
	in := []rune(s)
	piece, compress := 0, -1
	p := 0
	at := func(i int) rune {
		if i < len(in) {
			return in[i]
		}
		return -1
	}
	if at(p) == ':' {
		if at(p+1) != ':' {
			return a, false
		}
		p += 2
		piece++
		compress = piece
	}
	for at(p) != -1 {
		if piece == 8 {
			return a, false
		}
		if at(p) == ':' {
			if compress != -1 {
				return a, false
			}
			p++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && at(p) >= 0 && at(p) < 128 && isHex(byte(at(p))) {
			value = value*16 + int(unhex(byte(at(p))))
			p++
			length++
		}
		if at(p) == '.' {
			if length == 0 {
				return a, false
			}
			p -= length
			if piece > 6 {
				return a, false
			}
			numbersSeen := 0
			for at(p) != -1 {
				ipv4Piece := -1
				if numbersSeen > 0 {
					if at(p) == '.' && numbersSeen < 4 {
						p++
					} else {
						return a, false
					}
				}
				if !isASCIIDigit(at(p)) {
					return a, false
				}
				for isASCIIDigit(at(p)) {
					n := int(at(p) - '0')
					if ipv4Piece == -1 {
						ipv4Piece = n
					} else if ipv4Piece == 0 {
						return a, false
					} else {
						ipv4Piece = ipv4Piece*10 + n
					}
					if ipv4Piece > 255 {
						return a, false
					}
					p++
				}
				a[piece] = a[piece]*0x100 + uint16(ipv4Piece)
				numbersSeen++
				if numbersSeen == 2 || numbersSeen == 4 {
					piece++
				}
			}
			if numbersSeen != 4 {
				return a, false
			}
			break
		} else if at(p) == ':' {
			p++
			if at(p) == -1 {
				return a, false
			}
		} else if at(p) != -1 {
			return a, false
		}
		a[piece] = uint16(value)
		piece++
	}
	if compress != -1 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			a[piece], a[compress+swaps-1] = a[compress+swaps-1], a[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return a, false
	}
	return a, true
}

// serializeIPv6 writes the address with the first longest run of zero pieces compressed.
func serializeIPv6(a [8]uint16) string {
	best, bestLen := -1, 1
	for i := 0; i < 8; {
		if a[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && a[j] == 0 {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	var b strings.Builder
	ignore0 := false
	for i := 0; i < 8; i++ {
		if ignore0 && a[i] == 0 {
			continue
		}
		ignore0 = false
		if i == best {
			if i == 0 {
				b.WriteString("::")
			} else {
				b.WriteString(":")
			}
			ignore0 = true
			continue
		}
		b.WriteString(strconv.FormatUint(uint64(a[i]), 16))
		if i != 7 {
			b.WriteByte(':')
		}
	}
	return b.String()
}

// PathString serializes the path.
func (u *URL) PathString() string {
	if u.Opaque {
		return u.OpaquePath
	}
	var b strings.Builder
	for _, s := range u.Path {
		b.WriteByte('/')
		b.WriteString(s)
	}
	return b.String()
}

// Href is the URL serializer.
func (u *URL) Href() string {
	var b strings.Builder
	b.WriteString(u.Scheme)
	b.WriteByte(':')
	if u.HasHost {
		b.WriteString("//")
		if u.IncludesCredentials() {
			b.WriteString(u.Username)
			if u.Password != "" {
				b.WriteByte(':')
				b.WriteString(u.Password)
			}
			b.WriteByte('@')
		}
		b.WriteString(u.Host)
		if u.Port >= 0 {
			b.WriteByte(':')
			b.WriteString(strconv.Itoa(u.Port))
		}
	} else if !u.Opaque && len(u.Path) > 1 && u.Path[0] == "" {
		b.WriteString("/.")
	}
	b.WriteString(u.PathString())
	if u.HasQuery {
		b.WriteByte('?')
		b.WriteString(u.Query)
	}
	if u.HasFragment {
		b.WriteByte('#')
		b.WriteString(u.Fragment)
	}
	return b.String()
}

// Origin is the ASCII serialization of the URL's origin ("null" when opaque).
func (u *URL) Origin() string {
	switch u.Scheme {
	case "http", "https", "ws", "wss", "ftp":
		s := u.Scheme + "://" + u.Host
		if u.Port >= 0 {
			s += ":" + strconv.Itoa(u.Port)
		}
		return s
	case "blob":
		var inner URL
		if Parse(u.PathString(), nil, &inner, NoState) && (inner.Scheme == "http" || inner.Scheme == "https") {
			return inner.Origin()
		}
	}
	return "null"
}
