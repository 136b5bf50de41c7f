package run

import "errors"

// InvalidInputError is returned by a tool (Execute or Durable.Start) for an input that its
// schema accepts but the tool cannot take (an instant too far away, say): the program sees a
// thrown Error of kind InvalidToolInput, as for an input that failed the schema, rather than
// a ToolFailure.
type InvalidInputError struct {
	// Message is the error message the program sees.
	Message string
}

// Error returns the message.
func (e *InvalidInputError) Error() string { return e.Message }

// errorKind is the kind a tool's error gives its call: InvalidToolInput for an
// InvalidInputError, else none (settle makes it a ToolFailure).
func errorKind(err error) Kind {
	var ie *InvalidInputError
	if errors.As(err, &ie) {
		return KindInvalidToolInput
	}
	return ""
}
