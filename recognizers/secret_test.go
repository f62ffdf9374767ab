package recognizers

import (
	"slices"
	"testing"

	"github.com/agent-knock-knock/akk/contract"
)

// TestAsksSecret: both sides of the secret-word match. Every row on the
// secret side is manual_required; every row on the other side is an
// ordinary question (a word that contains a secret word is another word).
func TestAsksSecret(t *testing.T) {
	for _, tc := range []struct {
		text   string
		secret bool
	}{
		{"What is the database password?", true},
		{"Password", true},
		{"DB password", true},
		{"Enter your PASSWORD", true},
		{"What is the passphrase of the key?", true},
		{"Passcode for the door?", true},
		{"Set DB_PASSWORD to what?", true},
		{"What should dbPassword be?", true},
		{"Paste the GitHub token", true},
		{"GITHUB_TOKEN value?", true},
		{"Which tokens should I use?", true},
		{"What is your OpenAI API key?", true},
		{"API-Key", true},
		{"Set OPENAI_API_KEY?", true},
		{"apiKey for the service?", true},
		{"What is the APIKey?", true},
		{"Paste your apikey", true},
		{"What is the client secret?", true},
		{"Secrets", true},
		{"Which credentials should I use?", true},
		{"Credential", true},
		{"Paste the private key", true},
		{"private_key.pem contents?", true},
		{"What is the AWS access key?", true},
		{"What is your PIN?", true},
		{"PIN", true},
		{"Enter the pin code", true},
		{"Should I pin the version?", true}, // over-matches toward manual, on purpose
		{"What is the passwd entry?", true},
		{"OAuth2Token value?", true},

		{"Which color should the button be?", false},
		{"Color", false},
		{"Which keyboard layout do you use?", false},
		{"Which tokenizer should the model use?", false},
		{"Should the tokenizer be fast?", false},
		{"Is she the secretary?", false},
		{"Enable passwordless login?", false},
		{"Keep the pinned versions?", false},
		{"Is the spinner spinning?", false},
		{"Which keys should the map use?", false},
		{"What is the primary key of the table?", false},
		{"Which API should it call?", false},
		{"Which key binding do you want?", false},
		{"Use a public key?", false},
		{"Which pinyin input?", false},
		{"Tokenize the input first?", false},
		{"Credentialing policy?", false},
		{"Access the database?", false},
		{"", false},
	} {
		if got := asksSecret(tc.text); got != tc.secret {
			t.Errorf("asksSecret(%q) = %v, want %v (words %q)", tc.text, got, tc.secret, words(tc.text))
		}
	}
}

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"dbPassword", []string{"db", "password"}},
		{"APIKey", []string{"api", "key"}},
		{"GITHUB_TOKEN", []string{"github", "token"}},
		{"api-key.v2", []string{"api", "key", "v2"}},
		{"  What is it?  ", []string{"what", "is", "it"}},
		{"Größe ändern", []string{"größe", "ändern"}},
	} {
		if got := words(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("words(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestSecretReasons: header or prompt, any question kind but permission.
func TestSecretReasons(t *testing.T) {
	q := func(h, p string) []Question { return []Question{{Header: h, Prompt: p}} }
	for _, tc := range []struct {
		pr   *Prompt
		want int
	}{
		{nil, 0},
		{&Prompt{Kind: contract.KindQuestionnaire, Questions: q("Password", "Which one?")}, 1},
		{&Prompt{Kind: contract.KindQuestionnaire, Questions: q("Color", "What is the database password?")}, 1},
		{&Prompt{Kind: contract.KindFreeText, Questions: q("", "What is the database password?")}, 1},
		{&Prompt{Kind: contract.KindAsyncQuestion, Questions: q("", "Paste the API key")}, 1},
		{&Prompt{Kind: contract.KindQuestionnaire, Questions: q("Color", "Which color?")}, 0},
		{&Prompt{Kind: contract.KindPermission, Questions: q("Bash command", "Do you want to proceed?")}, 0},
		{&Prompt{Kind: contract.KindPermission, Questions: q("Token", "Do you want to proceed?")}, 0},
	} {
		got := secretReasons(tc.pr)
		if len(got) != tc.want {
			t.Errorf("%+v: %v, want %d reasons", tc.pr, got, tc.want)
		}
		for _, r := range got {
			if r.Code != ReasonSecretInput {
				t.Errorf("%+v: reason %v", tc.pr, r)
			}
		}
	}
}
