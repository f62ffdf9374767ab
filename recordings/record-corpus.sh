#!/usr/bin/env bash
# Regenerates the recordings corpus (recordings/testdata/) with the live rig:
# the real agents, installed by the rig into $XDG_CACHE_HOME/akk/agents,
# against the fake model servers on 127.0.0.1. One line per recording.
#
#   recordings/record-corpus.sh                   # everything
#   recordings/record-corpus.sh claude@2.1.267    # one version
#
# Afterwards update recordings/testdata/corpus.json if surfaces changed, run
# `go test -run TestReplay ./recordings/...`, and commit one version per commit.
set -euo pipefail
cd "$(dirname "$0")/.."
rig=$(mktemp -d)/rig
go build -o "$rig" ./recordings/cmd/rig
want=("$@")
record() { # agent version scenario
	local a=$1 v=$2 s=$3
	if [ ${#want[@]} -gt 0 ] && [[ ! " ${want[*]} " == *" $a@$v "* ]]; then return; fi
	"$rig" -agent "$a" -version "$v" -scenario "$s" -out "recordings/testdata/$a/$v" || echo "FAILED: $a $v $s" >&2
}

claude_common="idle draft working send permission-approve permission-reject question-digit question-enter question-escape multi-select several-questions type-something quoted-prompt"
for v in 2.1.267 2.1.263 2.1.266 2.1.332; do
	for s in $claude_common; do record claude "$v" "$s"; done
done
# One version of each agent also has a narrow pane and a resize during a prompt.
for s in idle-narrow permission-narrow permission-resize; do record claude 2.1.267 "$s"; done
# 2.1.332 in its own default permission mode, auto mode (the others pin manual
# mode).
for s in idle-auto working-auto bash-auto; do record claude 2.1.332 "$s"; done

codex_common="idle draft working send permission-approve permission-reject question-digit question-enter question-escape question-notes question-unanswered quoted-prompt"
for v in 0.155.1 0.153.4 0.154.0 0.171.0; do
	for s in $codex_common; do record codex "$v" "$s"; done
done
for v in 0.154.0 0.155.1; do record codex "$v" async-question; done
for s in idle-narrow permission-narrow permission-resize; do record codex 0.155.1 "$s"; done
# A question asking for a password (never actionable; Codex's with isSecret).
for v in 2.1.267 2.1.332; do record claude "$v" question-secret; done
for v in 0.155.1 0.171.0; do record codex "$v" question-secret; done
# Gemini CLI 0.61.0: its surfaces and the matrix's variants.
for s in $("$rig" -list | sed -n 's/^gemini: //p'); do record gemini 0.61.0 "$s"; done
# OpenCode 1.18.33: its surfaces and the matrix's variants (the session
# log is dumped from its SQLite store with the sqlite3 command).
for s in $("$rig" -list | sed -n 's/^opencode: //p'); do record opencode 1.18.33 "$s"; done
