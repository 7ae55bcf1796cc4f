"""The exceptions tileir raises to its users, one documented class per kind of fault.

Every error a user can meet derives from :class:`TileIRError`, so
``except tileir.TileIRError`` catches them all; none of them is a bare
traceback from inside the library.

>>> e = RecordingError("nothing writes an In", kernel="k", op="store_cell",
...                    where="kernel.py:12")
>>> str(e)
'tileir: kernel `k`: `store_cell`: nothing writes an In (at kernel.py:12)'
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "TileIRError",
    "RecordingError",
    "LoweringError",
    "VerifyError",
    "EncodeError",
    "DecodeError",
    "LaunchError",
    "InterpretError",
    "MismatchError",
    "ToolError",
    "DeviceUnavailableError",
    "UsageError",
    "RuleError",
]


class TileIRError(Exception):
    """Base of every tileir error.

    ``kernel``, ``op`` and ``where`` (the user's ``file:line``) are kept as
    attributes as well as in the message, so tools can read them.
    """

    prefix = "tileir"

    def __init__(
        self,
        message: str,
        *,
        kernel: Optional[str] = None,
        op: Optional[str] = None,
        where: Optional[str] = None,
        kind: Optional[str] = None,
    ):
        self.message = message
        self.kernel = kernel
        self.op = op
        self.where = where
        self.kind = kind or type(self).__name__
        super().__init__(self._text())

    def _text(self) -> str:
        parts = [self.prefix]
        if self.kernel is not None:
            parts.append(f"kernel `{self.kernel}`")
        if self.op is not None:
            parts.append(f"`{self.op}`")
        text = ": ".join(parts) + ": " + self.message
        if self.where:
            text += f" (at {self.where})"
        return text

    def with_context(
        self,
        *,
        kernel: Optional[str] = None,
        op: Optional[str] = None,
        where: Optional[str] = None,
    ) -> "TileIRError":
        """The same error with missing context filled in (what is known is kept)."""
        err = type(self).__new__(type(self))
        err.__dict__.update(self.__dict__)
        err.kernel = self.kernel if self.kernel is not None else kernel
        err.op = self.op if self.op is not None else op
        err.where = self.where if self.where is not None else where
        Exception.__init__(err, err._text())
        return err


class RecordingError(TileIRError):
    """The recorder refused a kernel body: a role, shape, format or grid rule was broken.

    Raised while recording, before any bytecode exists.  The message names the
    kernel, the Tile IR op, the operands' types and the user's source line.
    Fix the kernel body or its markers.
    """


class LoweringError(TileIRError):
    """A recorded Program could not be lowered to cuda_tile ops (a tileir bug, or an
    unsupported combination the recorder let through)."""


class VerifyError(TileIRError):
    """A Module broke a rule of the dialect (types, scoping, terminators, versions)."""


class EncodeError(TileIRError):
    """A Module cannot be written as bytecode of the requested version (for example an op
    newer than the version).  The message names the op and the version it needs."""


class DecodeError(TileIRError):
    """Bytes that are not valid Tile IR bytecode: bad magic, unsupported version, a
    truncated section, an unknown opcode or an index out of range.  Names the offset."""


class LaunchError(TileIRError):
    """A launch refused before any device ran it: a short buffer, a wrong format, a grid
    that disagrees with the cells, an Out sharing its buffer.  ``kind`` says which."""


class InterpretError(TileIRError):
    """The fake device could not evaluate an op (names the op, its source line and block)."""


class MismatchError(TileIRError):
    """The interpreted kernel and its reference disagree: names the buffer, the first
    differing element (index and block), both values and the tolerance applied."""


class ToolError(TileIRError):
    """``tileiras`` or ``tileirdisasm`` is missing or refused its input (their message,
    the kernel and the architecture are kept)."""


class DeviceUnavailableError(TileIRError):
    """The real device was asked for but there is no GPU, no driver or no cuda-python;
    the message says which is missing."""


class UsageError(TileIRError, TypeError, ValueError):
    """A public function was given an argument of the wrong type or value (a grid that is
    not a number or a sequence, a format that is not a tileir Format, a negative length).
    The message names the function and the value.  It is also a TypeError and a ValueError,
    as Python's own argument errors are."""


class RuleError(ValueError):
    """A pure rule (:mod:`tileir.shape_rules`, :mod:`tileir.ir.attr_rules`) refused its input;
    the message says why.  The recorder turns it into a :class:`RecordingError` that names
    the kernel, op and line; it never reaches a user on its own."""
