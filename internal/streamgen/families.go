package streamgen

// Family is one kind of content a stream can contain: a sequence family
// from the vt issue, a kind of text, or a kind of chunk boundary.
type Family uint8

// The families. Each generator operation reports the one it exercised.
const (
	Printable      Family = iota // printable ASCII runs
	Wide                         // wide CJK and emoji
	Combining                    // combining marks, variation selectors
	Joiner                       // zero width joiner sequences
	NarrowUTF8                   // other one-column non-ASCII characters
	Unprintable                  // valid UTF-8 that wcwidth calls non-printable
	BrokenUTF8                   // invalid or interrupted UTF-8
	BS                           // C0 BS
	HT                           // C0 HT
	LF                           // C0 LF
	VT                           // C0 VT
	FF                           // C0 FF
	CR                           // C0 CR
	SO                           // C0 SO (shift to G1)
	SI                           // C0 SI (shift to G0)
	OtherC0                      // NUL, BEL, DEL and C0 controls without an effect
	CUU                          // CSI A
	CUD                          // CSI B
	CUF                          // CSI C
	CUB                          // CSI D
	CNL                          // CSI E
	CPL                          // CSI F
	CHA                          // CSI G
	CUP                          // CSI H
	HVP                          // CSI f
	VPA                          // CSI d
	HPA                          // CSI `
	ED                           // CSI J
	EL                           // CSI K
	ECH                          // CSI X
	ICH                          // CSI @
	DCH                          // CSI P
	IL                           // CSI L
	DL                           // CSI M
	SU                           // CSI S
	SD                           // CSI T
	REP                          // CSI b
	DECSTBM                      // CSI r
	IND                          // ESC D
	RI                           // ESC M
	NEL                          // ESC E
	DECSC                        // ESC 7
	DECRC                        // ESC 8
	HTS                          // ESC H
	TBC                          // CSI g
	CHT                          // CSI I (tmux 3.3a ignores it)
	CBT                          // CSI Z
	SGR                          // CSI m with ; parameters
	SGRColon                     // CSI m with : sub-parameters (38:2::r:g:b, 4:3)
	SGRExtended                  // CSI m with 256-colour and RGB colours
	DECCKM                       // DECSET/DECRST 1
	DECOM                        // DECSET/DECRST 6
	DECAWM                       // DECSET/DECRST 7
	DECTCEM                      // DECSET/DECRST 25
	Alt47                        // DECSET/DECRST 47
	Alt1047                      // DECSET/DECRST 1047
	Save1048                     // DECSET/DECRST 1048 (tmux 3.3a ignores it)
	Alt1049                      // DECSET/DECRST 1049
	BracketedPaste               // DECSET/DECRST 2004
	Mouse                        // DECSET/DECRST 1000-1006
	Focus                        // DECSET/DECRST 1004
	SyncUpdate                   // DECSET/DECRST 2026 (tmux 3.3a ignores it)
	IRM                          // SM/RM 4
	DECGraphics                  // ESC ( 0, ESC ( B, ESC ) 0 and other designations
	RIS                          // ESC c
	DECSTR                       // CSI ! p (tmux 3.3a ignores it)
	Title                        // OSC 0 and OSC 2
	Hyperlink                    // OSC 8
	OtherOSC                     // other OSC numbers
	UnknownCSI                   // queries, unknown finals, private and intermediate forms
	UnknownESC                   // ESC with unknown finals or intermediates
	Interrupted                  // a sequence cut short by CAN, SUB, ESC or a C0 inside it
	Oversized                    // too many or too large parameters (tmux drops the sequence)
	DCS                          // ESC P ... ST
	APC                          // ESC _ ... ST (tmux sets the title)
	PMSOS                        // ESC ^ and ESC X strings
	ScreenTitle                  // ESC k ... ST (tmux renames the window)
	DECALN                       // ESC # 8 (tmux fills the screen with E)
	DECCOLM                      // DECSET/DECRST 3 (tmux homes the cursor and clears)
	SaveRestoreCSI               // CSI s and CSI u (tmux saves and restores the cursor)
	WideEdit                     // wide characters, then the cursor on one half and an edit there
	PendingWrap                  // a row filled to the last column, leaving a pending wrap
	SplitSequence                // a chunk boundary inside an escape sequence
	SplitUTF8                    // a chunk boundary inside a UTF-8 character
	numFamilies
)

var familyNames = [numFamilies]string{
	Printable: "printable ASCII", Wide: "wide characters", Combining: "combining marks",
	Joiner: "zero width joiner", NarrowUTF8: "narrow UTF-8", Unprintable: "unprintable UTF-8",
	BrokenUTF8: "broken UTF-8",
	BS:         "BS", HT: "HT", LF: "LF", VT: "VT", FF: "FF", CR: "CR", SO: "SO", SI: "SI",
	OtherC0: "other C0/DEL",
	CUU:     "CUU", CUD: "CUD", CUF: "CUF", CUB: "CUB", CNL: "CNL", CPL: "CPL", CHA: "CHA",
	CUP: "CUP", HVP: "HVP", VPA: "VPA", HPA: "HPA",
	ED: "ED", EL: "EL", ECH: "ECH", ICH: "ICH", DCH: "DCH", IL: "IL", DL: "DL", SU: "SU",
	SD: "SD", REP: "REP", DECSTBM: "DECSTBM", IND: "IND", RI: "RI", NEL: "NEL",
	DECSC: "DECSC", DECRC: "DECRC", HTS: "HTS", TBC: "TBC", CHT: "CHT", CBT: "CBT",
	SGR: "SGR", SGRColon: "SGR colon sub-parameters", SGRExtended: "SGR 256/RGB colours",
	DECCKM: "DECSET 1", DECOM: "DECSET 6", DECAWM: "DECSET 7", DECTCEM: "DECSET 25",
	Alt47: "DECSET 47", Alt1047: "DECSET 1047", Save1048: "DECSET 1048", Alt1049: "DECSET 1049",
	BracketedPaste: "DECSET 2004", Mouse: "DECSET 1000-1006", Focus: "DECSET 1004",
	SyncUpdate: "DECSET 2026", IRM: "IRM", DECGraphics: "DEC special graphics",
	RIS: "RIS", DECSTR: "DECSTR", Title: "OSC 0/2 title", Hyperlink: "OSC 8 link",
	OtherOSC: "other OSC", UnknownCSI: "unknown/query CSI", UnknownESC: "unknown ESC",
	Interrupted: "interrupted sequence", Oversized: "oversized parameters",
	DCS: "DCS", APC: "APC", PMSOS: "PM/SOS", ScreenTitle: "ESC k name",
	DECALN: "DECALN", DECCOLM: "DECSET 3", SaveRestoreCSI: "CSI s/u",
	WideEdit: "edit over wide characters", PendingWrap: "pending wrap",
	SplitSequence: "chunk split in a sequence", SplitUTF8: "chunk split in UTF-8",
}

// String returns the family's name.
func (f Family) String() string {
	if f < numFamilies {
		return familyNames[f]
	}
	return "unknown family"
}

// Families returns every family, in order.
func Families() []Family {
	all := make([]Family, numFamilies)
	for i := range all {
		all[i] = Family(i)
	}
	return all
}

// Set is a set of families.
type Set [2]uint64

// Add adds f.
func (s *Set) Add(f Family) { s[f/64] |= 1 << (f % 64) }

// Has reports whether f is in s.
func (s Set) Has(f Family) bool { return s[f/64]&(1<<(f%64)) != 0 }

// List returns the members in order.
func (s Set) List() []Family {
	var out []Family
	for f := Family(0); f < numFamilies; f++ {
		if s.Has(f) {
			out = append(out, f)
		}
	}
	return out
}
