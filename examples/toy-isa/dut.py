#!/usr/bin/env python3
"""A template external implementation of the toy instruction set, speaking `toy-dut/1` on its
standard input and output (docs/dut-protocol.md): one JSON object per line each way.

    sfpu-conformance conform --isa toy --dut "python3 examples/toy-isa/dut.py"

`--bug` plants a mistake an implementer could make: MIN compares as signed integers.
"""

import json
import sys

LANES, REGS = 4, 8
MASK = 0xFFFFFFFF
BUG = "--bug" in sys.argv


def signed(x):
    return x - (1 << 32) if x & 0x80000000 else x


def execute(r, word):
    op, rd, ra, rb, imm = word >> 28, (word >> 25) & 7, (word >> 22) & 7, (word >> 19) & 7, word & 0xFFFF
    a, b = r[ra], r[rb]
    binary = {
        2: lambda x, y: (x + y) & MASK,
        3: lambda x, y: (x - y) & MASK,
        4: lambda x, y: (x * y) & MASK,
        5: lambda x, y: x & y,
        6: lambda x, y: x | y,
        7: lambda x, y: x ^ y,
        8: lambda x, y: (x << (y & 31)) & MASK,
        9: lambda x, y: x >> (y & 31),
        10: (lambda x, y: x if signed(x) <= signed(y) else y) if BUG else min,
    }
    if op == 1:
        r[rd] = [imm] * LANES
    elif op in binary:
        r[rd] = [binary[op](x, y) for x, y in zip(a, b)]
    elif op == 11:
        r[rd] = [a[(l + imm) & 3] for l in range(LANES)]


def main():
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "hello":
            answer = {"type": "hello", "protocol": "toy-dut/1", "name": "toy-dut-python", "version": "0.1.0",
                      "chips": ["t4"]}
        elif kind == "case":
            r = [[int(x, 16) for x in reg] for reg in msg["state"]]
            for word in msg["program"]:
                execute(r, int(word, 16))
            answer = {"type": "result", "id": msg["id"], "state": [["0x%08x" % x for x in reg] for reg in r]}
        elif kind == "bye":
            return
        else:
            answer = {"type": "error", "message": "unexpected message %r" % kind}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
