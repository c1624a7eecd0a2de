#!/usr/bin/env python3
"""A small device under test (DUT) for the SFPU conformance harness, in plain Python.

It speaks the `sfpu-dut/1` protocol of docs/dut-protocol.md on stdin/stdout and implements ten
Blackhole SFPU instructions (SFPLOADI, SFPMOV without FROM_SPECIAL, SFPIADD, SFPAND, SFPOR,
SFPXOR, SFPNOT, SFPNOP, SFPENCC, SFPSETCC). For anything else it answers `unsupported`, which
the harness records as such rather than as a failure.

It is a template: to check your own simulator, keep the protocol part (`main`, `handle_case`) and
the state-document part, and replace `Sfpu` with calls into your implementation. Everything is in
this one file and uses only the Python 3.11 standard library.

    cargo xtask conform --dut "python3 examples/dut-python/dut.py"

Fault injection, for the harness's own tests (each flag may be repeated). By instruction:

    --crash-on OPNAME    exit abruptly (status 3) on a case whose program contains OPNAME
    --hang-on OPNAME     never answer such a case (sleep forever)
    --garbage-on OPNAME  answer such a case with a line that is not JSON
    --wrong-on OPNAME    answer such a case with a wrong result (bit 0 of LReg[0], lane 0, flipped)

and by case id (the harness numbers the cases it sends "1", "2", ... across restarts):

    --crash-on-case ID, --hang-on-case ID, --garbage-on-case ID

--arch NAME makes it claim another architecture than blackhole, so that it refuses the hello.

Its hello declares what it models (docs/dut-protocol.md, "Declaring what the DUT models"):
the state features beyond the baseline it handles (FEATURES) and the instructions and modes it
refuses up front (REFUSES), so the harness sends it only cases it can run and reports the rest
as not applicable. --features LIST declares other features instead (--features '' for the
baseline only); --refuse-nothing refuses no instruction (so every case the features allow is
sent, and it answers `unsupported` to what it does not implement); --no-declaration declares
nothing (every case is sent).
"""

import argparse
import json
import os
import sys
import time
import traceback

PROTOCOL = "sfpu-dut/1"
NAME = "dut-python"
VERSION = "0.1.0"
ARCH = "blackhole"

LANES = 32
NUM_LREGS = 17  # LReg[0..=16]; 8, 9, 10 and 15 are constants

# What this DUT declares in its hello. FEATURES: the parts of the state beyond the baseline it
# models (vectors/README.md, "Features"): UseLaneFlagsForLaneEnable per lane, ROW_MASK, and the
# LaneConfig bit its instructions read (DISABLE_BACKDOOR_LOAD); it keeps the instruction templates
# the backdoor load writes. REFUSES: the instructions it does not implement, and SFPMOV's
# FROM_SPECIAL modes (Mod1 8..15), as `INSTRUCTION` or `INSTRUCTION/mode` (canonical mode values).
FEATURES = ["use-lane-flags-ragged", "row-mask", "lane-config", "instruction-template"]
IMPLEMENTED = ["SFPLOADI", "SFPMOV", "SFPIADD", "SFPAND", "SFPOR", "SFPXOR", "SFPNOT", "SFPNOP", "SFPENCC", "SFPSETCC"]


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


# ----------------------------------------------------------------------------------------------
# State documents (vectors/README.md, "State documents"). Numbers arrive as "0x..." strings from
# the harness, but integers, decimal strings and "0b..." strings are valid too. A per-lane value
# is one value for every lane or a list of exactly 32. A lane mask has bit i for lane i.
# ----------------------------------------------------------------------------------------------


def parse_uint(value, bits):
    """Reads an unsigned number of at most `bits` bits from an integer or a string."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, int):
        n = value
    elif isinstance(value, str):
        text = value.strip().replace("_", "")
        if text[:2] in ("0x", "0X"):
            n = int(text[2:], 16)
        elif text[:2] in ("0b", "0B"):
            n = int(text[2:], 2)
        else:
            n = int(text, 10)
    else:
        raise ValueError(f"{value!r} is not a number")
    if n < 0 or n >> bits:
        raise ValueError(f"{value!r} does not fit in {bits} bits")
    return n


def per_lane(value, bits):
    """One value for all lanes, or a list of exactly 32 values -> a list of 32 integers."""
    if isinstance(value, list):
        if len(value) != LANES:
            raise ValueError(f"a per-lane list needs exactly {LANES} values, found {len(value)}")
        return [parse_uint(v, bits) for v in value]
    return [parse_uint(value, bits)] * LANES


def mask_to_bools(value):
    mask = parse_uint(value, 32)
    return [bool((mask >> lane) & 1) for lane in range(LANES)]


def bools_to_mask(bools):
    return sum(1 << lane for lane, b in enumerate(bools) if b)


def hex32(n):
    return f"0x{n:08x}"


def compact(values):
    """The shortest per-lane form: one value if every lane agrees, else the list."""
    if all(v == values[0] for v in values):
        return hex32(values[0])
    return [hex32(v) for v in values]


class State:
    """The parts of the Vector Unit's state this DUT models. The harness sends the whole initial
    state; parts this DUT does not model (Dst, PRNG, the flag stacks, ...) are ignored on input and
    left out of the answer, which the harness reads as "unchanged"."""

    def __init__(self):
        self.lreg = [[0] * LANES for _ in range(NUM_LREGS)]
        self.lreg[8] = [0x3F56594B] * LANES  # constant 0.8373
        self.lreg[9] = [0] * LANES  # constant 0
        self.lreg[10] = [0x3F800000] * LANES  # constant 1.0
        self.lreg[15] = [2 * lane for lane in range(LANES)]  # constant 2 * lane
        self.lane_flags = [False] * LANES
        self.use_lane_flags = [False] * LANES  # UseLaneFlagsForLaneEnable
        self.lane_config = [0] * LANES  # 18 bits per lane
        self.templates = [[0] * LANES for _ in range(4)]  # LoadMacroConfig.InstructionTemplate[i]

    @staticmethod
    def from_doc(doc):
        s = State()
        for key, value in doc.get("LReg", {}).items():
            reg = int(key)
            if not 0 <= reg < NUM_LREGS:
                raise ValueError(f"LReg.{key}: there are only {NUM_LREGS} LRegs")
            s.lreg[reg] = per_lane(value, 32)
        if "LaneFlags" in doc:
            s.lane_flags = mask_to_bools(doc["LaneFlags"])
        if "UseLaneFlagsForLaneEnable" in doc:
            s.use_lane_flags = mask_to_bools(doc["UseLaneFlagsForLaneEnable"])
        if "LaneConfig" in doc:
            s.lane_config = per_lane(doc["LaneConfig"], 18)
        templates = doc.get("LoadMacroConfig", {}).get("InstructionTemplate", {})
        for key, value in templates.items():
            s.templates[int(key)] = per_lane(value, 32)
        return s

    def to_doc(self):
        """What the answer reports: every part an implemented instruction can write."""
        writable = [reg for reg in range(NUM_LREGS) if reg < 8 or reg == 16]
        return {
            "LReg": {str(reg): compact(self.lreg[reg]) for reg in writable},
            "LaneFlags": hex32(bools_to_mask(self.lane_flags)),
            "UseLaneFlagsForLaneEnable": hex32(bools_to_mask(self.use_lane_flags)),
            "LoadMacroConfig": {
                "InstructionTemplate": {str(i): compact(self.templates[i]) for i in range(4)}
            },
        }

    # LaneConfig bits this DUT looks at.
    def disable_backdoor_load(self, lane):
        return bool((self.lane_config[lane] >> 1) & 1)  # bit 1 DISABLE_BACKDOOR_LOAD

    def is_lane_enabled(self, lane):
        """IsLaneEnabled (VectorUnit.md): ROW_MASK (LaneConfig bits 15:12 of the lane's column,
        one bit per row of 8 lanes) disables a lane; otherwise LaneFlags decide when
        UseLaneFlagsForLaneEnable is set."""
        row_mask = (self.lane_config[lane & 7] >> 12) & 0xF
        if (row_mask >> (lane // 8)) & 1:
            return False
        if self.use_lane_flags[lane]:
            return self.lane_flags[lane]
        return True


# ----------------------------------------------------------------------------------------------
# Instruction words. The opcode is bits [31:24]; the fields of each implemented instruction are
# (name, width, lowest bit), from the bit layouts of the ISA documentation (Bits32.lua).
# ----------------------------------------------------------------------------------------------

OPCODES = {
    0x70: "SFPLOAD", 0x71: "SFPLOADI", 0x72: "SFPSTORE", 0x73: "SFPLUT", 0x74: "SFPMULI",
    0x75: "SFPADDI", 0x76: "SFPDIVP2", 0x77: "SFPEXEXP", 0x78: "SFPEXMAN", 0x79: "SFPIADD",
    0x7A: "SFPSHFT", 0x7B: "SFPSETCC", 0x7C: "SFPMOV", 0x7D: "SFPABS", 0x7E: "SFPAND",
    0x7F: "SFPOR", 0x80: "SFPNOT", 0x81: "SFPLZ", 0x82: "SFPSETEXP", 0x83: "SFPSETMAN",
    0x84: "SFPMAD", 0x85: "SFPADD", 0x86: "SFPMUL", 0x87: "SFPPUSHC", 0x88: "SFPPOPC",
    0x89: "SFPSETSGN", 0x8A: "SFPENCC", 0x8B: "SFPCOMPC", 0x8C: "SFPTRANSP", 0x8D: "SFPXOR",
    0x8E: "SFPSTOCHRND", 0x8F: "SFPNOP", 0x90: "SFPCAST", 0x91: "SFPCONFIG", 0x92: "SFPSWAP",
    0x93: "SFPLOADMACRO", 0x94: "SFPSHFT2", 0x95: "SFPLUTFP32", 0x96: "SFPLE", 0x97: "SFPGT",
    0x98: "SFPMUL24", 0x99: "SFPARECIP",
}

FIELDS = {
    "SFPLOADI": [("VD", 4, 20), ("Mod0", 4, 16), ("Imm16", 16, 0)],
    "SFPIADD": [("Imm12", 12, 12), ("VC", 4, 8), ("VD", 4, 4), ("Mod1", 4, 0)],
    "SFPSETCC": [("Imm1", 1, 12), ("VC", 4, 8), ("VD", 4, 4), ("Mod1", 4, 0)],
    "SFPMOV": [("VC", 4, 8), ("VD", 4, 4), ("Mod1", 4, 0)],
    "SFPAND": [("VB", 4, 12), ("VC", 4, 8), ("VD", 4, 4), ("Mod1", 4, 0)],
    "SFPOR": [("VB", 4, 12), ("VC", 4, 8), ("VD", 4, 4), ("Mod1", 4, 0)],
    "SFPNOT": [("VC", 4, 8), ("VD", 4, 4)],
    "SFPENCC": [("Imm2", 2, 12), ("VD", 4, 4), ("Mod1", 4, 0)],
    "SFPXOR": [("VC", 4, 8), ("VD", 4, 4)],
    "SFPNOP": [],
}


class Unsupported(Exception):
    """The case needs something this DUT does not implement: answered as `unsupported`."""


class BadCase(Exception):
    """The case cannot be run (e.g. a word that does not decode): answered as `error`."""


def decode(word):
    """Returns (opcode name, {field: value}); only the implemented instructions have fields."""
    name = OPCODES.get(word >> 24)
    if name is None:
        raise BadCase(f"0x{word:08x}: 0x{word >> 24:02x} is not a Blackhole SFPU opcode")
    if name not in FIELDS:
        return name, None
    fields, drawn = {}, 0xFF000000
    for field, width, lo in FIELDS[name]:
        mask = (1 << width) - 1
        fields[field] = (word >> lo) & mask
        drawn |= mask << lo
    if word & ~drawn & 0xFFFFFFFF:
        # Bits no field covers must be zero (their effect is unspecified).
        raise BadCase(f"0x{word:08x}: {name} does not use bits 0x{word & ~drawn & 0xFFFFFFFF:08x}")
    return name, fields


def sign_extend12(x):
    return x - 0x1000 if x & 0x800 else x


def fp16_to_fp32(x):
    """FP16toFP32 of SFPLOADI.md: widen and rebias the exponent, with no special cases."""
    sign, exp, man = (x >> 15) & 1, (x >> 10) & 0x1F, x & 0x3FF
    return (sign << 31) | ((exp + 112) << 23) | (man << 13)


# ----------------------------------------------------------------------------------------------
# Execution: one method per instruction, transcribing the "Functional model" of its page. Each
# records into self.outcome the specification clauses (with the lanes) under which its effect is
# not fully defined, as the golden vectors' `outcome` does.
# ----------------------------------------------------------------------------------------------

ALL_LANES = 0xFFFFFFFF
M32 = 0xFFFFFFFF

# Instructions whose functional model guards lanes with `VD < 12 || DISABLE_BACKDOOR_LOAD`; with
# VD >= 12 they write their word into an SFPLOADMACRO instruction template instead (the
# "backdoor load", whose details the documentation leaves unspecified: spec section 6.3 item 14).
BACKDOOR_GUARDED = {"SFPMOV", "SFPSETCC", "SFPENCC"}


class Sfpu:
    def __init__(self, state):
        self.s = state
        self.outcome = {}  # clause id -> lane mask

    def note(self, clause, lanes):
        if lanes:
            self.outcome[clause] = self.outcome.get(clause, 0) | lanes

    def issue(self, word):
        name, f = decode(word)
        getattr(self, name)(f)
        vd = f.get("VD")
        if vd is not None and vd >= 12:
            self.backdoor_load(name, word, vd)

    def drain(self):
        """After the program: let scheduled SFPLOADMACRO work finish. This DUT does not implement
        SFPLOADMACRO, so nothing is ever pending."""

    def guard(self, vd, lane):
        return vd < 12 or self.s.disable_backdoor_load(lane)

    def backdoor_load(self, name, word, vd):
        for lane in range(LANES):
            if not self.s.disable_backdoor_load(lane):
                self.note("backdoor-load", 1 << lane)
                if name in BACKDOOR_GUARDED:
                    self.s.templates[vd - 12][lane] = word

    def SFPNOP(self, f):
        pass

    def SFPLOADI(self, f):
        s, vd, mod0, imm = self.s, f["VD"], f["Mod0"], f["Imm16"]
        if vd >= 8:
            return  # LReg[8..15] cannot be written directly
        for lane in range(LANES):
            if s.is_lane_enabled(lane):
                if mod0 not in (0, 1, 2, 4, 8, 10):
                    # UndefinedBehaviour(), reached in the enabled lanes only: write nothing.
                    self.note("sfploadi-reserved-mod0", 1 << lane)
                    continue
                old = s.lreg[vd][lane]
                s.lreg[vd][lane] = {
                    0: imm << 16,  # FLOATB: BF16 -> FP32
                    1: fp16_to_fp32(imm),  # FLOATA: FP16 -> FP32
                    2: imm,  # USHORT: zero-extend
                    4: (imm - 0x10000 if imm & 0x8000 else imm) & M32,  # SHORT: sign-extend
                    8: (imm << 16) | (old & 0xFFFF),  # UPPER half
                    10: (old & 0xFFFF0000) | imm,  # LOWER half
                }[mod0]

    def SFPMOV(self, f):
        s, vc, vd, mod1 = self.s, f["VC"], f["VD"], f["Mod1"]
        if mod1 & 4:
            self.note("sfpmov-reserved-mod1", ALL_LANES)  # current silicon ignores bit 2
            mod1 &= ~4
        for lane in range(LANES):
            if self.guard(vd, lane) and (s.is_lane_enabled(lane) or mod1 == 2):  # 2: ALL_LANES_ENABLED
                x = s.lreg[vc][lane]
                if mod1 & 1:  # NEGATE: flip the sign bit
                    x ^= 0x80000000
                if vd < 8 or vd == 16:
                    s.lreg[vd][lane] = x

    def SFPIADD(self, f):
        s, vc, vd, mod1 = self.s, f["VC"], f["VD"], f["Mod1"]
        vb = vd
        if not (vd < 8 or vd == 16):
            return
        for lane in range(LANES):
            if s.is_lane_enabled(lane):
                if mod1 & 1:  # ARG_IMM
                    r = s.lreg[vc][lane] + sign_extend12(f["Imm12"])
                elif mod1 & 2:  # ARG_2SCOMP_LREG_DST
                    r = s.lreg[vc][lane] - s.lreg[vb][lane]
                else:
                    r = s.lreg[vc][lane] + s.lreg[vb][lane]
                s.lreg[vd][lane] = r & M32
                if vd < 8:
                    if not mod1 & 4:  # unless CC_NONE: LaneFlags = result < 0
                        s.lane_flags[lane] = bool(s.lreg[vd][lane] >> 31)
                    if mod1 & 8:  # CC_GTE0: invert
                        s.lane_flags[lane] = not s.lane_flags[lane]

    def bitwise(self, vd, op):
        s = self.s
        if vd < 8 or vd == 16:
            for lane in range(LANES):
                if s.is_lane_enabled(lane):
                    s.lreg[vd][lane] = op(lane) & M32

    def SFPAND(self, f):
        vb = f["VB"] if f["Mod1"] & 1 else f["VD"]  # Mod1 bit 0: USE_VB
        self.bitwise(f["VD"], lambda lane: self.s.lreg[vb][lane] & self.s.lreg[f["VC"]][lane])

    def SFPOR(self, f):
        vb = f["VB"] if f["Mod1"] & 1 else f["VD"]
        self.bitwise(f["VD"], lambda lane: self.s.lreg[vb][lane] | self.s.lreg[f["VC"]][lane])

    def SFPXOR(self, f):
        vd = f["VD"]
        self.bitwise(vd, lambda lane: self.s.lreg[vd][lane] ^ self.s.lreg[f["VC"]][lane])

    def SFPNOT(self, f):
        self.bitwise(f["VD"], lambda lane: ~self.s.lreg[f["VC"]][lane])

    def SFPSETCC(self, f):
        s, vc, vd, mod1 = self.s, f["VC"], f["VD"], f["Mod1"]
        for lane in range(LANES):
            if self.guard(vd, lane) and s.is_lane_enabled(lane):
                c = s.lreg[vc][lane]
                c = c - (1 << 32) if c >> 31 else c  # two's complement
                if not s.use_lane_flags[lane] or mod1 & 8:  # 8: CLEAR
                    s.lane_flags[lane] = False
                elif mod1 & 1:  # IMM_BIT0
                    s.lane_flags[lane] = f["Imm1"] != 0
                else:  # 0: LT0, 2: NE0, 4: GTE0, 6: EQ0
                    s.lane_flags[lane] = {0: c < 0, 2: c != 0, 4: c >= 0, 6: c == 0}[mod1]

    def SFPENCC(self, f):
        s, imm2, vd, mod1 = self.s, f["Imm2"], f["VD"], f["Mod1"]
        for lane in range(LANES):  # every lane, enabled or not
            if self.guard(vd, lane):
                if mod1 & 2:  # EI: UseLaneFlagsForLaneEnable from Imm2 bit 0
                    s.use_lane_flags[lane] = bool(imm2 & 1)
                elif mod1 & 1:  # EC: invert it
                    s.use_lane_flags[lane] = not s.use_lane_flags[lane]
                # RI: LaneFlags from Imm2 bit 1, else true
                s.lane_flags[lane] = bool(imm2 & 2) if mod1 & 8 else True


def refusals():
    """REFUSES, computed: every opcode not in IMPLEMENTED, and SFPMOV with FROM_SPECIAL."""
    refused = [name for name in OPCODES.values() if name not in IMPLEMENTED]
    return refused + [f"SFPMOV/mod1={mod1}" for mod1 in range(8, 16)]


def check_supported(name, fields):
    """Raises Unsupported for what this DUT does not implement, before anything runs."""
    if fields is None:
        raise Unsupported(f"{name} is not implemented by {NAME}")
    if name == "SFPMOV" and fields["Mod1"] & 8:
        raise Unsupported(f"SFPMOV with Mod1 FROM_SPECIAL (Mod1={fields['Mod1']}) is not implemented by {NAME}")


# ----------------------------------------------------------------------------------------------
# The protocol.
# ----------------------------------------------------------------------------------------------


def inject_faults(names, case_id, args):
    if names & set(args.crash_on) or case_id in args.crash_on_case:
        log("injected crash")
        os._exit(3)
    if names & set(args.hang_on) or case_id in args.hang_on_case:
        log("injected hang")
        while True:
            time.sleep(3600)
    if names & set(args.garbage_on) or case_id in args.garbage_on_case:
        sys.stdout.write("this is not a protocol message {\n")
        sys.stdout.flush()
        return True
    return False


def handle_case(message, args):
    """Runs one case and returns the answer to send (or None if a fault was injected)."""
    case_id = message.get("id")
    try:
        words = [parse_uint(w, 32) for w in message["program"]]
        decoded = [decode(w) for w in words]
        names = {name for name, _ in decoded}
        if inject_faults(names, case_id, args):
            return None
        for name, fields in decoded:
            check_supported(name, fields)
        sfpu = Sfpu(State.from_doc(message.get("state") or {}))
        for word in words:  # one instruction per cycle, in order
            sfpu.issue(word)
        sfpu.drain()
        if names & set(args.wrong_on):
            sfpu.s.lreg[0][0] ^= 1  # injected wrong answer
        return {
            "type": "result",
            "id": case_id,
            "state": sfpu.s.to_doc(),
            "outcome": [{"clause": c, "lanes": hex32(l)} for c, l in sorted(sfpu.outcome.items())],
        }
    except Unsupported as e:
        return {"type": "unsupported", "id": case_id, "reason": str(e)}
    except BadCase as e:
        return {"type": "error", "id": case_id, "message": str(e)}
    except Exception as e:  # a bug here, or a case this DUT misreads: say so, keep running
        traceback.print_exc(file=sys.stderr)
        return {"type": "error", "id": case_id, "message": f"{type(e).__name__}: {e}"}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for flag in ("--crash-on", "--hang-on", "--garbage-on", "--wrong-on"):
        parser.add_argument(flag, action="append", default=[], metavar="OPNAME", choices=OPCODES.values())
    for flag in ("--crash-on-case", "--hang-on-case", "--garbage-on-case"):
        parser.add_argument(flag, action="append", default=[], metavar="ID")
    parser.add_argument("--arch", default=ARCH, help="the architecture to claim (default: blackhole)")
    parser.add_argument("--features", help="declare these features instead (comma-separated; '' for none)")
    parser.add_argument("--no-declaration", action="store_true", help="declare nothing: every case is sent")
    parser.add_argument(
        "--refuse-nothing",
        action="store_true",
        help="declare the features but refuse no instruction: every case they allow is sent (the rest answered unsupported)",
    )
    args = parser.parse_args()
    sys.stdin.reconfigure(encoding="utf-8")
    sys.stdout.reconfigure(encoding="utf-8", newline="\n")

    hello = None
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
        if hello is None:
            # The first message is the hello. Refuse what we cannot do, then exit.
            if kind != "hello" or message.get("protocol") != PROTOCOL:
                send({"type": "error", "message": f"{NAME} speaks {PROTOCOL} only"})
                return 1
            if message.get("arch") != args.arch:
                send({"type": "error", "message": f"{NAME} implements {args.arch} only, not {message.get('arch')}"})
                return 1
            hello = message
            answer = {"type": "hello", "protocol": PROTOCOL, "name": NAME, "version": VERSION, "archs": [args.arch]}
            if not args.no_declaration:
                features = FEATURES if args.features is None else [f for f in args.features.split(",") if f]
                answer["features"] = features
                answer["refuses"] = [] if args.refuse_nothing else refusals()
            send(answer)
        elif kind == "case":
            answer = handle_case(message, args)
            if answer is not None:
                send(answer)
        elif kind == "bye":
            return 0
        else:
            send({"type": "error", "id": message.get("id") if kind else None, "message": f"unexpected message type {kind!r}"})


if __name__ == "__main__":
    sys.exit(main())
