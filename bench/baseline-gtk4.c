/* The baseline for start-up benchmarks: the smallest GTK4 application that shows a window
 * with a title, a label and two buttons, and nothing else. portal-sign-in is compared to it. */
#include <gtk/gtk.h>

static void activate(GtkApplication *app, gpointer user_data) {
    (void)user_data;
    GtkWidget *window = gtk_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), "Baseline GTK4");
    gtk_window_set_default_size(GTK_WINDOW(window), 420, 600);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_box_append(GTK_BOX(box), gtk_label_new("Sign in"));
    gtk_box_append(GTK_BOX(box), gtk_button_new_with_label("Continue with Google"));
    gtk_box_append(GTK_BOX(box), gtk_button_new_with_label("Continue with Apple"));
    gtk_window_set_child(GTK_WINDOW(window), box);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    GtkApplication *app = gtk_application_new("io.github.portalauth.Baseline", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return status;
}
