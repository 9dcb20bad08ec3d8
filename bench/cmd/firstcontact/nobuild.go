//go:build !nzrsky

package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, `firstcontact: built without the C++ library: CGO_CXXFLAGS="-I DIR" go run -tags nzrsky ./cmd/firstcontact (see go doc)`)
	os.Exit(2)
}
