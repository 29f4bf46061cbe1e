#include <stdio.h>
#include "example_gtk.h"

typedef struct {
    ExampleCallback callback;
    ExampleOpenCallback open_callback;
    void *user_data;
} Handler;

static void on_activate(GtkApplication *app, gpointer data) {
    (void)app;
    Handler *handler = data;
    handler->callback(handler->user_data);
}

static void on_open(GApplication *app, GFile **files, gint count, const char *hint, gpointer data) {
    (void)hint;
    Handler *handler = data;
    for (gint i = 0; i < count; i++) {
        char *uri = g_file_get_uri(files[i]);
        handler->open_callback(uri, handler->user_data);
        g_free(uri);
    }
    /* An open without a window still shows one. */
    if (gtk_application_get_active_window(GTK_APPLICATION(app)) == NULL) g_application_activate(app);
}

static void on_clicked(GtkButton *button, gpointer data) {
    (void)button;
    Handler *handler = data;
    handler->callback(handler->user_data);
}

static Handler *handler_new(ExampleCallback callback, ExampleOpenCallback open_callback, void *user_data) {
    Handler *handler = g_new0(Handler, 1);
    handler->callback = callback;
    handler->open_callback = open_callback;
    handler->user_data = user_data;
    return handler;
}

static void handler_free(gpointer data, GClosure *closure) {
    (void)closure;
    g_free(data);
}

GtkApplication *example_app_new(const char *application_id, gboolean handles_open) {
    setvbuf(stdout, NULL, _IOLBF, 0); /* what the examples print shows at once, in a log too */
    return gtk_application_new(application_id, handles_open ? G_APPLICATION_HANDLES_OPEN : G_APPLICATION_DEFAULT_FLAGS);
}

void example_app_on_activate(GtkApplication *app, ExampleCallback callback, void *user_data) {
    g_signal_connect_data(app, "activate", G_CALLBACK(on_activate), handler_new(callback, NULL, user_data), handler_free, 0);
}

void example_app_on_open(GtkApplication *app, ExampleOpenCallback callback, void *user_data) {
    g_signal_connect_data(app, "open", G_CALLBACK(on_open), handler_new(NULL, callback, user_data), handler_free, 0);
}

int example_app_run(GtkApplication *app, int argc, char **argv) {
    return g_application_run(G_APPLICATION(app), argc, argv);
}

GtkWidget *example_window_new(GtkApplication *app, const char *title) {
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), title);
    gtk_window_set_default_size(GTK_WINDOW(window), 360, 240);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_set_margin_top(box, 18);
    gtk_widget_set_margin_bottom(box, 18);
    gtk_widget_set_margin_start(box, 18);
    gtk_widget_set_margin_end(box, 18);
    gtk_window_set_child(GTK_WINDOW(window), box);
    return window;
}

void example_window_present(GtkWidget *window) {
    gtk_window_present(GTK_WINDOW(window));
}

static void append(GtkWidget *window, GtkWidget *child) {
    gtk_box_append(GTK_BOX(gtk_window_get_child(GTK_WINDOW(window))), child);
}

GtkWidget *example_window_add_button(GtkWidget *window, const char *label, ExampleCallback callback, void *user_data) {
    GtkWidget *button = gtk_button_new_with_label(label);
    g_signal_connect_data(button, "clicked", G_CALLBACK(on_clicked), handler_new(callback, NULL, user_data), handler_free, 0);
    append(window, button);
    return button;
}

GtkWidget *example_window_add_label(GtkWidget *window, const char *text) {
    GtkWidget *label = gtk_label_new(text);
    gtk_label_set_wrap(GTK_LABEL(label), TRUE);
    gtk_label_set_selectable(GTK_LABEL(label), TRUE);
    append(window, label);
    return label;
}

GtkWidget *example_window_add_entry(GtkWidget *window, const char *placeholder) {
    GtkWidget *entry = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(entry), placeholder);
    append(window, entry);
    return entry;
}

void example_label_set_text(GtkWidget *label, const char *text) {
    gtk_label_set_text(GTK_LABEL(label), text);
}

const char *example_entry_get_text(GtkWidget *entry) {
    return gtk_editable_get_text(GTK_EDITABLE(entry));
}
