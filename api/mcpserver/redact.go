package mcpserver

import (
	"log/slog"

	"github.com/agent-knock-knock/akk/api"
)

// A host's tool input with answer or task text: its LogValue and String
// are the api request's (lengths, never the text).

// LogValue of respond_interaction's input.
func (in respondIn) LogValue() slog.Value {
	return api.RespondRequest{TurnID: in.TurnID, WatchID: in.WatchID, InteractionID: in.InteractionID,
		Answers: in.Answers, DeliveryMode: in.DeliveryMode}.LogValue()
}

// String is LogValue as text.
func (in respondIn) String() string { return in.LogValue().String() }

// LogValue of send's input.
func (in sendIn) LogValue() slog.Value {
	return api.SendRequest{SessionID: in.SessionID, TerminalID: in.TerminalID, Mode: in.Mode, Request: in.Request,
		MessageID: in.MessageID}.LogValue()
}

// String is LogValue as text.
func (in sendIn) String() string { return in.LogValue().String() }
