package recognizers

// Reason says why an interaction is manual_required, or why prompt-like
// text is not a prompt. Code is the stable public name; Detail says where
// on the screen (row numbers, never screen text: it may be private).
type Reason struct {
	Code   string
	Detail string
}

func (r Reason) String() string {
	if r.Detail == "" {
		return r.Code
	}
	return r.Code + " (" + r.Detail + ")"
}

// Reason codes. An interaction with any of these is manual_required and
// gets zero input.
const (
	// The agent version has no exact profile.
	ReasonUnknownVersion = "unknown_version"
	// The agent binary is qualified against a pinned profile (Qualified),
	// but not on this surface: it failed, was not reached, or no scenario
	// covers it.
	ReasonUnqualifiedSurface = "unqualified_surface"
	// Checkbox rows: toggling several needs a recapture after each toggle
	// (seed 000), not built yet.
	ReasonMultiSelect = "multi_select"
	// A question's header or prompt asks for a password, token, key or
	// another secret (secret.go): akk never relays one (seed 000).
	ReasonSecretInput = "secret_input"
	// The prompt's top (frame rule, header or title) is not on the screen:
	// a short pane or scrolling cut it.
	ReasonClippedFrame = "clipped_frame"
	// A frame rule or padded footer does not span the pane's width: the
	// pane was resized and the agent has not redrawn.
	ReasonResizedFrame = "resized_frame"
	// A frame rule or the header the profile requires is missing.
	ReasonFrameMissing = "frame_missing"
	// The profile's footer is missing or different.
	ReasonFooterMissing = "footer_missing"
	// Two rows carry the same number.
	ReasonDuplicateOption = "duplicate_option"
	// Rows are not numbered 1..n in screen order.
	ReasonOutOfOrderOption = "out_of_order_options"
	// The rows are not the profile's exact menu (count, labels or
	// layout).
	ReasonChangedMenuShape = "changed_menu_shape"
	// An option's label wraps onto a continuation row in a way no
	// recording of the version shows: the joined label is a guess.
	ReasonWrappedLabel = "wrapped_label"
	// A model-supplied option reads as a native or derived free-text
	// row's label ("Type something.", "None of the above", "Other"): its
	// digit would submit the literal label where a free-text answer looks
	// meant.
	ReasonFreeTextLookalike = "free_text_label_collision"
	// Only persistent grants are offered: approving once is impossible.
	ReasonPersistentOnly = "persistent_permission_only"
	// Claude's "Tab to amend" turned row 1 into "Yes, and tell Claude what
	// to do next".
	ReasonTabToAmend = "tab_to_amend"
	// Another prompt is shown above the live one.
	ReasonStalePrompt = "stale_prompt_above"
	// Not exactly one row carries the profile's highlight style, or the
	// highlight glyph and the styled row disagree.
	ReasonHighlightUnproven = "highlight_unproven"
	// The highlight is not on the row the profile requires (Claude's
	// permission: one-time Yes must be current).
	ReasonHighlightMoved = "highlight_not_default"
	// Something is drawn below the prompt's last row.
	ReasonContentBelow = "content_below_prompt"
	// A prompt of a shape no recording proves (another tool, another
	// title).
	ReasonUnsupportedShape = "unsupported_prompt_shape"
	// A user-verification prompt (Codex MCP): needs the person.
	ReasonUserVerification = "user_verification"
	// The recordings show an approval's effect but not its scope: the
	// approved call's durable record reads the same for a one-time allow
	// and a grant remembered for the session (Codex's MCP tool approval:
	// the rollout holds only the completed McpToolCall).
	ReasonApprovalScopeUnproven = "approval_scope_unproven"
	// No native action for this kind is proven safe.
	ReasonNoSafeAction = "no_safe_action"
)

// Reason codes for prompt-like text that is not a prompt (no interaction).
const (
	// Prompt phrases or rows without the profile's styles (printed text,
	// a quotation, a dump).
	NoteUnstyledLookalike = "prompt_text_without_styles"
	// The live composer is below prompt-like text: it is transcript.
	NotePromptInTranscript = "prompt_text_in_transcript"
	// Neither a composer nor a prompt the profile knows.
	NoteUnrecognized = "unrecognized_screen"
	// The footer under the composer is not one the profile knows.
	NoteFooterUnknown = "composer_footer_unknown"
	// The transcript ends in an API error of a shape the profile does not
	// know (its style, layout or text): not read as blocked, nor as idle.
	NoteUnknownAPIError = "api_error_unknown_shape"
)

// NewReason is a reason with its code and detail.
func NewReason(code, detail string) Reason { return Reason{Code: code, Detail: detail} }
