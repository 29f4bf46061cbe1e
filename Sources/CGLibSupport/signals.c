#include "glib_support.h"

/* One closure per connection, owning the Swift box until GLib drops the closure. */
typedef struct {
    GClosure closure;
    GLibSupportSignalHandler handler;
    gpointer box;
    GDestroyNotify release;
} GLibSupportClosure;

static void glib_support_marshal(GClosure *closure, GValue *return_value, guint n_param_values,
                                 const GValue *param_values, gpointer invocation_hint, gpointer marshal_data) {
    (void)invocation_hint; (void)marshal_data;
    GLibSupportClosure *self = (GLibSupportClosure *)closure;
    gpointer instance = g_value_peek_pointer(&param_values[0]);
    gboolean result = self->handler(self->box, instance, param_values + 1, n_param_values - 1);
    if (return_value != NULL && G_VALUE_HOLDS_BOOLEAN(return_value))
        g_value_set_boolean(return_value, result);
}

static void glib_support_closure_finalize(gpointer data, GClosure *closure) {
    (void)data;
    GLibSupportClosure *self = (GLibSupportClosure *)closure;
    if (self->release != NULL) self->release(self->box);
    self->box = NULL;
}

gulong glib_support_signal_connect(gpointer instance, const char *signal, GLibSupportSignalHandler handler,
                                   gpointer box, GDestroyNotify release, gboolean after) {
    GClosure *closure = g_closure_new_simple(sizeof(GLibSupportClosure), NULL);
    GLibSupportClosure *self = (GLibSupportClosure *)closure;
    self->handler = handler;
    self->box = box;
    self->release = release;
    g_closure_set_marshal(closure, glib_support_marshal);
    g_closure_add_finalize_notifier(closure, NULL, glib_support_closure_finalize);
    gulong id = g_signal_connect_closure(instance, signal, closure, after);
    if (id == 0) {
        /* Unknown signal: the closure was never adopted, so sink and drop it to release the box. */
        g_closure_sink(closure);
    }
    return id;
}

void glib_support_signal_disconnect(gpointer instance, gulong handler_id) {
    if (instance != NULL && handler_id != 0 && g_signal_handler_is_connected(instance, handler_id))
        g_signal_handler_disconnect(instance, handler_id);
}

gpointer glib_support_value_pointer(const GValue *args, guint index) {
    const GValue *value = &args[index];
    if (G_VALUE_HOLDS_OBJECT(value) || G_VALUE_HOLDS_BOXED(value) || G_VALUE_HOLDS_POINTER(value) ||
        G_VALUE_HOLDS_PARAM(value) || G_VALUE_HOLDS_STRING(value))
        return g_value_peek_pointer(value);
    return NULL;
}

guint glib_support_value_uint(const GValue *args, guint index) {
    const GValue *value = &args[index];
    if (G_VALUE_HOLDS_UINT(value)) return g_value_get_uint(value);
    if (G_VALUE_HOLDS_INT(value)) return (guint)g_value_get_int(value);
    if (G_VALUE_HOLDS_ENUM(value)) return (guint)g_value_get_enum(value);
    if (G_VALUE_HOLDS_FLAGS(value)) return g_value_get_flags(value);
    return 0;
}
