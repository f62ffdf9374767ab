package dispatch

import (
	"context"
	"fmt"
	"slices"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/recognizers"
)

// The catalog walks of model_options: the menu read live, every model
// and its efforts, then closed with Esc (nothing set). What the walk
// showed but akk does not offer becomes a warning.

// catalogWalk is what a walk read.
type catalogWalk struct {
	models   []api.ModelOption
	current  api.ModelTuple
	warnings []string
	last     *recognizers.ModelMenu // the menu as the walk left it
}

// rowCatalog reads Claude Code's picker: the efforts once on the row
// it opens on (the effort row is the picker's, one for every model:
// model-catalog), then each model, whose effort row says whether it
// takes one.
func rowCatalog(ctx context.Context, tx *txn, prof recognizers.ModelControlProfile, m *recognizers.ModelMenu) (catalogWalk, error) {
	var w catalogWalk
	start, startDefault := m.Effort, m.EffortDefault
	if start == "" {
		return w, fmt.Errorf("%s: the picker opens on a model without effort; its levels cannot be read", api.ReasonPostcondition)
	}
	levels, def, m, err := rowLevels(ctx, tx, prof, m)
	if err != nil {
		return w, err
	}
	if startDefault {
		def = start
	}
	for i, r := range m.Rows {
		if m, err = highlightRow(ctx, tx, m, i); err != nil {
			return w, err
		}
		opt := api.ModelOption{Model: r.Label, Description: clip(r.Desc, 200), Current: r.Current, Efforts: []string{}}
		if m.Effort != "" {
			opt.Efforts, opt.DefaultEffort = levels, def
		}
		if r.Current {
			w.current = api.ModelTuple{Model: r.Label, ReasoningEffort: start}
		}
		w.models = append(w.models, opt)
	}
	w.last = m
	return w, nil
}

// rowLevels walks the effort row through every level: round a ring
// once, or along a line to its right end and back to its left, each
// press proven to show the profile's next level. It returns the levels
// and the one marked default.
func rowLevels(ctx context.Context, tx *txn, prof recognizers.ModelControlProfile, m *recognizers.ModelMenu) ([]string, string, *recognizers.ModelMenu, error) {
	n := len(prof.Efforts)
	at := slices.Index(prof.Efforts, m.Effort)
	if at < 0 {
		return nil, "", m, fmt.Errorf("%s: the effort row shows a level the profile does not record", api.ReasonPostcondition)
	}
	seen := map[string]bool{m.Effort: true}
	def := ""
	press := func(key []byte, next int) error {
		want, hl, rows := prof.Efforts[next], m.Highlight, m.Rows
		var err error
		m, err = menuStep(ctx, tx, key, "effort "+want, func(x *recognizers.ModelMenu) bool {
			return x.Kind == recognizers.ModelList && x.Effort == want && x.Highlight == hl && sameRows(x, rows)
		})
		if err == nil {
			seen[want] = true
			if m.EffortDefault {
				def = want
			}
		}
		return err
	}
	var steps []int // +1 Right, -1 Left
	if prof.EffortRing {
		steps = slices.Repeat([]int{1}, n)
	} else {
		steps = append(slices.Repeat([]int{1}, n-1-at), slices.Repeat([]int{-1}, n-1)...)
	}
	for _, s := range steps {
		key := keyRight
		if s < 0 {
			key = keyLeft
		}
		at = (at + s + n) % n
		if err := press(key, at); err != nil {
			return nil, "", m, err
		}
	}
	if len(seen) != n {
		return nil, "", m, fmt.Errorf("%s: the effort row showed %d of the profile's %d levels", api.ReasonPostcondition, len(seen), n)
	}
	return slices.Clone(prof.Efforts), def, m, nil
}

// popupCatalog reads Codex's list, then each model's effort popup (Enter
// on a model the profile records as opening one; Esc back to the list).
func popupCatalog(ctx context.Context, tx *txn, prof recognizers.ModelControlProfile, m *recognizers.ModelMenu) (catalogWalk, error) {
	var w catalogWalk
	rows := m.Rows
	for i, r := range rows {
		if !slices.Contains(prof.TwoStep, r.Label) {
			w.warnings = append(w.warnings, fmt.Sprintf("%s: its Enter is not recorded (it may set the model at once): not offered", clip(r.Label, 60)))
			continue
		}
		var err error
		if m, err = highlightRow(ctx, tx, m, i); err != nil {
			return w, err
		}
		e, err := menuStep(ctx, tx, keyEnter, "the efforts of "+r.Label, func(x *recognizers.ModelMenu) bool {
			return x.Kind == recognizers.EffortList && x.For == r.Label
		})
		if err != nil {
			return w, err
		}
		opt := api.ModelOption{Model: r.Label, Description: clip(r.Desc, 200), Current: r.Current, Default: r.Default, Efforts: []string{}}
		for _, er := range e.Rows {
			switch {
			case slices.Contains(prof.NotOffered, er.Label):
			default:
				opt.Efforts = append(opt.Efforts, er.Label)
				if er.Default {
					opt.DefaultEffort = er.Label
				}
			}
		}
		if r.Current {
			w.current = api.ModelTuple{Model: r.Label}
		}
		w.models = append(w.models, opt)
		if m, err = menuStep(ctx, tx, keyEsc, "back from "+r.Label, func(x *recognizers.ModelMenu) bool {
			return x.Kind == recognizers.ModelList && x.Highlight == i && sameRows(x, rows)
		}); err != nil {
			return w, err
		}
	}
	if len(rows) > 0 {
		w.warnings = append(w.warnings, "efforts that open further menus (More reasoning…) are not offered")
	}
	w.last = m
	return w, nil
}
