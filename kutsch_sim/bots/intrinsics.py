"""LLVM intrinsics the heuristic bots use where numba has no direct spelling.

- ``copy_nb(dst, src, k)``: dst[0:k] = src[0:k] with LLVM's ``memcpy``, for filling the
  View (``bots.view``). Element-wise loops over the View's small fields (10 seats, 21
  cards, 16 parameters) compile to scalar moves with alias checks, since the View is a
  field of the same State record the rows come from; a ``memcpy`` of a size known at
  compile time becomes a few vector moves. Filling a 6-player ACTION View this way takes
  about 26–32 ns instead of 75–93 (microbenchmark, session 9); the bytes copied are the
  same, so no game changes. The caller guarantees what a loop's bounds would not have
  checked either: both arrays hold at least ``k`` elements and do not overlap. The typing
  refuses anything but two C-contiguous one-dimensional arrays of the same dtype, so a
  wrong field is a compile error, not a silent miscopy.
- ``popcount_nb(x)`` and ``ctz_nb(x)``: the number of set bits of an int64 and the index
  of its lowest set bit (``llvm.ctpop``, ``llvm.cttz``; ctz of 0 is 64), so card sets
  kept as bit masks (card c: bit c) are counted and walked without a branch per card
  (``values.prep_nb``).
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def copy_nb(typingctx, dst, src, k):
    """dst[0:k] = src[0:k] (see the module doc)."""
    ok = (isinstance(dst, types.Array) and isinstance(src, types.Array) and dst.ndim == 1
          and src.ndim == 1 and dst.layout == "C" and src.layout == "C" and dst.dtype == src.dtype
          and isinstance(k, types.Integer) and dst.mutable)
    if not ok:
        return None
    sig = types.void(dst, src, k)

    def codegen(context, builder, signature, args):
        d, s, count = args
        da = cgutils.create_struct_proxy(signature.args[0])(context, builder, value=d)
        sa = cgutils.create_struct_proxy(signature.args[1])(context, builder, value=s)
        size = context.get_abi_sizeof(context.get_data_type(signature.args[0].dtype))
        count = context.cast(builder, count, signature.args[2], types.intp)
        cgutils.raw_memcpy(builder, da.data, sa.data, count, size)
        return context.get_dummy_value()

    return sig, codegen


def _bits(builder, x, fromty, name):
    v = builder.sext(x, ir.IntType(64)) if fromty.bitwidth < 64 and fromty.signed else x
    if fromty.bitwidth < 64 and not fromty.signed:
        v = builder.zext(x, ir.IntType(64))
    if name == "llvm.ctpop":
        fn = builder.module.declare_intrinsic(name, [ir.IntType(64)])
        return builder.call(fn, [v])
    fn = builder.module.declare_intrinsic(name, [ir.IntType(64), ir.IntType(1)])  # (x, is_zero_poison)
    return builder.call(fn, [v, ir.Constant(ir.IntType(1), 0)])


@intrinsic
def popcount_nb(typingctx, x):
    """Number of set bits of an integer (as int64; a negative one sign-extended to 64 bits)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return _bits(builder, args[0], signature.args[0], "llvm.ctpop")

    return types.int64(x), codegen


@intrinsic
def ctz_nb(typingctx, x):
    """Index of the lowest set bit of an integer (64 for 0)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return _bits(builder, args[0], signature.args[0], "llvm.cttz")

    return types.int64(x), codegen
