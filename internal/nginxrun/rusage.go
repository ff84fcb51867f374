package nginxrun

import (
	"os"
	"reflect"
	"runtime"
)

// maxRSS reads the peak resident set of a finished process, in bytes.
// The rusage type differs between systems (and Windows has no Maxrss), so
// the field is looked up by name rather than through syscall.Rusage.
func maxRSS(st *os.ProcessState) int64 {
	v := reflect.ValueOf(st.SysUsage())
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return 0
	}
	f := v.FieldByName("Maxrss")
	if !f.IsValid() || !f.CanInt() {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return f.Int()
	}
	return f.Int() * 1024 // Linux and the BSDs count KiB
}
