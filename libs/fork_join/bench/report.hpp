// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What one run of the benchmark found, and the three ways it is shown: the tables on the
// terminal, a JSON file (--json) and a gnuplot chart (--plot). main.cpp measures and fills a
// report; report.cpp only formats it.

#ifndef BOOST_FORK_JOIN_BENCH_REPORT_HPP
#define BOOST_FORK_JOIN_BENCH_REPORT_HPP

#include "bench.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bench {
namespace report {

  // One (workload, peer, thread count): one child process.
  struct cell
  {
    std::string workload;
    std::string peer;
    unsigned threads = 1;
    bench::outcome outcome = bench::outcome::must_finish;
    // ok, deadlock (idle 2 s), timeout (30 s), crash (SIGSEGV), error (...), WRONG, unchecked
    std::string status = "ok";
    std::string note; // why, for the notes under the tables
    std::vector<std::int64_t> ns;          // each finished run's time
    std::vector<std::uint64_t> answers;    // each finished run's answer
    std::optional<std::uint64_t> reference; // serial only: the answer computed another way
    long peak_rss_kib = -1;                 // the child's ru_maxrss, -1 if unknown
    double others_percent = 0; // the machine's CPU time other processes used while it ran
    unsigned attempts = 1;     // how many times it ran (noisy cells run again; this is the quietest)
    std::optional<pool_statistics> statistics;
    std::optional<std::uint64_t> allocations; // operator new calls during all the timed runs
    // Filled in once every cell has run:
    std::optional<double> speedup; // serial's median / this median
    std::optional<double> vs_tbb;  // this median / the oneTBB baseline's median, same threads

    bool ok() const { return status == "ok"; }
    // A failure this peer is allowed (may_fail and neither a wrong answer nor an error of ours).
    bool expected_failure() const;
    double median_ms() const;
    double min_ms() const;
  };

  // What an idle pool cost.
  struct idle_probe
  {
    std::string pool;
    std::string status = "ok";
    double cpu_ms = 0;  // CPU time the whole process used while it slept
    double wall_ms = 0; // how long it slept
    double process_cpu_ms = 0;  // CPU time of the whole child process (start, sleep, exit)
    double process_wall_ms = 0; // its lifetime

    bool ok() const { return status == "ok"; }
  };

  // How soon external submissions to an idle pool started.
  struct latency_probe
  {
    std::string pool;
    std::string status = "ok";
    std::vector<double> us; // each submission's submit-to-start time

    bool ok() const { return status == "ok"; }
  };

  struct machine
  {
    std::string cpu_model;
    unsigned cpus_available = 0; // what nproc prints: the CPUs this process may run on
    unsigned hardware_concurrency = 0;
    std::string kernel;
    std::string compiler;
    std::string boost;
    std::string build;
    std::string load_average;     // 1, 5 and 15 minutes, when the run started
    std::string load_average_end; // and when it ended: others' work skews the times
    std::string date;         // ISO 8601, UTC, when the run started
    std::vector<std::pair<std::string, std::string> > libraries; // name, version
  };

  struct report
  {
    machine host;
    std::string scale; // quick or full
    unsigned runs = 0;
    std::vector<unsigned> threads;
    double timeout_s = 0;
    double idle_s = 0;
    unsigned retries = 0; // how many more times a noisy cell may run
    std::vector<std::pair<std::string, std::string> > workloads; // name, description
    std::vector<std::string> peers;                              // in display order
    std::vector<cell> cells;
    double probe_idle_s = 0;         // how long the idle probe sleeps
    unsigned probe_submissions = 0;  // how many submissions the latency probe times
    std::vector<idle_probe> idle;
    std::vector<latency_probe> latency;
    double elapsed_s = 0;
    double others_percent = 0; // the machine's CPU time other processes used during the run
    bool failed = false;
  };

  // The oneTBB peers a workload's "vs oneTBB" ratio is taken against, the first it has: the
  // fork/join workloads have task_group, external has enqueue, the par_* workloads have only
  // oneTBB's own algorithm.
  inline const std::vector<std::string>& tbb_baselines()
  {
    static const std::vector<std::string> names{"tbb_task_group", "tbb_arena_enqueue", "tbb_algorithm"};
    return names;
  }

  // Effects: one line on stdout for a finished cell: the progress of a run.
  void print_progress(const cell& c, std::size_t index, std::size_t count);

  // Effects: prints the machine's details and the run's settings.
  void print_header(const report& r);

  // Effects: prints the tables: every cell, medians by peer and workload, pool counters,
  // probes, and notes on every failure.
  void print_tables(const report& r);

  // Effects: writes r to path as JSON. Throws: std::runtime_error if the file cannot be written.
  void write_json(const report& r, const std::string& path);

  // Effects: draws r's times with gnuplot into the PNG file at path. Returns: false, after
  // saying why on stderr, if gnuplot is missing or fails.
  bool plot(const report& r, const std::string& path);

  // Returns: the median of v (not empty).
  double median(std::vector<double> v);

} // namespace report
} // namespace bench

#endif // header
