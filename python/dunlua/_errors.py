"""The exceptions dunlua raises for a script's failures.

Bad arguments (an unknown parameter, a value of the wrong type, a size out
of range) are ``ValueError`` / ``TypeError`` with the command line's text;
an unreadable script file is ``OSError`` (``FileNotFoundError``); Ctrl-C
while a script runs is ``KeyboardInterrupt``.
"""

from __future__ import annotations


class ScriptError(Exception):
    """A script failed: it does not compile, raised an error, broke the
    contract (no start, no ``generate``) or ran out of a limit.

    ``str(e)`` is the one-line message the command line prints
    (``scripts/x.lua:12: map:set: ...``).
    """

    #: What went wrong: ``"syntax"``, ``"runtime"``, ``"contract"``,
    #: ``"bad_start"``, ``"limit"``, ``"timed_out"``, ``"rejected"`` or
    #: ``"cancelled"``.
    kind: str
    #: The one-line message.
    message: str
    #: The script file the message names (``None`` when it names none).
    file: str | None
    #: The line in ``file`` (``None`` when it names none).
    line: int | None
    #: Lua's stack traceback, innermost frame first.
    traceback: list[str]

    def __init__(
        self,
        message: str,
        kind: str = "runtime",
        file: str | None = None,
        line: int | None = None,
        traceback: list[str] | None = None,
        rejections: list[tuple[int, str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.file = file
        self.line = line
        self.traceback = list(traceback or [])
        self._rejections = list(rejections or [])


class LimitExceeded(ScriptError):
    """The run was stopped by one of the generator's limits."""


class BudgetExceeded(LimitExceeded):
    """The instruction budget (``budget=``) ran out: a runaway loop?"""


class MemoryExceeded(LimitExceeded):
    """The memory limit (``memory=``, MiB) ran out: a table that grows forever?"""


class TimedOut(LimitExceeded):
    """The wall-clock deadline (``timeout=``, seconds) passed."""


class Rejected(ScriptError):
    """Every attempt was rejected by the script (``reject`` or ``validate``)."""

    @property
    def reasons(self) -> list[tuple[int, str]]:
        """The rejected attempts and why: ``(attempt, reason)``, the first
        31 and the last."""
        return list(self._rejections)
