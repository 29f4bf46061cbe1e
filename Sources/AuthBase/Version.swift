/// The one place the version number lives. Scripts read it from this file
/// (`script/lib/version.sh`); the data checks compare the metainfo's newest release with it.
package enum ProductVersion {
    package static let current = "0.2.0"
}
