#include "glib_support.h"
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <unistd.h>

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *msg);

static gboolean on_main_queue_ready(gint fd, GIOCondition condition, gpointer user_data) {
    (void)condition; (void)user_data;
    /* The handle is an eventfd that libdispatch only writes: the host loop must read it back to
     * zero (as CFRunLoop does), or it stays readable and the GLib loop spins at 100% CPU. */
    eventfd_t pending;
    (void)eventfd_read(fd, &pending);
    _dispatch_main_queue_callback_4CF(NULL);
    return G_SOURCE_CONTINUE;
}

void glib_support_attach_dispatch_main_queue(void) {
    static gsize attached = 0;
    if (g_once_init_enter(&attached)) {
        g_unix_fd_add(_dispatch_get_main_queue_handle_4CF(), G_IO_IN, on_main_queue_ready, NULL);
        g_once_init_leave(&attached, 1);
    }
}

gboolean glib_support_is_main_thread(void) {
    return syscall(SYS_gettid) == getpid();
}
