package shot

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"
)

// TestRenderCapture: a styled capture becomes a PNG of 7x13 cells with
// the cells' colours.
func TestRenderCapture(t *testing.T) {
	capture := []byte("\x1b[41mAB\x1b[0m ─\nplain\n")
	rows, err := FromCapture(capture, 6, 2)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WritePNG(&buf, rows); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 6*cellW || b.Dy() != 2*cellH {
		t.Fatalf("size %v", b)
	}
	// The top-left corner of "A" is its background: red (palette 1).
	if r, g, b, _ := img.At(0, 0).RGBA(); r>>8 < 0x80 || g>>8 > 0x40 || b>>8 > 0x40 {
		t.Errorf("background of a red cell is %v", img.At(0, 0))
	}
	if got := color.RGBAModel.Convert(img.At(5*cellW, 0)); got != defaultBG {
		t.Errorf("an empty cell is %v, want the default background", got)
	}
}
