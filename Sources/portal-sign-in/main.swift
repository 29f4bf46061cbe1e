import Glibc
import SignInApp

exit(MainActor.assumeIsolated { SignInApplication.main() })
