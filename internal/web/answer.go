package web

import (
	"crypto/hmac"
	"net/http"
	"strconv"
	"unicode/utf8"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/answer"
)

// answer is POST /answer: a fresh Status for this browser (the offer the
// answer consumes), and the answer only when it shows what the page
// showed; then the new state, with what happened.
func (s *Server) answer(w http.ResponseWriter, r *http.Request, sess *Session) {
	v := s.answerOnce(r, sess)
	if r.Header.Get("X-Akk-Fragment") != "" {
		s.render(w, "detail", v)
		return
	}
	// Without script: the whole page, with the outcome in place.
	s.render(w, "page", pageView{CSRF: sess.CSRF, List: s.list(r.Context(), v.ID), Detail: &v})
}

func (s *Server) answerOnce(r *http.Request, sess *Session) detailView {
	ctx := r.Context()
	id := r.PostFormValue("t")
	actor := s.b.As(sess.Controller())
	fresh, err := actor.Status(ctx, api.StatusRequest{TerminalID: id, Render: true})
	if err != nil {
		return detailView{ID: id, Msg: "Nothing was sent: " + err.Error(), MsgBad: true}
	}
	after := func(msg string, bad bool) detailView {
		v := newDetailView(fresh, digest(s.key, fresh), sess.CSRF)
		v.Msg, v.MsgBad = msg, bad
		return v
	}
	if !hmac.Equal([]byte(digest(s.key, fresh)), []byte(r.PostFormValue("shown"))) {
		return after("The screen changed since it was shown: nothing was sent. This is the new state.", true)
	}
	choices, manual := answer.Choices(fresh.Terminal)
	i, err := strconv.Atoi(r.PostFormValue("c"))
	if err != nil || i < 0 || i >= len(choices) {
		if manual != "" {
			return after("Nothing was sent: "+manual+".", true)
		}
		return after("Nothing was sent: that choice is not offered.", true)
	}
	c := choices[i]
	text := r.PostFormValue("text")
	if c.FreeText {
		if msg := checkText(c, text); msg != "" {
			return after("Nothing was sent: "+msg+".", true)
		}
	}
	ap, rp := answer.Request(fresh, c, text)
	var res api.ActionResult
	if ap != nil {
		res, err = actor.Approve(ctx, *ap)
	} else {
		res, err = actor.Respond(ctx, *rp)
	}
	msg, bad := answer.Say(res, err)
	s.lg.Info("web: answered", "session", sess, "terminal_id", id, "outcome", res.Outcome, "reason", res.Reason)
	// The state after the answer, with a fresh offer for what follows
	// (the next step of a questionnaire).
	if next, err := actor.Status(ctx, api.StatusRequest{TerminalID: id, Render: true}); err == nil {
		fresh = next
	}
	return after(msg, bad)
}

// checkText refuses typed text the agent's field would not take.
func checkText(c answer.Choice, text string) string {
	n := utf8.RuneCountInString(text)
	switch {
	case n == 0:
		return "the answer is empty"
	case !utf8.ValidString(text):
		return "the answer is not UTF-8 text"
	case len(text) > api.MaxAnswerText:
		return "the answer is longer than akk types"
	case c.Question != nil && c.Question.MaxLength > 0 && n > c.Question.MaxLength:
		return "the answer is longer than the question allows (" + strconv.Itoa(c.Question.MaxLength) + ")"
	}
	return ""
}
