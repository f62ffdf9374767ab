package recordings

import (
	"fmt"

	"github.com/agent-knock-knock/akk/controlmode"
)

// FromControlMode turns a raw control-mode transcript (the stdout of
// `tmux -C attach`) into a recording of one pane: its %output bytes become
// o and x events, and a %layout-change that changes the pane's size an r
// event (without a seed: a transcript has none, so replay resizes the
// model). width and height are the pane's size at the start; 0 takes it
// from the first %layout-change that names the pane. Times are 0: a
// transcript has no clock.
func FromControlMode(data []byte, pane controlmode.PaneID, width, height int) (*Recording, error) {
	var dec controlmode.Decoder
	var split OutputSplitter
	rec := &Recording{Header: Header{Version: 2, Width: width, Height: height,
		Akk: &Akk{Scenario: "control-mode transcript of " + pane.String(), Recorder: "akk-replay/1"}}}
	var pre []Event // output before the size is known
	sized := width > 0 && height > 0
	found := false
	for _, ev := range dec.Feed(append(data, '\n')) {
		switch e := ev.(type) {
		case *controlmode.Output:
			if e.Pane == pane {
				found = true
				if sized {
					rec.Events = split.Split(rec.Events, 0, e.Data)
				} else {
					pre = split.Split(pre, 0, e.Data)
				}
			}
		case *controlmode.ExtendedOutput:
			if e.Pane == pane {
				found = true
				rec.Events = split.Split(rec.Events, 0, e.Data)
			}
		case *controlmode.LayoutChange:
			for _, g := range e.Panes {
				if g.Pane != pane {
					continue
				}
				switch {
				case !sized:
					rec.Header.Width, rec.Header.Height, sized = g.Width, g.Height, true
				case g.Width != rec.Header.Width || g.Height != rec.Header.Height:
					rec.Events = append(rec.Events, Event{Code: Resize, Data: []byte(FormatSize(g.Width, g.Height))})
				}
			}
		}
	}
	rec.Events = split.Flush(rec.Events, 0)
	if !sized {
		return nil, fmt.Errorf("%w: transcript gives no size for %v: pass one", ErrFormat, pane)
	}
	if !found {
		return nil, fmt.Errorf("%w: transcript has no output of %v", ErrFormat, pane)
	}
	rec.Events = append(pre, rec.Events...)
	return rec, nil
}
