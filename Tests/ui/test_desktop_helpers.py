"""The AT-SPI helpers themselves: a tree that cannot be read must never look like a tree without
the node asked about (every "is None" check in these tests leans on that)."""
import pytest

import desktop


class Node:
    """A stand-in accessible: a name, a role, children, and optionally a failure when read."""

    def __init__(self, name="", role="label", children=(), broken=False):
        self.name, self.role, self.children, self.broken = name, role, list(children), broken

    @property
    def childCount(self):
        if self.broken:
            raise RuntimeError("the application is not responding")
        return len(self.children)

    def getChildAtIndex(self, index):
        return self.children[index]

    def getRoleName(self):
        return self.role

    def getState(self):
        return type("State", (), {"contains": staticmethod(lambda state: True)})()


def window_over(application):
    window = object.__new__(desktop.AppWindow)   # no live application to register with
    window.application = application
    return window


def test_a_readable_tree_answers_both_ways():
    window = window_over(Node("app", "application", [Node("Sign In to Portal"), Node("Continue", "push button")]))
    assert window.find("label", name="Sign In to Portal") is not None
    assert window.find("label", name="You’re Signed In") is None


def test_an_unreadable_tree_is_an_error_not_an_absence():
    window = window_over(Node("app", "application", [Node("page", "panel", broken=True)]))
    with pytest.raises(desktop.TreeUnreadable):
        window.find("label", name="You’re Signed In")
    with pytest.raises(desktop.TreeUnreadable):
        window.labels()


def test_the_newer_stacks_role_names_read_as_the_ones_the_tests_use():
    # trixie's GTK 4.18 and at-spi2-core 2.56 report these controls so; bookworm's as the tests name them.
    window = window_over(Node("app", "application", [Node("Continue", "button"), Node("Main Menu", "toggle button"),
                                                     Node("Account abstraction", "switch"), Node("Turnkey", "radio button")]))
    assert window.find("push button", name="Continue") is not None
    assert window.find("push button", name="Main Menu") is not None
    assert window.find("check box", name="Account abstraction") is not None
    assert window.find("check box", name="Turnkey") is not None
