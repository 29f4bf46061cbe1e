import CAuthPlatform
import Foundation
import GLibSupport
import Testing

extension GNOMEIntegration {
    @Suite(.serialized) struct MainLoopBridgeTests {
        @Test func invokeRunsTheWorkOnTheThreadThatRunsTheGLibLoop() async {
            GLibLoopThread.ensureRunning()
            let (ownsContext, onLoopThread) = await withCheckedContinuation { continuation in
                MainLoopBridge.invoke {
                    continuation.resume(returning: (g_main_context_is_owner(nil) != 0, GLibLoopThread.isCurrent))
                }
            }
            #expect(ownsContext)
            #expect(onLoopThread)
        }

        @Test func invokeKeepsTheOrderOfQueuedWork() async {
            GLibLoopThread.ensureRunning()
            let order = await withCheckedContinuation { (continuation: CheckedContinuation<[Int], Never>) in
                let recorder = OrderRecorder()
                for index in 0..<5 {
                    MainLoopBridge.invoke {
                        recorder.values.append(index)
                        if recorder.values.count == 5 { continuation.resume(returning: recorder.values) }
                    }
                }
            }
            #expect(order == [0, 1, 2, 3, 4])
        }

        // The CLI's interrupt: a cancellation on a worker thread queues the wait's end on the loop;
        // the loop's own task then asks which ports are held, and must find that end done.
        @Test func aValueAskedOnTheLoopSeesWorkQueuedFromAnotherThreadBeforeIt() async throws {
            GLibLoopThread.ensureRunning()
            let recorder = OrderRecorder()
            let seen = try await withTaskExecutorPreference(MainLoopBridge.mainContextExecutor) {
                #expect(GLibLoopThread.isCurrent)
                let queued = DispatchSemaphore(value: 0)
                Thread {
                    MainLoopBridge.invoke { recorder.values.append(1) }
                    queued.signal()
                }.start()
                queued.wait()
                return try await MainLoopBridge.value { recorder.values }
            }
            #expect(seen == [1])
        }

        @Test func tasksPreferringTheMainContextRunOnTheLoopThreadInOrder() async {
            GLibLoopThread.ensureRunning()
            let recorder = OrderRecorder()
            await withTaskExecutorPreference(MainLoopBridge.mainContextExecutor) {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<5 {
                        group.addTask {
                            #expect(GLibLoopThread.isCurrent)
                            recorder.values.append(index)
                        }
                    }
                }
            }
            #expect(recorder.values == [0, 1, 2, 3, 4])
        }
    }

    private final class OrderRecorder: @unchecked Sendable {
        var values: [Int] = []
    }
}
