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
    }

    private final class OrderRecorder: @unchecked Sendable {
        var values: [Int] = []
    }
}
