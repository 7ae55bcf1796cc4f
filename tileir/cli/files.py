"""Reading a user's input file for a command, safely (issue 13, point 3).

A command that reads a file (``tileir disasm FILE``) takes only a regular file of at most
``MAX_INPUT_BYTES``: a device (``/dev/zero``), a FIFO or a directory is refused at once with
one line, and so is a file too large to be a kernel, instead of reading for ever or running
out of memory.  The file is opened without blocking (a FIFO with no writer would otherwise
hang the open) and its kind is judged on the open descriptor, so it cannot change between
the test and the read.
"""

from __future__ import annotations

import os
import stat

__all__ = ["read_input", "MAX_INPUT_BYTES"]

#: The largest input file read: bytecode of any real kernel is a few KiB to a few MiB.
MAX_INPUT_BYTES = 256 << 20


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def read_input(path: str, limit: int = MAX_INPUT_BYTES) -> bytes:
    """The bytes of regular file ``path`` (ValueError, one line, for anything else).

    >>> read_input("/dev/zero")
    Traceback (most recent call last):
    ...
    ValueError: /dev/zero is a device, not a regular file
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{path} is {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise ValueError(f"{path} holds {info.st_size} bytes, more than the {limit} read")
        chunks, got = [], 0
        while got <= limit:  # st_size may lie (a file still growing): read at most limit + 1
            chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise ValueError(f"{path} holds more than the {limit} bytes read")
        return b"".join(chunks)
    finally:
        os.close(fd)
