# The product version, read from its one source, Sources/AuthBase/Version.swift. Sourced, not run.
portal_version() {
    sed -n 's/.*static let current = "\([^"]*\)".*/\1/p' "${PORTAL_SOURCE_ROOT:-.}/Sources/AuthBase/Version.swift"
}
