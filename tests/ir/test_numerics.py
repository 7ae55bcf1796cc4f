"""Bit patterns of scalars and dense constants."""

import numpy as np

from tileir.ir.numerics import dense_array, dense_of, scalar_bits, scalar_value
from tileir.types import BF16, F8E4M3FN, FNV8E5M3FNU, I1, TileType


def test_fnv8_rounds_ties_to_even():
    # 47104 lies halfway between 0xF3 (45056) and 0xF4 (49152): the even code wins
    assert scalar_value(FNV8E5M3FNU, 0xF3) < 47104.0 < scalar_value(FNV8E5M3FNU, 0xF4)
    assert scalar_bits(FNV8E5M3FNU, 47104.0) == 0xF4
    assert scalar_bits(FNV8E5M3FNU, 45056.0) == 0xF3


def test_narrow_floats_round_once_from_float64():
    # ml_dtypes would round 1 + 2**-8 + 2**-30 to f32 first, then tie to 1.0 in bf16
    assert scalar_value(BF16, scalar_bits(BF16, 1 + 2**-8 + 2**-30)) == 1.0078125
    assert scalar_value(BF16, scalar_bits(BF16, 1 + 2**-8)) == 1.0


def test_dense_constants_round_trip_and_i1_packs():
    for fmt, values in ((I1, [1, 0, 1]), (F8E4M3FN, [1.0, -2.0, 0.5])):
        d = dense_of(TileType((3,), fmt), values)
        assert dense_array(d).astype(float).tolist() == [float(v) for v in values]
    assert dense_of(TileType((3,), I1), [1, 1, 1]).data == b"\xff"  # a splat
    assert dense_of(TileType((3,), I1), [1, 0, 1]).data == b"\x05"  # bit-packed
    assert np.isnan(scalar_value(FNV8E5M3FNU, 0xFF))
