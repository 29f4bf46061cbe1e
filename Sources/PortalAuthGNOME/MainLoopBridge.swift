import CPortalShim

public enum MainLoopBridge {
    public static func attach() { portal_shim_attach_dispatch_main_queue() }
    static func test() { let w = gtk_window_new(); _ = w; let s = soup_session_new(); g_object_unref(s) }
}
