// One import for a Linux app: the desktop pieces and both cores, as `import PortalSwift` or
// `import TurnkeySwift` is on iOS.
@_exported import PortalAuth
@_exported import TurnkeyAuth
