#!/usr/bin/env python3
# Copyright (C) 2026 The Boost.ForkJoin authors.
#
#  Distributed under the Boost Software License, Version 1.0. (See accompanying
#  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#
# usage: atomics.py CALLGRIND_OUT
# Prints how many atomic read-modify-writes and full fences the run executed: instructions with
# a lock prefix, xchg with a memory operand (locked implicitly) and mfence, in every object the
# run used (the program, libc's mutexes, Boost's libraries). CALLGRIND_OUT must come from
# valgrind --tool=callgrind --dump-instr=yes --compress-pos=no --compress-strings=no, whose cost
# lines start with the instruction's offset in its object, as objdump prints it (measure.sh).
# An instruction count says little about these: each costs tens of cycles, and two of them
# more per call once cost a path 8% while its instruction count moved 0.7%.
import collections
import re
import subprocess
import sys


def locked_offsets(path):
    out = subprocess.run(['objdump', '-d', '--no-show-raw-insn', path], capture_output=True, text=True).stdout
    found = set()
    for line in out.splitlines():
        m = re.match(r'^\s+([0-9a-f]+):\s+(\S+)\s*(.*)$', line)
        if not m:
            continue
        op, args = m.group(2), m.group(3)
        if op == 'lock' or op == 'mfence' or (op.startswith('xchg') and '(' in args):
            found.add(int(m.group(1), 16))
    return found


def main(cg):
    executed = collections.Counter()  # (object, offset) -> instructions executed
    obj = None
    skip_next = False
    for line in open(cg):
        if line.startswith('ob='):
            obj = line[3:].strip()
        elif line.startswith('calls='):
            skip_next = True  # the next line is the call's inclusive cost
        elif line.startswith('0x'):
            if skip_next:
                skip_next = False
                continue
            fields = line.split()
            if len(fields) >= 3:
                executed[(obj, int(fields[0], 16))] += int(fields[2])
    total = 0
    for path in sorted({o for o, _ in executed if o}):
        offsets = locked_offsets(path)
        total += sum(n for (o, a), n in executed.items() if o == path and a in offsets)
    print(total)


if __name__ == '__main__':
    main(sys.argv[1])
