package dhara

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf8"

	"skein/model"
)

// The one-walk reader of tree.json reads every valid tree as the reader
// that validates first does, and refuses every document that is not valid
// JSON (which the other then reports): random trees, in several layouts,
// and each with a byte changed, dropped or added.
func TestTreeStrictMatches(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ids := []string{"msg_1", "call_2", `a"b`, `c\d`, "é", "", "result_7", "]", ","}
	for range 3000 {
		var branches []any
		for b := range r.IntN(4) {
			var list []any
			for range r.IntN(8) {
				if r.IntN(20) == 0 {
					list = append(list, r.IntN(9))
				} else {
					list = append(list, ids[r.IntN(len(ids))])
				}
			}
			br := map[string]any{"id": "branch_" + string(rune('a'+b)), "entryIds": list, "createdAt": "2026-01-01T00:00:00.000Z"}
			if b > 0 {
				br["parentBranchId"] = "branch_a"
			} else {
				br["parentBranchId"] = nil
			}
			if r.IntN(10) == 0 {
				br["extra"] = map[string]any{"x": []any{1, "two", nil}}
			}
			branches = append(branches, br)
		}
		if r.IntN(15) == 0 {
			branches = append(branches, "not a branch")
		}
		doc := map[string]any{"root": "branch_a", "branches": branches}
		var raw []byte
		switch r.IntN(3) {
		case 0:
			raw, _ = json.Marshal(doc)
		case 1:
			raw, _ = json.MarshalIndent(doc, "", "  ")
		default:
			raw, _ = json.MarshalIndent(doc, " ", "\t")
			raw = append(raw, " \n"...)
		}
		check(t, raw)
		for range 4 {
			m := bytes.Clone(raw)
			k := r.IntN(len(m))
			switch r.IntN(3) {
			case 0:
				m[k] = "{}[],:\" \\x0a1"[r.IntN(13)]
			case 1:
				m = append(m[:k], m[k+1:]...)
			default:
				m = append(m[:k], append([]byte{"{}[],:\"\\a"[r.IntN(9)]}, m[k:]...)...)
			}
			check(t, m)
		}
	}
}

func check(t *testing.T, raw []byte) {
	t.Helper()
	strict, ok := parseTreeStrict(raw)
	var diags []model.Diagnostic
	members := parseTreeMembers(raw, &diags) // the reader that validates first
	if valid := len(diags) == 0; valid != ok {
		t.Fatalf("%q: read in one walk %v, validated %v (%v)", raw, ok, valid, diags)
	}
	if ok && (!reflect.DeepEqual(strict.Branches, members.Branches) || strict.Root != members.Root) {
		t.Fatalf("%q:\n one walk %+v\n two      %+v", raw, strict, members)
	}
	if json.Valid(raw) != ok && bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("{")) && utf8.Valid(raw) {
		t.Fatalf("%q: read %v, encoding/json says valid %v", raw, ok, json.Valid(raw))
	}
}
