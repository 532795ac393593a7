// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the peers on this library's fork_join_thread_pool share: how the root of a workload is
// started, which decides what "threads" means for them, and how they report the pool's counters.
//
// "threads" = the pool's worker threads, all of which run tasks. The root runs as a task on the
// pool and the calling (main) thread blocks on its future without helping, so exactly `threads`
// threads run the workload, as for the oneTBB and OpenMP peers (see tbb.hpp, openmp.hpp).

#ifndef BOOST_FORK_JOIN_BENCH_FORK_JOIN_THREAD_POOL_HPP
#define BOOST_FORK_JOIN_BENCH_FORK_JOIN_THREAD_POOL_HPP

#include "bench.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_trace.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <utility>

namespace bench {
namespace fork_join {

  namespace ex = boost::executors;

  // Effects: records pool's timeline for the scope's lifetime if --trace named a file
  // (bench::trace_variable); otherwise nothing. The recording is stopped at the end of the
  // scope, inside the timed run, and written to the file when the child exits, outside it: the
  // file holds the cell's last run. FORK_JOIN_BENCH_TRACE_EVENTS sets the events per thread.
  class run_trace
  {
  public:
    explicit run_trace(ex::fork_join_thread_pool& pool)
    {
      if (std::getenv(trace_variable))
      {
        const char* events = std::getenv("FORK_JOIN_BENCH_TRACE_EVENTS");
        last().reset(); // the previous run's
        last().reset(new ex::fork_join_trace(
            pool, events ? std::strtoull(events, nullptr, 10) : ex::fork_join_trace::default_events_per_thread));
      }
    }
    ~run_trace()
    {
      if (last())
        last()->stop();
    }
    run_trace(const run_trace&) = delete;
    run_trace& operator=(const run_trace&) = delete;

  private:
    // The last run's trace; written to the file at exit.
    struct keeper
    {
      std::unique_ptr<ex::fork_join_trace> trace;
      ~keeper()
      {
        const char* path = std::getenv(trace_variable);
        if (!trace || !path)
          return;
        std::ofstream out(path);
        trace->write_json(out);
        std::fprintf(stderr, "trace: %llu events, %llu dropped, in %s\n", static_cast<unsigned long long>(trace->events()),
                     static_cast<unsigned long long>(trace->dropped()), path);
      }
    };
    static std::unique_ptr<ex::fork_join_trace>& last()
    {
      static keeper k;
      return k.trace;
    }
  };

  // Effects: runs f() as a task on pool; the calling thread blocks until it has finished.
  // Returns: f()'s result.
  template <class F>
  auto run_root(ex::fork_join_thread_pool& pool, F&& f)
  {
    const run_trace trace(pool);
    return ex::fork(pool, std::forward<F>(f)).get();
  }

  // Returns: a callable that runs f() as run_root does, for a workload's untimed steps that
  // must run where the root runs (bench::matmul::measure).
  inline auto on_root_thread(ex::fork_join_thread_pool& pool)
  {
    return [&pool](auto&& f) { ex::fork(pool, f).get(); };
  }

  // How the parallel-algorithm peers (fork_join_algorithm) start: the way a user calls an
  // algorithm, and the way the oneTBB and OpenMP peers start theirs. At 2 threads or more the
  // calling (main) thread runs the algorithm and helps, on a pool of threads - 1 workers, so that
  // `threads` threads run it, as oneTBB's arena of `threads` holds the main thread and
  // threads - 1 workers. At 1 thread: a root task on a 1-worker pool (run_root).
  // Why not run_root at every count: on this benchmark's VMs, when a thread that has just run
  // the (serial) reset between runs submits the root and blocks, the worker that the root's first
  // split wakes is often placed on the CPU of the worker that woke it, and waits there for the
  // kernel's next load balance (3 to 4 ms: a whole 6 ms loop runs at serial speed). The long
  // fork/join workloads do not notice; the 10^7-element loops did, 8 to 40 times in 40.
  class algorithm_team
  {
  public:
    explicit algorithm_team(unsigned threads) : pool_(threads > 1 ? threads - 1 : 1), root_task_(threads <= 1) {}

    ex::fork_join_thread_pool& pool() { return pool_; }

    // Effects: runs f() as described above. Returns: f()'s result.
    template <class F>
    auto run(F&& f)
    {
      if (root_task_)
        return run_root(pool_, std::forward<F>(f));
      const run_trace trace(pool_);
      return std::forward<F>(f)();
    }

  private:
    ex::fork_join_thread_pool pool_;
    const bool root_task_;
  };

  // Effects: reports the pool's counters, accumulated over every run so far, to the parent.
  inline void report_statistics(const ex::fork_join_thread_pool& pool)
  {
    const ex::fork_join_statistics s = pool.statistics();
    bench::report_statistics(pool_statistics{s.tasks_run, s.steals, s.failed_steals, s.sleeps, s.peak_pending, s.frames_parked});
  }

  // Effects: what a fork/join peer's run(cfg) does: on a pool of cfg.threads, cfg.runs timed runs
  // of root(pool) as a root task (run_root), each reported with root's answer; then the pool's
  // counters.
  template <class Root>
  void measure_roots(const config& cfg, Root root)
  {
    ex::fork_join_thread_pool pool(cfg.threads);
    bench::measure(cfg, [&] { return run_root(pool, [&] { return root(pool); }); });
    report_statistics(pool);
  }

} // namespace fork_join
} // namespace bench

#endif // header
