package evidence

import "time"

// ThreadLine is what one record line says of its conversation, for the
// listing of conversations a pane's agent may resume (watchers.Threads).
// Each agent's format reads its own lines into one.
type ThreadLine struct {
	// ID and Cwd are the session and its cwd, from a record with both.
	ID, Cwd string
	Time    time.Time
	// Prompt is the user's own text; Command a slash command the user
	// ran ("/clear"), from its echo.
	Prompt, Command string
	// Title is a title the agent recorded for the conversation, of rank
	// TitleRank (0 first): the listing shows the last title of the best
	// rank it read.
	Title     string
	TitleRank int
}

// TitleRanks bounds ThreadLine.TitleRank.
const TitleRanks = 4
