package dispatch

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// approve and respond_interaction: one current step of a permission
// prompt or a questionnaire, by semantic ids only.

// idPattern is every public id: a known prefix and 26 base32 characters.
var idPattern = regexp.MustCompile(`^(term|turn|watch|ses|int|q|opt|ntf|rcpt)_[a-z2-7]{26}$`)

func checkID(field, id, prefix string) error {
	if id == "" {
		return nil
	}
	if !strings.HasPrefix(id, prefix+"_") || !idPattern.MatchString(id) {
		return api.Errorf(api.CodeBadRequest, "%s %q is not a %s_ id", field, clip(id, 40), prefix)
	}
	return nil
}

// needTurnID refuses a missing turn_id with missing (what the operation
// needs it for) and a malformed one as checkID does.
func needTurnID(id, missing string) error {
	if id == "" {
		return api.Errorf(api.CodeBadRequest, "%s", missing)
	}
	return checkID("turn_id", id, "turn")
}

func clip[S ~string](s S, n int) string {
	if len(s) <= n {
		return string(s)
	}
	return string(s[:n]) + "…"
}

// ControllerOf is the request's controller; an in-process caller (tests,
// the popup's own daemon-side port) counts as a local person.
func ControllerOf(ctx context.Context) string {
	if c := api.ControllerFrom(ctx); c != "" {
		return c
	}
	return "local:daemon"
}

func isLocal(controller string) bool {
	return api.IsLocalPerson(controller) || controller == "local:daemon"
}

// Approve answers POST /v1/approve (DESIGN invariant 9).
func (d *Dispatcher) Approve(ctx context.Context, req api.ApproveRequest) (api.ActionResult, error) {
	const op = "approve"
	if (req.TurnID == "") == (req.TerminalID == "") {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "approve needs exactly one of turn_id and terminal_id")
	}
	if err := errors.Join(checkID("turn_id", req.TurnID, "turn"), checkID("terminal_id", req.TerminalID, "term")); err != nil {
		return api.ActionResult{}, err
	}
	decision := req.Decision
	if decision == "" {
		decision = contract.DecisionApproveOnce
	}
	if decision != contract.DecisionApproveOnce && decision != contract.DecisionReject {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "decision %q: want approve_once or reject", clip(decision, 40))
	}
	if req.TerminalID != "" && decision != contract.DecisionApproveOnce {
		return reject(api.ReasonUnknownChoice, "approve by terminal_id is approve_once only; reject needs the managed turn_id").
			result(op, req.TerminalID), nil
	}
	return d.interact(ctx, action{op: op, controller: ControllerOf(ctx), turnID: req.TurnID, terminalID: req.TerminalID,
		decision: decision}), nil
}

// Respond answers POST /v1/respond_interaction.
func (d *Dispatcher) Respond(ctx context.Context, req api.RespondRequest) (api.ActionResult, error) {
	const op = "respond_interaction"
	n := 0
	for _, id := range []string{req.TurnID, req.WatchID, req.TerminalID} {
		if id != "" {
			n++
		}
	}
	if n != 1 {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "respond_interaction needs exactly one of turn_id, watch_id and terminal_id")
	}
	if err := errors.Join(checkID("turn_id", req.TurnID, "turn"), checkID("watch_id", req.WatchID, "watch"),
		checkID("terminal_id", req.TerminalID, "term"), checkID("interaction_id", req.InteractionID, "int")); err != nil {
		return api.ActionResult{}, err
	}
	if req.InteractionID == "" {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "interaction_id is required (from a fresh status)")
	}
	if len(req.Answers) != 1 {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "answers: one answer for the current step (got %d)", len(req.Answers))
	}
	a := req.Answers[0]
	if err := checkID("question_id", a.QuestionID, "q"); err != nil {
		return api.ActionResult{}, err
	}
	if len(a.SelectedOptionIDs) > maxSelected {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "selected_option_ids: at most %d", maxSelected)
	}
	for _, o := range a.SelectedOptionIDs {
		if err := checkID("selected_option_ids", o, "opt"); err != nil {
			return api.ActionResult{}, err
		}
	}
	if len(a.Text) > api.MaxAnswerText {
		return reject(api.ReasonTextTooLong, "answer text of %d bytes (max %d)", len(a.Text), api.MaxAnswerText).
			result(op, req.TerminalID), nil
	}
	switch req.DeliveryMode {
	case "", contract.DeliverySteerCurrentTurn, contract.DeliveryQueueNextTurn:
	default:
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "delivery_mode %q: want steer_current_turn or queue_next_turn", clip(req.DeliveryMode, 40))
	}
	controller := ControllerOf(ctx)
	if req.TerminalID != "" && !isLocal(controller) {
		return reject(api.ReasonTerminalScope, "respond_interaction by terminal_id is for a local person (CLI, popup); "+
			"a controller responds by its turn_id or watch_id").result(op, req.TerminalID), nil
	}
	return d.interact(ctx, action{op: op, controller: controller, turnID: req.TurnID, watchID: req.WatchID,
		terminalID: req.TerminalID, interactionID: req.InteractionID, answer: &a, delivery: req.DeliveryMode}), nil
}

// maxSelected bounds a multi-select answer (Claude Code's questions have
// at most four options).
const maxSelected = 8

// action is one approve or respond_interaction request, checked for shape.
type action struct {
	op                          string
	controller                  string
	turnID, watchID, terminalID string
	interactionID               string
	decision                    contract.Decision
	answer                      *api.Answer
	delivery                    contract.DeliveryMode
}

// subject resolves the request's subject to the terminal and, for a
// turn, its record; it checks the owner.
func (d *Dispatcher) subject(controller, turnID, watchID, terminalID string) (Terminal, *store.Turn, *refusal) {
	switch {
	case turnID != "":
		t, err := d.cfg.Store.Turn(turnID)
		if errors.Is(err, store.ErrNotFound) {
			return nil, nil, reject(api.ReasonUnknownTurn, "no turn %s", turnID)
		} else if err != nil {
			return nil, nil, reject(api.ReasonStore, "read turn: %v", err)
		}
		if t.Controller != api.Owner(controller) {
			return nil, nil, reject(api.ReasonNotOwner, "turn %s belongs to another controller", turnID)
		}
		if t.Management == "closed" {
			return nil, nil, reject(api.ReasonTurnClosed, "turn %s was closed", turnID)
		}
		switch t.State {
		case store.TurnDone, store.TurnFailed, store.TurnCancelled, store.TurnClosed:
			return nil, nil, reject(api.ReasonTurnSettled, "turn %s is %s", turnID, t.State)
		}
		m := d.cfg.Terminals.Terminal(t.TerminalID)
		if m == nil {
			return nil, nil, reject(api.ReasonTerminalGone, "the turn's terminal %s is gone", t.TerminalID)
		}
		return m, &t, nil
	case watchID != "":
		if d.cfg.Turns == nil {
			return nil, nil, reject(api.ReasonUnknownWatch, "no watch %s", watchID)
		}
		id, err := d.cfg.Turns.WatchTerminal(watchID, controller)
		if err != nil {
			return nil, nil, reject(api.ReasonWatch, "%v", err)
		}
		m := d.cfg.Terminals.Terminal(id)
		if m == nil {
			return nil, nil, reject(api.ReasonTerminalGone, "the watch's terminal is gone")
		}
		return m, nil, nil
	default:
		m := d.cfg.Terminals.Terminal(terminalID)
		if m == nil {
			return nil, nil, reject(api.ReasonUnknownTerminal, "no terminal %s: run `akk list` for the current ids", terminalID)
		}
		return m, nil, nil
	}
}

// interact runs one approve or respond: its checks, then the transaction.
func (d *Dispatcher) interact(ctx context.Context, a action) api.ActionResult {
	m, turn, ref := d.subject(a.controller, a.turnID, a.watchID, a.terminalID)
	if ref != nil {
		return ref.result(a.op, a.terminalID)
	}
	var o *offer
	var live terminal.Recognition
	tx, ref := d.begin(ctx, m, txnSpec{op: a.op, quiet: true,
		before: func() *refusal {
			var r *refusal
			o, r = d.offerFor(m, a)
			return r
		},
		check: func(v terminal.View) *refusal {
			live = v.Rec
			return recheck(v, o, turn)
		}})
	if ref != nil {
		return ref.result(a.op, idOf(m))
	}
	defer tx.end()
	choice, text, ref := resolveChoice(live, a)
	if ref != nil {
		return ref.result(a.op, idOf(m))
	}
	res := store.Reservation{ID: d.newID("rcpt_", "receipt"), Op: a.op, Controller: a.controller, TerminalID: o.terminalID,
		InteractionID: o.interactionID, Choice: choiceName(choice), TextLen: utf8.RuneCountInString(text),
		Incarnation: o.incarnation, BindingGen: o.generation, Fence: o.fence}
	if turn != nil {
		res.TurnID = turn.ID
	}
	return d.execute(ctx, tx, o, res, choice, text)
}

// idOf is t's terminal id.
func idOf(t Terminal) string { return t.View().ID }

// offerFor finds the controller's offer for m and checks what needs no
// fresh screen: the interaction it names, the operation for its kind (its
// age is no reason: the live recheck decides). It sends nothing.
func (d *Dispatcher) offerFor(m Terminal, a action) (*offer, *refusal) {
	o := d.offers.get(a.controller, idOf(m))
	if o == nil {
		return nil, reject(api.ReasonNoOffer, "no current offer for this controller: call status for the terminal (or turn) first, then answer what it showed")
	}
	if a.interactionID != "" && a.interactionID != o.interactionID {
		return nil, reject(api.ReasonStaleInteraction, "interaction %s is not the one the last status showed", a.interactionID)
	}
	switch {
	case a.op == "approve" && o.kind != contract.KindPermission:
		return nil, reject(api.ReasonNotActionable, "the terminal shows a %s, not a permission prompt: use respond_interaction", o.kind)
	case a.op != "approve" && o.kind == contract.KindPermission:
		return nil, reject(api.ReasonNotActionable, "the terminal shows a permission prompt: use approve")
	}
	return o, nil
}

func choiceName(c recognizers.Choice) string {
	if c.Decision != "" {
		return string(c.Decision)
	}
	if c.OptionID != "" {
		return c.OptionID
	}
	return "text"
}

// recheck compares the live terminal (a view right after a barrier pass)
// with the offer.
func recheck(v terminal.View, o *offer, turn *store.Turn) *refusal {
	switch {
	case v.Ident == nil || v.Ident.Incarnation() != o.incarnation:
		return reject(api.ReasonProcessChanged, "the agent process is not the one the status saw")
	case v.Bind.Generation != o.generation:
		return reject(api.ReasonBindingChanged, "the native session binding changed since the status")
	case v.Ident.Cwd != o.cwd:
		return reject(api.ReasonCwdChanged, "the agent's working directory changed since the status")
	case turn != nil && turn.TerminalID != v.ID:
		return reject(api.ReasonTurnMoved, "the turn belongs to another terminal")
	}
	if v.Stale {
		return reject(api.ReasonScreenStale, "the screen model is re-seeding (%s)", v.StaleCause)
	}
	r := v.Rec
	switch {
	case r.ProfileID != o.profileID:
		return reject(api.ReasonProcessChanged, "the agent version changed since the status")
	case r.Interaction == nil:
		return reject(api.ReasonPromptChanged, "the prompt the status showed is gone (the screen is %s now)", r.Screen)
	case r.Fingerprint != o.fp || r.Interaction.InteractionID != o.interactionID:
		return reject(api.ReasonPromptChanged, "the screen changed since the status: call status again")
	case v.Fenced && v.FenceKey == o.fence:
		return reject(api.ReasonFenced, "this prompt was already answered")
	case r.Interaction.State != contract.StatePending || r.Plan == nil:
		return manual(api.ReasonManualRequired, "the prompt needs a person: %s", strings.Join(r.Interaction.Reasons, ", "))
	}
	return nil
}

// resolveChoice maps the request's semantic ids to the live plan's choice
// and checks the text against the profile's rules.
func resolveChoice(live terminal.Recognition, a action) (recognizers.Choice, string, *refusal) {
	plan := live.Plan
	if a.op == "approve" {
		c, ok := plan.Find(string(a.decision))
		if !ok || c.Decision == "" {
			return c, "", reject(api.ReasonUnknownChoice, "%s is not offered for this prompt", a.decision)
		}
		return c, "", nil
	}
	in := live.Interaction
	ans := a.answer
	if in == nil || len(in.Questions) != 1 || ans.QuestionID != in.Questions[0].QuestionID {
		return recognizers.Choice{}, "", reject(api.ReasonUnknownChoice, "question_id is not the current question")
	}
	q := in.Questions[0]
	if ans.ResponseKind != q.ResponseKind {
		return recognizers.Choice{}, "", reject(api.ReasonUnknownChoice, "response_kind %q: the question wants %q", clip(ans.ResponseKind, 30), q.ResponseKind)
	}
	if a.delivery != "" {
		if in.Kind != contract.KindAsyncQuestion {
			return recognizers.Choice{}, "", reject(api.ReasonUnknownChoice, "delivery_mode is only for an async_question")
		}
		if !slices.Contains(in.DeliveryModes, a.delivery) {
			return recognizers.Choice{}, "", reject(api.ReasonUnknownChoice, "delivery_mode %s is not advertised", a.delivery)
		}
	}
	var c recognizers.Choice
	var found bool
	switch q.ResponseKind {
	case contract.ResponseSingleSelect:
		if len(ans.SelectedOptionIDs) != 1 {
			return c, "", reject(api.ReasonUnknownChoice, "single_select takes exactly one option id")
		}
		c, found = plan.Find(ans.SelectedOptionIDs[0])
		found = found && c.QuestionID == q.QuestionID
	case contract.ResponseMultiSelect:
		steps, err := plan.MultiSelect(q.QuestionID, ans.SelectedOptionIDs)
		if err != nil {
			return c, "", reject(api.ReasonUnknownChoice, "multi_select: %v", err)
		}
		if ans.Text != "" {
			return c, "", reject(api.ReasonBadText, "a multi-select answer takes no text")
		}
		return recognizers.Choice{QuestionID: q.QuestionID, OptionID: strings.Join(ans.SelectedOptionIDs, ","), Steps: steps}, "", nil
	case contract.ResponseFreeText, contract.ResponseOpen:
		if len(ans.SelectedOptionIDs) != 0 {
			return c, "", reject(api.ReasonUnknownChoice, "%s takes no option id", q.ResponseKind)
		}
		for _, pc := range plan.Choices {
			if pc.OptionID == "" && pc.Decision == "" && pc.QuestionID == q.QuestionID {
				c, found = pc, true
			}
		}
	default:
		return c, "", manual(api.ReasonUnsupportedAnswer, "%s questions are answered by a person", q.ResponseKind)
	}
	if !found {
		return c, "", reject(api.ReasonUnknownChoice, "the option is not offered for this question")
	}
	if a.delivery == contract.DeliveryQueueNextTurn {
		if len(c.Queue) == 0 {
			return c, "", reject(api.ReasonUnknownChoice, "this answer cannot be queued for the next turn (only typed text can): steer it")
		}
		c.Steps = c.Queue
	}
	if !c.FreeText {
		if ans.Text != "" {
			return c, "", reject(api.ReasonBadText, "this choice takes no text")
		}
		return c, "", nil
	}
	if ref := checkAnswerText(ans.Text, c); ref != nil {
		return c, "", ref
	}
	return c, ans.Text, nil
}

// checkAnswerText applies DESIGN invariant 1 and the profile's caps to an
// answer's text: one line, no control characters, no slash command, at
// most the profile's length.
func checkAnswerText(text string, c recognizers.Choice) *refusal {
	if c.RequireText != "" {
		if text != c.RequireText && text != "" {
			return reject(api.ReasonBadText, "the editor already holds a draft: it is submitted as it is (send no text, or exactly the draft)")
		}
		return nil
	}
	if text == "" {
		return reject(api.ReasonBadText, "this choice needs text")
	}
	if ref := checkText(text, false); ref != nil {
		return ref
	}
	if n := utf8.RuneCountInString(text); c.MaxText > 0 && n > c.MaxText {
		return reject(api.ReasonTextTooLong, "%d characters; this prompt takes at most %d", n, c.MaxText)
	}
	return nil
}

// checkText refuses text that is not plain: invalid UTF-8, control
// characters (newlines only where multiline), a first line that is a
// native slash command.
func checkText(text string, multiline bool) *refusal {
	if !utf8.ValidString(text) {
		return reject(api.ReasonBadText, "text is not UTF-8")
	}
	for _, r := range text {
		if r == '\n' && multiline || r == '\t' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return reject(api.ReasonBadText, "text holds control character %U", r)
		}
	}
	first, _, _ := strings.Cut(text, "\n")
	if strings.HasPrefix(strings.TrimLeft(first, " \t"), "/") {
		return reject(api.ReasonSlashCommand, "text whose first line starts with / would run a native command")
	}
	if strings.TrimSpace(text) == "" {
		return reject(api.ReasonBadText, "text is blank")
	}
	return nil
}

// execute reserves, sends the choice's steps, proves them and writes the
// receipt; the offer is consumed and the prompt fenced whatever happened
// after the reservation.
func (d *Dispatcher) execute(ctx context.Context, tx *txn, o *offer, res store.Reservation, choice recognizers.Choice, text string) api.ActionResult {
	if ref := tx.reserve(res); ref != nil {
		return tx.refused(ref)
	}
	m := tx.t
	rec, err := tx.steps(ctx, choice.Steps, text)
	tx.out.Timing = tx.timing()
	defer func() {
		d.offers.consume(o)
		m.ForgetFence() // read the fence again
		m.Poke()
	}()
	if err != nil {
		return tx.fail(err.Error(), rec.Screen, o.fence)
	}
	out := tx.accept("screen:"+string(rec.Screen), rec.Screen, o.fence)
	if out.Outcome != api.OutcomeAccepted {
		return out
	}
	if rec.Interaction != nil && rec.Interaction.InteractionID != res.InteractionID {
		out.Next = rec.Interaction
	}
	d.lg.Info("dispatch", "op", res.Op, "terminal", res.TerminalID, "receipt", res.ID, "choice", res.Choice,
		"text_len", res.TextLen, "outcome", out.Outcome, "screen", rec.Screen)
	return out
}
