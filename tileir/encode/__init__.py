"""Tile IR bytecode: a Module to bytes of a version (13.1 ... 13.5) and back.

* :func:`encode` writes a Module (by default in the lowest version that holds
  it; ``debug_info=True`` adds source locations);
* :func:`decode` reads bytecode from any producer (tileir, cuTile, the C++
  writer) into a Module, raising :class:`~tileir.errors.DecodeError` with the
  byte offset of anything malformed;
* :func:`canonicalize` is what a round trip gives: ``decode(encode(m)) ==
  canonicalize(m)``;
* :func:`required_version` / :func:`version_needs` say which version a Module
  needs and why.

Every op's layout is one row of :data:`OP_CODECS`, which both directions read.

The package's modules: ``wire`` (varints, words, padding), ``pools`` (string /
constant tables), ``typecodec`` (the Type table), ``attrcodec`` (tagged
attributes and hints), ``optable`` (the per-op rules), ``opwrite`` /
``opread`` (one instruction each way), ``debuginfo`` (the Debug section),
``versions`` (what needs which version), ``writer`` / ``reader`` (whole files),
``canon`` (the canonical form); ``build`` and ``samples`` help write Modules by
hand (tests, examples).

>>> from tileir.ir.module import Function, Block, Module, Op, Value
>>> from tileir.types import TileType, F32
>>> x = Value(0, TileType((), F32))
>>> m = Module((Function("k", (x,), Block((), (Op("return"),))),))
>>> decode(encode(m)) == m
True
"""

from tileir.encode.canon import canonicalize
from tileir.encode.optable import OP_CODECS, OpCodec
from tileir.encode.reader import decode
from tileir.encode.versions import required_version, version_needs
from tileir.encode.writer import encode

__all__ = [
    "encode",
    "decode",
    "canonicalize",
    "required_version",
    "version_needs",
    "OP_CODECS",
    "OpCodec",
]
