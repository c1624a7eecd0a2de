#!/usr/bin/env python3
"""A small device under test (DUT) for the AMX `vecfp` conformance harness, in plain Python.

It speaks the `amx-dut/1` protocol of docs/dut-protocol.md ("AMX") on stdin/stdout and implements
Apple AMX `vecfp` (the operand fields and semantics of the project's notes, amx-vecfp.md) for the
chip profiles M1, M2 (= M3) and M4:

  * every lane width: f16, bf16 (M2+), f32, f64, and the f16/bf16 -> f32 row-pair modes;
  * every ALU mode: fma, fms, select, min, max, and on M2+ mul, add-x, add-y;
  * the X and Y shuffles S0..S3, any X/Y byte offset in the circular 512-byte window, any ZROW;
  * the lane-enable / broadcast field (bit 31 = 0; M1 ignores bit 31);
  * the multi-vector modes (bit 31 = 1 on M2 and later: 2 or 4 iterations, every BMODE, and M4's
    offset masking);
  * the no-op encodings (MBZ != 0, an ALU mode that is not one on the chip).

Arithmetic is exact: every operation is computed on `fractions.Fraction` and rounded once, to
nearest even, to the Z format, with subnormals, signed zeros and infinities, and every NaN result
is the format's default NaN (Arm FPCR.DN = 1).

It answers `unsupported`, with the reason, for what it does not implement: the indexed loads
(IDX, bit 53 = 1; notes §2.7 "Indexed expand"). The harness records those cases as unsupported,
not as failures. Adding them is a good first exercise (see `decode` and `Vecfp.run`).

It is a template: to check your own simulator, keep the protocol part (`main`, `handle_case`) and
the state-document part (`State`), and replace `Vecfp` with calls into your implementation.
Everything is in this one file and uses only the Python 3.11 standard library.

    cargo xtask conform --isa amx --dut "python3 examples/amx/dut-python/dut.py"

Fault injection, for the harness's own tests, by case id (the harness numbers the cases it sends
"1", "2", ... across restarts; each flag may be repeated):

    --crash-on-case ID    exit abruptly (status 3) on that case
    --hang-on-case ID     never answer that case (sleep forever)
    --garbage-on-case ID  answer that case with a line that is not JSON
    --wrong-on-case ID    answer that case with a wrong result (bit 0 of Z[0] byte 0 flipped)

--chips LIST (comma-separated, default m1,m2,m4) makes it claim other chip profiles, so that it
refuses the hello of a profile not in the list.
"""

import argparse
import json
import os
import struct
import sys
import time
import traceback
from fractions import Fraction

PROTOCOL = "amx-dut/1"
NAME = "amx-dut-python"
VERSION = "0.1.0"

# The chip profiles this DUT models, as the hello names them. M3 is the M2 profile (the harness
# sends "m2" for it), so it need not be listed.
CHIPS = ["m1", "m2", "m4"]
# A profile's generation, for the "M2 and later" tests of the notes (§1.3).
GENERATION = {"m1": 1, "m2": 2, "m3": 2, "m4": 4}

REG_BYTES = 64  # every X, Y and Z register
XY_REGS = 8  # X[0..8], Y[0..8]: 512 bytes each
Z_ROWS = 64  # Z[0..64]: 4096 bytes
POOL_BYTES = XY_REGS * REG_BYTES


# ----------------------------------------------------------------------------------------------
# Protocol I/O. stdout carries protocol lines only; everything else goes to stderr.
# ----------------------------------------------------------------------------------------------


def send(message):
    """Writes one protocol message: one JSON object on one line, flushed at once."""
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def log(text):
    """Diagnostics go to stderr: the harness keeps the last few KB for its error messages."""
    print(f"{NAME}: {text}", file=sys.stderr, flush=True)


class Unsupported(Exception):
    """The case needs something this DUT does not implement: answered as `unsupported`."""


class BadCase(Exception):
    """The case cannot be run (a malformed state or operand): answered as `error`."""


# ----------------------------------------------------------------------------------------------
# State documents (docs/dut-protocol.md, "AMX"; reference/amx/src/state/serde_form.rs). A
# document maps a register index (a decimal string in JSON) to its 64 bytes as 128 hex digits in
# memory order, byte 0 first; spaces and `_` are ignored. Registers that are not listed are zero
# in a case, and unchanged in a result.
# ----------------------------------------------------------------------------------------------


def reg_from_hex(text, path):
    """The 64 bytes of a register from the document's text; `path` (`Z.12`) names it in errors."""
    if not isinstance(text, str):
        raise BadCase(f"{path}: a register is a string of 128 hex digits, not {text!r}")
    digits = "".join(c for c in text if not c.isspace() and c != "_")
    if len(digits) != 2 * REG_BYTES:
        raise BadCase(f"{path}: a register is {REG_BYTES} bytes = 128 hex digits, found {len(digits)} digits")
    try:
        return bytearray.fromhex(digits)
    except ValueError:
        raise BadCase(f"{path}: not hex digits: {text!r}") from None


def reg_to_hex(reg):
    """A register as the document writes it: 16 groups of 4 bytes, byte 0 first."""
    return " ".join(reg[k : k + 4].hex() for k in range(0, REG_BYTES, 4))


class State:
    """The architectural state `vecfp` touches (notes §1.1): X and Y (8 registers each, read
    only) and Z (64 rows, read-modify-write), each register a bytearray of 64 bytes."""

    def __init__(self):
        self.X = [bytearray(REG_BYTES) for _ in range(XY_REGS)]
        self.Y = [bytearray(REG_BYTES) for _ in range(XY_REGS)]
        self.Z = [bytearray(REG_BYTES) for _ in range(Z_ROWS)]

    @staticmethod
    def from_doc(doc):
        if not isinstance(doc, dict):
            raise BadCase("the state must be an object with the pools X, Y and Z")
        s = State()
        for pool, value in doc.items():
            if pool not in ("X", "Y", "Z"):
                raise BadCase(f"unknown pool `{pool}` (expected X, Y, Z)")
            regs = getattr(s, pool)
            if not isinstance(value, dict):
                raise BadCase(f"{pool}: a pool is an object from register index to hex")
            for key, text in value.items():
                path = f"{pool}.{key}"
                try:
                    index = int(key)
                except ValueError:
                    raise BadCase(f"{path}: `{key}` is not a register index") from None
                if not 0 <= index < len(regs):
                    raise BadCase(f"{path}: {pool} has {len(regs)} registers (0..={len(regs) - 1})")
                regs[index] = reg_from_hex(text, path)
        return s

    def copy(self):
        s = State()
        s.X = [bytearray(r) for r in self.X]
        s.Y = [bytearray(r) for r in self.Y]
        s.Z = [bytearray(r) for r in self.Z]
        return s

    def changes_since(self, before):
        """The result's state document: the Z rows that differ from `before`. `vecfp` never
        writes X or Y, so they are left out (the harness reads that as "unchanged")."""
        rows = {str(r): reg_to_hex(self.Z[r]) for r in range(Z_ROWS) if self.Z[r] != before.Z[r]}
        return {"Z": rows} if rows else {}


# ----------------------------------------------------------------------------------------------
# Floating-point formats and exact arithmetic (notes §2.8). Values are raw bit patterns (ints);
# a finite value is converted to an exact Fraction, the operation is done exactly, and the result
# is rounded once to nearest, ties to even. This is slow but obviously right, which is what a
# template should be.
# ----------------------------------------------------------------------------------------------


class Format:
    """An IEEE-style binary format: `exp_bits` exponent bits, `man_bits` trailing significand
    bits, and the `struct` code of its little-endian storage."""

    def __init__(self, name, exp_bits, man_bits, code):
        self.name = name
        self.exp_bits = exp_bits
        self.man_bits = man_bits
        self.code = code  # struct format of one lane: "<H", "<I", "<Q"
        self.bytes = struct.calcsize(code)
        self.bits = 8 * self.bytes
        self.bias = (1 << (exp_bits - 1)) - 1
        self.emin = 1 - self.bias  # exponent of the smallest normal
        self.sign_bit = 1 << (self.bits - 1)
        self.inf = ((1 << exp_bits) - 1) << man_bits  # +Inf
        # The default NaN (§2.8 table): the positive quiet NaN with no payload.
        self.default_nan = self.inf | (1 << (man_bits - 1))
        self.one = self.bias << man_bits  # +1.0

    def sign(self, x):
        return bool(x & self.sign_bit)

    def is_nan(self, x):
        return (x & ~self.sign_bit) > self.inf

    def is_inf(self, x):
        return (x & ~self.sign_bit) == self.inf

    def is_zero(self, x):
        return (x & ~self.sign_bit) == 0

    def signed(self, negative, magnitude_bits):
        return (self.sign_bit if negative else 0) | magnitude_bits

    def value(self, x):
        """The exact value of a finite pattern."""
        e = (x >> self.man_bits) & ((1 << self.exp_bits) - 1)
        m = x & ((1 << self.man_bits) - 1)
        if e == 0:
            scale = self.emin - self.man_bits  # subnormal: m ulps of the smallest exponent
        else:
            m |= 1 << self.man_bits  # the implicit bit
            scale = e - self.bias - self.man_bits
        v = Fraction(m * (1 << scale)) if scale >= 0 else Fraction(m, 1 << -scale)
        return -v if self.sign(x) else v

    def round(self, v):
        """The pattern nearest to the non-zero Fraction `v` (ties to even), with gradual
        underflow (a result too small for the smallest subnormal is a zero of `v`'s sign) and
        overflow to infinity."""
        negative = v < 0
        a = -v if negative else v
        n, d = a.numerator, a.denominator
        # e := floor(log2(a)): a is in (2^(ln-ld-1), 2^(ln-ld+1)).
        e = n.bit_length() - d.bit_length()
        if (n << -e if e < 0 else n) < (d << e if e > 0 else d):
            e -= 1
        # The quantum: one ulp at exponent e, or at the smallest normal exponent for subnormals.
        q = max(e, self.emin) - self.man_bits
        num, den = (n, d << q) if q >= 0 else (n << -q, d)
        m, r = divmod(num, den)  # a = (m + r/den) ulps
        if 2 * r > den or (2 * r == den and m & 1):
            m += 1
        if m == 1 << (self.man_bits + 1):  # rounded up to the next power of two
            m >>= 1
            q += 1
        if m < 1 << self.man_bits:  # subnormal (or zero): biased exponent 0
            return self.signed(negative, m)
        biased = q + self.man_bits + self.bias
        if biased >= (1 << self.exp_bits) - 1:
            return self.signed(negative, self.inf)  # overflow (RNE rounds to infinity)
        return self.signed(negative, (biased << self.man_bits) | (m - (1 << self.man_bits)))


F16 = Format("f16", 5, 10, "<H")
BF16 = Format("bf16", 8, 7, "<H")  # the top half of an f32
F32 = Format("f32", 8, 23, "<I")
F64 = Format("f64", 11, 52, "<Q")


def fma(T, x, y, z):
    """`x·y + z` with one rounding (Arm FMADD under DN=1, §2.8 "FMA")."""
    if T.is_nan(x) or T.is_nan(y) or T.is_nan(z):
        return T.default_nan
    product_negative = T.sign(x) != T.sign(y)
    if T.is_inf(x) or T.is_inf(y):
        if T.is_zero(x) or T.is_zero(y):
            return T.default_nan  # Inf·0
        if T.is_inf(z) and T.sign(z) != product_negative:
            return T.default_nan  # (±Inf) + (∓Inf)
        return T.signed(product_negative, T.inf)
    if T.is_inf(z):
        return z
    exact = T.value(x) * T.value(y) + T.value(z)
    if exact == 0:
        # An exact zero is -0 only when the product and the addend are both negative.
        return T.signed(product_negative and T.sign(z), 0)
    return T.round(exact)


def mul(T, x, y):
    """`x·y` with one rounding."""
    if T.is_nan(x) or T.is_nan(y):
        return T.default_nan
    negative = T.sign(x) != T.sign(y)
    if T.is_inf(x) or T.is_inf(y):
        return T.default_nan if T.is_zero(x) or T.is_zero(y) else T.signed(negative, T.inf)
    exact = T.value(x) * T.value(y)
    return T.signed(negative, 0) if exact == 0 else T.round(exact)


def add(T, z, x):
    """`z + x` with one rounding."""
    if T.is_nan(z) or T.is_nan(x):
        return T.default_nan
    if T.is_inf(z) or T.is_inf(x):
        if T.is_inf(z) and T.is_inf(x) and T.sign(z) != T.sign(x):
            return T.default_nan  # (±Inf) + (∓Inf)
        return z if T.is_inf(z) else x
    exact = T.value(z) + T.value(x)
    return T.signed(T.sign(z) and T.sign(x), 0) if exact == 0 else T.round(exact)


def order_key(T, x):
    """Sign-magnitude order of a non-NaN pattern, with -0 below +0."""
    magnitude = x & ~T.sign_bit
    return -magnitude - 1 if T.sign(x) else magnitude


def fmin(T, x, z):
    """Arm FMIN under DN: any NaN gives the default NaN; else the smaller input, bit for bit."""
    if T.is_nan(x) or T.is_nan(z):
        return T.default_nan
    return x if order_key(T, x) < order_key(T, z) else z


def fmax(T, x, z):
    """Arm FMAX under DN: any NaN gives the default NaN; else the larger input, bit for bit."""
    if T.is_nan(x) or T.is_nan(z):
        return T.default_nan
    return x if order_key(T, x) > order_key(T, z) else z


def le_zero(T, x):
    """Mode 4's ordered compare `x <= 0`: true for ±0 and negatives, false for every NaN."""
    return not T.is_nan(x) and (T.is_zero(x) or T.sign(x))


def widen_to_f32(T, x):
    """The pair modes' widening (§2.3): exact for every non-NaN f16 / bf16, and any NaN becomes
    the f32 default NaN."""
    if T.is_nan(x):
        return F32.default_nan
    if T.is_inf(x):
        return F32.signed(T.sign(x), F32.inf)
    if T.is_zero(x):
        return F32.signed(T.sign(x), 0)
    return F32.round(T.value(x))  # exact: f16 and bf16 values are f32 values


# The ALU modes (§2.2): code -> (name, function of (Z format, x, y, z)).
ALU_MODES = {
    0: ("fma", lambda T, x, y, z: fma(T, x, y, z)),  # z + x·y, fused
    1: ("fms", lambda T, x, y, z: fma(T, x ^ T.sign_bit, y, z)),  # z - x·y as fma(-x, y, z)
    4: ("select", lambda T, x, y, z: 0 if le_zero(T, x) else y),  # x <= 0 ? +0 : y (y's bits)
    5: ("min", lambda T, x, y, z: fmin(T, x, z)),
    7: ("max", lambda T, x, y, z: fmax(T, x, z)),
    10: ("mul", lambda T, x, y, z: mul(T, x, y)),  # M2+
    11: ("add-x", lambda T, x, y, z: add(T, z, x)),  # M2+
    12: ("add-y", lambda T, x, y, z: add(T, z, y)),  # M2+
}


# ----------------------------------------------------------------------------------------------
# The operand (notes §1.3, §1.4).
# ----------------------------------------------------------------------------------------------


def field(op, hi, lo):
    """Bits hi:lo of the 64-bit operand."""
    return (op >> lo) & ((1 << (hi - lo + 1)) - 1)


class Decoded:
    """A `vecfp` that does something: the fields this DUT uses."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def decode(op, chip):
    """The operand as a `Decoded`, or None when the whole instruction is a no-op. Raises
    Unsupported for the features this DUT does not implement."""
    generation = GENERATION[chip]
    if field(op, 56, 54) != 0:
        return None  # MBZ != 0: no-op
    op &= ~(1 << 37)  # bit 37 is ignored
    indexed = field(op, 53, 53) == 1
    alu = 0 if indexed else field(op, 52, 47)  # IDX=1 forces ALU mode 0 (FMA)
    if alu not in ALU_MODES or (alu >= 10 and generation < 2):
        return None  # not an ALU mode (on this chip): no-op, nothing written
    lw = field(op, 45, 42)
    if lw == 0 and generation >= 2:
        xy, z, pair = BF16, BF16, False
    elif lw == 1 and generation >= 2:
        xy, z, pair = BF16, F32, True
    elif lw == 3:
        xy, z, pair = F16, F32, True
    elif lw == 4:
        xy, z, pair = F32, F32, False
    elif lw == 7:
        xy, z, pair = F64, F64, False
    else:
        xy, z, pair = F16, F16, False  # 2, 5, 6, 8..15 (and 0, 1 on M1)
    multi = generation >= 2 and field(op, 31, 31) == 1  # M1 ignores bit 31
    # What this template does not implement. Extend `Vecfp.run` and drop this to add it.
    if indexed:
        which = "Y" if field(op, 47, 47) else "X"
        raise Unsupported(f"IDX=1 (indexed load of {which}, bit 53) not modelled by {NAME}")
    return Decoded(
        alu=alu,
        xy=xy,
        z=z,
        pair=pair,
        multi=multi,
        bmode=field(op, 34, 32),  # MULTI=1: the broadcast mode (§2.5)
        four=field(op, 25, 25) == 1,  # MULTI=1: four iterations, else two
        wm_mode=field(op, 40, 38),  # MULTI=0: the lane-enable mode (§2.4)
        wm_n=field(op, 36, 32),
        xshuf=field(op, 30, 29),
        yshuf=field(op, 28, 27),
        zrow=field(op, 25, 20),
        xoff=field(op, 18, 10),
        yoff=field(op, 8, 0),
    )


# ----------------------------------------------------------------------------------------------
# Execution (notes §2.1, without the indexed load): replace `Vecfp` with calls into your
# implementation.
# ----------------------------------------------------------------------------------------------


def window(pool, off):
    """64 bytes of the 512-byte pool from byte `off`, wrapping past byte 511 to byte 0 (§2.7)."""
    flat = b"".join(pool)
    off %= POOL_BYTES
    return (flat + flat)[off : off + REG_BYTES]


LANE_CODE = {2: "<H", 4: "<I", 8: "<Q"}  # lanes are little-endian


def lane(reg, eb, i):
    """Lane i of a register of eb-byte lanes, as its bit pattern."""
    return struct.unpack_from(LANE_CODE[eb], reg, i * eb)[0]


def set_lane(reg, eb, i, value):
    struct.pack_into(LANE_CODE[eb], reg, i * eb, value)


def shuffle(vec, s, eb):
    """S0..S3 (§2.7): with R = 2^s, the R contiguous chunks interleaved round-robin:
    out[q·R + r] = in[r·(EC/R) + q]."""
    ec, R = REG_BYTES // eb, 1 << s
    out = bytearray(REG_BYTES)
    for q in range(ec // R):
        for r in range(R):
            set_lane(out, eb, q * R + r, lane(vec, eb, r * (ec // R) + q))
    return out


def lane_enabled(mode, n, ec, i):
    """The lane-enable table of §2.4 (bit 31 = 0)."""
    if mode == 0:
        return {0: True, 1: i % 2 == 1, 2: i % 2 == 0, 3: True, 4: True, 5: True}.get(n, False)
    k = n % ec  # modes other than 0 take N mod EC
    if mode == 1:
        return True  # broadcast: every lane
    if mode == 2:
        return k == 0 or i < k
    if mode == 3:
        return k == 0 or i >= ec - k
    if mode == 4:
        return i < k
    if mode == 5:
        return k != 0 and i >= ec - k
    return False  # 6, 7: none


class Vecfp:
    """Runs `vecfp` operands on a State for one chip profile: the flow of the notes' §2.1 (without
    the indexed load), one step per line."""

    def __init__(self, state, chip):
        self.s = state
        self.chip = chip

    def run(self, op):
        d = decode(op, self.chip)
        if d is None:
            return  # a no-op leaves the state untouched
        s, eb = self.s, d.xy.bytes
        ec = REG_BYTES // eb
        xoff, yoff = d.xoff, d.yoff
        xstep = ystep = REG_BYTES  # MULTI: the next register each iteration
        xlane0 = False  # every lane reads X lane 0
        mode, n = d.wm_mode, d.wm_n
        if d.multi:
            # §2.5: all lanes, no override, unless BMODE says otherwise.
            mode, n = 0, 0
            if d.bmode == 1:
                n = 3  # every lane gets +0
            elif d.bmode == 2:
                xstep = 0  # the same X register every iteration
            elif d.bmode == 3:
                ystep = 0  # the same Y register every iteration
            elif d.bmode == 4:
                n = 4  # X is +0
            elif d.bmode == 5:
                n = 5  # Y is +0
            elif d.bmode == 6:
                xstep, xlane0 = 0, True  # the same X register, lane 0 to all lanes
            elif d.bmode == 7:
                ystep, mode, n = 0, 1, 0  # the same Y register, lane 0 to all lanes (broadcast)
            zstep = 16 if d.four else 32  # rows r, r+16, r+32, r+48 or r, r+32
            if GENERATION[self.chip] >= 4:
                # §2.6, M4 only: clear the offsets' low bits, to an element for the broadcast
                # operand of BMODE 6 / 7, else to a whole register.
                xoff &= ~((eb if d.bmode == 6 else REG_BYTES) - 1)
                yoff &= ~((eb if d.bmode == 7 else REG_BYTES) - 1)
        else:
            zstep = Z_ROWS  # one iteration, on row ZROW
        zero_out = mode == 0 and n == 3  # every enabled lane gets +0
        broadcast = mode == 1  # every lane uses Y lane N mod EC (after the shuffle)
        compute = ALU_MODES[d.alu][1]
        for r in range(d.zrow % zstep, Z_ROWS, zstep):
            xv = shuffle(window(s.X, xoff), d.xshuf, eb)
            yv = shuffle(window(s.Y, yoff), d.yshuf, eb)
            xoff, yoff = xoff + xstep, yoff + ystep
            if mode == 0 and n == 4:
                xv = bytearray(REG_BYTES)  # X is +0
            if mode == 0 and n == 5:
                yv = bytearray(REG_BYTES)  # Y is +0
            for i in range(ec):
                if not lane_enabled(mode, n, ec, i):
                    continue  # the Z slot keeps its value
                x = lane(xv, eb, 0 if xlane0 else i)
                y = lane(yv, eb, n % ec if broadcast else i)
                if d.pair:  # an f32 row pair: even lanes in the even row, odd lanes in the odd row
                    row, elem = (r & ~1) | (i & 1), i >> 1
                    x, y = widen_to_f32(d.xy, x), widen_to_f32(d.xy, y)
                else:
                    row, elem = r, i
                z = lane(s.Z[row], d.z.bytes, elem)
                set_lane(s.Z[row], d.z.bytes, elem, 0 if zero_out else compute(d.z, x, y, z))


# ----------------------------------------------------------------------------------------------
# The protocol.
# ----------------------------------------------------------------------------------------------


def parse_operand(text):
    """An operand as the harness writes it ("0x%016x"); plain integers are accepted too."""
    try:
        value = text if isinstance(text, int) and not isinstance(text, bool) else int(str(text), 0)
    except ValueError:
        raise BadCase(f"{text!r} is not an operand (expected \"0x\" and 16 hex digits)") from None
    if not 0 <= value < 1 << 64:
        raise BadCase(f"{text!r} is not a 64-bit operand")
    return value


def inject_faults(case_id, args):
    if case_id in args.crash_on_case:
        log("injected crash")
        os._exit(3)
    if case_id in args.hang_on_case:
        log("injected hang")
        while True:
            time.sleep(3600)
    if case_id in args.garbage_on_case:
        sys.stdout.write("this is not a protocol message {\n")
        sys.stdout.flush()
        return True
    return False


def handle_case(message, chip, args):
    """Runs one case and returns the answer to send (or None if a fault was injected)."""
    case_id = message.get("id")
    try:
        if inject_faults(case_id, args):
            return None
        program = message.get("program")
        if not isinstance(program, list):
            raise BadCase("`program` must be a list of operands")
        ops = [parse_operand(w) for w in program]
        for op in ops:
            decode(op, chip)  # raises Unsupported before anything runs
        before = State.from_doc(message.get("state") or {})
        vecfp = Vecfp(before.copy(), chip)
        for op in ops:  # in order; each sees the previous one's Z
            vecfp.run(op)
        if case_id in args.wrong_on_case:
            vecfp.s.Z[0][0] ^= 1  # injected wrong answer
        return {"type": "result", "id": case_id, "state": vecfp.s.changes_since(before)}
    except Unsupported as e:
        return {"type": "unsupported", "id": case_id, "reason": str(e)}
    except BadCase as e:
        return {"type": "error", "id": case_id, "message": str(e)}
    except Exception as e:  # a bug here, or a case this DUT misreads: say so, keep running
        traceback.print_exc(file=sys.stderr)
        return {"type": "error", "id": case_id, "message": f"{type(e).__name__}: {e}"}


def chip_list(text):
    chips = [c.strip().lower() for c in text.split(",") if c.strip()]
    for c in chips:
        if c not in GENERATION:
            raise argparse.ArgumentTypeError(f"`{c}` is not an AMX chip profile (m1, m2, m3, m4)")
    return chips


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("--crash-on-case", "--hang-on-case", "--garbage-on-case", "--wrong-on-case"):
        parser.add_argument(flag, action="append", default=[], metavar="ID")
    parser.add_argument(
        "--chips", type=chip_list, default=CHIPS, help="the chip profiles to claim (default: m1,m2,m4)"
    )
    args = parser.parse_args()
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")

    chip = None  # the profile of the harness's hello
    while True:
        line = sys.stdin.readline()
        if not line:
            return 0  # the harness closed our input: exit quietly
        try:
            message = json.loads(line)
        except json.JSONDecodeError as e:
            send({"type": "error", "message": f"not JSON: {e}"})
            continue
        kind = message.get("type") if isinstance(message, dict) else None
        if chip is None:
            # The first message is the hello. Refuse what we cannot do, then exit.
            if kind != "hello" or message.get("protocol") != PROTOCOL or message.get("isa") != "amx":
                send({"type": "error", "message": f"{NAME} speaks {PROTOCOL} (isa amx) only"})
                return 1
            asked = str(message.get("chip", "")).lower()
            if asked not in args.chips:
                send({"type": "error", "message": f"{NAME} models {', '.join(args.chips)} only, not {asked}"})
                return 1
            chip = asked
            send({"type": "hello", "protocol": PROTOCOL, "name": NAME, "version": VERSION, "isa": "amx", "chips": args.chips})
        elif kind == "case":
            answer = handle_case(message, chip, args)
            if answer is not None:
                send(answer)
        elif kind == "bye":
            return 0
        else:
            send({"type": "error", "id": message.get("id") if kind else None, "message": f"unexpected message type {kind!r}"})


if __name__ == "__main__":
    sys.exit(main())
