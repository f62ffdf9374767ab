package recognizers

import (
	"sync"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/vt"
)

// Recognize reads scr under profile p and returns what it shows. Public
// ids are derived with key. It reads the whole screen and leaves it
// untouched; a Recognizer does the same incrementally.
func Recognize(p Profile, scr *vt.Screen, key Key) Recognition {
	g := grids.Get().(*Grid)
	g.load(scr, true)
	out := recognizeGrid(p, g, scr, key, nil)
	g.scr = nil // the pool must not keep the screen alive
	grids.Put(g)
	return out
}

// grids holds the grids of one-shot recognitions for reuse: a 120x40
// grid's cells alone are 29 KB. A recognition shares no memory with its
// grid (labels and drafts are built as new strings).
var grids = sync.Pool{New: func() any { return new(Grid) }}

// fingerprinter returns a region's fingerprint, or ok false to have it
// computed.
type fingerprinter func(Region) (fp [32]byte, ok bool)

func recognizeGrid(p Profile, g *Grid, scr *vt.Screen, key Key, cached fingerprinter) Recognition {
	out := Recognition{Agent: p.Agent, Version: p.Version, Exact: p.Exact, Profile: p.ID(),
		ScreenState: contract.ScreenUnknown, Composer: contract.ComposerAbsent}
	if p.grammar == nil {
		out.Warnings = []string{"no profile for agent " + p.Agent}
		return out
	}
	p.grammar.Recognize(g, &out)
	out.Reasons = append(out.Reasons, secretReasons(out.Prompt)...)
	if !out.Region.Empty() {
		var ok bool
		if cached != nil {
			out.Fingerprint, ok = cached(out.Region)
		}
		if !ok {
			out.Fingerprint = scr.Fingerprint(vt.Rect{X: 0, Y: out.Region.Top, W: g.w, H: out.Region.Rows})
		}
	}
	out.Surface = SurfaceOf(&out)
	switch q := p.qual; {
	case !p.Exact:
		out.unproven(NewReason(ReasonUnknownVersion, p.Version), p.Agent+" "+p.Version+
			" has no exact profile: states are read with the generic "+p.Agent+" profile and every interaction is manual_required"+
			" (unqualified: `akk qualify "+p.Agent+"` can qualify this binary)")
	case q != nil:
		out.QualifiedAs, out.Qualification = q.Base, &q.Qualification
		if !q.passes(out.Surface) {
			out.unproven(NewReason(ReasonUnqualifiedSurface, string(out.Surface)), p.Agent+" "+p.Version+
				" is qualified as "+q.Base+" on other surfaces than this one ("+out.Surface.Name()+
				"): it is read with "+q.Base+"'s profile and gets no input here")
		}
	}
	if out.Prompt != nil {
		out.project(ids{key: key, profile: []byte(p.ID() + "@" + p.Version), fp: out.Fingerprint[:]})
	}
	return out
}

// unproven makes a reading that proves nothing to act on: a generic
// profile's, or a qualified binary's on a surface its qualification did
// not pass. No draft's shape is proven (nothing is cleared), no
// completion or picker row known, no list proven absent, no status result
// read, and its interaction, if any, is manual_required for why.
func (out *Recognition) unproven(why Reason, warning string) {
	out.Exact = false
	out.Clear, out.Completion, out.NoCompletion, out.Picker, out.Status = nil, "", false, nil, nil
	out.Warnings = append(out.Warnings, warning)
	if out.Prompt != nil {
		out.Reasons = append(out.Reasons, why)
	}
}

// Recognizer recognizes one pane's screen again and again, reading only
// the rows that changed. It consumes the screen's dirty rows: it clears
// them after each recognition, so nothing else may rely on them. When
// nothing changed since the last call it returns the last recognition
// without allocating. Not safe for concurrent use.
type Recognizer struct {
	p      Profile
	key    Key
	g      Grid
	scr    *vt.Screen
	cursor vt.Cursor
	alt    bool
	last   Recognition
	ok     bool
}

// NewRecognizer returns a Recognizer for profile p deriving ids with key.
func NewRecognizer(p Profile, key Key) *Recognizer { return &Recognizer{p: p, key: key} }

// Recognize returns the recognition of scr. The result shares memory with
// the Recognizer's cache: treat it as read-only.
func (r *Recognizer) Recognize(scr *vt.Screen) Recognition {
	w, h := scr.Size()
	if r.ok && scr == r.scr && w == r.g.w && h == r.g.h && scr.Cursor() == r.cursor && scr.AltScreen() == r.alt &&
		!anyDirty(scr, h) {
		return r.last
	}
	all := scr != r.scr || !r.ok
	r.g.load(scr, all)
	scr.ClearDirty()
	r.scr, r.cursor, r.alt = scr, scr.Cursor(), scr.AltScreen()
	last := r.last
	// The prompt region's fingerprint (a SHA-256 over its styled cells)
	// is kept while none of its rows changed: a spinner ticking elsewhere
	// does not cost a new one.
	cached := func(reg Region) ([32]byte, bool) {
		return last.Fingerprint, !all && reg == last.Region && !r.g.changedIn(reg)
	}
	r.last, r.ok = recognizeGrid(r.p, &r.g, scr, r.key, cached), true
	return r.last
}

func anyDirty(scr *vt.Screen, h int) bool {
	for y := 0; y < h; y++ {
		if scr.Dirty(y) {
			return true
		}
	}
	return false
}
