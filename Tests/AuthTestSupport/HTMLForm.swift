import Foundation

/// Just enough HTML form reading for the emulator's plain pages: the one reader every Swift test
/// target drives the fake provider pages with.
public struct HTMLForm {
    public var action: String
    public var method: String
    /// Fields a browser would submit by default: hidden and text inputs, checked radios.
    public var fields: [(String, String)]
    /// The hidden inputs alone, in order (what a test posts back beside its own choices).
    public var hiddenFields: [(String, String)]
    /// Every field name in the form, including buttons and unchecked radios.
    public var names: Set<String>

    /// The first form of `page`.
    public init?(page: String) {
        guard let form = Self.first(in: page) else { return nil }
        self = form
    }

    private init(action: String, method: String) {
        self.action = action
        self.method = method
        fields = []
        hiddenFields = []
        names = []
    }

    /// The value of the hidden input `name`.
    public func hidden(_ name: String) -> String? { hiddenFields.first { $0.0 == name }?.1 }

    public static func first(in html: String) -> HTMLForm? {
        guard let start = html.range(of: "<form", options: .caseInsensitive) else { return nil }
        let end =
            html.range(of: "</form>", options: .caseInsensitive, range: start.upperBound..<html.endIndex)?.lowerBound
            ?? html.endIndex
        let formHTML = String(html[start.lowerBound..<end])
        let openTag = tags(named: "form", in: formHTML).first ?? [:]
        var form = HTMLForm(action: openTag["action"] ?? "", method: (openTag["method"] ?? "get").lowercased())
        for input in tags(named: "input", in: formHTML) {
            guard let name = input["name"] else { continue }
            form.names.insert(name)
            switch (input["type"] ?? "text").lowercased() {
            case "radio", "checkbox":
                if input["checked"] != nil { form.fields.append((name, input["value"] ?? "on")) }
            case "submit", "button", "image", "reset":
                break
            case "hidden":
                form.fields.append((name, input["value"] ?? ""))
                form.hiddenFields.append((name, input["value"] ?? ""))
            default:
                form.fields.append((name, input["value"] ?? ""))
            }
        }
        for button in tags(named: "button", in: formHTML) {
            if let name = button["name"] { form.names.insert(name) }
        }
        return form
    }

    /// Attributes of every `<name …>` tag, entity-decoded; a bare attribute maps to "".
    public static func tags(named name: String, in html: String) -> [[String: String]] {
        let tagPattern = try! NSRegularExpression(pattern: "<\(name)\\b([^>]*)>", options: .caseInsensitive)
        let attributePattern = try! NSRegularExpression(
            pattern: #"([a-zA-Z_:-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?"#)
        let nsHTML = html as NSString
        return tagPattern.matches(in: html, range: NSRange(location: 0, length: nsHTML.length)).map { match in
            let attributes = nsHTML.substring(with: match.range(at: 1))
            let nsAttributes = attributes as NSString
            var result: [String: String] = [:]
            for attribute in attributePattern.matches(in: attributes, range: NSRange(location: 0, length: nsAttributes.length)) {
                let key = nsAttributes.substring(with: attribute.range(at: 1)).lowercased()
                var value = ""
                for group in 2...4 where attribute.range(at: group).location != NSNotFound {
                    value = nsAttributes.substring(with: attribute.range(at: group))
                }
                result[key] = decodeEntities(value)
            }
            return result
        }
    }

    public static func decodeEntities(_ text: String) -> String {
        text.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
