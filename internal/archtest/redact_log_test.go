package archtest

import (
	"testing"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/popup"
	"github.com/agent-knock-knock/akk/port"
	"github.com/agent-knock-knock/akk/recognizers"
)

const secret = "s3cr3t-draft-text"

// TestRedactedLogs: the exported private-holding types, each private
// field set to the secret, logged through slog's JSON handler and
// printed with fmt: the secret shows nowhere.
func TestRedactedLogs(t *testing.T) {
	var fp [32]byte
	copy(fp[:], secret)
	ans := api.Answer{QuestionID: "q_x", ResponseKind: "free_text", Text: secret}
	str := secret
	step := recognizers.PlanStep{Text: true, Keys: []byte(secret)}
	choice := recognizers.Choice{OptionID: "opt_x", RequireText: secret, Steps: []recognizers.PlanStep{step}}
	for name, v := range map[string]any{
		"api.Answer":              ans,
		"api.RespondRequest":      api.RespondRequest{TurnID: "turn_x", Answers: []api.Answer{ans}},
		"api.SendRequest":         api.SendRequest{TerminalID: "term_x", Request: secret},
		"api.AnswerRequest":       api.AnswerRequest{TurnID: "turn_x", Request: secret},
		"api.PromptRegion":        api.PromptRegion{Top: 1, Bottom: 2, Text: secret, ANSI: secret},
		"port.Response":           port.Response{RequestID: "r", Answer: secret},
		"port.Answer":             port.Answer{Port: 1, Text: secret},
		"recognizers.PlanStep":    step,
		"recognizers.Choice":      choice,
		"recognizers.Plan":        &recognizers.Plan{InteractionID: "int_x", Fingerprint: fp, Choices: []recognizers.Choice{choice}},
		"recognizers.Recognition": &recognizers.Recognition{Draft: secret, Fingerprint: fp},
		"popup.Model":             popup.Model{Text: []rune(secret)},
		"popup.AskModel":          popup.AskModel{Text: []rune(secret), Answer: &str},
	} {
		if where := Leak(v, secret); where != "" {
			t.Errorf("%s leaks its secret: %s", name, where)
		}
	}
}

// TestLeakFinds: Leak finds a secret in a plain struct as text and as
// bytes (it can fail).
func TestLeakFinds(t *testing.T) {
	var fp [32]byte
	copy(fp[:], secret)
	for name, v := range map[string]any{
		"text":       struct{ Draft string }{secret},
		"byte array": struct{ FP [32]byte }{fp},
		"byte slice": struct{ Keys []byte }{[]byte(secret)},
		"rune slice": struct{ Text []rune }{[]rune(secret)},
	} {
		if got := Leak(v, secret); got == "" {
			t.Errorf("%s: Leak = %q", name, got)
		}
	}
}
