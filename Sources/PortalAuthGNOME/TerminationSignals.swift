import CAuthPlatform
import FoundationEssentials
import GLibSupport
import Synchronization

/// SIGINT and SIGTERM as events on the main context instead of the end of the process, for as long
/// as this lives: a command that must finish something first (give up a sign-in but keep holding its
/// loopback port) hears them through `next()`. GLib's unix signal sources (`g_unix_signal_add`).
package final class TerminationSignals: Sendable {
    private let stream: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation
    private let sources = SourceIDs()

    /// Starts listening (on the main context, where GLib dispatches the signals).
    package init() {
        (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        let continuation = self.continuation
        let sources = self.sources
        MainLoopBridge.invoke {
            for signal in [SIGINT, SIGTERM] {
                let box = Unmanaged.passRetained(SignalBox(signal, continuation)).toOpaque()
                let id = g_unix_signal_add_full(
                    G_PRIORITY_HIGH, signal,
                    { userData in
                        let box = Unmanaged<SignalBox>.fromOpaque(userData!).takeUnretainedValue()
                        box.continuation.yield(box.signal)
                        return gboolean(1) // G_SOURCE_CONTINUE
                    }, box,
                    { userData in Unmanaged<SignalBox>.fromOpaque(userData!).release() })
                sources.ids.withLock { $0.append(id) }
            }
        }
    }

    deinit {
        continuation.finish()
        let ids = sources.ids.withLock { $0 }
        MainLoopBridge.invoke { for id in ids { g_source_remove(id) } }
    }

    /// The next signal (SIGINT or SIGTERM), or nil when the waiting task is cancelled.
    package func next() async -> Int32? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

private final class SignalBox: Sendable {
    let signal: Int32
    let continuation: AsyncStream<Int32>.Continuation
    init(_ signal: Int32, _ continuation: AsyncStream<Int32>.Continuation) {
        self.signal = signal
        self.continuation = continuation
    }
}

/// The GLib sources to remove when the signals are no longer heard.
private final class SourceIDs: Sendable {
    let ids = Mutex<[guint]>([])
}
