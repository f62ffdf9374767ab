package api

import (
	"sort"
	"strconv"
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// Attention kinds: why a terminal needs a person, most urgent first. The
// interaction kinds come first (an agent is blocked on the person), then a
// blocked surface only a person can clear, then agents that ended.
const (
	AttentionPermission    = "permission"
	AttentionConfirmation  = "confirmation"
	AttentionQuestionnaire = "questionnaire"
	AttentionFreeText      = "free_text"
	AttentionAsyncQuestion = "async_question"
	AttentionBlocked       = "blocked"
	AttentionFailed        = "failed" // the agent's process exited
	AttentionDone          = "done"   // the agent went idle recently
)

var attentionRank = map[string]int{
	AttentionPermission: 0, AttentionConfirmation: 1, AttentionQuestionnaire: 2, AttentionFreeText: 3,
	AttentionAsyncQuestion: 4, AttentionBlocked: 5, AttentionFailed: 6, AttentionDone: 7,
}

// DoneWindow is how long an agent that went idle is listed as done.
const DoneWindow = 10 * time.Minute

// AttentionOf says why t needs a person ("" when it does not). An agent
// counts as done while it has been idle for less than DoneWindow (there
// is no record yet of whether someone looked).
func AttentionOf(t Terminal, now time.Time) string {
	if t.Agent == AgentNone || t.Agent == "" {
		return ""
	}
	if i := t.Interaction; i != nil && i.State != contract.StateResolved {
		if _, ok := attentionRank[string(i.Kind)]; ok {
			return string(i.Kind)
		}
	}
	switch t.ScreenState {
	case contract.ScreenAwaitingApproval:
		return AttentionPermission
	case contract.ScreenQuestionnaire, contract.ScreenFreeText, contract.ScreenConfirmation, contract.ScreenAsyncQuestion:
		return string(t.ScreenState)
	case contract.ScreenBlocked:
		return AttentionBlocked
	case contract.ScreenExited:
		return AttentionFailed
	case contract.ScreenIdle:
		if !t.StateSince.IsZero() && now.Sub(t.StateSince) < DoneWindow {
			return AttentionDone
		}
	}
	return ""
}

// AttentionRank orders kinds, most urgent (0) first; -1 for none.
func AttentionRank(kind string) int {
	if r, ok := attentionRank[kind]; ok {
		return r
	}
	return -1
}

// NeedsPerson reports whether kind stops an agent until a person acts
// (done does not).
func NeedsPerson(kind string) bool { return kind != "" && kind != AttentionDone }

// Attentive is a terminal with why it needs a person.
type Attentive struct {
	Terminal Terminal
	Kind     string
}

// AttentionList is the terminals that need a person, most urgent first,
// the longest waiting first within a kind.
func AttentionList(ts []Terminal, now time.Time) []Attentive {
	var out []Attentive
	for _, t := range ts {
		if k := AttentionOf(t, now); k != "" {
			out = append(out, Attentive{Terminal: t, Kind: k})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := AttentionRank(out[i].Kind), AttentionRank(out[j].Kind)
		if ri != rj {
			return ri < rj
		}
		return out[i].Terminal.StateSince.Before(out[j].Terminal.StateSince)
	})
	return out
}

// AttentionSummary is the status line's value: the count of terminals
// that need a person and the most urgent kind ("2 permission"), "" when
// none does.
func AttentionSummary(ts []Terminal, now time.Time) string {
	n, top := 0, ""
	for _, a := range AttentionList(ts, now) {
		if !NeedsPerson(a.Kind) {
			continue
		}
		if n == 0 {
			top = a.Kind
		}
		n++
	}
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n) + " " + top
}
