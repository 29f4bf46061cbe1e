import Foundation
import PackagePlugin

/// Compiles data/io.github.portalauth.SignIn.gresource.xml with glib-compile-resources and embeds
/// the bundle in the target as Swift source (embed-gresource), so the app never looks for its
/// stylesheet, icons or brand marks on disk.
@main
struct GResourceEmbedder: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let data = context.package.directoryURL.appending(path: "data")
        let manifest = data.appending(path: "io.github.portalauth.SignIn.gresource.xml")
        let source = context.pluginWorkDirectoryURL.appending(path: "EmbeddedGResource.swift")
        let inputs = [manifest] + resourceFiles(in: manifest, relativeTo: data)
        // One command with one Swift output: a compiled bundle declared as an output would become a
        // SwiftPM resource, and its generated Bundle accessor would link all of Foundation.
        return [
            .buildCommand(
                displayName: "Compiling and embedding the app's GResource bundle",
                executable: try context.tool(named: "embed-gresource").url,
                arguments: [
                    try systemTool(named: "glib-compile-resources").path(), data.path(),
                    manifest.path(), source.path()
                ],
                inputFiles: inputs, outputFiles: [source])
        ]
    }

    /// A program from the system (Debian's libglib2.0-dev-bin), found on PATH.
    private func systemTool(named name: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(filePath: String(directory)).appending(path: name)
            if FileManager.default.isExecutableFile(atPath: candidate.path()) { return candidate }
        }
        throw ToolMissing(name: name)
    }

    struct ToolMissing: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) is not installed (Debian: libglib2.0-dev-bin; script/install-deps installs it)" }
    }

    /// The files the manifest lists, so editing one of them rebuilds the bundle.
    private func resourceFiles(in manifest: URL, relativeTo data: URL) -> [URL] {
        guard let text = try? String(contentsOf: manifest, encoding: .utf8) else { return [] }
        return text.components(separatedBy: "<file").dropFirst().compactMap { element in
            guard let open = element.firstIndex(of: ">"), let close = element.range(of: "</file>") else { return nil }
            return data.appending(path: String(element[element.index(after: open)..<close.lowerBound]))
        }
    }
}
