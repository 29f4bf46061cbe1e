/// What About says of who makes the app and where to find them: the same developer, homepage and
/// bug tracker as the AppStream metainfo (`data/io.github.portalauth.SignIn.metainfo.xml`, whose
/// developer name is not translated either); `Tests/data/run` checks they agree.
enum AboutFacts {
    static let developerName = "The Portal Sign-In for Linux authors"
    static let website = "https://github.com/portalauth/SignIn"
    static let issueTracker = "https://github.com/portalauth/SignIn/issues"
}
