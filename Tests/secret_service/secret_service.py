"""The Secret Service on the session bus, asked with gdbus as any client would: a collection's
lock, and Lock/Unlock with the prompt the service may answer with (prompted in the service's own
way: a dialog of its own, or nothing when it needs none)."""
import subprocess

SERVICE = "/org/freedesktop/secrets"


def call(path, method, *arguments):
    return subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", path,
                           "--method", method, *arguments], capture_output=True, text=True, check=True, timeout=20).stdout


def is_locked(collection):
    return "true" in call(collection, "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Secret.Collection", "Locked")


def request(method, collection):
    """Service.Lock or Service.Unlock of `collection`; runs the prompt the service answers with, if
    any, and says whether there was one."""
    answer = call(SERVICE, f"org.freedesktop.Secret.Service.{method}", f"[objectpath '{collection}']")
    if "/prompt/" not in answer:
        return False
    prompt = answer[answer.index(f"{SERVICE}/prompt/"):].split("'")[0]
    call(prompt, "org.freedesktop.Secret.Prompt.Prompt", "")
    return True


def leave_unlocked(service):
    """After a test: answers a dialog of `service`'s (its test module: keepassxc, kwallet) left open,
    and unlocks its collection, so the next test starts where every test expects to (a dialog left
    open would hold every later Secret Service call)."""
    if service.unlock_dialog_showing() is not None:
        service.answer_unlock_dialog(accept=True)
    if service.is_locked():
        service.unlock()
