"""Starts kwalletd5 as pam_kwallet5 does at login and prints its PID once it serves the Secret
Service with the wallet "kdewallet" open as the default collection.

pam_kwallet5 hands kwalletd5 the login password's PBKDF2-SHA512 hash (50 000 rounds, 56 bytes,
salted with the wallet's own 56-byte salt file) on a pipe, and the session's environment over a
socket it listens on (`kwalletd5 --pam-login PIPE SOCKET`); with the hash kwalletd5 creates the
wallet if there is none and opens it, without a dialog. A wallet created during this start is only
listed as a collection from the next one, so a start that created it is followed by a second.
    start-kwalletd.py PASSWORD_FILE LOG_FILE"""
import hashlib
import os
import signal
import socket
import subprocess
import sys
import time

ROUNDS, SIZE = 50_000, 56
PASSED_ON = ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "XDG_DATA_HOME",
             "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "HOME", "QT_ACCESSIBILITY", "QT_LINUX_ACCESSIBILITY_ALWAYS_ON",
             "AT_SPI_BUS_ADDRESS")


def wallet_dir():
    return os.path.join(os.environ["XDG_DATA_HOME"], "kwalletd")


def password_hash(password_file):
    os.makedirs(wallet_dir(), exist_ok=True)
    salt_file = os.path.join(wallet_dir(), "kdewallet.salt")
    if not os.path.exists(salt_file):
        with open(salt_file, "wb") as salt:
            salt.write(os.urandom(SIZE))
    with open(password_file, "rb") as file, open(salt_file, "rb") as salt:
        return hashlib.pbkdf2_hmac("sha512", file.read().strip(), salt.read(), ROUNDS, SIZE)


def start(password_file, log):
    pipe_read, pipe_write = os.pipe()
    socket_path = os.path.join(os.environ["XDG_RUNTIME_DIR"], f"kwallet5-{os.getpid()}.socket")
    if os.path.exists(socket_path):
        os.unlink(socket_path)
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(socket_path)
    listener.listen(1)
    process = subprocess.Popen(["kwalletd5", "--pam-login", str(pipe_read), str(listener.fileno())],
                               env=dict(os.environ, PAM_KWALLET5_LOGIN=socket_path),
                               pass_fds=(pipe_read, listener.fileno()), stdin=subprocess.DEVNULL,
                               stdout=log, stderr=subprocess.STDOUT)
    os.close(pipe_read)
    listener.close()
    os.write(pipe_write, password_hash(password_file))
    os.close(pipe_write)
    sender = socket.socket(socket.AF_UNIX)
    for _ in range(100):
        try:
            sender.connect(socket_path)
            break
        except (FileNotFoundError, ConnectionRefusedError):
            time.sleep(0.05)
    sender.sendall("".join(f"{name}={os.environ[name]}\n" for name in PASSED_ON if name in os.environ).encode())
    sender.close()
    return process


def default_collection():
    """The collection the Secret Service's "default" alias names, or None."""
    answer = subprocess.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path",
                             "/org/freedesktop/secrets", "--method", "org.freedesktop.Secret.Service.ReadAlias", "default"],
                            capture_output=True, text=True, timeout=10)
    path = answer.stdout.strip().strip("(),").replace("objectpath ", "").strip("'")
    return path if answer.returncode == 0 and path not in ("", "/") else None


def wait_for(condition, process, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        if condition():
            return True
        time.sleep(0.1)
    return False


def stop(process):
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main(password_file, log_file):
    wallet = os.path.join(wallet_dir(), "kdewallet.kwl")
    with open(log_file, "a") as log:
        existed = os.path.exists(wallet)
        process = start(password_file, log)
        if not existed:
            if not wait_for(lambda: os.path.exists(wallet), process, 30):
                sys.exit("start-kwalletd: kwalletd5 created no wallet")
            stop(process)
            process = start(password_file, log)
        if not wait_for(lambda: default_collection() == "/org/freedesktop/secrets/collection/kdewallet", process, 30):
            sys.exit("start-kwalletd: kwalletd5 serves no default collection")
    print(process.pid)


if __name__ == "__main__":
    main(*sys.argv[1:])
