// Command akk supervises coding agents running in tmux panes.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "akk: no commands yet")
	os.Exit(2)
}
