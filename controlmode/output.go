package controlmode

import "bytes"

// appendUnescaped appends the bytes a %output payload stands for to dst.
//
// tmux 3.3a (control.c, control_append_data) writes every byte below 0x20
// and the backslash as "\" plus exactly three octal digits and every other
// byte raw (DEL and 0x80-0xff included). So the only escape is "\ooo". A
// backslash not followed by three octal digits of a byte value cannot come
// from tmux; it is kept as a literal backslash. Printable runs are copied
// in bulk.
func appendUnescaped(dst, src []byte) []byte {
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\\')
		if i < 0 {
			return append(dst, src...)
		}
		dst = append(dst, src[:i]...)
		src = src[i:]
		if v, ok := octal3(src); ok {
			dst = append(dst, v)
			src = src[4:]
			continue
		}
		dst = append(dst, '\\')
		src = src[1:]
	}
	return dst
}

// octal3 decodes "\ooo" at the start of b (a value up to 0377).
func octal3(b []byte) (byte, bool) {
	if len(b) < 4 || b[1] < '0' || b[1] > '3' || !isOctal(b[2]) || !isOctal(b[3]) {
		return 0, false
	}
	return (b[1]-'0')<<6 | (b[2]-'0')<<3 | (b[3] - '0'), true
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }

// AppendEscaped appends data escaped the way tmux writes %output payloads.
// It is the inverse of the decoder's unescaping, used by tests and by
// tools that write control-mode transcripts.
func AppendEscaped(dst, data []byte) []byte {
	for _, c := range data {
		if c < ' ' || c == '\\' {
			dst = append(dst, '\\', '0'+c>>6, '0'+(c>>3)&7, '0'+c&7)
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// UnescapeC decodes text that tmux escaped with capture-pane -C (the
// pending-input capture): the same "\ooo" rule as %output.
func UnescapeC(s []byte) []byte { return appendUnescaped(nil, s) }
