package chats

import (
	"strings"
	"testing"

	"github.com/agent-knock-knock/akk/watchers/evidence"
	"github.com/agent-knock-knock/akk/watchers/evidence/evidencetest"
)

func FuzzGeminiLine(f *testing.F) {
	f.Add([]byte(strings.Join([]string{gHeader("s", "main"), gInit, gUser("u1", "hi"), gReply("r1", "Hello"), gUser("u2", "next")}, "\n")))
	f.Add([]byte(strings.Join([]string{gUser("u1", "go"), gReply("r1", "", gCall("c_1_0", "write_file", "cancelled", `{}`, gDenied)),
		gNote("i1", "info", "Request cancelled."), gUser("x1", gContext, "go"), gList(gUser("x1", gContext, "go")), `{"$rewindTo":"x1"}`}, "\n")))
	f.Add([]byte("{}\n[]\nnull\n\"x\"\n{\"$set\":null}\n{\"id\":\"a\",\"type\":\"gemini\",\"content\":[\"t\",{\"text\":1}]}"))
	for _, s := range evidencetest.CorpusLines(f, "chats") {
		f.Add(s)
	}
	for _, s := range geminiSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		evidencetest.Lines(t, func() evidence.Parser { return NewParser() }, data)
	})
}
