import SignInFlow

/// A verdict without the held redirect's insides (the backend's parse), so tests compare what the
/// window is told to do.
enum VerdictSummary: Equatable {
    case notMine, taken, ignore
    case refuse(SignInMethod?)
    case exchange(SignInMethod, RedirectStanding)
    case ask(SignInMethod, RedirectStanding)
}

extension RedirectVerdict {
    var summary: VerdictSummary {
        switch self {
        case .notMine: .notMine
        case .taken: .taken
        case .ignore: .ignore
        case .refuse(let method): .refuse(method)
        case .exchange(let redirect): .exchange(redirect.method, redirect.standing)
        case .ask(let redirect): .ask(redirect.method, redirect.standing)
        }
    }

    /// The redirect to `complete`, when the verdict holds one.
    var held: HeldRedirect? {
        switch self {
        case .exchange(let redirect), .ask(let redirect): redirect
        default: nil
        }
    }
}
