package screen

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// question parses a request_user_input overlay whose progress row
// ("Question 1/2 (2 unanswered)") is t: the question, the menu ending in
// "None of the above", the Notes composer when open, the footer.
func (c *codex0x) question(g *recognizers.Grid, t, b int, out *recognizers.Recognition) {
	defer g.Enter("codex0x.question")()
	out.ScreenState = contract.ScreenQuestionnaire
	pr := &recognizers.Prompt{Kind: contract.KindQuestionnaire, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: t, Rows: b - t + 1}
	step, all := c.progressRow(g.TextFrom(t, 2+len(c.progress)))
	pr.Step = step
	// The prompt of the question shown is in qPrompt's colour while it is
	// unanswered, in the default colours once answered (question-submit-
	// all); answered is proven only where every question is.
	prompt := c.qPrompt
	if all {
		prompt = c.qAnswered
	}
	y := t + 1
	var rows []string
	for ; y <= b && !g.Blank(y) && g.First(y) == 2 && g.Styled(y, 2, g.Width(), prompt); y++ {
		rows = append(rows, g.Trimmed(y))
	}
	q := recognizers.Question{Prompt: strings.Join(rows, " ")}
	opts, glyphs, end := c.menu(g, c.qMenu, y+1, b, true)
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	if len(rows) == 0 || !g.Blank(y) || len(opts) < 2 || pr.Step.Index == 0 {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "question on row "+strconv.Itoa(t+1)))
		return
	}
	notes := len(opts) - 1
	if opts[notes].Label != c.notesLabel {
		// A model row drawn over it (a duplicate) is named as well.
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "no \""+c.notesLabel+"\" row"))
		out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
		return
	}
	opts[notes].Role = recognizers.RoleNotes
	if notes < c.minOptions || notes > c.maxOptions || pr.Step.Total > c.maxQuestions {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape,
			strconv.Itoa(notes)+" options, "+strconv.Itoa(pr.Step.Total)+" questions"))
	}
	out.Reasons = append(out.Reasons, recognizers.FreeTextLookalikes(opts[:notes], c.freeTextLabels)...)
	f, editor := end+2, -1
	if g.First(f) == 2 && g.Rune(2, f) == '›' && g.StyleAt(2, f) == c.composerGlyph && g.Blank(f+1) {
		editor, f = f, f+2
	}
	c.questionFooter(g, end, f, b, editor >= 0, pr.Step, out)
	out.Region = recognizers.Region{Top: t, Rows: max(f, b) - t + 1}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	h, rs := c.highlightProof(g, c.qMenu, opts, glyphs)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	if editor >= 0 {
		if h != notes {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "notes open off \""+c.notesLabel+"\""))
		}
		c.notesStep(g, editor, q, out)
		return
	}
	c.questionChoices(opts, h, notes, out)
}

// progressRow proves "1/2 (2 unanswered)" exactly (after "Question "):
// the step, and a count of unanswered questions, at least one (Codex drops
// the count at zero), within the total. "2/2" alone is the last of
// several questions once every question is answered (all): recorded on
// 0.153.4 to 0.171.0 (question-submit-all: question 2 answered first,
// then question 1, whose answer moves on to it), the one place that form
// is recorded; on any other step it stays unproven.
func (c *codex0x) progressRow(s string) (st contract.Step, all bool) {
	st = parseStep(s, "/")
	step := strconv.Itoa(st.Index) + "/" + strconv.Itoa(st.Total)
	switch {
	case st.Index == 0:
		return contract.Step{}, false
	case s == step:
		if st.Total > 1 && st.Index == st.Total {
			return st, true
		}
		return contract.Step{}, false
	}
	count, ok := strings.CutPrefix(s, step+" (")
	if !ok {
		return contract.Step{}, false
	}
	count, ok = strings.CutSuffix(count, " unanswered)")
	if n := leadingNumber(count); !ok || n < 1 || n > st.Total || strconv.Itoa(n) != count {
		return contract.Step{}, false
	}
	return st, false
}

// parseStep reads "1/2 ..." (sep "/") or "1 of 2" (sep " of ").
func parseStep(s, sep string) contract.Step {
	a, rest, ok := strings.Cut(s, sep)
	if !ok {
		return contract.Step{}
	}
	i, j := leadingNumber(a), leadingNumber(rest)
	if i < 1 || j < i || strconv.Itoa(i) != a {
		return contract.Step{}
	}
	return contract.Step{Index: i, Total: j}
}

func leadingNumber(s string) int {
	n, i := 0, 0
	for ; i < len(s) && i < 4 && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
	}
	if i == 0 {
		return -1
	}
	return n
}

// questionFooter proves the question footer: known segments joined by
// " | ", with the submit of the step ("enter to submit all" on the last of
// several) and the question navigation exactly when there are several;
// with Notes open, exactly the notes footer.
func (c *codex0x) questionFooter(g *recognizers.Grid, end, f, b int, notes bool, st contract.Step, out *recognizers.Recognition) {
	defer g.Enter("codex0x.questionFooter")()
	text := g.TextFrom(f, 2)
	ok := g.Blank(end+1) && g.First(f) == 2
	if notes {
		// Recorded with one question only: the footer of Notes among
		// several is unproven, so it stays manual.
		ok = ok && text == c.notesFooter && st.Total == 1
	} else {
		segs := strings.Split(text, " | ")
		submit := c.qSubmits[0]
		if st.Total > 1 && st.Index == st.Total {
			submit = c.qSubmits[1]
		}
		ok = ok && slices.Contains(segs, submit) && slices.Contains(segs, c.qNavigate) == (st.Total > 1)
		for _, s := range segs {
			ok = ok && slices.Contains(c.qFooterSegs, s)
		}
	}
	switch {
	case !ok:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
	case f < b:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(f+1)))
	}
}

// questionChoices plans a question: a digit for every row (on "None of
// the above" the digit submits that literal label), and akk's derived
// free-text choice: bounded moves onto "None of the above", a recapture,
// Tab (Codex's native accept into Notes), then the text after the paste
// window and one Enter (seed 000).
func (c *codex0x) questionChoices(opts []recognizers.Option, h, notes int, out *recognizers.Recognition) {
	for i, o := range opts {
		out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i,
			Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(o.Number), Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}})
	}
	if h < 0 || h > notes {
		return
	}
	var steps []recognizers.PlanStep
	if h < notes {
		steps = append(steps, recognizers.PlanStep{Keys: recognizers.RepeatKey(recognizers.KeyDown, notes-h), Expect: recognizers.NewExpect(notes, contract.ScreenQuestionnaire)})
	}
	steps = append(steps,
		recognizers.PlanStep{Keys: recognizers.KeyTab, Expect: recognizers.NewExpect(-1, contract.ScreenFreeText)},
		recognizers.PlanStep{Text: true, QuietMillis: c.pasteQuietMs, Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)})
	out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: -1, Derived: c.derivedLabel, FreeText: true, MaxText: c.maxFreeText, Steps: steps})
}

// notesStep is the open Notes composer: a free-text step, empty when only
// its dim placeholder shows.
func (c *codex0x) notesStep(g *recognizers.Grid, y int, q recognizers.Question, out *recognizers.Recognition) {
	defer g.Enter("codex0x.notesStep")()
	c.freeTextEditor(g, y, 4, c.notesHint, contract.ScreenFreeText, contract.KindFreeText, q, out)
}

// freeTextEditor reads a one-row editor at column x of row y: the dim
// placeholder (empty) or typed text (a draft), and plans its answer: the
// text, the paste window, Enter; a draft is submitted only as it is.
func (c *codex0x) freeTextEditor(g *recognizers.Grid, y, x int, hint string, st contract.ScreenState, kind contract.Kind, q recognizers.Question, out *recognizers.Recognition) {
	defer g.Enter("codex0x.freeTextEditor")()
	out.ScreenState = st
	out.Composer = contract.ComposerEmpty
	pr := out.Prompt
	pr.Kind, pr.Highlighted = kind, -1
	pr.Questions = []recognizers.Question{{Header: q.Header, Prompt: q.Prompt}}
	spec := recognizers.ChoiceSpec{Option: -1, FreeText: true, MaxText: c.maxFreeText,
		Steps: []recognizers.PlanStep{{Text: true, QuietMillis: c.pasteQuietMs, Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}}
	// An async answer typed into this editor is queued for the next turn
	// by Tab instead of Enter (measured on 0.154.0/0.155.1: the editor
	// closes or the next question opens, the answer waits under "Queued
	// follow-up inputs", and starts a turn of its own after the running
	// one); the typed text is verified first.
	queue := kind == contract.KindAsyncQuestion
	if queue {
		spec.Queue = []recognizers.PlanStep{{Text: true, QuietMillis: c.pasteQuietMs, VerifyText: true, Keys: recognizers.KeyTab, Expect: recognizers.NewExpect(-1, recognizers.AfterQueue...)}}
	}
	switch {
	case g.HasAt(y, x, hint) && g.Last(y) == x+recognizers.DisplayWidth(hint)-1 && g.Styled(y, x, g.Width(), c.placeholder):
	case g.Last(y) >= x && !g.Styled(y, x, g.Width(), c.placeholder) && !c.litFrom(g, y, x):
		draft := g.TextFrom(y, x)
		out.Composer, out.Draft, out.DraftLen = contract.ComposerDraft, draft, len([]rune(draft))
		if strings.Trim(draft, string(c.secretMask)) == "" {
			// Codex masks a question marked isSecret (question-secret):
			// the request asked for a secret, whatever its words.
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonSecretInput, "masked editor on row "+strconv.Itoa(y)))
		}
		spec.Require = draft
		spec.Steps = []recognizers.PlanStep{{Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, recognizers.AfterAnswer...)}}
		if queue {
			spec.Queue = []recognizers.PlanStep{{Keys: recognizers.KeyTab, Expect: recognizers.NewExpect(-1, recognizers.AfterQueue...)}}
		}
	default:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "editor on row "+strconv.Itoa(y)))
	}
	out.Specs = []recognizers.ChoiceSpec{spec}
}

// litFrom reports a cell in a row highlight style on row y from column
// x: a menu row, never typed text (a typed draft is plain).
func (c *codex0x) litFrom(g *recognizers.Grid, y, x int) bool {
	defer g.Enter("codex0x.litFrom")()
	m := recognizers.NewStyleSet(c.rowLit)
	for ; x <= g.Last(y); x++ {
		if cl := g.Cell(x, y); !g.BlankCell(cl) && g.InSet(&m, cl) {
			return true
		}
	}
	return false
}

// confirm parses "Submit with unanswered questions?": the count, "1.
// Proceed" and "2. Go back" with descriptions, the footer. Digits only
// move the highlight here; Enter confirms the current row.
func (c *codex0x) confirm(g *recognizers.Grid, t, b int, out *recognizers.Recognition) {
	defer g.Enter("codex0x.confirm")()
	out.ScreenState = contract.ScreenConfirmation
	pr := &recognizers.Prompt{Kind: contract.KindConfirmation, Highlighted: -1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: t, Rows: b - t + 1}
	q := recognizers.Question{Prompt: c.confirmTitle}
	opts, glyphs, end := c.menu(g, c.qMenu, t+3, b, true)
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	h, rs := c.highlightProof(g, c.qMenu, opts, glyphs)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	if g.First(t+1) != 2 || !g.Styled(t+1, 2, g.Width(), c.dim) || !g.Blank(t+2) || len(opts) != 2 ||
		opts[0].Label != c.proceedLabel || opts[1].Label != c.goBackLabel {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "confirmation on row "+strconv.Itoa(t)))
		return
	}
	opts[0].Role, opts[1].Role = recognizers.RoleSubmit, recognizers.RoleCancel
	f := end + 2
	if !g.Blank(end+1) || !g.RowIs(f, 2, c.confirmFooter) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
	} else if f < b {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(f+1)))
	}
	out.Region = recognizers.Region{Top: t, Rows: max(f, b) - t + 1}
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	next := [2][]contract.ScreenState{{contract.ScreenWorking, contract.ScreenIdle, contract.ScreenQuestionnaire}, {contract.ScreenQuestionnaire}}
	for i := range opts {
		var steps []recognizers.PlanStep
		if i != h {
			steps = append(steps, recognizers.PlanStep{Keys: recognizers.DigitKey(i + 1), Expect: recognizers.NewExpect(i, contract.ScreenConfirmation)})
		}
		steps = append(steps, recognizers.PlanStep{Keys: recognizers.KeyEnter, Expect: recognizers.NewExpect(-1, next[i]...)})
		out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, Steps: steps})
	}
}

// asyncEditor parses the expanded async question editor under its header
// on row t: asyncGap blank rows (or the entries queued for the next
// turn), "1 of 2" when more are queued, the question, its options (the
// last "Other") or a text editor, the footer.
func (c *codex0x) asyncEditor(g *recognizers.Grid, t, b int, out *recognizers.Recognition) {
	defer g.Enter("codex0x.asyncEditor")()
	out.ScreenState = contract.ScreenAsyncQuestion
	pr := &recognizers.Prompt{Kind: contract.KindAsyncQuestion, Highlighted: -1, Pending: 1}
	out.Prompt = pr
	out.Region = recognizers.Region{Top: t, Rows: b - t + 1}
	y := t + 1 + c.asyncGap
	if g.HasAt(t+1, 2, queuedEntry) {
		if y = pastQueued(g, t+1, b); y < 0 {
			out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "queued inputs under row "+strconv.Itoa(t)))
			return
		}
	}
	if st := parseStep(g.TextFrom(y, 2), c.asyncOf); st.Index > 0 && g.First(y) == 2 && g.Styled(y, 2, g.Width(), c.dim) {
		pr.Step, pr.Pending = st, st.Total-st.Index+1
		y++
	}
	var rows []string
	for ; y <= b && !g.Blank(y) && g.First(y) == 2 && g.Styled(y, 2, g.Width(), c.asyncPrompt); y++ {
		rows = append(rows, g.Trimmed(y))
	}
	q := recognizers.Question{Prompt: strings.Join(rows, " ")}
	pr.Questions = []recognizers.Question{q}
	if len(rows) == 0 || !g.Blank(y) || g.Blank(y+1) {
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonChangedMenuShape, "question on row "+strconv.Itoa(t+1+c.asyncGap)))
		return
	}
	opts, glyphs, end := c.menu(g, c.qMenu, y+1, b, true)
	if len(opts) == 0 {
		end = y + 1
		c.freeTextEditor(g, end, 2, c.asyncHint, contract.ScreenAsyncQuestion, contract.KindAsyncQuestion, q, out)
	}
	f := end + 2
	c.asyncFooter(g, end, f, b, out)
	out.Region = recognizers.Region{Top: t, Rows: max(f, b) - t + 1}
	if len(opts) == 0 {
		return
	}
	q.Options = opts
	pr.Questions = []recognizers.Question{q}
	model := opts
	if opts[len(opts)-1].Label == c.asyncOther {
		opts[len(opts)-1].Role = recognizers.RoleOther
		model = opts[:len(opts)-1]
	}
	out.Reasons = append(out.Reasons, recognizers.FreeTextLookalikes(model, c.freeTextLabels)...)
	out.Reasons = append(out.Reasons, recognizers.CheckOptionNumbers(opts)...)
	h, rs := c.highlightProof(g, c.qMenu, opts, glyphs)
	pr.Highlighted = h
	out.Reasons = append(out.Reasons, rs...)
	for i, o := range opts {
		next := []contract.ScreenState{contract.ScreenIdle, contract.ScreenWorking, contract.ScreenAsyncQuestion}
		if o.Role == recognizers.RoleOther {
			next = []contract.ScreenState{contract.ScreenAsyncQuestion}
		}
		out.Specs = append(out.Specs, recognizers.ChoiceSpec{Option: i, Steps: []recognizers.PlanStep{{Keys: recognizers.DigitKey(o.Number), Expect: recognizers.NewExpect(-1, next...)}}})
	}
}

// queuedEntry starts an answer or message queued for the next turn under
// the async header ("  ↳ > <question>", its text indented below).
const queuedEntry = "↳ "

// pastQueued skips the entries queued under the async header from row r
// (measured on 0.154.0/0.155.1 after an answer queued with Tab: "  ↳ >
// <question>", a blank row, the answer at column 4) and returns the row
// of the next question, after a blank row; -1 when the rows have another
// shape.
func pastQueued(g *recognizers.Grid, r, b int) int {
	for ; r <= b; r++ {
		switch {
		case g.First(r) == 2 && g.HasAt(r, 2, queuedEntry):
		case g.Blank(r):
		case g.First(r) >= 4:
		case g.First(r) == 2 && g.Blank(r-1):
			return r
		default:
			return -1
		}
	}
	return -1
}

// asyncFooter proves "enter submit", its first cell in asyncKey's style,
// followed by known hints, three spaces apart.
func (c *codex0x) asyncFooter(g *recognizers.Grid, end, f, b int, out *recognizers.Recognition) {
	defer g.Enter("codex0x.asyncFooter")()
	ok := g.Blank(end+1) && g.First(f) == 2 && g.HasAt(f, 2, c.asyncSubmit) && g.StyleAt(2, f) == c.asyncKey
	if ok {
		for _, s := range strings.Split(g.TextFrom(f, 2+len(c.asyncSubmit)), "   ") {
			if s = strings.TrimSpace(s); s != "" && !slices.Contains(c.asyncSegs, s) {
				ok = false
			}
		}
	}
	switch {
	case !ok:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonFooterMissing, "row "+strconv.Itoa(f)))
	case f < b:
		out.Reasons = append(out.Reasons, recognizers.NewReason(recognizers.ReasonContentBelow, "row "+strconv.Itoa(f+1)))
	}
}
