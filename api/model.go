package api

import (
	"context"
	"time"
)

// Native model control (seed 003): the agent's own /model menu, in two
// steps. model_options reads the catalog live from the menu and leaves it
// as it was (Esc); set_model sets one exact tuple of that same
// controller's catalog through the menu and proves the agent's notice.
// repair_model_control (Codex) only cleans up what a failed attempt left:
// the popup open, or a bare "/model" in the composer. None creates a
// Session, Turn or callback.

// Operations and tools of model control.
const (
	OpModelOptions        = "model_options"
	OpSetModel            = "set_model"
	OpRepairModelControl  = "repair_model_control"
	ToolModelOptions      = "agent_knock_knock_model_options"
	ToolSetModel          = "agent_knock_knock_set_model"
	ToolRepairModelCtl    = "agent_knock_knock_repair_model_control"
	MaxModelOptions       = 32
	MaxModelEfforts       = 8
	ModelCatalogTTL       = 5 * time.Minute
	ScopeCurrentSession   = "current_session"          // Claude Code: "s", this session only
	ScopeCurrentAndNew    = "current_and_new_sessions" // Codex: Enter, written to config.toml
	ReasonModelNotOffered = "model_not_offered"        // the tuple is not in the controller's catalog
	ReasonNoCatalog       = "no_model_catalog"         // no catalog of this controller for the terminal (or it expired)
	ReasonCatalogChanged  = "catalog_changed"          // the menu differs from the catalog
	ReasonAlreadyCurrent  = "model_already_current"    // the tuple is the one in use
	ReasonNoResidue       = "no_model_control_residue" // repair: no /model popup or bare /model composer shown
)

// ModelOptionsRequest is POST /v1/model_options.
type ModelOptionsRequest struct {
	TerminalID string `json:"terminal_id"`
}

// SetModelRequest is POST /v1/set_model: one exact tuple of the
// controller's catalog.
type SetModelRequest struct {
	TerminalID      string `json:"terminal_id"`
	Model           string `json:"model"`
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
}

// RepairModelControlRequest is POST /v1/repair_model_control.
type RepairModelControlRequest struct {
	TerminalID string `json:"terminal_id"`
}

// ModelCatalog is the agent's own model menu as read: each model as the
// menu names it, with the efforts it offers.
type ModelCatalog struct {
	Agent   string        `json:"agent"`
	Version string        `json:"version"`
	Models  []ModelOption `json:"models"`
	// Current is the model in use and, where the menu shows it, its
	// effort.
	Current ModelTuple `json:"current"`
	// Scope is what set_model changes: ScopeCurrentSession or
	// ScopeCurrentAndNew.
	Scope      string    `json:"scope"`
	ObservedAt time.Time `json:"observed_at"`
	// ExpiresAt bounds the catalog as set_model's offer; after it, read
	// the options again.
	ExpiresAt time.Time `json:"expires_at"`
	// Warnings name what the menu showed but akk does not offer (a model
	// whose Enter is not recorded, "More reasoning…").
	Warnings []string `json:"warnings,omitempty"`
}

// ModelOption is one model of the catalog.
type ModelOption struct {
	Model       string `json:"model"`
	Description string `json:"description,omitempty"`
	Current     bool   `json:"current,omitempty"`
	Default     bool   `json:"default,omitempty"`
	// Efforts are the reasoning efforts offered with it, in the menu's
	// order (none: the model takes no effort; set_model omits it).
	Efforts       []string `json:"efforts"`
	DefaultEffort string   `json:"default_effort,omitempty"`
}

// ModelTuple is a model and its reasoning effort.
type ModelTuple struct {
	Model           string `json:"model"`
	ReasoningEffort string `json:"reasoning_effort,omitempty"`
}

// ModelSet is set_model's result: the tuple now in use and its scope.
type ModelSet struct {
	ModelTuple
	Scope string `json:"scope"`
	// Notice is the agent's own line for it ("Model changed to …").
	Notice string `json:"notice,omitempty"`
}

// ModelOptions is POST /v1/model_options.
func (c *Client) ModelOptions(ctx context.Context, req ModelOptionsRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpModelOptions, req)
}

// SetModel is POST /v1/set_model.
func (c *Client) SetModel(ctx context.Context, req SetModelRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpSetModel, req)
}

// RepairModelControl is POST /v1/repair_model_control.
func (c *Client) RepairModelControl(ctx context.Context, req RepairModelControlRequest) (ActionResult, error) {
	return callFor[ActionResult](ctx, c, OpRepairModelControl, req)
}
