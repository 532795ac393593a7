// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_invoke, the lightest fork/join path: results against serial code, exactly-once
// accounting, every exception collected, deep chains on the default worker stacks, the work-
// stealing space bound from statistics(), and the fallback on other Boost executors.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE parallel_invoke
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/loop_executor.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/latch.hpp>

#include <atomic>
#include <cstdint>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(parallel_invoke_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::experimental::parallel::exception_list;
namespace fj = boost::executors;
using namespace fj_test;

namespace {

template <class Executor>
std::uint64_t fib(Executor& ex, int n)
{
  if (n < 2)
    return std::uint64_t(n);
  std::uint64_t a = 0, b = 0;
  fj::parallel_invoke(ex, [&] { a = fib(ex, n - 1); }, [&] { b = fib(ex, n - 2); });
  return a + b;
}

// A task forks one child, which continues the chain, and joins it.
std::size_t chain(fork_join_thread_pool& ex, std::size_t n)
{
  if (n == 0)
    return 0;
  std::size_t below = 0;
  fj::parallel_invoke(ex, [] {}, [&] { below = chain(ex, n - 1); });
  return below + 1;
}

} // namespace

BOOST_AUTO_TEST_CASE(fib_matches_serial_on_1_2_4_threads)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    for (int n : {0, 1, 2, 10, 22})
    {
      std::uint64_t r = 0;
      fj::parallel_invoke(pool, [&] { r = fib(pool, n); }); // from outside: main helps
      BOOST_TEST(r == serial_fib(n));
      // and from a worker, through fork/join
      BOOST_TEST(fj::fork(pool, [&] { return fib(pool, n); }).get() == serial_fib(n));
    }
  }
}

BOOST_AUTO_TEST_CASE(every_callable_runs_exactly_once)
{
  fork_join_thread_pool pool(2);
  const int rounds = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::vector<std::atomic<int> > ran(5 * rounds);
  auto body = [&] {
    for (int i = 0; i < rounds; ++i)
    {
      auto hit = [&ran, i](int k) { return [&ran, i, k] { ran[5 * i + k].fetch_add(1, std::memory_order_relaxed); }; };
      fj::parallel_invoke(pool, hit(0), hit(1), hit(2), hit(3), hit(4));
    }
  };
  fj::fork(pool, body).join();
  body(); // the same from a thread that is not a worker
  for (std::atomic<int>& r : ran)
    BOOST_TEST(r.load() == 2);
}

BOOST_AUTO_TEST_CASE(every_exception_is_collected_after_all_finish)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    std::atomic<int> finished{0};
    auto thrower = [&](int tag) {
      return [&finished, tag] {
        finished.fetch_add(1);
        throw tagged_error(tag);
      };
    };
    auto quiet = [&] { finished.fetch_add(1); };
    try
    {
      fj::parallel_invoke(pool, thrower(1), quiet, thrower(2), thrower(3));
      BOOST_FAIL("parallel_invoke must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST(list.size() == 3u);
      BOOST_TEST((tags_of(list) == std::multiset<int>{1, 2, 3}));
    }
    BOOST_TEST(finished.load() == 4);

    // Nested: the inner list is one exception of the outer one, thrown from a worker.
    try
    {
      fj::fork(pool, [&] { fj::parallel_invoke(pool, [] {}, [&] { fj::parallel_invoke(pool, thrower(7), thrower(8)); }); })
          .get();
      BOOST_FAIL("must throw");
    }
    catch (const exception_list& outer)
    {
      BOOST_TEST(outer.size() == 1u);
      try
      {
        boost::rethrow_exception(*outer.begin());
      }
      catch (const exception_list& inner)
      {
        BOOST_TEST((tags_of(inner) == std::multiset<int>{7, 8}));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(deep_chains_complete_with_default_settings)
{
  // 10^5 nested fork+join levels (performance target 4 of doc/benchmark/README.md), on 1 and 2
  // threads, started on a worker and from main(), whose 8 MiB stack is guarded (it stops helping
  // and waits). Under the sanitizers 10^4: ThreadSanitizer cannot record a stack of more than 65536
  // frames.
  const std::size_t depth = 100000 / BOOST_THREAD_FJ_TEST_SCALE;
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    BOOST_TEST(fj::fork(pool, [&] { return chain(pool, depth); }).get() == depth);
    std::size_t r = 0;
    fj::parallel_invoke(pool, [&] { r = chain(pool, depth); });
    BOOST_TEST(r == depth);
  }
}

BOOST_AUTO_TEST_CASE(pending_tasks_stay_within_the_work_stealing_space_bound)
{
  const int n = 24;
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    BOOST_TEST(fj::fork(pool, [&] { return fib(pool, n); }).get() == serial_fib(n));
    const fj::fork_join_statistics s = pool.statistics();
    // Each frame on a pool thread's stack has at most one pending child, and the frames on one
    // stack have strictly increasing depth (a waiter runs only deeper tasks), so a deque is never
    // deeper than the recursion (n). A thread's deque also takes the pushes of the stacks it ran
    // on while frames of it were parked (one more stack per parked frame); plus the root in
    // the shared queue.
    BOOST_TEST(s.peak_pending <= (std::uint64_t(threads) + s.frames_parked) * n + 1);
    BOOST_TEST(s.tasks_run >= serial_fib(n + 1) - 1); // one per parallel_invoke child, at least
  }
}

BOOST_AUTO_TEST_CASE(closed_pool_runs_the_children_on_the_caller)
{
  fork_join_thread_pool pool(2);
  pool.close();
  std::atomic<int> ran{0};
  const std::thread::id me = std::this_thread::get_id();
  std::atomic<int> elsewhere{0};
  fj::parallel_invoke(
      pool, [&] { ran.fetch_add(1); }, [&] { ran.fetch_add(1); elsewhere += std::this_thread::get_id() != me; },
      [&] { ran.fetch_add(1); elsewhere += std::this_thread::get_id() != me; });
  BOOST_TEST(ran.load() == 3);
  BOOST_TEST(elsewhere.load() == 0);
}

BOOST_AUTO_TEST_CASE(children_may_fork_heap_tasks_without_joining_them)
{
  std::atomic<int> ran{0};
  {
    fork_join_thread_pool pool(2);
    fj::fork(pool, [&] {
      for (int i = 0; i < 1000; ++i)
        fj::parallel_invoke(pool, [&] { pool.submit_front([&] { ran.fetch_add(1); }); }, [&] { pool.submit([&] { ran.fetch_add(1); }); });
    }).join();
  } // the destructor runs what is left
  BOOST_TEST(ran.load() == 2000);
}

BOOST_AUTO_TEST_CASE(other_executors_block_or_run_queued_closures)
{
  {
    boost::executors::basic_thread_pool pool(2);
    std::atomic<int> ran{0};
    fj::parallel_invoke(pool, [&] { ran += 1; }, [&] { ran += 2; }, [&] { ran += 4; });
    BOOST_TEST(ran.load() == 7);
    try
    {
      fj::parallel_invoke(pool, [] { throw tagged_error(1); }, [] { throw tagged_error(2); });
      BOOST_FAIL("must throw");
    }
    catch (const exception_list& list)
    {
      BOOST_TEST((tags_of(list) == std::multiset<int>{1, 2}));
    }
  }
  {
    // A loop_executor runs closures only when someone loops: the caller does, while it waits.
    boost::executors::loop_executor loop;
    BOOST_TEST(fib(loop, 15) == serial_fib(15));
  }
}

BOOST_AUTO_TEST_CASE(deep_recursion_on_other_executors_does_not_overflow)
{
  // The waiting thread runs the children nobody has started and nests at most 8 levels of
  // helped closures: without those bounds each wait nested one more closure, and fib(25)
  // overflowed an 8 MiB stack on both executors.
  {
    boost::executors::basic_thread_pool pool(2);
    BOOST_TEST(fib(pool, 25) == serial_fib(25));
    std::uint64_t from_a_worker = 0;
    boost::async(pool, [&] { from_a_worker = fib(pool, 24); }).get();
    BOOST_TEST(from_a_worker == serial_fib(24));
  }
  {
    boost::executors::loop_executor loop;
    BOOST_TEST(fib(loop, 25) == serial_fib(25));
  }
}

BOOST_AUTO_TEST_CASE(an_interruption_inside_stays_an_interruption)
{
  // interrupt() reaches a worker blocked in the inline part of a parallel_invoke: the
  // interruption leaves the scope as boost::thread_interrupted (not inside an exception_list,
  // which would end the closure with std::terminate), after the other child has finished.
  std::atomic<int> other_ran{0};
  boost::latch blocked(1);
  fork_join_thread_pool pool(1);
  pool.submit([&] {
    fj::parallel_invoke(
        pool,
        [&] {
          blocked.count_down();
          boost::this_thread::sleep_for(boost::chrono::hours(1)); // an interruption point
        },
        [&] { other_ran.fetch_add(1); });
  });
  blocked.wait();
  pool.interrupt_and_join();
  BOOST_TEST(other_ran.load() == 1);
}

BOOST_AUTO_TEST_CASE(parallel_invoke_without_an_executor_uses_the_current_pool)
{
  // parallel_invoke(f1, f2, ...) runs on the pool whose task calls it, else on the
  // default pool. Every child runs exactly once either way.
  fork_join_thread_pool pool(2);
  std::atomic<int> hits{0};
  std::atomic<int> elsewhere{0};
  pool.submit([&] {
    fj::parallel_invoke([&] { hits.fetch_add(1); },
                        [&] {
                          hits.fetch_add(1);
                          if (fork_join_thread_pool::current() != &pool)
                            elsewhere.fetch_add(1);
                        });
  });
  pool.close();
  pool.join();
  BOOST_TEST(hits.load() == 2);
  BOOST_TEST(elsewhere.load() == 0);
  int a = 0, b = 0;
  fj::parallel_invoke([&] { a = 1; }, [&] { b = 2; }); // outside every pool: the default pool
  BOOST_TEST(a + b == 3);
}

// Shortcut "A frame's own slot" (doc/design.md): parallel_invoke looks up its thread's slot once
// and joins its children with it after the first child ran inline. Here that child parks the
// frame (it waits for a future that a thread outside the pool sets only once the frame is
// parked) while the pool's two threads run the others; the frame must resume on its own thread,
// where the tests' assertion (BOOST_THREAD_FJ_ASSERT) checks the slot at every join.
BOOST_AUTO_TEST_CASE(a_frame_that_parks_between_its_forks_and_joins_joins_on_its_own_thread)
{
  fork_join_thread_pool pool(2);
  const int rounds = 50;
  std::atomic<int> runs{0};
  for (int round = 0; round < rounds; ++round)
  {
    const ready_once_parked outside(pool);
    fj::fork(pool, [&] {
      fj::parallel_invoke(
          pool,
          [&] {
            fj::join(pool, outside.future());
            runs.fetch_add(1);
          },
          [&] { runs.fetch_add(1); }, [&] { runs.fetch_add(1); });
    }).get();
  }
  BOOST_TEST(runs.load() == 3 * rounds);
}

BOOST_AUTO_TEST_SUITE_END()
