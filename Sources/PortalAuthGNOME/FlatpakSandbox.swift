import Glibc

/// Whether this process runs in a Flatpak sandbox: Flatpak puts `/.flatpak-info` at the root of the
/// app's mount namespace, and GIO, libsecret and xdg-desktop-portal all go by that file.
package enum FlatpakSandbox {
    package static let isInside = access("/.flatpak-info", F_OK) == 0
}
