// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The joins' fast path "own newest child" (detail/fork_join/join_futures.hpp, doc/index.md
// ledger): a pool thread whose awaited task is the newest of its own deque takes it and runs
// it without building the wait. Each case attacks one part of its precondition:
//  - the task is the newest of the *calling* thread's deque of the *joined* pool: a future of
//    another pool, a join that names another pool, a future moved into another task;
//  - the future is the joiner's own: a shared future joined by two threads while its task is
//    the newest of one of them;
//  - the stack has room: a chain far deeper than its stacks, joined by member join, must move
//    to fresh stacks (park) instead of running the next level below the floor;
// and the fast path "pool of one" (pool_core.hpp), which pushes without advertising: tasks a
// lone pool thread queues and nobody joins still run once, and an outside thread asleep on
// such a task's future wakes.

#define BOOST_TEST_MODULE join_futures
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;
using fj_test::wait_for;

namespace {

boost::thread::id id_of_this_thread() { return boost::this_thread::get_id(); }

} // namespace

// The shortcut's own case: children joined newest first (by member join, by join(ex, f), by
// join(f), by join(ex, f, g)) run on the joining thread, and no join waits.
BOOST_AUTO_TEST_CASE(children_joined_newest_first_run_in_the_join)
{
  fork_join_thread_pool pool(1);
  joinable_future<bool> root = fork(pool, [&pool] {
    const boost::thread::id me = boost::this_thread::get_id();
    joinable_future<boost::thread::id> a = fork(pool, &id_of_this_thread);
    joinable_future<boost::thread::id> b = fork(pool, &id_of_this_thread);
    joinable_future<boost::thread::id> c = fork(pool, &id_of_this_thread);
    joinable_future<boost::thread::id> d = fork(pool, &id_of_this_thread);
    joinable_future<boost::thread::id> e = fork(pool, &id_of_this_thread);
    fj::join(pool, d, e); // e is the newest, then d
    c.join();
    fj::join(b);
    fj::join(pool, a);
    return a.get() == me && b.get() == me && c.get() == me && d.get() == me && e.get() == me;
  });
  BOOST_TEST(root.get());
  BOOST_TEST(pool.statistics().frames_parked == 0u);
  BOOST_TEST(pool.statistics().tasks_run == 6u);
}

// The task is queued on another pool (from outside it: its shared queue), or on this pool
// while the join names another: no deque of the calling thread of the named pool holds it,
// so the shortcut must not take it, and the join still ends with the right value.
BOOST_AUTO_TEST_CASE(the_newest_of_another_pool_is_not_taken)
{
  fork_join_thread_pool p1(1), p2(1);
  for (int round = 0; round < 200; ++round)
  {
    joinable_future<int> r = fork(p1, [&p1, &p2, round] {
      joinable_future<int> on_p2 = fork(p2, [round] { return round; });
      fj::join(p1, on_p2); // names this pool: the task is in p2's queue
      joinable_future<int> on_p1 = fork(p1, [round] { return round + 1; });
      fj::join(p2, on_p1); // names p2, whose thread this is not: found through the own pool
      joinable_future<int> again = fork(p2, [round] { return round + 2; });
      again.join();
      return on_p2.get() + on_p1.get() + again.get();
    });
    BOOST_TEST(r.get() == 3 * round + 3);
  }
}

// The future moved into a newer task that joins it: the joiner runs on whichever thread runs
// the newer task; when that is the forking thread, the moved future's task is again the newest
// there (the newer task was popped first).
BOOST_AUTO_TEST_CASE(a_future_moved_into_a_newer_task)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    std::atomic<int> runs{0};
    for (int round = 0; round < 2000 / BOOST_THREAD_FJ_TEST_SCALE; ++round)
    {
      joinable_future<int> r = fork(pool, [&pool, &runs, round] {
        joinable_future<int> x = fork(pool, [&runs, round] {
          runs.fetch_add(1, std::memory_order_relaxed);
          return round;
        });
        joinable_future<int> y = fork(pool, [&pool](joinable_future<int> moved) {
          fj::join(pool, moved);
          return moved.get() * 2;
        }, std::move(x));
        y.join();
        return y.get();
      });
      BOOST_TEST_REQUIRE(r.get() == 2 * round);
    }
    BOOST_TEST(runs.load() == 2000 / BOOST_THREAD_FJ_TEST_SCALE);
  }
}

// Two threads join one future (a shared_future): a pool thread, for which the task is the
// newest of its deque, and an outside thread that helps the pool (it may steal the task
// first). Every interleaving ends with the task run once and both joiners seeing its value.
BOOST_AUTO_TEST_CASE(a_shared_future_joined_by_two_threads_while_newest)
{
  fork_join_thread_pool pool(2);
  const int rounds = 2000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::atomic<int> runs{0};
  for (int round = 0; round < rounds; ++round)
  {
    boost::promise<boost::shared_future<int> > handed;
    boost::future<boost::shared_future<int> > handed_future = handed.get_future();
    std::atomic<bool> outside_joined{false};
    int outside_value = -1;
    std::thread outside([&] {
      boost::shared_future<int> s = handed_future.get();
      fj::join(pool, s);
      outside_value = s.get();
      outside_joined.store(true, std::memory_order_release);
    });
    joinable_future<int> r = fork(pool, [&pool, &runs, &handed, round] {
      boost::shared_future<int> s = fork(pool, [&runs, round] {
                                      runs.fetch_add(1, std::memory_order_relaxed);
                                      return round;
                                    }).share();
      handed.set_value(s);
      if (round % 2)
        std::this_thread::yield(); // let the outside thread start its join first
      fj::join(pool, s);
      return s.get();
    });
    BOOST_TEST_REQUIRE(r.get() == round);
    outside.join();
    BOOST_TEST_REQUIRE(outside_joined.load());
    BOOST_TEST_REQUIRE(outside_value == round);
  }
  BOOST_TEST(runs.load() == rounds);
}

namespace {

int deep(int n)
{
  if (n == 0)
    return 0;
  joinable_future<int> below = fj::fork([n] { return deep(n - 1); });
  below.join(); // the newest of this thread's deque, unless a thief took it
  return below.get() + 1;
}

} // namespace

// A chain far deeper than the stacks it runs on (4 MiB each, the floor 1 MiB above their
// ends), joined by member join, whose child is always the newest of the deque: without the
// shortcut's check for room the next level would run below the floor and overflow. With it,
// the join takes the slow path there and parks, and the chain goes on on a fresh stack.
// Sanitizer builds run a tenth of the depth on 2 MiB stacks (their frames are larger, and
// ThreadSanitizer keeps the whole stack of every mutex a level creates).
BOOST_AUTO_TEST_CASE(a_chain_deeper_than_its_stacks)
{
  fork_join_thread_pool::options opts;
  opts.stack_size = std::size_t(BOOST_THREAD_FJ_TEST_SCALE == 1 ? 4 : 2) << 20;
  opts.fiber_stack_size = opts.stack_size;
  const int depth = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads, opts);
    joinable_future<int> r = fork(pool, &deep, depth);
    BOOST_TEST(r.get() == depth);
    BOOST_TEST(pool.statistics().frames_parked > 0u); // the stacks ran out: it moved on
  }
}

// A pool of one: a task queues children nobody joins (each counted once when it runs), and an
// outside thread sleeps on the future of one of them while the lone pool thread is still busy.
// Nothing advertised those pushes; the pool's thread runs them all, and the sleeper wakes.
BOOST_AUTO_TEST_CASE(a_pool_of_one_runs_what_it_queued_unadvertised)
{
  fork_join_thread_pool pool(1);
  const int children = 1000;
  std::atomic<int> ran{0};
  std::atomic<bool> outside_waits{false};
  boost::promise<boost::shared_future<int> > handed;
  boost::future<boost::shared_future<int> > handed_future = handed.get_future();
  std::thread outside([&] {
    boost::shared_future<int> s = handed_future.get();
    outside_waits.store(true, std::memory_order_release);
    s.wait(); // Boost's wait: asleep on the future, not on the pool
    BOOST_TEST(s.get() == 42);
  });
  joinable_future<void> root = fork(pool, [&] {
    for (int i = 0; i < children; ++i)
      fork(pool, [&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    handed.set_value(fork(pool, [] { return 42; }).share());
    wait_for(outside_waits);
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // let it fall asleep
  });
  root.get();
  outside.join();
  pool.close();
  pool.join();
  BOOST_TEST(ran.load() == children);
}
