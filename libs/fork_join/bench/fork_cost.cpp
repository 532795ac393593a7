// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_fork_cost_bench: what one fork costs, taken apart, on one thread. The fork/join
// workloads of fork_join_bench (fib, uts) spend nearly all their time forking; this program
// times the pieces of that cost one at a time, all in one run, so that a ratio to oneTBB can be
// read against the part of it no implementation on boost::future can avoid:
//  - boost_state: boost::make_shared of Boost's own future shared state, shared_state<uint64_t>,
//    then its destruction; nothing is run or waited for. Every boost::future of a result has
//    one (a mutex, a condition variable, a shared_ptr's counts);
//  - boost_promise: a boost::promise<uint64_t>, its future, set_value, get (a state plus completing
//    it: the mutex taken and the condition variable notified);
//  - fork: fork(pool, leaf) + join + get inside a task of a 1-thread fork_join_thread_pool: the
//    state of a fork (fork_state.hpp, the previous fork's, reused: fork_recycler.hpp),
//    queued, popped by the joiner and run;
//  - async: boost::async(pool, leaf) + join(pool, f) + f.get(), the same from Boost's call, with
//    a new fork state per call (a plain boost::future cannot give it back);
//  - async_joinable: the future of boost::async(pool, leaf) made a joinable_future, then its
//    own join() and get();
//  - invoke: parallel_invoke(pool, leaf, leaf) on the same pool (one queued task, no future);
//    invoke_uts: parallel_invoke of 8 leaves, as uts's nodes do, reported per child (7 queued
//    tasks); invoke_uts_kept: the same while the thread's deque holds tasks, where the call
//    keeps its children back, since no other thread looks for work (parallel_invoke,
//    doc/reference.md);
//  - block: define_task_block on the same pool, one run(leaf) and one leaf inline (one child in
//    the block's arena, no future); block_uts: one block, 7 runs and the 8th leaf inline, as
//    uts's nodes do, reported per run();
//  - block_kept, block_uts_kept: the same two, timed while the thread's deque holds
//    BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH tasks (forks that wait for the timing to end), where a
//    block keeps its children back: records, with no task queued (task_block::run,
//    doc/reference.md);
//  - tbb_task_group: oneTBB's tbb::task_group run(leaf) + wait() inside an arena of one thread
//    (if oneTBB was found), and tbb_task_group_uts: one task_group and 7 runs, as uts's nodes
//    do, per run.
// Prints the median over several runs of nanoseconds per operation for each, then the ratios
// to oneTBB's task_group. Every new boost::future state costs boost_state; a fork that reuses
// the fork state of a finished one (the fork row) builds none.
//
// usage: fork_join_fork_cost_bench [runs] [operations per run]

#include <boost/make_shared.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>

#ifdef BOOST_FORK_JOIN_BENCH_HAS_TBB
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <vector>

namespace {

namespace ex = boost::executors;

// What every measured operation runs; the volatile sink keeps the compiler from folding it.
volatile std::uint64_t sink;

std::uint64_t leaf(std::uint64_t x) { return x + 1; }

// Returns: the median over `runs` runs of nanoseconds per call of op(i), i in [0, n).
template <class Op>
double median_ns(unsigned runs, std::uint64_t n, Op op)
{
  std::vector<double> per_op;
  for (unsigned r = 0; r < runs; ++r)
  {
    const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < n; ++i)
      op(i);
    const std::chrono::duration<double, std::nano> elapsed = std::chrono::steady_clock::now() - start;
    per_op.push_back(elapsed.count() / static_cast<double>(n));
  }
  std::sort(per_op.begin(), per_op.end());
  return per_op[per_op.size() / 2];
}

// Returns: f()'s result, f run as a task of pool (so that fork and join take their pool-thread
// paths, as in the workloads). The calling thread waits on a std::future, which does not help:
// the pool's one thread does all the work.
template <class F>
double on_pool(ex::fork_join_thread_pool& pool, F f)
{
  std::promise<double> result;
  std::future<double> done = result.get_future();
  pool.submit([&] { result.set_value(f()); });
  return done.get();
}

} // namespace

int main(int argc, char** argv)
{
  const unsigned runs = argc > 1 ? static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10)) : 7;
  const std::uint64_t n = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000000;
  if (runs == 0 || n == 0)
  {
    std::fprintf(stderr, "usage: fork_join_fork_cost_bench [runs > 0] [operations per run > 0]\n");
    return 2;
  }

  struct row
  {
    const char* name;
    double ns;
  };
  std::vector<row> rows;

  rows.push_back({"boost_state", median_ns(runs, n, [](std::uint64_t) {
                    const boost::shared_ptr<boost::detail::shared_state<std::uint64_t> > s =
                        boost::make_shared<boost::detail::shared_state<std::uint64_t> >();
                    sink = sink + s->done;
                  })});
  rows.push_back({"boost_promise", median_ns(runs, n, [](std::uint64_t i) {
                    boost::promise<std::uint64_t> p;
                    boost::future<std::uint64_t> f = p.get_future();
                    p.set_value(leaf(i));
                    sink = sink + f.get();
                  })});

  ex::fork_join_thread_pool pool(1);
  // A row timed inside a task of the pool: fork and join take their pool-thread paths.
  const auto pool_row = [&](const char* name, auto op) {
    rows.push_back({name, on_pool(pool, [&] { return median_ns(runs, n, op); })});
  };
  pool_row("fork", [&](std::uint64_t i) {
    ex::joinable_future<std::uint64_t> f = ex::fork(pool, leaf, i);
    f.join();
    sink = sink + f.get();
  });
  pool_row("async", [&](std::uint64_t i) {
    boost::future<std::uint64_t> f = boost::async(pool, leaf, i);
    ex::join(pool, f);
    sink = sink + f.get();
  });
  pool_row("async_joinable", [&](std::uint64_t i) {
    ex::joinable_future<std::uint64_t> f = boost::async(pool, leaf, i);
    f.join();
    sink = sink + f.get();
  });
  pool_row("invoke", [&](std::uint64_t i) {
    std::uint64_t a = 0, b = 0;
    ex::parallel_invoke(pool, [&] { a = leaf(i); }, [&] { b = leaf(i); });
    sink = sink + a + b;
  });
  const auto block = [&](std::uint64_t i) {
    std::uint64_t a = 0, b = 0;
    ex::define_task_block(pool, [&](ex::task_block& tb) {
      tb.run([&] { a = leaf(i); });
      b = leaf(i);
    });
    sink = sink + a + b;
  };
  // Per child, uts's pattern: fill(i, a) makes 7 children that set a[0..6] and sets a[7] inline.
  const auto per_child_of_7 = [&](auto fill) {
    const std::uint64_t calls = std::max<std::uint64_t>(n / 7, 1);
    return median_ns(runs, calls, [&](std::uint64_t i) {
             std::uint64_t a[8] = {};
             fill(i, a);
             for (std::uint64_t x : a)
               sink = sink + x;
           }) /
           7;
  };
  // A block of 7 runs and the 8th leaf inline.
  const auto block_uts = [&] {
    return per_child_of_7([&](std::uint64_t i, std::uint64_t(&a)[8]) {
      ex::define_task_block(pool, [&](ex::task_block& tb) {
        for (unsigned k = 0; k < 7; ++k)
          tb.run([&a, i, k] { a[k] = leaf(i + k); });
        a[7] = leaf(i + 7);
      });
    });
  };
  // Returns: f()'s result, f run while the pool thread's deque holds the tasks of
  // BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH forks, which end when f has returned.
  const auto under_queued_tasks = [&](auto f) {
    std::vector<ex::joinable_future<void> > queued;
    for (int k = 0; k < BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH; ++k)
      queued.push_back(ex::fork(pool, [] {}));
    const double ns = f();
    for (ex::joinable_future<void>& q : queued)
      q.join();
    return ns;
  };
  // A parallel_invoke of 8 leaves, the first inline.
  const auto invoke_uts = [&] {
    return per_child_of_7([&](std::uint64_t i, std::uint64_t(&a)[8]) {
      ex::parallel_invoke(
          pool, [&] { a[7] = leaf(i + 7); }, [&] { a[0] = leaf(i); }, [&] { a[1] = leaf(i + 1); },
          [&] { a[2] = leaf(i + 2); }, [&] { a[3] = leaf(i + 3); }, [&] { a[4] = leaf(i + 4); },
          [&] { a[5] = leaf(i + 5); }, [&] { a[6] = leaf(i + 6); });
    });
  };
  rows.push_back({"invoke_uts", on_pool(pool, invoke_uts)});
  rows.push_back({"invoke_uts_kept", on_pool(pool, [&] { return under_queued_tasks(invoke_uts); })});
  pool_row("block", block);
  rows.push_back({"block_uts", on_pool(pool, block_uts)});
  rows.push_back({"block_kept", on_pool(pool, [&] { return under_queued_tasks([&] { return median_ns(runs, n, block); }); })});
  rows.push_back({"block_uts_kept", on_pool(pool, [&] { return under_queued_tasks(block_uts); })});

  double tbb_ns = 0;
#ifdef BOOST_FORK_JOIN_BENCH_HAS_TBB
  {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
    tbb::task_arena arena(1);
    tbb_ns = arena.execute([&] {
      return median_ns(runs, n, [](std::uint64_t i) {
        std::uint64_t a = 0;
        tbb::task_group g;
        g.run([&a, i] { a = leaf(i); });
        g.wait();
        sink = sink + a;
      });
    });
    rows.push_back({"tbb_task_group", tbb_ns});
    rows.push_back({"tbb_task_group_uts", arena.execute([&] {
                      // Per run, as a uts node with 8 children: one task_group, 7 runs, the
                      // 8th child inline; reported per run().
                      const std::uint64_t groups = std::max<std::uint64_t>(n / 7, 1);
                      return median_ns(runs, groups, [](std::uint64_t i) {
                               std::uint64_t a[7] = {};
                               tbb::task_group g;
                               for (unsigned k = 0; k < 7; ++k)
                                 g.run([&a, i, k] { a[k] = leaf(i + k); });
                               g.wait();
                               for (std::uint64_t x : a)
                                 sink = sink + x;
                             }) /
                             7;
                    })});
  }
#endif

  std::printf("one thread, median of %u runs of %llu operations, ns per operation\n", runs,
              static_cast<unsigned long long>(n));
  for (const row& r : rows)
  {
    if (tbb_ns > 0)
      std::printf("  %-20s %8.1f ns  %5.2fx tbb_task_group\n", r.name, r.ns, r.ns / tbb_ns);
    else
      std::printf("  %-20s %8.1f ns\n", r.name, r.ns);
  }
  return 0;
}
