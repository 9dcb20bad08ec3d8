package compile

import (
	"testing"
	"unsafe"
)

// TestSizes checks the sizes File.Bytes counts against the structs' own,
// on 64-bit platforms.
func TestSizes(t *testing.T) {
	if unsafe.Sizeof(uintptr(0)) != 8 {
		t.Skip("the sizes are a 64-bit platform's")
	}
	for _, c := range []struct {
		name       string
		got, count uintptr
	}{
		{"File", unsafe.Sizeof(File{}), sizeofFile},
		{"Group", unsafe.Sizeof(Group{}), sizeofGroup},
		{"records", unsafe.Sizeof(records{}), sizeofRecords},
		{"rec", unsafe.Sizeof(rec{}), sizeofRec},
		{"Join", unsafe.Sizeof(Join{}), sizeofJoin},
		{"Diagnostic", unsafe.Sizeof(Diagnostic{}), sizeofDiag},
		{"Warning", unsafe.Sizeof(Warning{}), sizeofWarning},
	} {
		if c.got != c.count {
			t.Errorf("a %s takes %d bytes; File.Bytes counts %d", c.name, c.got, c.count)
		}
	}
}
