#pragma once
/* The examples' own GTK scaffolding: an application, a window with a column of buttons, labels and
 * an entry. The GObject casts and g_signal_connect (macros Swift cannot call) are wrapped here. */
#include <gtk/gtk.h>

typedef void (*ExampleCallback)(void *user_data);
typedef void (*ExampleOpenCallback)(const char *uri, void *user_data);

GtkApplication *example_app_new(const char *application_id, gboolean handles_open);
void example_app_on_activate(GtkApplication *app, ExampleCallback callback, void *user_data);
void example_app_on_open(GtkApplication *app, ExampleOpenCallback callback, void *user_data);
int example_app_run(GtkApplication *app, int argc, char **argv);

/* A window of `app` holding a vertical box that the functions below append to. */
GtkWidget *example_window_new(GtkApplication *app, const char *title);
void example_window_present(GtkWidget *window);
GtkWidget *example_window_add_button(GtkWidget *window, const char *label, ExampleCallback callback, void *user_data);
GtkWidget *example_window_add_label(GtkWidget *window, const char *text);
GtkWidget *example_window_add_entry(GtkWidget *window, const char *placeholder);
void example_label_set_text(GtkWidget *label, const char *text);
const char *example_entry_get_text(GtkWidget *entry);
