// Package bench measures akk's parts side by side with peers. It is a
// separate module so that peers used only for comparison never enter akk's
// go.mod.
package bench
