package stamp

import (
	"math"
	"os"
	"path/filepath"
	"testing"
)

// A state written with the codec reads back as it was, and a read past
// its end is Bad rather than a value.
func TestCodecRoundTrip(t *testing.T) {
	e := Codec{}
	e.Int(-7)
	e.Float(math.Pi)
	e.Str("héllo")
	e.Bools(true, false, true)
	d := Codec{B: e.B}
	if v := d.ReadInt(); v != -7 {
		t.Errorf("int %d", v)
	}
	if v := d.ReadFloat(); v != math.Pi {
		t.Errorf("float %v", v)
	}
	if v := d.ReadStr(); v != "héllo" {
		t.Errorf("str %q", v)
	}
	if v := d.ReadBools(3); !v[0] || v[1] || !v[2] {
		t.Errorf("bools %v", v)
	}
	if d.Bad || len(d.B) != 0 {
		t.Errorf("bad %v, %d left", d.Bad, len(d.B))
	}
	_ = d.ReadStr()
	if !d.Bad {
		t.Error("a read past the end is not Bad")
	}
}

// ByStat: a file as the token saw it, changed long ago, is Same; one that
// grew is Changed; one changed in the token's clock tick is Unsure.
func TestByStat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("abc"), 0o600)
	st, _ := os.Stat(p)
	in, ok := ChangeTime(st)
	if !ok {
		t.Skip("no change time on this platform")
	}
	mt := st.ModTime().UnixNano()
	if v := ByStat(st, 3, mt, in, in.CtimeNs+2*Slack); v != Same {
		t.Errorf("unchanged: %v", v)
	}
	if v := ByStat(st, 3, mt, in, in.CtimeNs); v != Unsure {
		t.Errorf("indexed in the change's tick: %v", v)
	}
	os.WriteFile(p, []byte("abcd"), 0o600)
	st, _ = os.Stat(p)
	if v := ByStat(st, 3, mt, in, in.CtimeNs+2*Slack); v != Changed {
		t.Errorf("grown: %v", v)
	}
}
