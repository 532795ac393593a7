#!/usr/bin/env python3
# Copyright (C) 2026 The Boost.ForkJoin authors.
#
#  Distributed under the Boost Software License, Version 1.0. (See accompanying
#  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
#
# usage: compare.py [--rounds N] [--versus PEERS] [--out DIR] A B [-- fork_join_bench options]
#
# An A/B of two builds of fork_join_bench in interleaved rounds: A is the build before a change,
# B the build with it. Each round runs both with the options after `--` (and a --json file of
# its own, kept in DIR), A first in odd rounds and B first in even ones, so that a machine that
# drifts during the rounds weighs on both alike. Then, for every cell (workload, peer, threads)
# that both builds measured in every round, prints B's median time over A's, round by round,
# and the median of those ratios: the figure doc/benchmark/README.md quotes as "new / old".
# A peer whose code the change does not touch (serial, oneTBB, libfork) shows in the same
# rounds how far the machine alone moves a cell.
#
# --versus PEERS (comma-separated): also prints, for each build, every cell's time as a ratio
# to the fastest of PEERS at the same workload and thread count in the same round (median over
# the rounds), as "task block / libfork" is quoted (--versus libfork_busy,libfork_lazy).
#
# Exit status: 0; 1 if a run of either build failed (its output is in DIR); 2 on bad usage.
# Cost: rounds x 2 runs of the benchmark with the options given; its own work is negligible.
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile


def cells_of(path):
    """Returns: {(workload, peer, threads): median time in ms} of the cells that ran."""
    with open(path) as f:
        data = json.load(f)
    return {(c['workload'], c['peer'], c['threads']): c['median_ns'] / 1e6
            for c in data['cells'] if c['status'] == 'ok' and c['median_ns']}


def run(build, options, json_path, log_path):
    """Runs one build; returns its exit status. Its output goes to log_path."""
    if os.path.exists(json_path):  # from an earlier use of the folder: never read as this run's
        os.remove(json_path)
    with open(log_path, 'w') as log:
        return subprocess.run([build] + options + ['--json', json_path], stdout=log, stderr=subprocess.STDOUT).returncode


def spread(values):
    return '%.3f (%.3f-%.3f)' % (statistics.median(values), min(values), max(values))


def main():
    parser = argparse.ArgumentParser(description='Interleaved A/B rounds of two fork_join_bench builds.')
    parser.add_argument('--rounds', type=int, default=5)
    parser.add_argument('--versus', default='', help='peers to give ratios to (the fastest of them)')
    parser.add_argument('--out', default=None, help='folder for the runs\' JSON and output')
    parser.add_argument('a', metavar='A')
    parser.add_argument('b', metavar='B')
    parser.add_argument('options', nargs=argparse.REMAINDER)
    args = parser.parse_args()
    options = args.options[1:] if args.options[:1] == ['--'] else args.options
    if args.rounds < 1 or any(o in ('--json', '--plot') for o in options):
        parser.error('--rounds must be at least 1, and --json and --plot are the script\'s')
    builds = {'A': os.path.abspath(args.a), 'B': os.path.abspath(args.b)}
    for path in builds.values():
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            parser.error('%s is not an executable file' % path)
    out = args.out or tempfile.mkdtemp(prefix='fork_join_compare.')
    os.makedirs(out, exist_ok=True)

    rounds = []  # per round: {build: cells}
    failed = False
    for r in range(1, args.rounds + 1):
        order = ['A', 'B'] if r % 2 else ['B', 'A']
        got = {}
        for name in order:
            base = os.path.join(out, '%s.%d' % (name, r))
            status = run(builds[name], options, base + '.json', base + '.txt')
            print('round %d: %s exited %d' % (r, name, status), file=sys.stderr)
            if status != 0:
                failed = True
            if os.path.exists(base + '.json'):
                got[name] = cells_of(base + '.json')
        if len(got) == 2:
            rounds.append(got)
    if not rounds:
        print('no round has both builds\' results; see %s' % out)
        return 1

    keys = sorted(set.intersection(*(set(g['A']) & set(g['B']) for g in rounds)))
    print('%d rounds; B / A, round by round, then the median (and range):' % len(rounds))
    for k in keys:
        ratios = [g['B'][k] / g['A'][k] for g in rounds]
        print('%-12s %-22s %2d  A %9.2f ms  B %9.2f ms  %s  median %s' % (
            k[0], k[1], k[2], statistics.median(g['A'][k] for g in rounds), statistics.median(g['B'][k] for g in rounds),
            ' '.join('%.3f' % x for x in ratios), spread(ratios)))

    versus = [p for p in args.versus.split(',') if p]
    if versus:
        print('each build\'s time / the fastest of %s, median over the rounds:' % ', '.join(versus))
        for k in keys:
            if k[1] in versus:
                continue
            refs = [(k[0], p, k[2]) for p in versus]
            if not all(ref in keys for ref in refs):
                continue
            line = []
            for name in ('A', 'B'):
                line.append('%s %.3f' % (name, statistics.median(g[name][k] / min(g[name][ref] for ref in refs) for g in rounds)))
            print('%-12s %-22s %2d  %s' % (k[0], k[1], k[2], '  '.join(line)))
    print('runs in %s' % out)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
