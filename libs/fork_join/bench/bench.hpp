// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The benchmark's registry: what a workload and a peer are, and how a peer reports its runs.
//
// A workload (fib, sort, ...) lives in its own folder: a header with its sizes and shared
// helpers, and one file per peer (serial.cpp, fork_join.cpp, basic_thread_pool.cpp, ...).
// Each peer file ends with one registration line:
//
//   const bench::peer_registration registered{"fib", "fork_join", &run};
//
// where run(cfg) sets up (a pool, inputs) and then calls bench::measure, which times cfg.runs
// calls and reports each one's answer. CMakeLists.txt builds a peer's files with one add_peer()
// line. main.cpp runs every (workload, peer, thread count) in a child process of its own and
// checks every answer against the serial peer's.
//
// Besides the cells, a pool can register probes (probe_registration): measurements of the pool
// itself rather than of a workload (what an idle pool costs, how soon an external submission
// starts), which main.cpp reports in sections of their own. A peer built on a library
// registers the library's version (library_registration), which the report records.

#ifndef BOOST_FORK_JOIN_BENCH_BENCH_HPP
#define BOOST_FORK_JOIN_BENCH_BENCH_HPP

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

  // The serial peer: the baseline every other peer's answer and time is compared with.
  inline const char* const serial_peer = "serial";
  // The environment variable through which --trace asks a cell's child to record its runs.
  inline const char* const trace_variable = "FORK_JOIN_BENCH_TRACE";

  // --quick: tiny problems for a smoke test; full: sizes worth timing.
  enum class scale
  {
    quick,
    full
  };

  // What one child process measures: a peer on a workload at a thread count.
  struct config
  {
    unsigned threads;
    unsigned runs;
    bench::scale scale;
  };

  // Whether a peer must finish. A peer whose waits block pool threads (basic_thread_pool with
  // get()) is expected to deadlock or overflow its stack; that is what this benchmark shows,
  // so its failure is reported but does not make the program fail.
  enum class outcome
  {
    must_finish,
    may_fail
  };

  struct workload
  {
    std::string name;
    std::string (*describe)(scale);
    // The answer computed another way (iteratively, or with std::sort), to check the serial
    // peer's; every other peer is checked against the serial peer's answer.
    std::uint64_t (*reference)(scale);
  };

  struct peer
  {
    std::string workload;
    std::string name;
    void (*run)(const config&);
    bench::outcome outcome;
  };

  // The registries, in registration order (main.cpp sorts them for display).
  inline std::vector<workload>& workloads()
  {
    static std::vector<workload> all;
    return all;
  }

  inline std::vector<peer>& peers()
  {
    static std::vector<peer> all;
    return all;
  }

  // The pool's own counters over a child's runs (fork_join_thread_pool::statistics()), for
  // peers that have them.
  struct pool_statistics
  {
    std::uint64_t tasks_run;
    std::uint64_t steals;
    std::uint64_t failed_steals;
    std::uint64_t sleeps;
    std::uint64_t peak_pending;
    std::uint64_t frames_parked; // over the pool's life (all runs): joins that parked their frame
  };

  // A measurement of a pool itself, run in a child process of its own with a pool of
  // probe_threads threads. The functions report with report_idle and report_latency.
  struct probe
  {
    std::string pool; // the pool measured: fork_join_thread_pool, basic_thread_pool, ...
    // Creates a pool, lets it idle for `idle`, reports the CPU time the process used meanwhile.
    void (*idle_cost)(std::chrono::nanoseconds idle);
    // Submits `count` closures one at a time from a thread that is not a worker, each after a
    // pause long enough for the workers to park, and reports each one's submit-to-start time.
    void (*submit_latency)(unsigned count);
  };

  inline constexpr unsigned probe_threads = 2;

  // A library a peer is built on, and its version as the program sees it.
  struct library
  {
    std::string name;
    std::string (*version)();
  };

  inline std::vector<probe>& probes()
  {
    static std::vector<probe> all;
    return all;
  }

  inline std::vector<library>& libraries()
  {
    static std::vector<library> all;
    return all;
  }

  struct workload_registration
  {
    workload_registration(const char* name, std::string (*describe)(scale), std::uint64_t (*reference)(scale))
    {
      workloads().push_back(workload{name, describe, reference});
    }
  };

  struct peer_registration
  {
    peer_registration(const char* workload, const char* name, void (*run)(const config&),
                      bench::outcome outcome = bench::outcome::must_finish)
    {
      peers().push_back(peer{workload, name, run, outcome});
    }
  };

  struct probe_registration
  {
    probe_registration(const char* pool, void (*idle_cost)(std::chrono::nanoseconds),
                       void (*submit_latency)(unsigned))
    {
      probes().push_back(probe{pool, idle_cost, submit_latency});
    }
  };

  struct library_registration
  {
    library_registration(const char* name, std::string (*version)())
    {
      libraries().push_back(library{name, version});
    }
  };

  // A fast, well-mixed hash (Steele, Lea, Flood, "Fast splittable pseudorandom number
  // generators", OOPSLA 2014): deterministic inputs and tree shapes derived from an index.
  inline std::uint64_t splitmix64(std::uint64_t x)
  {
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
  }

  // Effects: tells the parent process that run `index` took `elapsed` and answered `answer`.
  // Defined in main.cpp.
  void report_run(unsigned index, std::chrono::nanoseconds elapsed, std::uint64_t answer);

  // Effects: tells the parent process the pool's counters over all of this child's runs.
  // Defined in main.cpp.
  void report_statistics(const pool_statistics& s);

  // Effects: tells the parent process that an idle pool used `cpu` of CPU time in `wall`.
  // Defined in main.cpp.
  void report_idle(std::chrono::nanoseconds cpu, std::chrono::nanoseconds wall);

  // Effects: tells the parent process one submission's submit-to-start time.
  // Defined in main.cpp.
  void report_latency(std::chrono::nanoseconds latency);

  // Returns: how many times the global operator new was called so far in this process, by
  // any thread. Defined in allocations.cpp.
  std::uint64_t allocations() noexcept;

  // Effects: tells the parent process how many times operator new was called during this
  // child's timed runs, in all. Defined in main.cpp.
  void report_allocations(std::uint64_t count);

  // Effects: cfg.runs times: prepare(), then body() (timed), then answer() (not timed), and
  // reports the run with answer()'s value: a result, a count or a checksum; then the calls of
  // operator new during the timed bodies.
  template <class Prepare, class Body, class Answer>
  void measure(const config& cfg, Prepare&& prepare, Body&& body, Answer&& answer)
  {
    std::uint64_t allocated = 0;
    for (unsigned i = 0; i < cfg.runs; ++i)
    {
      prepare();
      const std::uint64_t before = allocations();
      const auto start = std::chrono::steady_clock::now();
      body();
      const auto stop = std::chrono::steady_clock::now();
      allocated += allocations() - before;
      report_run(i, std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start), answer());
    }
    report_allocations(allocated);
  }

  // Effects: as above, for a body() that returns the answer and needs no preparation.
  template <class Body>
  void measure(const config& cfg, Body&& body)
  {
    std::uint64_t result = 0;
    measure(
        cfg, [] {}, [&] { result = body(); }, [&] { return result; });
  }

} // namespace bench

#endif // header
