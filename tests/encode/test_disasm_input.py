"""``tileir disasm FILE`` reads only a regular file of bounded size (issue 13, point 3):
devices, FIFOs and directories are refused at once with one line and exit status 1."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from support.samples import vadd_module
from tileir.cli.files import read_input
from tileir.cli.main import main
from tileir.encode import encode


@pytest.mark.parametrize(
    "make, words",
    [
        (lambda tmp: "/dev/zero", "is a device, not a regular file"),
        (lambda tmp: str(tmp), "is a directory, not a regular file"),
        (lambda tmp: (os.mkfifo(tmp / "f"), str(tmp / "f"))[1], "is a FIFO, not a regular file"),
    ],
)
def test_special_files_are_refused_with_one_line(make, words, tmp_path, capsys):
    assert main(["disasm", make(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1


@pytest.mark.slow  # a child process (about 3 s)
def test_dev_zero_ends_at_once_in_a_child_process():
    # the former behaviour read for ever and died of MemoryError: bound it by a timeout
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    done = subprocess.run(
        [sys.executable, "-m", "tileir", "disasm", "/dev/zero"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "tileir disasm: /dev/zero is a device, not a regular file"
    ]


def test_a_file_over_the_limit_is_refused(tmp_path):
    big = tmp_path / "big.tileirbc"
    big.write_bytes(b"\0" * 100)
    with pytest.raises(ValueError, match="holds 100 bytes, more than the 99 read"):
        read_input(str(big), limit=99)
    assert read_input(str(big), limit=100) == b"\0" * 100


def test_a_regular_bytecode_file_still_disassembles(tmp_path, capsys):
    f = tmp_path / "vadd.tileirbc"
    f.write_bytes(encode(vadd_module()))
    assert main(["disasm", str(f)]) == 0
    assert "entry @vadd(" in capsys.readouterr().out
