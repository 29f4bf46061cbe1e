"""The app in German and in French: what a person sees and what a screen reader reads is the
translation from po/<lang>.po, on the sign-in page and on the browser-wait page.
The de_DE/fr_FR locales come from script/ensure-locales (Tests/ui/run calls it)."""
import subprocess

import pytest

import desktop

ENGLISH = {
    "window": "Portal Sign-In",
    "title": "Sign In to Portal",
    "google": "Continue with Google",
    "apple": "Continue with Apple",
    "magic_link": "Email Me a Sign-In Link",
    "email": "Email address",
    "menu": "Main Menu",
    "browser_wait": "Continue in Your Browser",
    "copy_link": "Copy Link",
    "cancel": "Cancel",
}

# The msgstrs of po/de.po and po/fr.po (mnemonic underscores are not part of accessible names).
GERMAN = {
    "window": "Portal-Anmeldung",
    "title": "Bei Portal anmelden",
    "google": "Weiter mit Google",
    "apple": "Mit Apple fortfahren",
    "magic_link": "Anmeldelink per E-Mail senden",
    "email": "E-Mail-Adresse",
    "menu": "Hauptmenü",
    "browser_wait": "Im Browser fortfahren",
    "copy_link": "Link kopieren",
    "cancel": "Abbrechen",
}

FRENCH = {
    "window": "Connexion Portal",
    "title": "Se connecter à Portal",
    "google": "Continuer avec Google",
    "apple": "Continuer avec Apple",
    "magic_link": "M’envoyer un lien de connexion",
    "email": "Adresse e-mail",
    "menu": "Menu principal",
    "browser_wait": "Continuez dans votre navigateur",
    "copy_link": "Copier le lien",
    "cancel": "Annuler",
}


def launch_with_locale(session, **locale):
    """Starts the app with only these locale variables (LC_ALL/LC_MESSAGES from the test's own
    environment would win over LANG and must not leak in; glibc treats empty as unset)."""
    return session.launch(**dict({"LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": ""}, **locale))


def system_shows(session, **locale):
    """What the system's own gettext(1) shows for the sign-in title from this app's catalog under these
    locale variables: ENGLISH, GERMAN or FRENCH. Whether LANGUAGE counts under LANG=C.UTF-8 is the
    C library's choice (glibc 2.36 honours it, 2.41 ignores it for every program); the app follows
    the system, so its expected language is asked of the system first."""
    env = {"PATH": "/usr/bin:/bin", "TEXTDOMAINDIR": str(session.prefix / "share" / "locale"),
           "LC_ALL": "", "LC_MESSAGES": "", "LANGUAGE": "", **locale}
    shown = subprocess.run(["gettext", "-d", "portal-sign-in", ENGLISH["title"]], env=env,
                           capture_output=True, text=True, check=True).stdout
    by_title = {strings["title"]: strings for strings in (ENGLISH, GERMAN, FRENCH)}
    assert shown in by_title, f"gettext(1) shows {shown!r} for the title under {locale}"
    return by_title[shown]


def installed_locales():
    return subprocess.run(["locale", "-a"], capture_output=True, text=True, check=True).stdout.lower().split()


def assert_sign_in_page(window, strings):
    window.wait_for_text(strings["title"])
    translated = strings is not ENGLISH
    if translated:
        assert window.find("label", name=ENGLISH["title"]) is None, "the English title is still shown"
    for key in ("google", "apple", "magic_link"):
        assert window.find("push button", name=strings[key]) is not None, f"no button named '{strings[key]}'"
        if translated:
            assert window.find("push button", name=ENGLISH[key]) is None, f"'{ENGLISH[key]}' is still in English"
    assert window.find("text", name=strings["email"]) is not None, "the email field has no translated name"
    assert window.find("push button", name=strings["menu"]) is not None, "the menu button has no translated name"
    # The window title (what the window list and Alt+Tab show).
    desktop.wait_until(lambda: desktop.window_id(f"^{strings['window']}$"), what=f"a window titled {strings['window']}")


@pytest.mark.parametrize("language, locale, strings", [
    ("de", "de_DE.UTF-8", GERMAN),
    ("fr", "fr_FR.UTF-8", FRENCH),
], ids=["german", "french"])
def test_sign_in_and_browser_wait_pages_are_translated(session, language, locale, strings):
    assert locale.lower().replace("utf-8", "utf8") in installed_locales(), \
        f"{locale} is not generated on this system: run script/ensure-locales (Tests/ui/run does)"
    for key, translated in strings.items():
        assert translated != ENGLISH[key], f"{key}: the expected {language} text is the English one"

    session.browse(action="hold")   # the browser opens and stays, so the wait page stays up
    window = launch_with_locale(session, LANG=locale, LANGUAGE=language)
    assert_sign_in_page(window, strings)
    session.screenshot(f"sign-in-{language}", title=f"^{strings['window']}$")

    window.click(strings["google"])
    window.wait_for_text(strings["browser_wait"])
    assert window.find("push button", name=strings["copy_link"]) is not None
    assert window.find("push button", name=strings["cancel"]) is not None
    assert window.find("label", name=ENGLISH["browser_wait"]) is None
    session.screenshot(f"browser-wait-{language}", title=f"^{strings['window']}$")

    window.click(strings["cancel"])
    window.wait_for_text(strings["title"])


def test_the_system_gettext_control_reads_the_apps_catalog(session):
    # The control the C.UTF-8 tests below rely on: with an installed locale it shows the translation.
    assert system_shows(session, LANG="de_DE.UTF-8", LANGUAGE="de") is GERMAN
    assert system_shows(session, LANG="fr_FR.UTF-8") is FRENCH


def test_language_alone_on_a_c_utf8_system_does_what_the_system_does(session):
    # Debian's default LANG=C.UTF-8 (a container, a fresh install) with LANGUAGE=de: German where the
    # C library honours LANGUAGE there (bookworm), English where it does not (trixie), as every program.
    expected = system_shows(session, LANG="C.UTF-8", LANGUAGE="de")
    window = launch_with_locale(session, LANG="C.UTF-8", LANGUAGE="de")
    assert_sign_in_page(window, expected)


def test_a_locale_that_is_not_installed_falls_back_to_c_utf8(session):
    # LANG names a locale this system lacks: setlocale fails, and the app falls back to C.UTF-8, so
    # LANGUAGE=fr counts as it does there (French on bookworm, where a program left in "C" would
    # ignore it and show English).
    assert "xx_yy.utf8" not in installed_locales(), "the test needs a locale this system lacks"
    expected = system_shows(session, LANG="C.UTF-8", LANGUAGE="fr")
    window = launch_with_locale(session, LANG="xx_YY.UTF-8", LANGUAGE="fr")
    assert_sign_in_page(window, expected)


def test_a_language_without_a_translation_shows_english_and_the_next_listed_language_wins(session):
    # No po/es.po: Spanish alone gives English; "es:fr" goes on to French over LANG's German
    # (under C.UTF-8, as the system does there).
    window = launch_with_locale(session, LANG="C.UTF-8", LANGUAGE="es")
    window.wait_for_text(ENGLISH["title"])
    assert window.find("push button", name=ENGLISH["google"]) is not None
    session.quit_app()

    window = launch_with_locale(session, LANG="de_DE.UTF-8", LANGUAGE="es:fr")
    assert_sign_in_page(window, FRENCH)
    session.quit_app()

    expected = system_shows(session, LANG="C.UTF-8", LANGUAGE="es:fr")
    window = launch_with_locale(session, LANG="C.UTF-8", LANGUAGE="es:fr")
    assert_sign_in_page(window, expected)


def test_two_factor_enrolment_in_german(session, emulator):
    session.browse(email="totp@example.com", action="continue")
    window = launch_with_locale(session, LANG="de_DE.UTF-8", LANGUAGE="de")
    window.click(GERMAN["google"])

    window.wait_for_text("Anmeldung in zwei Schritten einrichten")
    assert window.find("label", name="Set Up Two-Factor Sign-In") is None
    assert window.find("image", name="QR-Code für Ihre Authentifizierungs-App") is not None
    window.wait_for("text", name="Sechsstelliger Code")
    session.screenshot("totp-enrolment-de", title=f"^{GERMAN['window']}$")

    # A wrong code: the error a person reads is German too.
    secret = emulator.admin("users/totp@example.com/totp")["secret"]
    right = subprocess.run(["oathtool", "--totp", "-b", secret], capture_output=True, text=True,
                           check=True).stdout.strip()
    window.type_into("Sechsstelliger Code", f"{(int(right) + 1) % 1_000_000:06d}")
    window.wait_for("label", contains="Dieser Code stimmt nicht.")
    assert window.find("label", contains="That code is not right") is None
