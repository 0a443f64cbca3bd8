package side

import . "example.com/work/side/b"

// Dot weighs the class of s's first byte, through a dot import.
func Dot(s string) int {
	return weight(Class(s[0])) + weight(2)
}
