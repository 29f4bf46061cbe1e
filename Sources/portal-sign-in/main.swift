import Foundation
import PortalSignIn

exit(MainActor.assumeIsolated { SignInApplication.main() })
