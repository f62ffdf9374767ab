package vt

// The parser turns bytes into calls on a performer, following the DEC/Paul
// Williams state diagram (vt100.net/emu/dec_ansi_parser) as tmux 3.3a's
// input.c implements it, because tmux is what the person looking at the pane
// sees. Deviations from the Williams diagram, all shared with tmux 3.3a:
//
//   - 7-bit only: C1 controls (0x80-0x9f) are not controls; bytes >= 0x80 in
//     ground are UTF-8, decoded by the rules in utf8.go (broken sequences are
//     dropped, never shown as U+FFFD).
//   - BEL (0x07) ends an OSC string as well as ST.
//   - An ESC inside OSC/APC/SOS/PM/rename strings ends the string at once
//     (the following byte starts a new escape sequence).
//   - ESC k starts tmux's window-rename string, ESC X and ESC ^ (SOS, PM) are
//     consumed up to ST; APC has its own string state. All are ignored here.
//   - DCS strings are collected and ignored; there is no passthrough.
//   - CSI private markers (< = > ?) are intermediates keyed with the final
//     byte, and a colon in a DCS header sends it to dcs_ignore.
//   - Parameter bytes are kept raw (at most 63) and split as they arrive
//     with input_split's rules; a sequence that overflows, has 24 or more
//     parameters or a number above 2^31-1 is dropped whole, as tmux drops it.
//   - No timeout returns a stuck string state to ground (tmux has one of
//     several seconds); a pane's stream decides, as it does for tmux.
type parserState uint8

const (
	stGround parserState = iota
	stEscape
	stEscapeIntermediate
	stCSIEntry
	stCSIParam
	stCSIIntermediate
	stCSIIgnore
	stDCSEntry
	stDCSParam
	stDCSIntermediate
	stDCSPassthrough
	stDCSEscape
	stDCSIgnore
	stOSCString
	stAPCString    // ESC _
	stRenameString // ESC k (tmux's window name)
	stConsumeST    // ESC X (SOS) and ESC ^ (PM)
	numStates
)

var stateNames = [numStates]string{
	"ground", "escape", "escape_intermediate", "csi_entry", "csi_param",
	"csi_intermediate", "csi_ignore", "dcs_entry", "dcs_param",
	"dcs_intermediate", "dcs_passthrough", "dcs_escape", "dcs_ignore",
	"osc_string", "apc_string", "rename_string", "consume_st",
}

func (s parserState) String() string {
	if s < numStates {
		return stateNames[s]
	}
	return "invalid"
}

const (
	maxParamBytes  = 63      // tmux's param_buf is 64 bytes with a NUL
	maxIntermBytes = 3       // tmux's interm_buf is 4 bytes with a NUL
	maxStringBytes = 1 << 20 // tmux's INPUT_BUF_LIMIT: longer OSC/APC strings are dropped
	maxParams      = 24      // tmux's param_list; 24 or more parameters drop the sequence
)

// performer receives what the parser recognises. The parser assigns no
// meaning; the Screen does.
type performer interface {
	// printASCII prints the run of bytes 0x20-0x7e that data starts with
	// (at least one) and returns its length. The performer finds the end
	// of the run itself so that a screen reads the bytes once, as it
	// writes them (asciiRun finds it for others).
	printASCII(data []byte) int
	// printRune prints one decoded non-ASCII character of display width
	// 0, 1 or 2 (characters tmux would drop never arrive here).
	printRune(r rune, width int)
	// printNarrow prints a run of decoded non-ASCII characters of width 1.
	printNarrow(run []rune)
	execute(b byte)
	// escDispatch and csiDispatch report whether the sequence was known:
	// tmux forgets the REP character only after a known one.
	escDispatch(final byte, interm []byte) bool
	csiDispatch(final byte, interm []byte, params *params) bool
	oscDispatch(data []byte)
	// apcDispatch receives an APC string: tmux takes it as the pane title.
	apcDispatch(data []byte)
}

// parser is the byte-level state machine. Its zero value is in ground.
type parser struct {
	state  parserState
	utf8   utf8Decoder
	interm [maxIntermBytes]byte
	nInter uint8
	// discard is tmux's INPUT_DISCARD: an overflow that makes the pending
	// sequence be ignored at dispatch.
	discard bool
	raw     [maxParamBytes]byte
	nRaw    uint8
	str     []byte // OSC payload, reused, capped at maxStringBytes
	params  params
	runes   [64]rune // printNarrow's buffer
	// last is the last printable ASCII byte for REP, 0 when there is none
	// (tmux's ictx->last): any other input but an unknown sequence clears it.
	last byte
}

// clear starts a new escape sequence (tmux's input_clear).
func (p *parser) clear() {
	p.nInter = 0
	p.nRaw = 0
	p.params.reset()
	p.discard = false
	p.str = p.str[:0]
}

func (p *parser) collectInterm(b byte) {
	if int(p.nInter) == maxIntermBytes {
		p.discard = true
		return
	}
	p.interm[p.nInter] = b
	p.nInter++
}

func (p *parser) collectParam(b byte) {
	if int(p.nRaw) == maxParamBytes {
		p.discard = true
		return
	}
	p.raw[p.nRaw] = b
	p.params.add(b, int(p.nRaw))
	p.nRaw++
}

func (p *parser) collectString(b byte) {
	if len(p.str) >= maxStringBytes {
		p.discard = true
		return
	}
	p.str = append(p.str, b)
}

// feed runs every byte of data through the state machine.
func (p *parser) feed(data []byte, perf performer) {
	for i := 0; i < len(data); {
		switch p.state {
		case stGround:
			i += p.ground(data[i:], perf)
			continue
		case stCSIEntry, stCSIParam:
			if n := p.csiFast(data[i:], perf); n > 0 {
				i += n
				continue
			}
		}
		p.step(data[i], perf)
		i++
	}
}

// csiFast takes the parameter bytes and the final byte of a CSI sequence,
// which are most of it, without the state switch. It returns how many
// bytes it consumed; anything else (and a full parameter buffer) is left
// to step.
func (p *parser) csiFast(data []byte, perf performer) int {
	// The parameter bytes are read into locals here (params.add does the
	// same byte by byte): this loop is the hottest in agent redraws.
	ps := &p.params
	n, nRaw, num := 0, int(p.nRaw), ps.num
	for n < len(data) && nRaw < maxParamBytes {
		c := data[n]
		if c < '0' || c > ';' {
			break
		}
		p.raw[nRaw] = c
		switch {
		case c <= '9':
			num = num*10 + int(c-'0')
			if num > maxInt32 {
				ps.overflow, num = true, maxInt32
			}
		case c == ':':
			ps.colon = true
		default:
			ps.num = num
			ps.endField(nRaw)
			num = 0
		}
		nRaw++
		n++
	}
	p.nRaw, ps.num = uint8(nRaw), num
	if n > 0 {
		p.state = stCSIParam
	}
	if n < len(data) && data[n] >= 0x40 && data[n] <= 0x7e {
		p.dispatchCSI(data[n], perf)
		n++
	}
	return n
}

// step handles one byte in any state but ground.
func (p *parser) step(b byte, perf performer) {
	if p.anywhere(b, perf) {
		return
	}
	switch p.state {
	case stEscape:
		p.escape(b, perf)
	case stEscapeIntermediate:
		p.escapeIntermediate(b, perf)
	case stCSIEntry:
		p.csiEntry(b, perf)
	case stCSIParam:
		p.csiParam(b, perf)
	case stCSIIntermediate:
		p.csiIntermediate(b, perf)
	case stCSIIgnore:
		p.csiIgnore(b, perf)
	case stDCSEntry:
		p.dcsEntry(b)
	case stDCSParam:
		p.dcsParam(b)
	case stDCSIntermediate:
		p.dcsIntermediate(b)
	case stDCSPassthrough:
		p.dcsPassthrough(b)
	case stDCSEscape:
		p.dcsEscape(b)
	case stDCSIgnore:
		// Everything up to ESC, CAN or SUB (handled by anywhere) is dropped.
	case stOSCString:
		p.oscString(b, perf)
	case stAPCString:
		if b >= 0x20 {
			p.collectString(b)
		}
	case stRenameString, stConsumeST:
		// tmux's window name, or ignored: nothing for a screen.
	}
}

// anywhere applies the transitions shared by every state but ground and the
// DCS passthrough/escape pair: CAN and SUB cancel to ground, ESC starts a new
// sequence and ends any string in progress.
func (p *parser) anywhere(b byte, perf performer) bool {
	if p.state == stDCSPassthrough || p.state == stDCSEscape {
		return false
	}
	switch b {
	case 0x18, 0x1a:
		p.leaveString(perf)
		p.execute(b, perf)
		p.state = stGround
		return true
	case 0x1b:
		p.leaveString(perf)
		p.clear()
		p.state = stEscape
		return true
	}
	return false
}

// leaveString runs the exit action of a string state: tmux dispatches an OSC
// whenever its state is left, however it ends.
func (p *parser) leaveString(perf performer) {
	if p.discard {
		return
	}
	switch p.state {
	case stOSCString:
		perf.oscDispatch(p.str)
	case stAPCString:
		perf.apcDispatch(p.str)
	default:
		return
	}
	if cap(p.str) > 64<<10 {
		p.str = nil // a huge string once does not pin its buffer
	}
}

// stringStates maps the byte after ESC to the string state it starts.
var stringStates = [128]parserState{
	'P': stDCSEntry, 'X': stConsumeST, '^': stConsumeST,
	']': stOSCString, '_': stAPCString, 'k': stRenameString,
}

func isC0Execute(b byte) bool { return b <= 0x17 || b == 0x19 || (b >= 0x1c && b <= 0x1f) }

func (p *parser) escape(b byte, perf performer) {
	switch {
	case isC0Execute(b):
		p.execute(b, perf)
	case b <= 0x2f:
		p.collectInterm(b)
		p.state = stEscapeIntermediate
	case b == '[':
		p.clear()
		p.state = stCSIEntry
	case b == 'P' || b == 'X' || b == '^' || b == ']' || b == '_' || b == 'k':
		// Entering a string forgets the REP character, as in tmux.
		p.clear()
		p.last = 0
		p.state = stringStates[b]
	case b <= 0x7e:
		p.dispatchEsc(b, perf)
	default:
		// DEL and bytes >= 0x80 are ignored in escape states.
	}
}

func (p *parser) escapeIntermediate(b byte, perf performer) {
	switch {
	case isC0Execute(b):
		p.execute(b, perf)
	case b <= 0x2f:
		p.collectInterm(b)
	case b <= 0x7e:
		p.dispatchEsc(b, perf)
	}
}

func (p *parser) dispatchEsc(final byte, perf performer) {
	p.state = stGround
	if p.discard {
		return
	}
	if perf.escDispatch(final, p.interm[:p.nInter]) {
		p.last = 0
	}
}

func (p *parser) csiEntry(b byte, perf performer) {
	switch {
	case isC0Execute(b):
		p.execute(b, perf)
	case b <= 0x2f:
		p.collectInterm(b)
		p.state = stCSIIntermediate
	case b <= 0x3b:
		p.collectParam(b)
		p.state = stCSIParam
	case b <= 0x3f:
		p.collectInterm(b)
		p.state = stCSIParam
	case b <= 0x7e:
		p.dispatchCSI(b, perf)
	}
}

func (p *parser) csiParam(b byte, perf performer) {
	switch {
	case isC0Execute(b):
		p.execute(b, perf)
	case b <= 0x2f:
		p.collectInterm(b)
		p.state = stCSIIntermediate
	case b <= 0x3b:
		p.collectParam(b)
	case b <= 0x3f:
		p.state = stCSIIgnore
	case b <= 0x7e:
		p.dispatchCSI(b, perf)
	}
}

func (p *parser) csiIntermediate(b byte, perf performer) {
	switch {
	case isC0Execute(b):
		p.execute(b, perf)
	case b <= 0x2f:
		p.collectInterm(b)
	case b <= 0x3f:
		p.state = stCSIIgnore
	case b <= 0x7e:
		p.dispatchCSI(b, perf)
	}
}

func (p *parser) csiIgnore(b byte, perf performer) {
	switch {
	case isC0Execute(b):
		p.execute(b, perf)
	case b >= 0x40 && b <= 0x7e:
		p.state = stGround
	}
}

func (p *parser) dispatchCSI(final byte, perf performer) {
	p.state = stGround
	if p.discard {
		return
	}
	if !p.params.finish(p.raw[:p.nRaw]) {
		return
	}
	if perf.csiDispatch(final, p.interm[:p.nInter], &p.params) {
		p.last = 0
	}
}

func (p *parser) dcsEntry(b byte) {
	switch {
	case b <= 0x1f:
		// C0 controls are ignored inside a DCS header.
	case b <= 0x2f:
		p.collectInterm(b)
		p.state = stDCSIntermediate
	case b == ':':
		p.state = stDCSIgnore
	case b <= 0x3b:
		p.collectParam(b)
		p.state = stDCSParam
	case b <= 0x3f:
		p.collectInterm(b)
		p.state = stDCSParam
	case b <= 0x7e:
		p.state = stDCSPassthrough
	}
}

func (p *parser) dcsParam(b byte) {
	switch {
	case b <= 0x1f:
	case b <= 0x2f:
		p.collectInterm(b)
		p.state = stDCSIntermediate
	case b == ':' || (b >= 0x3c && b <= 0x3f):
		p.state = stDCSIgnore
	case b <= 0x3b:
		p.collectParam(b)
	case b <= 0x7e:
		p.state = stDCSPassthrough
	}
}

func (p *parser) dcsIntermediate(b byte) {
	switch {
	case b <= 0x1f:
	case b <= 0x2f:
		p.collectInterm(b)
	case b <= 0x3f:
		p.state = stDCSIgnore
	case b <= 0x7e:
		p.state = stDCSPassthrough
	}
}

// dcsPassthrough has no "anywhere" transitions: only ESC \ ends it.
func (p *parser) dcsPassthrough(b byte) {
	if b == 0x1b {
		p.state = stDCSEscape
	}
}

func (p *parser) dcsEscape(b byte) {
	if b == '\\' {
		p.state = stGround
		return
	}
	p.state = stDCSPassthrough
}

func (p *parser) oscString(b byte, perf performer) {
	switch {
	case b == 0x07:
		p.leaveString(perf)
		p.state = stGround
	case b < 0x20:
		// Other C0 controls are ignored inside the string.
	default:
		p.collectString(b)
	}
}

// csiWhole reads a CSI sequence of plain numeric parameters that lies
// whole at the start of data (ESC [ params final), the form nearly every
// sequence of an agent TUI's redraw takes, in one pass without the state
// machine, and dispatches it. It returns how many bytes it consumed, or 0
// having changed nothing: for a sequence cut off by the end of data, with a
// private marker, an intermediate, a colon or a C0 control, or one that
// tmux would drop (see dispatchCSI); the state machine then reads it byte
// by byte and decides the same way tmux does.
func (p *parser) csiWhole(data []byte, perf performer) int {
	const first = 2 // after ESC [
	ps := &p.params
	i, n := first, 0
	if i < len(data) && isFinal(data[i]) {
		i++ // no parameters at all
	} else {
		for {
			// One field: digits or none. Nine digits cannot pass 2^31-1,
			// so longer numbers are left to the overflow check.
			start, v := i, 0
			for i < len(data) && data[i]-'0' < 10 {
				v = v*10 + int(data[i]-'0')
				i++
			}
			if i == len(data) || i-start > 9 {
				return 0
			}
			kind := paramMissing
			if i != start {
				kind = paramNumber
			}
			ps.list[n] = param{kind: kind, num: int32(v)}
			n++
			c := data[i]
			i++
			if c == ';' {
				if n == maxParams-1 {
					return 0 // a 24th parameter follows
				}
				continue
			}
			if !isFinal(c) || i-1-first > maxParamBytes {
				return 0
			}
			break
		}
	}
	ps.n, ps.raw = n, nil
	if perf.csiDispatch(data[i-1], p.interm[:0], ps) {
		p.last = 0
	}
	return i
}

func isFinal(b byte) bool { return b >= 0x40 && b <= 0x7e }

func isPrintASCII(b byte) bool { return b >= 0x20 && b < 0x7f }

// asciiRun is the length of the run of printable ASCII data starts with.
func asciiRun(data []byte) int {
	n := 0
	for n < len(data) && isPrintASCII(data[n]) {
		n++
	}
	return n
}
