/// Text from outside (the network, a redirect, the environment) made safe to print: control and
/// format characters (escape sequences that could rewrite a terminal, bells, line breaks,
/// direction overrides) are dropped.
extension String {
    public var withoutControlCharacters: String {
        String(String.UnicodeScalarView(unicodeScalars.filter {
            !($0.properties.generalCategory == .control || $0.properties.generalCategory == .format)
        }))
    }
}
