"""LLVM intrinsics the heuristic bots use where numba has no direct spelling.

- ``copy_nb(dst, src, k)``: dst[0:k] = src[0:k] with LLVM's ``memcpy``, for filling the
  View (``bots.view``). Element-wise loops over the View's small fields (10 seats, 21
  cards, 16 parameters) compile to scalar moves with alias checks, since the View is a
  field of the same State record the rows come from; a ``memcpy`` of a size known at
  compile time becomes a few vector moves. Filling a 6-player ACTION View this way takes
  about 26–32 ns instead of 75–93 (microbenchmark); the bytes copied are the
  same, so no game changes. The caller guarantees what a loop's bounds would not have
  checked either: both arrays hold at least ``k`` elements and do not overlap. The typing
  refuses anything but two C-contiguous one-dimensional arrays of the same dtype, so a
  wrong field is a compile error, not a silent miscopy.
- ``popcount_nb(x)`` and ``ctz_nb(x)``: the number of set bits of an int64 and the index
  of its lowest set bit (``llvm.ctpop``, ``llvm.cttz``; ctz of 0 is 64), so card sets
  kept as bit masks (card c: bit c) are counted and walked without a branch per card
  (``values.prep_nb``).
- ``pair_sums_nb`` and ``team_sums_nb``: a seat's posterior sums over the team
  assignments (for two seats, or for all of them and the minority), eight assignments at a
  time in explicit ``<8 x double>`` vectors (``bots.beliefs``, from 8 players). numba
  compiles no floating-point reduction to vector code unless allowed to reorder the sum
  (``fastmath``), and a reordered sum would depend on the vector width the host's
  compiler picks, so the same seed could play differently on two machines. Here the
  order is written down: lane j sums the assignments i = j mod 8 in turn, and the eight
  lanes are added pairwise at the end -- on any x86-64 (AVX-512, AVX2 or SSE2, which
  carry the eight lanes in one, two or four registers) the same sums to the bit.
"""

from __future__ import annotations

from llvmlite import ir
from numba import config, types
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


LANES = 8  # pair_sums_nb's vector width (a property of the sums, not of the machine)


def _data(context, builder, ty, val):
    return cgutils.create_struct_proxy(ty)(context, builder, value=val).data


def _splat(builder, v, vty):
    """A vector of type vty with every lane v."""
    i32 = ir.IntType(32)
    u = builder.insert_element(ir.Constant(vty, ir.Undefined), v, ir.Constant(i32, 0))
    return builder.shuffle_vector(u, ir.Constant(vty, ir.Undefined), ir.Constant(ir.VectorType(i32, LANES), [0] * LANES))


def _lane_sum(builder, v):
    """The lanes of v added pairwise: ((l0 + l1) + (l2 + l3)) + ((l4 + l5) + (l6 + l7))."""
    i32 = ir.IntType(32)
    lane = [builder.extract_element(v, ir.Constant(i32, j)) for j in range(LANES)]
    while len(lane) > 1:
        lane = [builder.fadd(lane[j], lane[j + 1]) for j in range(0, len(lane), 2)]
    return lane[0]


def _allowed(builder, s, i, nc_v, want_v, kmask_v):
    """Lanes of chunk i (assignments 8i..8i+7, my teammates in them s) below nc that agree
    with the hard evidence: (s ^ want) & kmask == 0."""
    i32, i64 = ir.IntType(32), ir.IntType(64)
    vi = ir.VectorType(i32, LANES)
    izero = ir.Constant(vi, [0] * LANES)
    ok = builder.icmp_unsigned("==", builder.and_(builder.xor(s, want_v), kmask_v), izero)
    first = _splat(builder, builder.trunc(builder.mul(i, ir.Constant(i64, LANES)), i32), vi)
    idx = builder.add(first, ir.Constant(vi, list(range(LANES))))
    return builder.and_(ok, builder.icmp_signed("<", idx, nc_v))


def _mates(builder, a, me_v, full_v):
    """My teammates in each lane's assignment a: a if I am in the Order there, else its
    complement (within the seats' bits)."""
    vi = ir.VectorType(ir.IntType(32), LANES)
    one = ir.Constant(vi, [1] * LANES)
    mine = builder.and_(builder.lshr(a, me_v), one)  # 1 if I am in the Order
    flip = builder.and_(builder.sub(mine, one), full_v)  # 0, or every seat's bit
    return builder.xor(a, flip)


def _scalar_i32(context, builder, ta, args, k):
    return builder.trunc(context.cast(builder, args[k], ta[k], types.int64), ir.IntType(32))


def _weighted_sums(context, builder, ta, args, n_acc, body):
    """The loop both sums share. Arguments 0-8 of the intrinsic are (epub, epriv, asg, out,
    nc, kmask, want, me, full); for each chunk i of eight assignments below nc it finds my
    side s of each, which are allowed, and their weight e (0 where not), and calls
    ``body(i, s, allowed, e, add)`` to emit what the chunk adds: ``add(k, v)`` adds the
    vector v to accumulator k < n_acc. At the end out[k] = accumulator k's lanes added
    pairwise (:func:`_lane_sum`)."""
    dbl, i32, i64 = ir.DoubleType(), ir.IntType(32), ir.IntType(64)
    vd, vi = ir.VectorType(dbl, LANES), ir.VectorType(i32, LANES)
    p_pub = builder.bitcast(_data(context, builder, ta[0], args[0]), vd.as_pointer())
    p_priv = builder.bitcast(_data(context, builder, ta[1], args[1]), vd.as_pointer())
    p_asg = builder.bitcast(_data(context, builder, ta[2], args[2]), vi.as_pointer())
    p_out = _data(context, builder, ta[3], args[3])
    nc = context.cast(builder, args[4], ta[4], types.int64)
    count = builder.udiv(builder.add(nc, ir.Constant(i64, LANES - 1)), ir.Constant(i64, LANES))
    nc_v, kmask_v, want_v, me_v, full_v = (
        _splat(builder, _scalar_i32(context, builder, ta, args, k), vi) for k in range(4, 9))
    zero = ir.Constant(vd, [0.0] * LANES)
    accs = []
    for _ in range(n_acc):
        acc = cgutils.alloca_once(builder, vd)
        builder.store(zero, acc)
        accs.append(acc)

    def add(k, v):
        builder.store(builder.fadd(builder.load(accs[k]), v), accs[k])

    with cgutils.for_range(builder, count) as loop:
        i = loop.index
        s = _mates(builder, builder.load(builder.gep(p_asg, [i]), align=1), me_v, full_v)
        allowed = _allowed(builder, s, i, nc_v, want_v, kmask_v)
        e = builder.fmul(builder.load(builder.gep(p_pub, [i]), align=1),
                         builder.load(builder.gep(p_priv, [i]), align=1))
        body(i, s, allowed, builder.select(allowed, e, zero), add)
    for k in range(n_acc):
        builder.store(_lane_sum(builder, builder.load(accs[k])), builder.gep(p_out, [ir.Constant(i64, k)]))


def _bit(builder, s, p_v):
    """Lanes of s with bit p set (p_v: p in every lane)."""
    vi = ir.VectorType(ir.IntType(32), LANES)
    one = ir.Constant(vi, [1] * LANES)
    return builder.icmp_unsigned("!=", builder.and_(builder.lshr(s, p_v), one), ir.Constant(vi, [0] * LANES))


def _checked(arrays, floats, ints, ints_ok):
    return (all(isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C" for a in arrays)
            and all(a.dtype == types.float64 for a in floats) and all(a.dtype == types.int32 for a in ints)
            and all(isinstance(t, types.Integer) for t in ints_ok))


@intrinsic
def pair_sums_nb(typingctx, epub, epriv, asg, out, nc, kmask, want, me, full, x, y):
    """Over the assignments i < nc, with my teammates in each s (asg[i] if I am in the
    Order there, else its complement within ``full``) and weight e = epub[i] * epriv[i],
    those that agree with the hard evidence (``(s ^ want) & kmask == 0``: the seats of
    kmask are my teammates exactly where ``want`` says): out[0] = sum of e, out[1] the same
    where x is my teammate, out[2] where y is. The arrays are read in whole vectors, to nc
    rounded up to a multiple of 8, so they must be that long (``beliefs.A_PAD``: the caller
    checks); what lies past nc is read but not counted (see the module doc for the order)."""
    if not (_checked((epub, epriv, asg, out), (epub, epriv, out), (asg,), (nc, kmask, want, me, full, x, y))
            and out.mutable):
        return None
    sig = types.void(epub, epriv, asg, out, nc, kmask, want, me, full, x, y)

    def codegen(context, builder, signature, args):
        ta = signature.args
        vi = ir.VectorType(ir.IntType(32), LANES)
        x_v, y_v = (_splat(builder, _scalar_i32(context, builder, ta, args, k), vi) for k in (9, 10))
        zero = ir.Constant(ir.VectorType(ir.DoubleType(), LANES), [0.0] * LANES)

        def body(i, s, allowed, e, add):
            add(0, e)
            add(1, builder.select(_bit(builder, s, x_v), e, zero))
            add(2, builder.select(_bit(builder, s, y_v), e, zero))

        _weighted_sums(context, builder, ta, args, 3, body)
        return context.get_dummy_value()

    return sig, codegen


T_Z, T_HARD, T_MIN, T_HARD_MIN = 10, 11, 12, 13  # team_sums_nb's out beyond the 10 seats


@intrinsic
def team_sums_nb(typingctx, epub, epriv, asg, out, nc, kmask, want, me, full, small, w):
    """A seat's whole posterior in one pass, eight assignments at a time (the order of
    :func:`pair_sums_nb`, and its ``nc``, ``kmask``, ``want``, ``me``, ``full``). Over the
    allowed assignments i < nc, with weight e and my teammates s: out[p] = sum of e where p
    is my teammate (p < 10), out[T_Z] = sum of e, out[T_HARD] = their number, out[T_MIN]
    and out[T_HARD_MIN] the same two where my team has ``small`` seats, and w[i] = e (0 off
    the allowed ones), unnormalised. Arrays as for pair_sums_nb (A_PAD long, w too; out 14)."""
    if not (_checked((epub, epriv, asg, out, w), (epub, epriv, out, w), (asg,), (nc, kmask, want, me, full, small))
            and out.mutable and w.mutable):
        return None
    sig = types.void(epub, epriv, asg, out, nc, kmask, want, me, full, small, w)

    def codegen(context, builder, signature, args):
        ta = signature.args
        dbl, i32 = ir.DoubleType(), ir.IntType(32)
        vd, vi = ir.VectorType(dbl, LANES), ir.VectorType(i32, LANES)
        small_v = _splat(builder, _scalar_i32(context, builder, ta, args, 9), vi)
        p_w = builder.bitcast(_data(context, builder, ta[10], args[10]), vd.as_pointer())
        zero = ir.Constant(vd, [0.0] * LANES)
        ones = ir.Constant(vd, [1.0] * LANES)
        ctpop = cgutils.get_or_insert_function(builder.module, ir.FunctionType(vi, [vi]), f"llvm.ctpop.v{LANES}i32")

        def body(i, s, allowed, e, add):
            builder.store(e, builder.gep(p_w, [i]), align=1)
            for p in range(10):
                add(p, builder.select(_bit(builder, s, ir.Constant(vi, [p] * LANES)), e, zero))
            hard = builder.select(allowed, ones, zero)
            minority = builder.icmp_unsigned("==", builder.call(ctpop, [s]), small_v)
            add(T_Z, e)
            add(T_HARD, hard)
            add(T_MIN, builder.select(minority, e, zero))
            add(T_HARD_MIN, builder.select(minority, hard, zero))

        _weighted_sums(context, builder, ta, args, 14, body)
        return context.get_dummy_value()

    return sig, codegen


# ------------------------------------------------------------------ plain Python (NUMBA_DISABLE_JIT=1)
def _lanes_py(v):
    """:func:`_lane_sum` in Python: the eight lanes added pairwise."""
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))


def _chunks_py(epub, epriv, asg, nc, kmask, want, me, full):
    """The chunks of :func:`_weighted_sums` in Python: (i, s, allowed, e) per chunk of eight
    assignments, the same lanes and the same products as the vector code."""
    import numpy as np

    for i in range((int(nc) + LANES - 1) // LANES):
        sl = slice(i * LANES, (i + 1) * LANES)
        a = asg[sl].astype(np.int64)
        flip = (((a >> int(me)) & 1) - 1) & int(full)
        s = a ^ flip
        allowed = (((s ^ int(want)) & int(kmask)) == 0) & (np.arange(i * LANES, (i + 1) * LANES) < int(nc))
        e = np.where(allowed, epub[sl] * epriv[sl], 0.0)
        yield i, s, allowed, e


def _copy_py(dst, src, k):
    dst[:k] = src[:k]


def _popcount_py(x):
    return bin(int(x) & 0xFFFFFFFFFFFFFFFF).count("1")


def _ctz_py(x):
    x = int(x) & 0xFFFFFFFFFFFFFFFF
    return 64 if x == 0 else (x & -x).bit_length() - 1


def _pair_sums_py(epub, epriv, asg, out, nc, kmask, want, me, full, x, y):
    import numpy as np

    acc = np.zeros((3, LANES))
    for _, s, _, e in _chunks_py(epub, epriv, asg, nc, kmask, want, me, full):
        acc[0] += e
        acc[1] += np.where((s >> int(x)) & 1 != 0, e, 0.0)
        acc[2] += np.where((s >> int(y)) & 1 != 0, e, 0.0)
    for k in range(3):
        out[k] = _lanes_py(acc[k])


def _team_sums_py(epub, epriv, asg, out, nc, kmask, want, me, full, small, w):
    import numpy as np

    acc = np.zeros((14, LANES))
    for i, s, allowed, e in _chunks_py(epub, epriv, asg, nc, kmask, want, me, full):
        w[i * LANES:(i + 1) * LANES] = e
        for p in range(10):
            acc[p] += np.where((s >> p) & 1 != 0, e, 0.0)
        hard = np.where(allowed, 1.0, 0.0)
        minority = np.array([bin(int(v) & 0xFFFFFFFF).count("1") == int(small) for v in s])
        acc[T_Z] += e
        acc[T_HARD] += hard
        acc[T_MIN] += np.where(minority, e, 0.0)
        acc[T_HARD_MIN] += np.where(minority, hard, 0.0)
    for k in range(14):
        out[k] = _lanes_py(acc[k])


if config.DISABLE_JIT:  # an intrinsic cannot run in Python: the same results, written in numpy
    copy_nb, popcount_nb, ctz_nb = _copy_py, _popcount_py, _ctz_py
    pair_sums_nb, team_sums_nb = _pair_sums_py, _team_sums_py
