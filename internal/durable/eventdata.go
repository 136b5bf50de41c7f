package durable

// The data of the events a drive writes most often (a tool call's start and settlement, a
// console line), as types rather than maps: encoding a map sorts its keys and boxes its values
// on every event. Each type's fields are declared in the order of their JSON names, which is
// the order a map's keys are written in, so that the stored events read as they did when
// they were maps; optional keys are omitted as a map would lack them.

// callStartedData is a call.started event's data.
type callStartedData struct {
	CallID int    `json:"callId"`
	Path   string `json:"path"`
	Worker string `json:"worker,omitempty"` // the driving worker, when it has an id
}

// callSettledData is a call.settled event's data.
type callSettledData struct {
	CallID     int     `json:"callId"`
	DurationMs *int64  `json:"durationMs,omitempty"` // when this drive saw the call start
	Error      *string `json:"error,omitempty"`      // a failed call's message
	OK         bool    `json:"ok"`
	Worker     string  `json:"worker,omitempty"`
}

// logData is a log event's data: a console line.
type logData struct {
	Level     string `json:"level"`
	Text      string `json:"text"`
	Time      string `json:"time"`
	Truncated bool   `json:"truncated,omitempty"`
}
