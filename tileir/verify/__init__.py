"""The one checker of the Module level: would ``tileiras`` accept this module?

:func:`verify` raises :class:`~tileir.errors.VerifyError` naming the op and what is wrong;
its rules (one per body op, :data:`~tileir.verify.rules.VERIFY_RULES`) live beside it by
kind of op (:mod:`.shapes`, :mod:`.memory`, :mod:`.views`, :mod:`.common`).
"""

from tileir.verify.checker import verify

__all__ = ["verify"]
