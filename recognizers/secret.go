package recognizers

import (
	"strings"
	"unicode"

	"github.com/agent-knock-knock/akk/contract"
)

// Secret input (seed 000: no secret or password relay). A question whose
// header or prompt asks for a password, passphrase, token, API key,
// secret, credential, private key or PIN is manual_required with
// secret_input under every profile, exact or generic: no plan, zero
// input. The check runs on the parsed prompt after the grammar, so every
// question kind gets it (a Claude questionnaire and its free-text editor,
// a Codex question, its Notes step, an async question expanded or
// collapsed); permission prompts ask for no input and are not checked.
//
// The agents' own marks (measured on the installed binaries and the
// question-secret recordings): Claude Code's AskUserQuestion schema
// (2.1.267, 2.1.332) has no secret or masked field (question, header,
// options with label, description and preview, multiSelect; the extended
// form adds kind text/number with its placeholder and bounds), and its
// "Type something." editor shows what is typed. Codex's protocol question
// (RequestUserInputQuestion, 0.154.0 to 0.171.0) carries isSecret,
// default false, which its request_user_input tool schema does not offer
// the model (id, header, question, options); set anyway, the question
// looks the same and only the Notes draft is masked, one "*" a character
// (codex0x.secretMask, read by freeTextEditor). Before anything is typed
// nothing on screen tells, so the words are the evidence, and the match
// errs only toward manual.
//
// Words are matched whole and case-insensitively: a word is a run of
// letters and digits, also split at "_", "-", "." and a case hump
// ("dbPassword", "GITHUB_TOKEN", "APIKey" all ask). "keyboard",
// "tokenizer", "secretary", "passwordless", "pinned" and "spinning" are
// other words. "Should I pin the version?" is manual too: a PIN and the
// verb are the same word, and over-matching costs only a manual answer.

// secretWords ask for a secret on their own.
var secretWords = map[string]bool{
	"password": true, "passwords": true, "passwd": true,
	"passphrase": true, "passphrases": true, "passcode": true, "passcodes": true,
	"token": true, "tokens": true,
	"secret": true, "secrets": true,
	"credential": true, "credentials": true,
	"apikey": true, "apikeys": true,
	"pin": true, "pins": true,
}

// secretPairs ask for a secret as two words ("API key", "private_key").
var secretPairs = map[[2]string]bool{
	{"api", "key"}: true, {"api", "keys"}: true,
	{"private", "key"}: true, {"private", "keys"}: true,
	{"access", "key"}: true, {"access", "keys"}: true,
}

// asksSecret reports whether s asks for a secret.
func asksSecret(s string) bool {
	ws := words(s)
	for i, w := range ws {
		if secretWords[w] || i > 0 && secretPairs[[2]string{ws[i-1], w}] {
			return true
		}
	}
	return false
}

// words splits s into lower-case words: runs of letters and digits, also
// split where a lower-case letter or digit is followed by an upper-case
// one ("dbPassword") and before the last capital of a run followed by a
// lower-case letter ("APIKey": "API", "Key").
func words(s string) []string {
	var out []string
	rs := []rune(s)
	start := -1
	for i, r := range rs {
		word := unicode.IsLetter(r) || unicode.IsDigit(r)
		if start >= 0 && (!word || hump(rs, i)) {
			out = append(out, strings.ToLower(string(rs[start:i])))
			start = -1
		}
		if word && start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, strings.ToLower(string(rs[start:])))
	}
	return out
}

// hump reports a case change that starts a new word at rs[i] (an
// upper-case letter after a lower-case letter or digit, or the last of
// several capitals before a lower-case letter).
func hump(rs []rune, i int) bool {
	if i == 0 || !unicode.IsUpper(rs[i]) {
		return false
	}
	p := rs[i-1]
	if unicode.IsLower(p) || unicode.IsDigit(p) {
		return true
	}
	return unicode.IsUpper(p) && i+1 < len(rs) && unicode.IsLower(rs[i+1])
}

// secretReasons names each question of pr that asks for a secret (by its
// number and field only: the text may be private).
func secretReasons(pr *Prompt) []Reason {
	if pr == nil || pr.Kind == contract.KindPermission {
		return nil
	}
	var out []Reason
	for i, q := range pr.Questions {
		switch {
		case asksSecret(q.Header):
			out = append(out, NewReason(ReasonSecretInput, "header of question "+itoa(i+1)))
		case asksSecret(q.Prompt):
			out = append(out, NewReason(ReasonSecretInput, "prompt of question "+itoa(i+1)))
		}
	}
	return out
}
