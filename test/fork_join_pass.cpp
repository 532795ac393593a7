// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork / join / joinable_future: no deadlock for acyclic task graphs on a fixed number of
// threads, results checked against serial code. Public API only.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE fork_join
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/latch.hpp>

#include <atomic>
#include <functional>
#include <list>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

BOOST_AUTO_TEST_SUITE(fork_join_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;

static_assert(std::is_base_of<boost::future<int>, joinable_future<int> >::value, "derives from boost::future");
static_assert(std::is_convertible<boost::future<int>&&, joinable_future<int> >::value, "implicit from future&&");
static_assert(std::is_nothrow_move_constructible<joinable_future<int> >::value, "movable");
static_assert(!std::is_copy_constructible<joinable_future<int> >::value, "move-only, as boost::future");
static_assert(boost::is_future_type<joinable_future<void> >::value, "a future type");

int serial_fib(int n) { return n < 2 ? n : serial_fib(n - 1) + serial_fib(n - 2); }

// The article's fib, with fork/join.
int fib(fork_join_thread_pool& ex, int n)
{
  if (n == 0)
    return 0;
  if (n == 1)
    return 1;
  joinable_future<int> f1 = fork(ex, fib, std::ref(ex), n - 1);
  joinable_future<int> f2 = fork(ex, fib, std::ref(ex), n - 2);
  join(ex, f1, f2);
  return f1.get() + f2.get();
}

// The same with boost::async and the future's own join(): the pool is the one recorded by
// boost::async in the shared state.
int fib_async(fork_join_thread_pool& ex, int n)
{
  if (n < 2)
    return n;
  joinable_future<int> f1 = boost::async(ex, [&ex, n] { return fib_async(ex, n - 1); });
  joinable_future<int> f2 = boost::async(ex, [&ex, n] { return fib_async(ex, n - 2); });
  f1.join();
  f2.join();
  return f1.get() + f2.get();
}

BOOST_AUTO_TEST_CASE(fib_on_1_2_4_threads)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    for (int n : {0, 1, 2, 10, 20})
    {
      joinable_future<int> f = fork(pool, fib, std::ref(pool), n);
      f.join();
      BOOST_TEST(f.get() == serial_fib(n));
    }
    joinable_future<int> g = boost::async(pool, [&pool] { return fib_async(pool, 16); });
    g.join();
    BOOST_TEST(g.get() == serial_fib(16));
  }
}

// The article's DAG: a sibling joins another sibling, repeated many times.
BOOST_AUTO_TEST_CASE(foobar_dag)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    for (int rep = 0; rep < 2000; ++rep)
    {
      int foo_done = 0; // plain: ordered by the joins, checked by ThreadSanitizer
      int bar_saw = -1;
      joinable_future<int> f1 = fork(pool, [&] {
        foo_done = 1;
        return 1;
      });
      joinable_future<void> f2 = fork(pool, [&] {
        join(pool, f1);
        bar_saw = foo_done;
      });
      join(pool, f1, f2);
      BOOST_REQUIRE_EQUAL(bar_saw, 1);
      BOOST_REQUIRE_EQUAL(f1.get(), 1);
    }
  }
}

// The article's "evil case", which it leaves unsolved: every worker is already inside a join
// when the task they all wait for is submitted, last, from outside. The joiners must wake on
// the new work and run it.
BOOST_AUTO_TEST_CASE(evil_case_join_before_submission)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    for (int rep = 0; rep < 20; ++rep)
    {
      fork_join_thread_pool pool(threads);
      boost::promise<int> last_promise;
      boost::shared_future<int> last = last_promise.get_future().share();
      boost::latch entered(threads);
      std::vector<joinable_future<int> > waiters;
      for (unsigned i = 0; i < threads; ++i)
        waiters.push_back(fork(pool, [&] {
          entered.count_down();
          join(pool, last); // no recorded executor: helps `pool`, then sleeps until work or ready
          return last.get() + 1;
        }));
      entered.wait();
      if (rep % 2 == 0)
        boost::this_thread::sleep_for(boost::chrono::milliseconds(5)); // let them park
      pool.submit([&] { last_promise.set_value(41); });
      join(pool, waiters.begin(), waiters.end());
      for (joinable_future<int>& w : waiters)
        BOOST_REQUIRE_EQUAL(w.get(), 42);
    }
  }
}

// The same, with the joiners waiting on futures of tasks that do not exist yet, and the
// late task forking more work that the parked joiners must pick up.
BOOST_AUTO_TEST_CASE(evil_case_late_task_forks)
{
  fork_join_thread_pool pool(2);
  boost::promise<int> p;
  boost::shared_future<int> s = p.get_future().share();
  boost::latch entered(2);
  joinable_future<int> a = fork(pool, [&] {
    entered.count_down();
    join(pool, s);
    return s.get();
  });
  joinable_future<int> b = fork(pool, [&] {
    entered.count_down();
    join(pool, s);
    return s.get();
  });
  entered.wait();
  boost::this_thread::sleep_for(boost::chrono::milliseconds(5));
  pool.submit([&] {
    joinable_future<int> x = fork(pool, fib, std::ref(pool), 15);
    x.join();
    p.set_value(x.get());
  });
  join(a, b);
  BOOST_TEST(a.get() == serial_fib(15));
  BOOST_TEST(b.get() == serial_fib(15));
}

BOOST_AUTO_TEST_CASE(join_from_a_non_worker_thread_helps)
{
  boost::latch started(1), release(1); // outlive the pool, whose task uses them
  fork_join_thread_pool pool(1);
  pool.submit([&] {
    started.count_down();
    release.wait(); // the only worker is busy: the joiner must run the task itself
  });
  started.wait();
  joinable_future<std::thread::id> f = fork(pool, [] { return std::this_thread::get_id(); });
  f.join();
  BOOST_TEST((f.get() == std::this_thread::get_id()));
  // The free join() helps the pool a forked future carries, as the member does.
  joinable_future<std::thread::id> g = fork(pool, [] { return std::this_thread::get_id(); });
  joinable_future<std::thread::id> h = fork(pool, [] { return std::this_thread::get_id(); });
  fj::join(g, h);
  BOOST_TEST((g.get() == std::this_thread::get_id()));
  BOOST_TEST((h.get() == std::this_thread::get_id()));
  release.count_down();
}

BOOST_AUTO_TEST_CASE(join_without_executor_waits)
{
  boost::promise<int> p;
  joinable_future<int> f = p.get_future();
  std::thread setter([&p] {
    boost::this_thread::sleep_for(boost::chrono::milliseconds(5));
    p.set_value(9);
  });
  f.join(); // no recorded pool, not a worker: plain wait
  BOOST_TEST(f.is_ready());
  BOOST_TEST(f.get() == 9);
  setter.join();

  joinable_future<int> invalid;
  BOOST_CHECK_THROW(invalid.join(), boost::future_uninitialized);

  boost::future<int> deferred = boost::async(boost::launch::deferred, [] { return 5; });
  fj::join(deferred); // a deferred task runs on the joining thread
  BOOST_TEST(deferred.get() == 5);
}

// Tasks of pool A fork onto pool B and back; joins help the pool the future belongs to and
// the joiner's own pool.
int ping(fork_join_thread_pool& a, fork_join_thread_pool& b, int n)
{
  if (n < 2)
    return n;
  joinable_future<int> x = fork(b, ping, std::ref(b), std::ref(a), n - 1);
  joinable_future<int> y = fork(a, ping, std::ref(a), std::ref(b), n - 2);
  join(x, y);
  return x.get() + y.get();
}

BOOST_AUTO_TEST_CASE(join_across_two_pools)
{
  for (unsigned threads : {1u, 2u})
  {
    fork_join_thread_pool a(threads), b(threads);
    joinable_future<int> f = fork(a, ping, std::ref(a), std::ref(b), 18);
    f.join();
    BOOST_TEST(f.get() == serial_fib(18));
  }
}

struct custom_error : std::runtime_error
{
  explicit custom_error(int v) : std::runtime_error("custom"), value(v) {}
  int value;
};

BOOST_AUTO_TEST_CASE(exceptions_reach_the_joiner)
{
  fork_join_thread_pool pool(2);
  joinable_future<int> f = fork(pool, []() -> int { throw custom_error(3); });
  f.join(); // join never throws the task's exception...
  BOOST_TEST(f.has_exception());
  try
  {
    f.get(); // ...get does, with its type intact
    BOOST_FAIL("get() did not throw");
  }
  catch (const custom_error& e)
  {
    BOOST_TEST(e.value == 3);
  }

  // From deep inside a fork tree, through several joins.
  std::function<int(int)> thrower = [&](int depth) -> int {
    if (depth == 0)
      throw custom_error(7);
    joinable_future<int> a = fork(pool, thrower, depth - 1);
    joinable_future<int> b = fork(pool, [] { return 1; });
    join(pool, a, b);
    return a.get() + b.get();
  };
  joinable_future<int> g = fork(pool, thrower, 6);
  g.join();
  BOOST_CHECK_THROW(g.get(), custom_error);

  // boost::async on our pool stores the exception as fork() does: the very type reaches get()
  // (Boost's own async keeps only the standard base of a user exception up to Boost 1.81; the
  // public-API-only build uses Boost's, see executor_conformance_pass.cpp).
  joinable_future<void> h = boost::async(pool, [] { throw custom_error(1); });
  h.join();
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  BOOST_CHECK_THROW(h.get(), std::runtime_error);
#else
  BOOST_CHECK_THROW(h.get(), custom_error);
#endif
}

// boost::async(pool, f) from a task is queued as a fork: its join runs the child on the joining
// thread (Boost's async would queue it where the joiner may not take it, and the join would
// have to park). And the future is Boost's: its executor is the pool.
BOOST_AUTO_TEST_CASE(async_from_a_task_is_joined_as_a_fork)
{
  // The outcome reaches this thread through a plain promise: a join of a fork would let this
  // thread help, and leapfrogging lets a helper take a child the worker is joining.
  boost::promise<bool> outcome;
  fork_join_thread_pool pool(1);
  pool.submit([&pool, &outcome] {
    const std::thread::id self = std::this_thread::get_id();
    boost::future<std::thread::id> a = boost::async(pool, [] { return std::this_thread::get_id(); });
    fj::join(pool, a);
    joinable_future<std::thread::id> b = boost::async(pool, [] { return std::this_thread::get_id(); });
    b.join();
    boost::future<std::thread::id> c = boost::async(pool, [] { return std::this_thread::get_id(); });
    fj::join(c);
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    // Boost's own async (executor_conformance_pass.cpp): the tasks run on the pool, not
    // necessarily on this thread.
    (void)self;
    const std::thread::id none;
    outcome.set_value(a.get() != none && b.get() != none && c.get() != none);
#else
    outcome.set_value(a.get() == self && b.get() == self && c.get() == self);
#endif
  });
  BOOST_TEST(outcome.get_future().get());
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  BOOST_TEST(pool.statistics().frames_parked == 0u);
#endif

  boost::future<int> f = boost::async(pool, [] { return 1; });
  boost::future<bool> g = f.then([&pool](boost::future<int> x) { return x.get() == 1 && fork_join_thread_pool::current() == &pool; });
  BOOST_TEST(g.get()); // the continuation ran on the pool the future recorded
}

// A future forked by a pool thread, or made joinable there from boost::async, holds no
// reference to the pool: joined from outside, it waits (the pool's own threads run the task),
// also once the pool is gone.
BOOST_AUTO_TEST_CASE(a_fork_from_a_task_joined_outside_the_pool)
{
  boost::latch forked(1), release(1);
  joinable_future<int> inner, late, late_async;
  {
    fork_join_thread_pool pool(2);
    pool.submit([&] {
      inner = fork(pool, [&release] {
        release.wait();
        return 5;
      });
      late = fork(pool, [] { return 6; });
      late_async = boost::async(pool, [] { return 7; }); // made joinable on a pool thread
      forked.count_down();
    });
    forked.wait();
    release.count_down();
    inner.join();
    BOOST_TEST(inner.get() == 5);
  }
  late.join(); // the pool is gone: the future is ready, nothing of the pool is touched
  BOOST_TEST(late.get() == 6);
  late_async.join(); // the same through the executor the shared state recorded
  BOOST_TEST(late_async.get() == 7);
}

BOOST_AUTO_TEST_CASE(join_overloads)
{
  fork_join_thread_pool pool(2);
  boost::future<int> plain = boost::async(pool, [] { return 1; });
  boost::shared_future<int> shared = boost::async(pool, [] { return 2; }).share();
  joinable_future<int> joinable = fork(pool, [] { return 3; });
  joinable_future<void> nothing = fork(pool, [] {});
  fj::join(pool, plain, shared, joinable, nothing); // any mix
  BOOST_TEST(plain.is_ready());
  BOOST_TEST(shared.is_ready());
  BOOST_TEST(joinable.is_ready());
  BOOST_TEST(nothing.is_ready());
  BOOST_TEST(plain.get() + shared.get() + joinable.get() == 6);

  boost::future<int> p1 = boost::async(pool, [] { return 4; });
  boost::future<int> p2 = boost::async(pool, [] { return 5; });
  fj::join(p1, p2); // no executor argument: each on its recorded pool
  BOOST_TEST(p1.get() + p2.get() == 9);

  // Two futures after an executor are two futures, not a range.
  joinable_future<int> a = fork(pool, [] { return 1; });
  joinable_future<int> b = fork(pool, [] { return 2; });
  join(pool, a, b);
  BOOST_TEST(a.get() + b.get() == 3);

  std::vector<joinable_future<int> > v;
  for (int i = 0; i < 100; ++i)
    v.push_back(fork(pool, [i] { return i; }));
  join(pool, v.begin(), v.end());
  int sum = 0;
  for (auto& f : v)
    sum += f.get();
  BOOST_TEST(sum == 4950);

  // A range of plain futures longer than the tasks join caches (16): the later ones are
  // looked up again at each check. From outside and from a task of the pool.
  auto async_range = [&pool] {
    std::vector<boost::future<int> > asyncs;
    for (int i = 0; i < 40; ++i)
      asyncs.push_back(boost::async(pool, [i] { return i; }));
    join(pool, asyncs.begin(), asyncs.end());
    int total = 0;
    for (auto& f : asyncs)
      total += f.get();
    return total;
  };
  BOOST_TEST(async_range() == 780);
  BOOST_TEST(fork(pool, async_range).get() == 780);

  std::list<boost::shared_future<int> > l;
  for (int i = 0; i < 10; ++i)
    l.push_back(boost::async(pool, [i] { return i; }).share());
  fj::join(l.begin(), l.end());
  for (auto& f : l)
    BOOST_TEST(f.is_ready());

  std::vector<boost::future<int> > empty;
  join(pool, empty.begin(), empty.end());
}

// boost::future's own interface works unchanged on a joinable_future.
BOOST_AUTO_TEST_CASE(joinable_future_is_a_future)
{
  fork_join_thread_pool pool(2);
  joinable_future<int> f = fork(pool, [] { return 2; });
  boost::future<int> g = f.then(pool, [](boost::future<int> x) { return x.get() * 10; });
  joinable_future<int> h = std::move(g);
  h.join();
  BOOST_TEST(h.get() == 20);

  joinable_future<int> a = fork(pool, [] { return 1; });
  joinable_future<int> b = fork(pool, [] { return 2; });
  boost::wait_for_all(a, b);
  BOOST_TEST(a.get() + b.get() == 3);

  joinable_future<int> moved_from = fork(pool, [] { return 4; });
  joinable_future<int> target;
  target = std::move(moved_from);
  BOOST_TEST(!moved_from.valid());
  target.join();
  BOOST_TEST(target.get() == 4);
}

// then(f) without an executor records a reference to its parent's executor object; join must
// not use it (it may be dangling), and falls back to the worker's pool or to waiting.
BOOST_AUTO_TEST_CASE(join_on_continuation_without_executor)
{
  fork_join_thread_pool pool(2);
  boost::future<int> cont;
  {
    boost::future<int> parent = boost::async(pool, [] { return 1; });
    cont = parent.then([](boost::future<int> x) { return x.get() + 1; });
  }
  joinable_future<int> j = std::move(cont);
  j.join();
  BOOST_TEST(j.get() == 2);
}

// A future that outlives its pool can still be joined: the recorded reference keeps the
// (closed, drained) scheduler alive.
BOOST_AUTO_TEST_CASE(join_after_the_pool_is_gone)
{
  joinable_future<int> f;
  joinable_future<int> g;
  {
    fork_join_thread_pool pool(1);
    f = fork(pool, [] { return 1; });
    g = boost::async(pool, [] { return 2; });
  }
  f.join();
  g.join();
  BOOST_TEST(f.get() + g.get() == 3);
}

BOOST_AUTO_TEST_CASE(fork_without_an_executor_uses_the_current_pool)
{
  // fork(f, args...) forks onto the pool whose task runs it, else the default pool.
  fork_join_thread_pool pool(2);
  joinable_future<int> outer = fork(pool, [&] {
    joinable_future<fork_join_thread_pool*> child =
        boost::executors::fork([] { return fork_join_thread_pool::current(); });
    child.join();
    BOOST_TEST(child.get() == &pool);
    joinable_future<int> sum = boost::executors::fork([](int a, int b) { return a + b; }, 20, 22);
    sum.join();
    return sum.get();
  });
  outer.join();
  BOOST_TEST(outer.get() == 42);
  joinable_future<fork_join_thread_pool*> outside =
      boost::executors::fork([] { return fork_join_thread_pool::current(); });
  outside.join();
  BOOST_TEST(outside.get() == &boost::executors::default_fork_join_pool());
}

BOOST_AUTO_TEST_SUITE_END()
