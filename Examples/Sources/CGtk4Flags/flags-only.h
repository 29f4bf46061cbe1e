/* pkg-config flags for GTK 4 only; CExampleGtk includes the headers. */
