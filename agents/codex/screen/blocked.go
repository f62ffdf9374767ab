package screen

import (
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/vt"
)

// codexErrors is what a Codex profile knows of the API errors it prints
// when a turn fails: the history's last block, right above the composer,
// a bullet line from column 0 wrapped to column 0, every cell in the
// line's colour ("■ " red for errors; "⚠ " yellow for the overload on
// 0.154.0/0.155.1). Codex prints other notes the same way ("■
// Conversation interrupted ...", "⚠ 1 startup issue"): only the shapes
// below are API errors, and any other line keeps the composer's state
// (Codex has no text common to its API errors alone).
type codexErrors []codexErrorLine

// codexErrorLine is one kind of bullet line and the API errors it shows.
type codexErrorLine struct {
	bullet string
	style  vt.Style
	shapes []recognizers.APIErrorShape
}

var (
	codexRateLimit = recognizers.APIErrorShape{Prefix: "exceeded retry limit, last status: 429 Too Many Requests",
		Reason: recognizers.BlockedRateLimited, Status: 429}
	codexOverloaded = recognizers.APIErrorShape{Prefix: "Selected model is at capacity. Please try a different model.",
		Reason: recognizers.BlockedOverloaded}
	// An HTTP 500 after Codex's retries.
	codexHighDemand = recognizers.APIErrorShape{Prefix: "We’re currently experiencing high demand, which may cause temporary errors.",
		Reason: recognizers.BlockedAPIError}
	// usage_limit_reached with resets_at: "... or try again at 8:01 AM."
	codexUsageLimit = recognizers.APIErrorShape{Prefix: "You’ve hit your usage limit.", Reason: recognizers.BlockedUsageLimit, Status: 429,
		Resets: "try again at ", ResetsEnd: []string{"."}}
)

// A person's Esc in the running turn (recording interrupted; also after
// a rejected patch, apply-patch-reject): red on 0.155.1, plain on 0.171.0.
var (
	codexInterrupted0_155 = recognizers.APIErrorShape{Prefix: "Conversation interrupted - tell the model what to do differently.",
		Reason: recognizers.BlockedInterrupted}
	codexInterrupted0_171 = recognizers.APIErrorShape{Prefix: "Conversation interrupted - use /feedback if something went wrong",
		Reason: recognizers.BlockedInterrupted}
)

// codexInterruptions is the note of 0.153.4 to 0.155.1 alone (red).
var codexInterruptions = codexErrors{{bullet: "■ ", style: recognizers.FgIdx(1).Style(), shapes: []recognizers.APIErrorShape{codexInterrupted0_155}}}

// codexErrors0_155_1: Codex 0.155.1 (recordings api-error-429,
// api-error-overloaded, api-error-overloaded-stream, api-usage-limit,
// api-error-500, interrupted); the overload is a yellow warning.
var codexErrors0_155_1 = codexErrors{
	{bullet: "■ ", style: recognizers.FgIdx(1).Style(), shapes: []recognizers.APIErrorShape{codexRateLimit, codexUsageLimit, codexHighDemand, codexInterrupted0_155}},
	{bullet: "⚠ ", style: recognizers.FgIdx(3).Style(), shapes: []recognizers.APIErrorShape{codexOverloaded}},
}

// codexErrors0_154_0: Codex 0.154.0 as 0.155.1, with straight
// apostrophes ("You've hit your usage limit.", "We're currently ...").
var codexErrors0_154_0 = func() codexErrors {
	usage, demand := codexUsageLimit, codexHighDemand
	usage.Prefix = "You've hit your usage limit."
	demand.Prefix = "We're currently experiencing high demand, which may cause temporary errors."
	return codexErrors{
		{bullet: "■ ", style: recognizers.FgIdx(1).Style(), shapes: []recognizers.APIErrorShape{codexRateLimit, usage, demand, codexInterrupted0_155}},
		{bullet: "⚠ ", style: recognizers.FgIdx(3).Style(), shapes: []recognizers.APIErrorShape{codexOverloaded}},
	}
}()

// codexErrors0_171_0: Codex 0.171.0 prints every one of them as a red
// error, the overload too.
var codexErrors0_171_0 = codexErrors{
	{bullet: "■ ", style: recognizers.FgIdx(1).Style(), shapes: []recognizers.APIErrorShape{codexRateLimit, codexUsageLimit, codexHighDemand, codexOverloaded}},
	{bullet: "■ ", style: recognizers.Plain().Style(), shapes: []recognizers.APIErrorShape{codexInterrupted0_171}},
}

// codexErrorsOf are the profiles whose error shapes are recorded (by
// grammar value, so the generic profile reading with one of them knows
// them too).
var codexErrorsOf = map[*codex0x]codexErrors{
	&codex0_154_0: codexErrors0_154_0,
	&codex0_155_1: codexErrors0_155_1,
	&codex0_171_0: codexErrors0_171_0,
}

// codexErrorsGeneric is what the generic profile reads: every recorded
// version's errors (a version between or after them prints like one).
var codexErrorsGeneric = slices.Concat(codexErrors0_171_0, codexErrors0_155_1, codexErrors0_154_0)

// blocked reads an idle composer screen whose history ends in an API
// error of a known shape as Blocked.
func (c *codex0x) blocked(g *recognizers.Grid, out *recognizers.Recognition) {
	defer g.Enter("codex0x.blocked")()
	es := codexErrorsOf[c]
	if !out.Exact {
		es = codexErrorsGeneric
	}
	if out.ScreenState != contract.ScreenIdle {
		return
	}
	if es == nil {
		// No API error recorded (0.153.4): its interruption note is.
		es = codexInterruptions
	}
	end := out.Region.Top - 1
	for end >= 0 && g.Blank(end) {
		end--
	}
	for _, e := range es {
		top := end
		for top >= 0 && !g.Blank(top) && !g.HasAt(top, 0, e.bullet) {
			top--
		}
		if top < 0 || g.Blank(top) || g.First(top) != 0 || !g.HasAt(top, 0, e.bullet) {
			continue
		}
		rows := []string{g.TextFrom(top, recognizers.DisplayWidth(e.bullet))}
		styled := true
		for y := top; y <= end && styled; y++ {
			styled = g.StyledLinked(y, e.style)
			if y > top {
				rows = append(rows, g.TextFrom(y, 0))
			}
		}
		if !styled {
			continue
		}
		if b, ok := recognizers.MatchShapes(e.shapes, strings.Join(rows, " ")); ok {
			b.Row = top
			recognizers.BlockComposer(out, b)
			return
		}
	}
}
