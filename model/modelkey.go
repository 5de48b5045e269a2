package model

// UnknownModel is the stats' key of the usage of a reply whose session
// does not say which model wrote it.
const UnknownModel = "(unknown model)"

// ModelKey is a model as the stats name it, a row of ByModel:
// provider/id, UnknownModel when the session names no model.
func ModelKey(provider, id string) string {
	if id == "" {
		return UnknownModel
	}
	return provider + "/" + id
}
