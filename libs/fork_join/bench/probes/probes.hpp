// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Measurements of a pool itself rather than of a workload, for any pool with submit(f):
//  - idle_cost: what a pool whose workers have nothing to do costs, as CPU time while the
//    program sleeps (a pool that spins forever costs a core per worker; one that sleeps, ~0);
//  - submit_latency: how soon a closure submitted from outside starts on a pool whose workers
//    have parked, i.e. the cost of waking one.
// Each runs in a child process of its own, without the idle watchdog (sleeping is the point).

#ifndef BOOST_FORK_JOIN_BENCH_PROBES_PROBES_HPP
#define BOOST_FORK_JOIN_BENCH_PROBES_PROBES_HPP

#include "../bench.hpp"

#include <atomic>
#include <chrono>
#include <thread>

#include <time.h>

namespace bench {
namespace pool_probe {

  // How long a pool is left alone before each measurement, so that its workers have parked.
  inline constexpr std::chrono::milliseconds settle{2};

  // Returns: the CPU time every thread of this process has used so far.
  inline std::chrono::nanoseconds process_cpu_time()
  {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
  }

  template <class Pool>
  void idle_cost(std::chrono::nanoseconds idle)
  {
    Pool pool(probe_threads);
    // Not measured: the workers start, find nothing and go to sleep.
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const std::chrono::nanoseconds cpu = process_cpu_time();
    const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(idle);
    report_idle(process_cpu_time() - cpu, std::chrono::steady_clock::now() - start);
  }

  template <class Pool>
  void submit_latency(unsigned count)
  {
    Pool pool(probe_threads);
    for (unsigned i = 0; i < count; ++i)
    {
      std::this_thread::sleep_for(settle);
      std::atomic<bool> ran{false};
      std::chrono::steady_clock::time_point started;
      const std::chrono::steady_clock::time_point submitted = std::chrono::steady_clock::now();
      pool.submit([&ran, &started] {
        started = std::chrono::steady_clock::now();
        ran.store(true, std::memory_order_release); // pairs with the acquire load below
      });
      // The submitting thread sleeps rather than spins, leaving every core to the pool.
      while (!ran.load(std::memory_order_acquire))
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      report_latency(started - submitted);
    }
  }

} // namespace pool_probe
} // namespace bench

#endif // header
