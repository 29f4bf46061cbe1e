import PortalAuthGNOME
import Foundation
import CPortalShim
MainLoopBridge.attach()
let loop = g_main_loop_new(nil, 0)
Task { @MainActor in print("mainactor ran"); g_main_loop_quit(loop) }
g_main_loop_run(loop)
