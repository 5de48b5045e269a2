package claudeai

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"skein/internal/jscan"
	"skein/internal/jsjson"
	"skein/model"
)

// rootParents are the parent_message_uuid values that mean "no parent":
// claude.ai writes the first form; the second is the all-zero uuid.
var rootParents = map[string]bool{
	"00000000-0000-4000-8000-000000000000": true,
	"00000000-0000-0000-0000-000000000000": true,
}

// node is one element of chat_messages.
type node struct {
	raw      []byte
	uuid     string
	parent   int // index of the parent node, -1 for a root
	children []int
	ms       int64 // created_at
	hasMs    bool
	tail     string // id of the node's last entry, its children's parent
	tailMs   int64
}

// parent link kinds of a message.
const (
	linkAbsent = iota // none given: the previous message in the array
	linkRoot          // the root sentinel
	linkRef           // a message's uuid
)

// convert writes one conversation as a session; false when raw is not a
// conversation (an object with chat_messages, an array or null).
func convert(raw []byte, seen *ids) (Conversation, bool) {
	f, _ := pick(raw, "chat_messages", "uuid", "name", "created_at", "updated_at", "current_leaf_message_uuid")
	msgs := f[0]
	if msgs == nil || !isArray(msgs) && !isNull(msgs) {
		return Conversation{}, false
	}
	uuid, uuidOK := jscan.String(f[1])
	name, nameOK := jscan.String(f[2])

	var nodes []node
	var links []int
	var refs []string
	elements(msgs, func(el []byte) {
		if isNull(el) {
			return
		}
		n := node{raw: el, parent: -1}
		link, ref := linkAbsent, ""
		if isObject(el) {
			f, _ := pick(el, "uuid", "created_at", "parent_message_uuid")
			n.uuid, _ = jscan.String(f[0])
			n.ms, n.hasMs = parseTime(f[1])
			if p, ok := jscan.String(f[2]); ok && p != "" {
				link, ref = linkRef, p
				if rootParents[p] {
					link = linkRoot
				}
			}
		}
		nodes = append(nodes, n)
		links = append(links, link)
		refs = append(refs, ref)
	})
	byUUID := map[string]int{}
	for i := range nodes {
		if u := nodes[i].uuid; u != "" {
			if _, dup := byUUID[u]; !dup {
				byUUID[u] = i
			}
		}
	}
	for i := range nodes {
		switch links[i] {
		case linkAbsent:
			nodes[i].parent = i - 1
		case linkRef:
			if p, ok := byUUID[refs[i]]; ok && p != i {
				nodes[i].parent = p
			}
		}
	}
	breakCycles(nodes)
	for i := range nodes {
		if p := nodes[i].parent; p >= 0 {
			nodes[p].children = append(nodes[p].children, i)
		}
	}
	current := currentNode(nodes, f[5], byUUID)
	onPath := make([]bool, len(nodes))
	for i := current; i >= 0; i = nodes[i].parent {
		onPath[i] = true
	}

	// The session's time: the conversation's, else its first message's.
	start, ok := parseTime(f[3])
	for i := 0; !ok && i < len(nodes); i++ {
		start, ok = nodes[i].ms, nodes[i].hasMs
	}
	if !ok {
		start, _ = parseTime(f[4])
	}

	w := &writer{buf: make([]byte, 0, len(raw)+len(raw)/8+512)}
	sessionID := "claudeai-" + uuid
	if uuid == "" {
		sum := sha256.Sum256(raw)
		sessionID = "claudeai-" + hex.EncodeToString(sum[:8])
	}
	w.header(seen.take(sessionID), start)
	c := &conv{w: w, callIDs: map[string]string{}}

	// What the conversation says besides its messages has no place in the
	// tree: a custom entry at its root keeps it (the summary is text).
	top := ""
	if meta := leftovers(raw, func(n string) bool {
		switch n {
		case "uuid":
			return !uuidOK
		case "name":
			return !nameOK
		}
		return n != "created_at" && n != "updated_at" && n != "chat_messages"
	}); meta != nil {
		top = w.ids.take("conversation")
		w.custom(top, "", start, "conversation", withoutMember(raw, "chat_messages"))
	}

	// Depth first, parents before children; at every fork the branches off
	// the current path first, so that the current message is the last line.
	var stack []int
	var roots []int
	for i := range nodes {
		if nodes[i].parent < 0 {
			roots = append(roots, i)
		}
	}
	stack = pushChildren(stack, roots, onPath)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		parent, ms := top, start
		if p := nodes[i].parent; p >= 0 {
			parent, ms = nodes[p].tail, nodes[p].tailMs
		}
		nodes[i].tail, nodes[i].tailMs = c.message(&nodes[i], i, parent, ms)
		stack = pushChildren(stack, nodes[i].children, onPath)
	}

	if strings.TrimSpace(name) != "" {
		parent, ms := top, start
		if current >= 0 {
			parent, ms = nodes[current].tail, nodes[current].tailMs
		}
		w.begin("session_info", w.ids.take("title"), parent, ms)
		w.buf = append(w.buf, `,"name":`...)
		w.buf = jsjson.AppendString(w.buf, name)
		w.end()
	}
	return Conversation{ID: uuid, Title: name, Lines: w.buf}, true
}

// pushChildren pushes kids so that they pop in array order, the one on the
// current path last.
func pushChildren(stack, kids []int, onPath []bool) []int {
	for _, k := range kids {
		if onPath[k] {
			stack = append(stack, k)
		}
	}
	for j := len(kids) - 1; j >= 0; j-- {
		if !onPath[kids[j]] {
			stack = append(stack, kids[j])
		}
	}
	return stack
}

// breakCycles makes the earliest message of each cycle of parent links a root.
func breakCycles(nodes []node) {
	parent := make([]int, len(nodes))
	for i := range nodes {
		parent[i] = nodes[i].parent
	}
	model.BreakCycles(parent, true, nil)
	for i := range nodes {
		nodes[i].parent = parent[i]
	}
}

// currentNode is the message the conversation is at: the leaf that
// current_leaf_message_uuid names (what claude.ai shows), else the leaf
// created last (the later one in the array on a tie, or when times are
// missing); -1 without messages.
func currentNode(nodes []node, leaf []byte, byUUID map[string]int) int {
	if u, ok := jscan.String(leaf); ok {
		if i, ok := byUUID[u]; ok && len(nodes[i].children) == 0 {
			return i
		}
	}
	best := -1
	for i := range nodes {
		if len(nodes[i].children) > 0 {
			continue
		}
		if best < 0 || !nodes[best].hasMs || nodes[i].hasMs && nodes[i].ms >= nodes[best].ms {
			best = i
		}
	}
	return best
}

// withoutMember is obj without its members named name.
func withoutMember(obj []byte, name string) []byte {
	out := []byte{'{'}
	jsjson.ObjectEntries(obj, func(n string, val []byte) {
		if n == name {
			return
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = jsjson.AppendKey(out, n)
		out = jsjson.AppendValue(out, val)
	})
	return append(out, '}')
}
