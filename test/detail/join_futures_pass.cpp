// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The joins' fast path "own newest child" (detail/fork_join/futures/join_futures.hpp, doc/design.md,
// "Fast paths and their assumptions"): a pool thread whose awaited task is the newest of its own deque takes it and runs
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

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE join_futures
#endif
#include "support.hpp"
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <chrono>
#include <forward_list>
#include <functional>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(detail_join_futures_pass) // this file's tests, which CTest runs by this name

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

// As deep, joined by a range join of one future.
int deep_range(int n)
{
  if (n == 0)
    return 0;
  std::vector<joinable_future<int> > below;
  below.push_back(fj::fork(&deep_range, n - 1));
  fj::join(fj::current_fork_join_pool(), below.begin(), below.end());
  return below.front().get() + 1;
}

// Runs a chain of `level` far deeper than its stacks, at 1 and 2 threads (see below).
void chain_deeper_than_its_stacks(int (*level)(int))
{
  fork_join_thread_pool::options opts;
  opts.stack_size = std::size_t(BOOST_THREAD_FJ_TEST_SCALE == 1 ? 4 : 2) << 20;
  opts.fiber_stack_size = opts.stack_size;
  const int depth = 20000 / BOOST_THREAD_FJ_TEST_SCALE;
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads, opts);
    joinable_future<int> r = fork(pool, level, depth);
    BOOST_TEST(r.get() == depth);
    // One thread runs the whole chain, so its stacks run out and it moves on by parking. Two
    // may share it (a thief takes a level and the waiter runs the levels above it, rule (b)),
    // each on its own stack, and then neither need run out: a loaded machine, whose threads
    // steal at other moments, made that happen.
    if (threads == 1)
      BOOST_TEST(pool.statistics().frames_parked > 0u);
  }
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
  chain_deeper_than_its_stacks(&deep);
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

// The range join's form of "own newest child" (join_forms.hpp, run_back_if_own_newest): from the
// range's back, each future that is ready is skipped and each whose task is the newest of the
// calling thread's deque is run, until one is neither; the wait takes the rest. The shortcut's
// own case: children forked in range order and joined at once run newest first on the joining
// thread, with no wait.
BOOST_AUTO_TEST_CASE(a_range_joined_at_once_runs_newest_first)
{
  fork_join_thread_pool pool(1);
  joinable_future<std::vector<int> > root = fork(pool, [&pool] {
    std::vector<int> order;
    std::vector<joinable_future<void> > children;
    for (int i = 0; i < 7; ++i)
      children.push_back(fork(pool, [&order, i] { order.push_back(i); }));
    fj::join(pool, children.begin(), children.end());
    return order;
  });
  BOOST_TEST(root.get() == (std::vector<int>{6, 5, 4, 3, 2, 1, 0}));
  BOOST_TEST(pool.statistics().frames_parked == 0u);
}

// The back of the range is not the newest task: children joined in reverse fork order (the
// back is the oldest, under all the others), a plain future at the back whose promise a
// queued task keeps (neither ready nor a task of ours: the shortcut must stop, not skip it),
// deferred and ready futures mixed in, the same shared state twice, and a forward-only range
// (no way back: the wait takes it all). Each task runs once and every value arrives.
BOOST_AUTO_TEST_CASE(a_range_whose_back_is_not_the_newest)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    std::atomic<int> runs{0};
    const int rounds = 500 / BOOST_THREAD_FJ_TEST_SCALE;
    for (int round = 0; round < rounds; ++round)
    {
      joinable_future<int> r = fork(pool, [&pool, &runs] {
        auto child = [&runs](int v) {
          runs.fetch_add(1, std::memory_order_relaxed);
          return v;
        };
        int sum = 0;

        std::vector<joinable_future<int> > reversed;
        for (int i = 0; i < 5; ++i)
          reversed.insert(reversed.begin(), fork(pool, child, i)); // the oldest at the back
        fj::join(pool, reversed.begin(), reversed.end());
        for (joinable_future<int>& f : reversed)
          sum += f.get(); // 10

        boost::promise<int> kept;
        std::vector<boost::future<int> > mixed;
        mixed.push_back(fork(pool, [&kept, child] {
          kept.set_value(child(100));
          return child(1000);
        }));
        mixed.push_back(boost::async(boost::launch::deferred, [child] { return child(10000); }));
        mixed.push_back(boost::make_ready_future(100000));
        mixed.push_back(fork(pool, child, 1000000));
        mixed.push_back(kept.get_future()); // the back: set only by the oldest task above
        fj::join(pool, mixed.begin(), mixed.end());
        for (boost::future<int>& f : mixed)
          sum += f.get(); // 1000 + 10000 + 100000 + 1000000 + 100

        boost::shared_future<int> twice = fork(pool, child, 7).share();
        std::vector<boost::shared_future<int> > same{twice, twice};
        fj::join(pool, same.begin(), same.end());
        sum += same[0].get() + same[1].get(); // 14

        std::forward_list<joinable_future<int> > forward;
        for (int i = 0; i < 3; ++i)
          forward.push_front(fork(pool, child, 1 << (20 + i)));
        fj::join(pool, forward.begin(), forward.end());
        for (joinable_future<int>& f : forward)
          sum += f.get(); // 7 << 20
        return sum;
      });
      BOOST_TEST_REQUIRE(r.get() == 10 + 1111100 + 14 + (7 << 20));
    }
    // 5 reversed, the kept and the returned value of one task (2 calls), the deferred, the
    // other fork, the shared one, 3 forward: 13 calls of child per round.
    BOOST_TEST(runs.load() == 13 * rounds);
  }
}

// Two threads join one range of shared futures: a pool thread, for which the tasks are the
// newest of its deque, and an outside thread that helps the pool (it may steal them first).
BOOST_AUTO_TEST_CASE(a_range_of_shared_futures_joined_by_two_threads)
{
  fork_join_thread_pool pool(2);
  const int rounds = 1000 / BOOST_THREAD_FJ_TEST_SCALE;
  std::atomic<int> runs{0};
  for (int round = 0; round < rounds; ++round)
  {
    boost::promise<std::vector<boost::shared_future<int> > > handed;
    boost::future<std::vector<boost::shared_future<int> > > handed_future = handed.get_future();
    int outside_sum = -1;
    std::thread outside([&] {
      std::vector<boost::shared_future<int> > v = handed_future.get();
      fj::join(pool, v.begin(), v.end());
      outside_sum = 0;
      for (boost::shared_future<int>& f : v)
        outside_sum += f.get();
    });
    joinable_future<int> r = fork(pool, [&pool, &runs, &handed, round] {
      std::vector<boost::shared_future<int> > v;
      for (int i = 0; i < 4; ++i)
        v.push_back(fork(pool, [&runs, round, i] {
                      runs.fetch_add(1, std::memory_order_relaxed);
                      return round + i;
                    }).share());
      handed.set_value(v);
      if (round % 2)
        std::this_thread::yield(); // let the outside thread start its join first
      fj::join(pool, v.begin(), v.end());
      int sum = 0;
      for (boost::shared_future<int>& f : v)
        sum += f.get();
      return sum;
    });
    BOOST_TEST_REQUIRE(r.get() == 4 * round + 6);
    outside.join();
    BOOST_TEST_REQUIRE(outside_sum == 4 * round + 6);
  }
  BOOST_TEST(runs.load() == 4 * rounds);
}

// The range join's shortcut checks for room as the member join's does: a chain of ranges of
// one, far deeper than its stacks, parks instead of running below the floor.
BOOST_AUTO_TEST_CASE(a_chain_of_ranges_deeper_than_its_stacks)
{
  chain_deeper_than_its_stacks(&deep_range);
}

BOOST_AUTO_TEST_SUITE_END()
