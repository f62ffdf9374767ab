package dispatch

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/fault"
	"github.com/agent-knock-knock/akk/recognizers"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// Native model control (seed 003), two steps, each checks then the
// transaction:
//
//	model_options  private reservation; /model typed, Enter once only on
//	               its highlighted completion; the list walked (every
//	               model, its efforts) and closed with Esc back to the
//	               idle empty composer; the catalog kept as the
//	               controller's offer for one set_model
//	set_model      the offer's exact tuple, on the same process and
//	               binding; a receipt; /model again, the list proven the
//	               offer's, the model and effort chosen key by key, set
//	               (Claude "s", this session; Codex Enter on the effort,
//	               this and new sessions), the confirmation Yes where
//	               Claude asks, then the agent's own notice proven
//
// Every key waits for the screen its profile records before the next. A
// step unproven after input is uncertain with do_not_retry: the menu may
// be left open (repair_model_control cleans it up on Codex).

// Fault points of set_model (internal/fault, -tags akkfault): the menu
// open (after /model's Enter), and the set key sent (Claude's "s",
// Codex's Enter on the effort) before its proof.
const (
	FaultModelMenu = "dispatch.model_menu"
	FaultModelSet  = "dispatch.model_set"
)

// ModelFaultPoints lists them in order.
var ModelFaultPoints = []string{FaultModelMenu, FaultModelSet}

// ModelOptions answers POST /v1/model_options.
func (d *Dispatcher) ModelOptions(ctx context.Context, req api.ModelOptionsRequest) (api.ActionResult, error) {
	const op = api.OpModelOptions
	if err := needTerminal(op, req.TerminalID); err != nil {
		return api.ActionResult{}, err
	}
	m, prof, tx, before, out := d.beginModel(ctx, op, req.TerminalID, true)
	if tx == nil {
		return out, nil
	}
	defer tx.end()
	ictx := context.WithoutCancel(ctx)
	list, err := d.openModelMenu(ictx, tx, prof)
	if err != nil {
		return privateResult(tx.fail(err.Error(), m.View().Rec.Screen, "")), nil
	}
	walk := rowCatalog
	if prof.EffortPopup {
		walk = popupCatalog
	}
	w, err := walk(ictx, tx, prof, list)
	if err == nil {
		_, err = closeMenu(ictx, tx, w.last)
	}
	if err != nil {
		return privateResult(tx.fail(err.Error(), m.View().Rec.Screen, "")), nil
	}
	now := d.cfg.Now()
	cat := api.ModelCatalog{Agent: before.Ident.Agent, Version: before.Ident.Version, Models: w.models, Current: w.current,
		Scope: prof.Scope, ObservedAt: now, ExpiresAt: now.Add(api.ModelCatalogTTL), Warnings: w.warnings}
	if len(cat.Models) > api.MaxModelOptions {
		cat.Models = cat.Models[:api.MaxModelOptions]
	}
	out = privateResult(tx.accept("screen:model_menu", contract.ScreenIdle, ""))
	if out.Outcome == api.OutcomeAccepted {
		out.Catalog = &cat
		d.models.put(ControllerOf(ctx), req.TerminalID, modelOffer{cat: cat, rows: list.Rows,
			incarnation: before.Ident.Incarnation(), generation: before.Bind.Generation}, now)
	}
	return out, nil
}

// SetModel answers POST /v1/set_model.
func (d *Dispatcher) SetModel(ctx context.Context, req api.SetModelRequest) (api.ActionResult, error) {
	const op = api.OpSetModel
	if err := needTerminal(op, req.TerminalID); err != nil {
		return api.ActionResult{}, err
	}
	if req.Model == "" {
		return api.ActionResult{}, api.Errorf(api.CodeBadRequest, "set_model needs model (from model_options)")
	}
	offer, ok := d.models.take(ControllerOf(ctx), req.TerminalID, d.cfg.Now())
	if !ok {
		return reject(api.ReasonNoCatalog, "no model catalog of yours for this terminal (or it expired): call model_options first").result(op, req.TerminalID), nil
	}
	i, effort, ok := offer.find(req.Model, req.ReasoningEffort)
	if !ok {
		return reject(api.ReasonModelNotOffered, "%q with effort %q is not in the catalog model_options gave", clip(req.Model, 60), clip(req.ReasoningEffort, 20)).result(op, req.TerminalID), nil
	}
	target := offer.cat.Models[i]
	if cur := offer.cat.Current; strings.EqualFold(cur.Model, target.Model) && strings.EqualFold(cur.ReasoningEffort, effort) {
		return reject(api.ReasonAlreadyCurrent, "%s with effort %q is the model in use", target.Model, effort).result(op, req.TerminalID), nil
	}
	m, prof, tx, _, out := d.beginModel(ctx, op, req.TerminalID, false, func(v terminal.View) *refusal {
		if v.Ident.Incarnation() != offer.incarnation || v.Bind.Generation != offer.generation {
			return reject(api.ReasonBindingChanged, "the agent or its conversation changed since model_options: call it again")
		}
		return nil
	})
	if tx == nil {
		return out, nil
	}
	defer tx.end()
	ictx := context.WithoutCancel(ctx)
	notice, err := d.runSetModel(ictx, tx, prof, offer, i, effort)
	if err != nil {
		return tx.fail(err.Error(), m.View().Rec.Screen, ""), nil
	}
	out = tx.accept("screen:model_notice", contract.ScreenIdle, "")
	if out.Outcome == api.OutcomeAccepted {
		out.ModelSet = &api.ModelSet{ModelTuple: api.ModelTuple{Model: target.Model, ReasoningEffort: effort}, Scope: prof.Scope, Notice: clip(notice, 200)}
	}
	return out, nil
}

// runSetModel opens the list, proves it the offer's, chooses row i and
// effort, sets them, and returns the agent's notice.
func (d *Dispatcher) runSetModel(ctx context.Context, tx *txn, prof recognizers.ModelControlProfile, offer modelOffer, i int, effort string) (string, error) {
	list, err := d.openModelMenu(ctx, tx, prof)
	if err != nil {
		return "", err
	}
	fault.Point(FaultModelMenu)
	if !sameRows(list, offer.rows) {
		return "", d.leave(ctx, tx, list, fmt.Errorf("%s: the model list differs from the catalog", api.ReasonCatalogChanged))
	}
	row := rowIndex(list.Rows, offer.cat.Models[i].Model)
	if row < 0 {
		return "", d.leave(ctx, tx, list, fmt.Errorf("%s: the model list no longer shows %s", api.ReasonCatalogChanged, offer.cat.Models[i].Model))
	}
	if list, err = highlightRow(ctx, tx, list, row); err != nil {
		return "", err
	}
	name := list.Rows[row].Label
	if prof.EffortPopup {
		return popupSet(ctx, tx, prof, list, offer.cat.Models[i], effort)
	}
	if effort != "" {
		if list, err = setEffort(ctx, tx, prof, list, effort); err != nil {
			return "", err
		}
	}
	// "s": the confirmation a conversation with turns asks, or the notice
	// at once.
	r, err := screenStepAt(ctx, tx, prof.Set, "set "+name, FaultModelSet, func(r terminal.Recognition) bool {
		return r.ModelMenu != nil && r.ModelMenu.Kind == recognizers.SwitchConfirm ||
			r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty && prof.Applied(r.ModelNotice, "", effort)
	})
	if err != nil {
		return "", err
	}
	if c := r.ModelMenu; c != nil {
		if c.Highlight != 0 {
			return "", fmt.Errorf("%s: the confirmation does not highlight Yes", api.ReasonPostcondition)
		}
		if r, err = screenStep(ctx, tx, keyEnter, "confirm "+c.For, func(r terminal.Recognition) bool {
			return r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty && prof.Applied(r.ModelNotice, c.For, effort)
		}); err != nil {
			return "", err
		}
	}
	return r.ModelNotice, nil
}

// popupSet opens the model's effort popup, proves its efforts the
// offer's, and sets the effort with Enter.
func popupSet(ctx context.Context, tx *txn, prof recognizers.ModelControlProfile, list *recognizers.ModelMenu, opt api.ModelOption, effort string) (string, error) {
	name := opt.Model
	e, err := menuStep(ctx, tx, keyEnter, "the efforts of "+name, func(x *recognizers.ModelMenu) bool {
		return x.Kind == recognizers.EffortList && x.For == name
	})
	if err != nil {
		return "", err
	}
	var offered []string
	for _, r := range e.Rows {
		if !slices.Contains(prof.NotOffered, r.Label) {
			offered = append(offered, r.Label)
		}
	}
	at := rowIndex(e.Rows, effort)
	if strings.Join(offered, "\n") != strings.Join(opt.Efforts, "\n") || at < 0 {
		return "", fmt.Errorf("%s: the efforts of %s differ from the catalog", api.ReasonCatalogChanged, name)
	}
	for e.Highlight != at {
		key, next := keyDown, e.Highlight+1
		if at < e.Highlight {
			key, next = keyUp, e.Highlight-1
		}
		if e, err = menuStep(ctx, tx, key, "effort "+effort, func(x *recognizers.ModelMenu) bool {
			return x.Kind == recognizers.EffortList && x.For == name && x.Highlight == next
		}); err != nil {
			return "", err
		}
	}
	r, err := screenStepAt(ctx, tx, prof.Set, "set "+name+" "+effort, FaultModelSet, func(r terminal.Recognition) bool {
		return r.Screen == contract.ScreenIdle && r.Composer == contract.ComposerEmpty && prof.Applied(r.ModelNotice, name, effort)
	})
	return r.ModelNotice, err
}

// leave closes the menu after a check that failed inside it, and returns
// why (the caller's failure stays uncertain: keys were sent).
func (d *Dispatcher) leave(ctx context.Context, tx *txn, m *recognizers.ModelMenu, why error) error {
	if _, err := closeMenu(ctx, tx, m); err != nil {
		return fmt.Errorf("%w; closing the menu: %v", why, err)
	}
	return fmt.Errorf("%w (the menu was closed, nothing set)", why)
}

// beginModel is model control's checks: a model control profile, the
// native checks, no open work, then extra; and a reservation (private for
// model_options).
func (d *Dispatcher) beginModel(ctx context.Context, op, terminalID string, private bool, extra ...func(terminal.View) *refusal) (Terminal, recognizers.ModelControlProfile, *txn, terminal.View, api.ActionResult) {
	m, tx, before, prof, out := beginNative(ctx, d, op, terminalID, private, func(v terminal.View) (recognizers.ModelControlProfile, *refusal) {
		prof, ref := modelReady(v)
		for _, f := range extra {
			if ref != nil {
				break
			}
			ref = f(v)
		}
		return prof, ref
	})
	return m, prof, tx, before, out
}

// modelReady is the check on the settled screen.
func modelReady(v terminal.View) (recognizers.ModelControlProfile, *refusal) {
	return nativeProfile(v, recognizers.ModelControl, "no model control profile: no recorded screen proves its /model menus")
}

// rowIndex is the index of the row labelled label (any case), or -1.
func rowIndex(rows []recognizers.ModelRow, label string) int {
	for i, r := range rows {
		if strings.EqualFold(r.Label, label) {
			return i
		}
	}
	return -1
}

// needTerminal checks a request's terminal_id.
func needTerminal(op, id string) error {
	if err := checkID("terminal_id", id, "term"); err != nil || id == "" {
		return cmpErr(err, api.Errorf(api.CodeBadRequest, "%s needs terminal_id", op))
	}
	return nil
}
