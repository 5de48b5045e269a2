package model

// Mark is a tree row that names what an entry is rather than quoting it
// ("[model: x]", "[turn_context]"): t on one line, in brackets, dimmed.
// Each format's TreeText made it with a closure of its own.
func Mark(t string) []Part { return []Part{{Text: "[" + OneLine(t) + "]", Role: "dim"}} }
