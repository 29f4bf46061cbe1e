import Glibc
import PortalSignIn

exit(MainActor.assumeIsolated { SignInApplication.main() })
