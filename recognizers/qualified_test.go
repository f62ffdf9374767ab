package recognizers_test

import (
	"errors"
	"testing"

	"github.com/agent-knock-knock/akk/recognizers"
)

// TestQualifiedProfile: a qualified profile's id names the version, the
// base and the qualification, so two qualifications of one binary make
// different offers; a base that is not pinned, or a record without a
// tag, qualifies nothing.
func TestQualifiedProfile(t *testing.T) {
	var base recognizers.Profile
	for _, p := range recognizers.Profiles() {
		base = p // any pinned profile
	}
	q := recognizers.Qualification{Base: base.Version, Tag: "t1", Passed: []recognizers.Surface{recognizers.SurfaceComposerIdle}}
	p, err := recognizers.Qualified(base.Agent, "99.0.0", q)
	if err != nil {
		t.Fatal(err)
	}
	if want := base.Agent + "@99.0.0~" + base.Version + "#t1"; p.ID() != want || !p.Exact {
		t.Errorf("id %q exact %v, want %q exact", p.ID(), p.Exact, want)
	}
	if got, ok := p.Qualified(); !ok || got.Base != base.Version || got.Tag != "t1" {
		t.Errorf("Qualified() = %+v %v", got, ok)
	}
	if _, ok := base.Qualified(); ok {
		t.Error("a pinned profile reports a qualification")
	}
	q.Tag = "t2"
	if p2, _ := recognizers.Qualified(base.Agent, "99.0.0", q); p2.ID() == p.ID() {
		t.Errorf("two qualifications share the id %q", p.ID())
	}
	if _, err := recognizers.Qualified(base.Agent, "99.0.0", recognizers.Qualification{Base: "0.0.1", Tag: "x"}); !errors.Is(err, recognizers.ErrNoBase) {
		t.Errorf("unpinned base: %v, want ErrNoBase", err)
	}
	if _, err := recognizers.Qualified(base.Agent, "99.0.0", recognizers.Qualification{Base: base.Version}); err == nil {
		t.Error("a qualification without a tag was accepted")
	}
}
