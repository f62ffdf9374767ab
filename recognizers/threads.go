package recognizers

// ThreadProfile is an exact profile's closed native thread commands (seed
// 003 "Native Thread Transitions"): the only slash commands akk ever
// types, and how it proves each before its one Enter. Recorded with the
// rig (recordings/rig/threads.go, threads_id.go): no version asks for a
// confirmation; Enter runs the command the completion list highlights
// (Recognition.Completion), and with an argument typed no version draws a
// list (Recognition.NoCompletion), so Enter runs the line as typed.
type ThreadProfile struct {
	New    string // the new-conversation command: Claude /clear, Codex /new
	Resume string // the resume command, followed by a space and the conversation's full id
}

// threadProfiles are the versions whose thread surfaces are recorded and
// read exactly (thread-new, thread-resume, thread-resume-id), as
// registered (Version.Threads); any other version is refused before input
// (unknown_version).
var threadProfiles = map[string]ThreadProfile{}

// Threads is the thread profile of agent@version, if it has one.
func Threads(agent, version string) (ThreadProfile, bool) {
	p, ok := threadProfiles[agent+"@"+version]
	return p, ok
}
