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

#ifndef BOOST_FORK_JOIN_BENCH_BENCH_HPP
#define BOOST_FORK_JOIN_BENCH_BENCH_HPP

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace bench {

  // The serial peer: the baseline every other peer's answer and time is compared with.
  inline const char* const serial_peer = "serial";

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

  // Effects: cfg.runs times: prepare(), then body() (timed), then answer() (not timed), and
  // reports the run with answer()'s value: a result, a count or a checksum.
  template <class Prepare, class Body, class Answer>
  void measure(const config& cfg, Prepare&& prepare, Body&& body, Answer&& answer)
  {
    for (unsigned i = 0; i < cfg.runs; ++i)
    {
      prepare();
      const auto start = std::chrono::steady_clock::now();
      body();
      const auto stop = std::chrono::steady_clock::now();
      report_run(i, std::chrono::duration_cast<std::chrono::nanoseconds>(stop - start), answer());
    }
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
