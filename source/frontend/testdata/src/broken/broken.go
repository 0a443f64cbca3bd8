package broken

func F() int {
	x := 1
	return x + "a"
}

func G() {
	undefined()
}
