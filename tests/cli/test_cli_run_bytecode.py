"""``tileir run FILE.tilebc ...``, ``tileir trace FILE ...``, ``tileir explain FILE ...``.

A kernel exported by cuTile Python 1.7.0 runs from the command line against numpy (a
transposed input included), writes each array it wrote to ``-o DIR``, and is traced and
explained the same way; every bad call gives one line on stderr and exit status 1.
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cuda.tile")

from support.cutile_kernels import cutile_bytes  # noqa: E402
from tileir.cli.main import main  # noqa: E402


@pytest.fixture
def files(tmp_path):
    (tmp_path / "helped.tilebc").write_bytes(cutile_bytes("helped"))
    (tmp_path / "scaled.tilebc").write_bytes(cutile_bytes("scaled"))
    x = (np.arange(64, dtype=np.float32) * 0.5 - 9).reshape(8, 8)
    np.save(tmp_path / "x.npy", x)
    np.save(tmp_path / "xt.npy", x.T)  # saved in Fortran order: loads as a transposed view
    np.save(tmp_path / "zeros.npy", np.zeros((8, 8), np.float32))
    return tmp_path, x


def _one_line_error(capsys, argv):
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 1, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err


def test_run_writes_each_written_array_to_the_output_folder(files, capsys):
    d, x = files
    out = d / "out"
    rc = main(
        [
            "run",
            str(d / "helped.tilebc"),
            "--grid",
            "2",
            "--convention",
            "cutile",
            str(d / "xt.npy"),
            str(d / "zeros.npy"),
            "-o",
            str(out),
        ]
    )
    text = capsys.readouterr().out
    assert rc == 0
    lines = text.splitlines()
    assert lines[0] == "helped: grid [2], convention cutile, 1 array(s) written"
    assert lines[1:] == [f"  argument 1 (f32[8, 8]): written, saved to {out / 'arg1.npy'}"]
    assert sorted(p.name for p in out.iterdir()) == ["arg1.npy"]  # argument 0 was only read
    got = np.load(out / "arg1.npy")
    assert got.shape == (8, 8) and got.dtype == np.float32
    np.testing.assert_array_equal(got, x.T * np.float32(2) + np.float32(1) - np.float32(3))


def test_run_takes_scalars_and_a_2d_grid_and_options_after_the_args(files, capsys):
    d, x = files
    argv = ["run", str(d / "scaled.tilebc"), str(d / "x.npy"), str(d / "xt.npy")]
    argv += [str(d / "zeros.npy"), "-1.5", "--grid", "2,2", "--convention", "cutile"]
    argv += ["-o", str(d / "o")]
    assert main(argv) == 0
    assert "argument 2 (f32[8, 8]): written" in capsys.readouterr().out
    np.testing.assert_array_equal(np.load(d / "o" / "arg2.npy"), np.float32(-1.5) * x + x.T)


def test_a_registered_kernel_still_runs_by_name(capsys):
    assert main(["run", "vadd"]) == 0
    assert "agrees with the reference" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["{d}/missing.tilebc", "--grid", "2"], "no file"),
        (["{d}/", "--grid", "2"], "is a directory, not a regular file"),
        (["{d}/x.npy", "--grid", "2", "{d}/x.npy"], "not Tile IR bytecode"),
        (["{d}/helped.tilebc", "--grid", "2", "--convention", "cutile", "{d}/x.npy"], "takes 10"),
        (
            ["{d}/helped.tilebc", "--grid", "2", "--convention", "cutile"]
            + ["{d}/x.npy", "{d}/x.npy", "7"],
            "argument 2 (7) has no parameter",
        ),
        (["{d}/helped.tilebc", "--grid", "2", "{d}/x.npy", "{d}/zeros.npy"], "not a pointer"),
        (
            ["{d}/helped.tilebc", "--grid", "2", "--convention", "cutile", "{d}/x.npy", "abc"],
            "nor a",
        ),
        (["{d}/helped.tilebc", "--convention", "cutile", "{d}/x.npy", "{d}/zeros.npy"], "grid"),
        (["{d}/helped.tilebc", "--grid", "2", "--entry", "other"], "no entry `other`"),
        (["vadd", "{d}/x.npy"], "is a registered kernel"),
        (["{d}/helped.tilebc", "--grid", "2", "--mode", "reference"], "--mode is for a"),
    ],
    ids=[
        "missing",
        "a-directory",
        "not-bytecode",
        "too-few",
        "too-many",
        "wrong-convention",
        "not-a-number",
        "no-grid",
        "unknown-entry",
        "args-for-a-name",
        "mode-for-a-file",
    ],
)
def test_bad_calls_give_one_line(files, capsys, argv, message):
    d, _ = files
    err = _one_line_error(capsys, ["run"] + [a.format(d=d) for a in argv])
    assert message in err


def test_a_shape_the_entry_cannot_take_is_one_line(files, capsys, tmp_path):
    d, _ = files
    np.save(tmp_path / "cube.npy", np.zeros((2, 8, 8), np.float32))
    err = _one_line_error(
        capsys,
        ["run", str(d / "helped.tilebc"), "--grid", "2", "--convention", "cutile"]
        + [str(d / "x.npy"), str(tmp_path / "cube.npy")],
    )
    assert "argument 1 has 3 dimension(s)" in err and "another rank" in err


def test_an_unknown_kernel_lists_a_few_close_names(capsys):
    err = _one_line_error(capsys, ["run", "vaddd"])
    assert "did you mean" in err and "vadd" in err
    assert err.count(",") <= 3  # at most four names, not the library's ~800
    err = _one_line_error(capsys, ["run", "zzzzqqqq"])
    assert "tileir list" in err


def test_trace_and_the_finders_take_a_bytecode_file(files, capsys):
    d, _ = files
    launch = [str(d / "helped.tilebc"), "--grid", "2", "--convention", "cutile"]
    launch += [str(d / "x.npy"), str(d / "zeros.npy")]
    assert main(["trace"] + launch + ["--find", "all"]) == 0
    out = capsys.readouterr().out
    assert "trace of `helped` on grid [2, 1, 1]" in out
    assert "store_view_tko" in out and "races: nothing found" in out


def test_explain_takes_a_bytecode_file(files, capsys):
    d, _ = files
    page = d / "page.html"
    argv = ["explain", str(d / "helped.tilebc"), "--grid", "2", "--convention", "cutile"]
    argv += [str(d / "x.npy"), str(d / "zeros.npy"), "-o", str(page), "--trace"]
    assert main(argv) == 0
    assert f"helped: wrote {page}" in capsys.readouterr().out
    html = page.read_text()
    assert "store_view_tko" in html and "_shifted" in html  # the helper's source line
