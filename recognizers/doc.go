// Package recognizers turns a vt screen into an agent screen state through
// closed, versioned profiles. It does no I/O and reads no clock.
package recognizers
