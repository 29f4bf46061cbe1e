import Testing

/// For conditions over values that may hold a grant, session token or user JWT. Swift Testing prints
/// the operands of a failed `#expect` (and the receiver and arguments of a call in it), so the condition
/// is evaluated here first and only its Bool reaches the macro.
func expectQuietly(_ condition: Bool, _ comment: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(condition, comment, sourceLocation: sourceLocation)
}
