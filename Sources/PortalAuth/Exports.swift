// The shared base's types are part of this module's API (HTTPTransport, PortalSessionStore, AuthMethod…),
// so a library user needs only `import PortalAuth`.
@_exported import AuthBase
