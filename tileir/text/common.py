"""Small pieces every rendering rule uses: value names, type lists, unit flags."""

from __future__ import annotations

from tileir.ir.signatures import attr_of

__all__ = ["t", "ops", "types", "flag"]


def t(v) -> str:
    return str(v.type)


def ops(p, values) -> str:
    return ", ".join(p.use(v) for v in values)


def types(values) -> str:
    return ", ".join(str(v.type) for v in values)


def flag(op, name, word=None) -> str:
    return f" {word or name}" if attr_of(op, name) else ""
