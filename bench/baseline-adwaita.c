/* The libadwaita baseline for start-up benchmarks: baseline-gtk4.c's window (a title, a label and
 * two buttons) as an AdwApplication with an AdwApplicationWindow and an AdwHeaderBar, which is the
 * least a libadwaita app like portal-sign-in shows. portal-sign-in's start-up targets are ratios to it. */
#include <adwaita.h>

static void activate(GtkApplication *app, gpointer user_data) {
    (void)user_data;
    GtkWidget *window = adw_application_window_new(app);
    gtk_window_set_title(GTK_WINDOW(window), "Baseline libadwaita");
    gtk_window_set_default_size(GTK_WINDOW(window), 420, 640);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_box_append(GTK_BOX(box), gtk_label_new("Sign in"));
    gtk_box_append(GTK_BOX(box), gtk_button_new_with_label("Continue with Google"));
    gtk_box_append(GTK_BOX(box), gtk_button_new_with_label("Continue with Apple"));
    GtkWidget *content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_box_append(GTK_BOX(content), adw_header_bar_new());
    gtk_box_append(GTK_BOX(content), box);
    adw_application_window_set_content(ADW_APPLICATION_WINDOW(window), content);
    gtk_window_present(GTK_WINDOW(window));
}

int main(int argc, char **argv) {
    AdwApplication *app = adw_application_new("io.github.portalauth.BaselineAdwaita", G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "activate", G_CALLBACK(activate), NULL);
    int status = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return status;
}
