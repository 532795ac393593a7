// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Regression tests of the progress guarantee (doc/design.md, "Progress"): a waiting thread never
// runs a task that waits for what sits below it on its stack, and a thread that sleeps in a wait
// costs the pool no worker. The defect, as first reported: "Task A forks C and joins it; C is
// stolen; while A waits, its join runs any queued task, here B; B joins A's future. A can never
// resume."
// Before the fix each case below hung (the watchdog ends the run); the rendezvous make the bad
// schedule the only one possible, without timing.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE progress
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <functional>
#include <thread>

BOOST_AUTO_TEST_SUITE(test_progress_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;

namespace {

// relaxed would do for the flags (the waits only need to see them eventually); acquire/release
// keep the tests' own reasoning simple.
void wait_for(const std::atomic<bool>& flag)
{
  while (!flag.load(std::memory_order_acquire))
    std::this_thread::yield();
}

// How A waits for its child C: the three ways the library offers.
enum class join_kind
{
  future,
  invoke,
  block
};

// A forks C (which is stolen: A does not join before C runs elsewhere), submits B, and joins C.
// B joins A's future. C ends only once B has started. The only schedule that ends: B runs on a
// thread that is not A's.
void a_b_c(join_kind kind, unsigned threads)
{
  fork_join_thread_pool pool(threads);
  std::atomic<bool> c_started{false}, b_started{false};
  boost::shared_future<int> a_future;
  std::atomic<bool> a_future_set{false};
  int b_result = 0; // written by B, read after B's future is ready: plain on purpose

  auto c = [&] {
    c_started.store(true, std::memory_order_release);
    wait_for(b_started);
  };
  auto b = [&] {
    b_started.store(true, std::memory_order_release);
    wait_for(a_future_set);
    boost::shared_future<int> fa = a_future;
    fj::join(pool, fa);
    b_result = fa.get() + 1;
  };
  auto a = [&]() -> int {
    switch (kind)
    {
    case join_kind::future:
    {
      joinable_future<void> fc = fork(pool, c);
      wait_for(c_started); // C was stolen
      pool.submit(b);
      fc.join();
      break;
    }
    case join_kind::invoke:
      boost::parallel_invoke(
          pool,
          [&] {
            wait_for(c_started);
            pool.submit(b);
          },
          c);
      break;
    case join_kind::block:
      boost::define_task_block(pool, [&](boost::task_block& tb) {
        tb.run(c);
        wait_for(c_started);
        pool.submit(b);
      });
      break;
    }
    return 41;
  };

  joinable_future<int> fa = fork(pool, a);
  a_future = fa.share();
  a_future_set.store(true, std::memory_order_release);
  BOOST_TEST(a_future.get() == 41);
  pool.close();
  pool.join();
  BOOST_TEST(b_result == 42);
}

} // namespace

BOOST_AUTO_TEST_CASE(helping_never_buries_a_task_under_its_waiter)
{
  for (unsigned threads : {2u, 3u})
    for (join_kind kind : {join_kind::future, join_kind::invoke, join_kind::block})
      BOOST_TEST_CONTEXT("threads " << threads << ", kind " << static_cast<int>(kind))
      {
        a_b_c(kind, threads);
      }
}

// The article's "evil case" on one worker: a task joins a future whose task another queued task
// submits later. The worker may not run the submitter inside the join (it could wait for the
// joiner), so the join parks and the worker runs it on a fresh stack.
BOOST_AUTO_TEST_CASE(join_before_the_awaited_task_exists_on_one_worker)
{
  fork_join_thread_pool pool(1);
  boost::promise<int> late;
  boost::shared_future<int> late_future = late.get_future().share();
  joinable_future<int> waiter = fork(pool, [&] {
    boost::shared_future<int> f = late_future;
    fj::join(pool, f);
    return f.get() * 2;
  });
  pool.submit([&] { late.set_value(21); });
  BOOST_TEST(waiter.get() == 42);
  BOOST_TEST(pool.statistics().frames_parked >= 1u);
  BOOST_TEST(pool.statistics().spare_threads == 0u);
}

// A waiting thread keeps running its own children: fib with fork/join on one worker never
// parks (every join finds its child at the bottom of its own deque).
int fib(fork_join_thread_pool& ex, int n)
{
  if (n < 2)
    return n;
  joinable_future<int> a = fork(ex, fib, std::ref(ex), n - 1);
  const int b = fib(ex, n - 2);
  a.join();
  return a.get() + b;
}

BOOST_AUTO_TEST_CASE(own_children_run_inline_without_parking)
{
  fork_join_thread_pool pool(1);
  joinable_future<int> f = fork(pool, fib, std::ref(pool), 20);
  BOOST_TEST(f.get() == 6765);
  BOOST_TEST(pool.statistics().frames_parked == 0u);
}

// Cycles the pool can prove: a task that joins its own future, and a parallel_invoke child that
// joins the future of the task whose frame it runs in, get join_cycle_error instead of hanging.
BOOST_AUTO_TEST_CASE(joining_a_task_on_the_own_stack_throws)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    joinable_future<int>* self = nullptr;
    std::atomic<bool> self_set{false};
    joinable_future<int> f = fork(pool, [&] {
      wait_for(self_set);
      try
      {
        self->join();
      }
      catch (const fj::join_cycle_error&)
      {
        return 1;
      }
      return 0;
    });
    self = &f;
    self_set.store(true, std::memory_order_release);
    // The task reads f only through join(); this thread waits without touching f's state.
    while (!f.is_ready())
      std::this_thread::yield();
    BOOST_TEST(f.get() == 1);

    joinable_future<void>* outer = nullptr;
    std::atomic<bool> outer_set{false};
    int caught = 0; // written by the child, read after the join: plain on purpose
    joinable_future<void> g = fork(pool, [&] {
      wait_for(outer_set);
      boost::parallel_invoke(
          pool, [] {},
          [&] {
            try
            {
              outer->join(); // the future of the task whose parallel_invoke this child is in
            }
            catch (const fj::join_cycle_error&)
            {
              caught = 1;
            }
          });
    });
    outer = &g;
    outer_set.store(true, std::memory_order_release);
    while (!g.is_ready())
      std::this_thread::yield();
    g.get();
    BOOST_TEST(caught == 1);
  }
}

// Joins in fork order: children joined in the order they were forked. The oldest child sits under
// its younger siblings in the forking thread's deque, so the newest-first help loop cannot reach
// it; the join takes it from where it sits (chase_lev_deque::take_at). On one thread nothing is
// ever stolen, so no such join may park (before the fix, each level started a spare thread, up to
// the cap of 256 that spares had; parking has replaced them). With more threads a join whose child
// was stolen may still park (doc/index.md), so there only the results are checked.
namespace in_fork_order {

enum class form
{
  member,      // f.join()
  free,        // join(f)
  with_pool,   // join(pool, f)
  range_of_one // join(pool, &f, &f + 1), per child
};

void join_one(fork_join_thread_pool& pool, joinable_future<int>& f, form how)
{
  switch (how)
  {
  case form::member:
    f.join();
    break;
  case form::free:
    fj::join(f);
    break;
  case form::with_pool:
    fj::join(pool, f);
    break;
  case form::range_of_one:
    fj::join(pool, &f, &f + 1);
    break;
  }
}

// Each level forks the next level, then a leaf, and joins them in that order: the next level
// sits under the leaf. Returns depth + 1: the last level's 1 and one per leaf.
int chain(fork_join_thread_pool& pool, int depth, form how)
{
  if (depth == 0)
    return 1;
  joinable_future<int> next = fork(pool, chain, std::ref(pool), depth - 1, how);
  joinable_future<int> leaf = fork(pool, [] { return 1; });
  join_one(pool, next, how);
  join_one(pool, leaf, how);
  return next.get() + leaf.get();
}

// Four children per node, joined in fork order. Returns the number of nodes.
int tree(fork_join_thread_pool& pool, int depth, form how)
{
  if (depth == 0)
    return 1;
  joinable_future<int> children[4];
  for (joinable_future<int>& c : children)
    c = fork(pool, tree, std::ref(pool), depth - 1, how);
  int nodes = 1;
  for (joinable_future<int>& c : children)
  {
    join_one(pool, c, how);
    nodes += c.get();
  }
  return nodes;
}

// Stack tasks: parallel_invoke queues its second callable and runs the first inline, which
// forks a leaf that nobody joins yet, so the queued child sits under that fork when
// parallel_invoke joins it. Returns depth + 1, as chain().
int invoke_chain(fork_join_thread_pool& pool, int depth)
{
  if (depth == 0)
    return 1;
  int below = 0;
  joinable_future<int> leaf;
  boost::parallel_invoke(
      pool, [&] { leaf = fork(pool, [] { return 1; }); }, [&] { below = invoke_chain(pool, depth - 1); });
  leaf.join();
  return below + leaf.get();
}

} // namespace in_fork_order

BOOST_AUTO_TEST_CASE(joins_in_fork_order_never_park_on_one_thread)
{
  using namespace in_fork_order;
  const int chain_depth = 600; // more levels than the 256 spares a pool could start
  for (unsigned threads : {1u, 2u, 3u})
  {
    for (form how : {form::member, form::free, form::with_pool, form::range_of_one})
    {
      fork_join_thread_pool pool(threads);
      joinable_future<int> c = fork(pool, chain, std::ref(pool), chain_depth, how);
      BOOST_TEST(c.get() == chain_depth + 1);
      joinable_future<int> t = fork(pool, tree, std::ref(pool), 5, how);
      BOOST_TEST(t.get() == (1 + 4 + 16 + 64 + 256 + 1024));
      if (threads == 1)
        BOOST_TEST(pool.statistics().frames_parked == 0u, "form " << static_cast<int>(how));
      BOOST_TEST(pool.statistics().spare_threads == 0u);
      BOOST_TEST_MESSAGE(threads << " threads, form " << static_cast<int>(how) << ": "
                                 << pool.statistics().frames_parked << " frames parked");
    }
    fork_join_thread_pool pool(threads);
    joinable_future<int> i = fork(pool, invoke_chain, std::ref(pool), chain_depth);
    BOOST_TEST(i.get() == chain_depth + 1);
    if (threads == 1)
      BOOST_TEST(pool.statistics().frames_parked == 0u);
  }
}

BOOST_AUTO_TEST_SUITE_END()
