// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// executors::isolate(f) and fork_join_thread_pool::isolate(f).
//
// The hazard it removes, in the three shapes where code meets it (a function-local static whose
// initialiser runs a parallel algorithm, a parallel algorithm inside std::call_once, a cache
// filled under a mutex with parallel_for): a frame holds the critical section across a join,
// the join parks, and its thread runs another task that enters the same critical section. Each
// shape is built so that this happens for certain without isolate (the test expects it, and
// the entering task detects it instead of deadlocking), and is shown not to happen with it, on
// 1, 2 and 4 threads. Then what isolate promises in general: tasks made inside a region are
// isolated on whatever thread runs them (no frame of theirs parks), fully strict fork/join
// inside regions finishes with the serial results (random trees, nested regions, function
// pointers and lambdas), deep chains go on on fresh stacks, results and exceptions come back.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE isolate
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/parallel_for.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/parallel_reduce.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(isolate_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;

namespace {

// What one run of a shape saw.
struct outcome
{
  int entered_inside = 0; // tasks that met the critical section held by their own thread
  int entered_after = 0;  // tasks that entered it normally
};

// One run: a task A on pool thread t enters the critical section, and inside it runs
// parallel_for over two positions. The position that t runs queues a task B at t's own end
// once the other position has started elsewhere (on another worker, or, on a pool of one, on
// the test's thread, which takes it with try_executing_one()), then returns; the other position holds on until B
// has run, or, with isolation (B cannot run then), for a while. A's join then finds nothing it
// may run. B enters the critical section, or, if its own thread holds it, counts that and
// leaves (entering would deadlock or break the section). The other workers are kept busy, so
// only t can take B.
class hazard_run
{
public:
  hazard_run(unsigned threads, bool isolated) : threads_(threads), isolated_(isolated) {}

  // Runs the shape whose critical section is enter(body): enter calls body() inside it once.
  template <class Enter>
  outcome run(Enter enter)
  {
    // All of it outlives the pool: a task may still be leaving when run() returns.
    std::atomic<unsigned> blockers_started{0};
    std::atomic<bool> release{false}, other_started{false}, b_ran{false}, a_started{false}, a_done{false};
    outcome seen;
    fork_join_thread_pool pool(threads_);
    for (unsigned i = 2; i < threads_; ++i)
      pool.submit([&] {
        blockers_started.fetch_add(1);
        while (!release.load())
          boost::this_thread::yield();
      });
    while (blockers_started.load() + 2 < threads_)
      boost::this_thread::yield();

    auto body = [&] {
      fj::parallel_for(
          pool, 0, 2,
          [&](int) {
            if (held_here)
            {
              while (!other_started.load())
                boost::this_thread::yield();
              pool.submit_front([&] {
                if (held_here)
                  ++seen.entered_inside;
                else
                {
                  ++seen.entered_after;
                  enter([] {}); // a static or a once_flag is done by now; a mutex is free
                }
                b_ran.store(true);
              });
            }
            else
            {
              other_started.store(true);
              const auto give_up = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
              while (!b_ran.load() && (!isolated_ || std::chrono::steady_clock::now() < give_up))
                boost::this_thread::yield();
            }
          },
          1);
    };
    pool.submit([&] {
      a_started.store(true);
      enter([&] {
        held_here = true;
        if (isolated_)
          fj::isolate(body);
        else
          body();
        held_here = false;
      });
      a_done.store(true);
    });
    // On a pool of one the test's thread takes the other position, the only task queued then;
    // elsewhere it helps nobody: only the free worker takes it.
    while (!a_started.load())
      boost::this_thread::yield();
    if (threads_ == 1)
      while (!other_started.load())
        pool.try_executing_one();
    while (!a_done.load() || !b_ran.load())
      boost::this_thread::yield();
    release.store(true);
    return seen;
  }

private:
  static thread_local bool held_here; // the calling thread is inside the critical section

  unsigned threads_;
  bool isolated_;
};

thread_local bool hazard_run::held_here = false;

// Shape 1: a function-local static whose initialiser runs the parallel algorithm. Each run needs
// a static of its own: one per instantiation.
template <int N>
struct lazy_singleton
{
  template <class Body>
  static int& instance(Body& body)
  {
    static int value = (body(), N);
    return value;
  }
};

template <int N>
outcome static_init_shape(unsigned threads, bool isolated)
{
  hazard_run run(threads, isolated);
  return run.run([](auto&& body) {
    std::function<void()> b = body;
    lazy_singleton<N>::instance(b);
  });
}

} // namespace

BOOST_AUTO_TEST_CASE(function_local_static)
{
  // The initialiser runs once; a second caller on another thread waits for it, and one on the
  // same thread (the hazard) would deadlock: it counts as entered_inside instead.
  const outcome o1 = static_init_shape<1>(1, false), i1 = static_init_shape<2>(1, true);
  const outcome o2 = static_init_shape<3>(2, false), i2 = static_init_shape<4>(2, true);
  const outcome o4 = static_init_shape<5>(4, false), i4 = static_init_shape<6>(4, true);
  for (const outcome& o : {o1, o2, o4})
    BOOST_TEST((o.entered_inside == 1 && o.entered_after == 0));
  for (const outcome& i : {i1, i2, i4})
    BOOST_TEST((i.entered_inside == 0 && i.entered_after == 1));
}

BOOST_AUTO_TEST_CASE(call_once)
{
  for (unsigned threads : {1u, 2u, 4u})
    for (bool isolated : {false, true})
    {
      std::once_flag flag;
      hazard_run run(threads, isolated);
      const outcome o = run.run([&flag](auto&& body) { std::call_once(flag, body); });
      BOOST_TEST_CONTEXT("threads " << threads << ", isolated " << isolated)
      {
        BOOST_TEST(o.entered_inside == (isolated ? 0 : 1));
        BOOST_TEST(o.entered_after == (isolated ? 1 : 0));
      }
    }
}

BOOST_AUTO_TEST_CASE(cache_filled_under_a_mutex)
{
  for (unsigned threads : {1u, 2u, 4u})
    for (bool isolated : {false, true})
    {
      std::mutex mtx;
      std::map<int, int> cache;
      hazard_run run(threads, isolated);
      const outcome o = run.run([&](auto&& body) {
        std::lock_guard<std::mutex> lk(mtx);
        cache[static_cast<int>(cache.size())] = 1;
        body();
      });
      BOOST_TEST_CONTEXT("threads " << threads << ", isolated " << isolated)
      {
        BOOST_TEST(o.entered_inside == (isolated ? 0 : 1));
        BOOST_TEST(o.entered_after == (isolated ? 1 : 0));
        BOOST_TEST(cache.size() == (isolated ? 2u : 1u));
      }
    }
}

namespace {

// join(f), then f's value.
template <class T>
T joined(joinable_future<T>& f)
{
  fj::join(f);
  return f.get();
}

template <class T>
T joined(joinable_future<T>&& f)
{
  return joined(f);
}

int fork_fib(fork_join_thread_pool& pool, int n)
{
  if (n < 2)
    return n;
  joinable_future<int> a = fork(pool, fork_fib, std::ref(pool), n - 1);
  const int b = fork_fib(pool, n - 2);
  return joined(a) + b;
}

int invoke_fib(int n)
{
  if (n < 2)
    return n;
  int a = 0, b = 0;
  fj::parallel_invoke([&] { a = invoke_fib(n - 1); }, [&] { b = invoke_fib(n - 2); });
  return a + b;
}

int block_fib(int n)
{
  if (n < 2)
    return n;
  int a = 0, b = 0;
  fj::define_task_block([&](fj::task_block& tb) {
    tb.run([&] { a = block_fib(n - 1); });
    b = block_fib(n - 2);
  });
  return a + b;
}

int serial_fib(int n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }

int isolated_twice(int n) { return fj::isolate([n] { return invoke_fib(n); }); }

} // namespace

// Tasks made inside a region carry it: whichever thread runs them, their waits block instead of
// parking, so no frame parks at all while everything runs inside regions.
BOOST_AUTO_TEST_CASE(tasks_made_inside_are_isolated_everywhere)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    const int n = 22;
    joinable_future<int> r = fork(pool, [&pool] { return pool.isolate([&pool] { return fork_fib(pool, n); }); });
    BOOST_TEST(joined(r) == serial_fib(n));
    joinable_future<int> s = fork(pool, [] { return fj::isolate([] { return invoke_fib(n) + block_fib(n); }); });
    BOOST_TEST(joined(s) == 2 * serial_fib(n));
    BOOST_TEST(pool.statistics().frames_parked == 0u);
  }
}

// Random fully strict trees of the three kinds of fork, some subtrees in (nested) regions, on
// pool threads and from outside: results against serial code, every leaf once.
BOOST_AUTO_TEST_CASE(random_strict_trees_inside_regions)
{
  std::mt19937 rng(20261128);
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    for (int round = 0; round < 20; ++round)
    {
      const unsigned seed = static_cast<unsigned>(rng());
      std::atomic<std::uint64_t> leaves{0};
      // kind: 0 fork/join, 1 parallel_invoke, 2 task block; every third level may isolate.
      struct tree
      {
        fork_join_thread_pool& pool;
        std::atomic<std::uint64_t>& leaves;
        std::uint64_t operator()(unsigned s, int depth) const
        {
          if (depth == 0)
          {
            leaves.fetch_add(1, std::memory_order_relaxed);
            return s % 7;
          }
          const unsigned kind = s % 3, l = s * 1103515245u + 12345u, r = l * 1103515245u + 12345u;
          auto both = [&]() -> std::uint64_t {
            std::uint64_t a = 0, b = 0;
            if (kind == 0)
            {
              joinable_future<std::uint64_t> f = fork(pool, *this, l, depth - 1);
              b = (*this)(r, depth - 1);
              a = joined(f);
            }
            else if (kind == 1)
              fj::parallel_invoke(pool, [&] { a = (*this)(l, depth - 1); }, [&] { b = (*this)(r, depth - 1); });
            else
              fj::define_task_block(pool, [&](fj::task_block& tb) {
                tb.run([&] { a = (*this)(l, depth - 1); });
                b = (*this)(r, depth - 1);
              });
            return a + b;
          };
          return (s >> 8) % 3 == 0 ? fj::isolate(both) : both();
        }
      };
      struct serial_tree
      {
        std::uint64_t operator()(unsigned s, int depth) const
        {
          if (depth == 0)
            return s % 7;
          const unsigned l = s * 1103515245u + 12345u, r = l * 1103515245u + 12345u;
          return (*this)(l, depth - 1) + (*this)(r, depth - 1);
        }
      };
      const int depth = 10;
      const tree t{pool, leaves};
      joinable_future<std::uint64_t> f = fork(pool, t, seed, depth);
      BOOST_TEST(joined(f) == serial_tree()(seed, depth));
      BOOST_TEST(leaves.load() == (std::uint64_t(1) << depth));
    }
  }
}

// A chain of nested forks inside a region, deeper than a worker's small stack holds: the waits,
// which may not park, go on helping on fresh stacks, and the chain finishes.
BOOST_AUTO_TEST_CASE(deep_chain_goes_on_on_fresh_stacks)
{
  struct chain
  {
    static int down(int n)
    {
      if (n == 0)
        return 0;
      int below = 0;
      // The recursion in the queued child: a join runs it (the first child runs inline, as
      // plain recursion that no library can move to another stack).
      fj::parallel_invoke([] {}, [&] { below = down(n - 1); });
      return below + 1;
    }
  };
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool::options opts;
    opts.stack_size = 256 * 1024;
    opts.fiber_stack_size = 256 * 1024;
    fork_join_thread_pool pool(threads, opts);
    const int depth = 20000;
    joinable_future<int> r = fork(pool, [] { return fj::isolate([] { return chain::down(depth); }); });
    r.wait(); // no help from this thread: the chain runs on the pool's threads only
    BOOST_TEST(r.get() == depth);
    BOOST_TEST(pool.statistics().frames_parked == 0u);
  }
}

int seven() { return 7; }

// isolate returns f's result and throws f's exception, with function pointers and lambdas; the
// region ends with f either way, and regions nest.
BOOST_AUTO_TEST_CASE(results_exceptions_and_nesting)
{
  fork_join_thread_pool pool(2);
  BOOST_TEST(fj::isolate(&seven) == 7);
  BOOST_TEST(pool.isolate(seven) == 7);
  int (*nested)(int) = &isolated_twice;
  joinable_future<int> r = fork(pool, [nested] { return fj::isolate([nested] { return nested(18); }); });
  BOOST_TEST(joined(r) == serial_fib(18));
  joinable_future<bool> after_throw = fork(pool, [] {
    try
    {
      fj::isolate([]() -> int { throw std::runtime_error("inside"); });
    }
    catch (const std::runtime_error&)
    {
      return !boost::detail::fork_join::current_isolated();
    }
    return false;
  });
  BOOST_TEST(joined(after_throw));
  BOOST_TEST(!boost::detail::fork_join::current_isolated());
  fj::isolate([] {
    BOOST_TEST(boost::detail::fork_join::current_isolated());
    fj::isolate([] { BOOST_TEST(boost::detail::fork_join::current_isolated()); });
    BOOST_TEST(boost::detail::fork_join::current_isolated());
  });
  BOOST_TEST(!boost::detail::fork_join::current_isolated());
}

// A timed join inside a region blocks until its deadline instead of parking, and says which
// came first.
BOOST_AUTO_TEST_CASE(timed_joins_inside_a_region)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool pool(threads);
    boost::promise<int> never;
    boost::future<int> pending = never.get_future();
    joinable_future<int> ready = fork(pool, [] { return 5; });
    joinable_future<bool> r = fork(pool, [&] {
      return fj::isolate([&] {
        const boost::future_status late = fj::join_for(pending, boost::chrono::milliseconds(20));
        const boost::future_status done = ready.join_for(boost::chrono::seconds(600));
        return late == boost::future_status::timeout && done == boost::future_status::ready && ready.get() == 5;
      });
    });
    r.wait();
    BOOST_TEST(r.get());
    BOOST_TEST(pool.statistics().frames_parked == 0u);
    never.set_value(1);
  }
}

BOOST_AUTO_TEST_SUITE_END()
