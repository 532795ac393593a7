// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool: basic_thread_pool's interface, submission order, shutdown.
// Public API only.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE fork_join_thread_pool
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/latch.hpp>

#include <atomic>
#include <functional>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>

#ifndef BOOST_THREAD_FJ_TEST_SCALE
#define BOOST_THREAD_FJ_TEST_SCALE 1 // the CMake build sets it (larger under the sanitizers); b2 does not
#endif

BOOST_AUTO_TEST_SUITE(fork_join_thread_pool_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;

static_assert(!std::is_copy_constructible<fork_join_thread_pool>::value, "non-copyable");
static_assert(!std::is_copy_assignable<fork_join_thread_pool>::value, "non-copyable");
static_assert(std::is_same<boost::fork_join_thread_pool, fork_join_thread_pool>::value, "lifted into boost");

BOOST_AUTO_TEST_CASE(every_submitted_closure_runs_exactly_once)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    const int n = 20000;
    std::vector<int> runs(n, 0); // plain ints: the destructor's happens-before is what we check
    {
      fork_join_thread_pool pool(threads);
      for (int i = 0; i < n; ++i)
        pool.submit([&runs, i] { ++runs[i]; });
    }
    for (int i = 0; i < n; ++i)
      BOOST_REQUIRE_EQUAL(runs[i], 1);
  }
}

// Tasks forked and never joined, stolen and finished by other threads than the ones that
// forked them: each runs exactly once before join() returns (the pool's count of unfinished
// tasks is kept in per-thread credits, pool_core.hpp).
void spray(fork_join_thread_pool& pool, std::atomic<long>& ran, int depth)
{
  ran.fetch_add(1, std::memory_order_relaxed);
  if (depth == 0)
    return;
  for (int i = 0; i < 2; ++i)
    fork(pool, spray, std::ref(pool), std::ref(ran), depth - 1); // the future is dropped
}

BOOST_AUTO_TEST_CASE(unjoined_forks_all_run_before_join_returns)
{
  for (unsigned threads : {1u, 2u, 3u})
    for (int round = 0; round < 5; ++round)
    {
      std::atomic<long> ran{0};
      fork_join_thread_pool pool(threads);
      for (int i = 0; i < 4; ++i)
        pool.submit([&pool, &ran] { spray(pool, ran, 10); });
      pool.close();
      pool.join();
      BOOST_TEST(ran.load() == 4 * ((1L << 11) - 1));
    }
}

BOOST_AUTO_TEST_CASE(default_constructor_and_zero_threads)
{
  {
    fork_join_thread_pool pool;
    int x = 0;
    pool.submit([&x] { x = 42; });
    pool.close();
    pool.join();
    BOOST_TEST(x == 42);
  }
  BOOST_CHECK_THROW(fork_join_thread_pool(0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(move_only_closure)
{
  std::unique_ptr<int> p(new int(7));
  int seen = 0;
  {
    fork_join_thread_pool pool(2);
    pool.submit([p = std::move(p), &seen] { seen = *p; });
  }
  BOOST_TEST(seen == 7);
}

std::atomic<bool> plain_function_ran{false};
void plain_function_counter() { plain_function_ran = true; }
int entry_calls_fp = 0;
std::mutex entry_mtx;
void count_entry(fork_join_thread_pool&)
{
  std::lock_guard<std::mutex> lk(entry_mtx);
  ++entry_calls_fp;
}

BOOST_AUTO_TEST_CASE(at_thread_entry_function_pointer)
{
  {
    fork_join_thread_pool pool(3, &count_entry);
    pool.submit(&plain_function_counter);
    // Ran before the destructor: one still queued there would run on fresh threads, which call
    // at_thread_entry too (documented), and a loaded machine made the count 6 (1 run in 40).
    while (!plain_function_ran)
      std::this_thread::yield();
  }
  BOOST_TEST(entry_calls_fp == 3);
}

// Each worker must get its own copy: a functor that carries state (here a string) would be
// moved-from in all threads but the first if it were forwarded to each.
struct entry_functor
{
  std::string tag;
  std::shared_ptr<std::mutex> mtx;
  std::shared_ptr<std::multiset<std::string> > seen;
  void operator()(fork_join_thread_pool&)
  {
    std::lock_guard<std::mutex> lk(*mtx);
    seen->insert(tag);
  }
};

BOOST_AUTO_TEST_CASE(at_thread_entry_functor_copied_per_thread)
{
  auto seen = std::make_shared<std::multiset<std::string> >();
  {
    entry_functor f{"a long enough tag to defeat the small string optimisation", std::make_shared<std::mutex>(), seen};
    fork_join_thread_pool pool(4, std::move(f));
  }
  BOOST_TEST(seen->size() == 4u);
  BOOST_TEST(seen->count("a long enough tag to defeat the small string optimisation") == 4u);

  int lambda_calls = 0;
  std::mutex m;
  {
    fork_join_thread_pool pool(2, [&](fork_join_thread_pool&) {
      std::lock_guard<std::mutex> lk(m);
      ++lambda_calls;
    });
  }
  BOOST_TEST(lambda_calls == 2);
}

// From a worker: submit_front runs next (LIFO), submit_back after everything the owner has.
BOOST_AUTO_TEST_CASE(worker_submission_order)
{
  std::vector<int> order;
  {
    fork_join_thread_pool pool(1);
    pool.submit([&] {
      pool.submit_back([&] { order.push_back(1); });
      pool.submit_front([&] { order.push_back(2); });
      pool.submit_front([&] { order.push_back(3); });
      pool.submit([&] { order.push_back(4); }); // == submit_back
    });
  }
  BOOST_TEST(order == (std::vector<int>{3, 2, 1, 4}), boost::test_tools::per_element());
}

// submit_back from a worker goes to the back of the shared queue (the documented behaviour;
// a comment in the header once said "its own deque"): behind what outside threads queued
// before it, not ahead of it as a task in the worker's own deque would be.
BOOST_AUTO_TEST_CASE(worker_submit_back_goes_to_the_shared_queue)
{
  std::vector<int> order;
  boost::latch started(1), queued(1), submitted(1);
  {
    fork_join_thread_pool pool(1);
    pool.submit([&] {
      started.count_down();
      queued.wait(); // the outside closure is in the shared queue now
      pool.submit_back([&] { order.push_back(2); });
      submitted.count_down();
    });
    started.wait();
    pool.submit_back([&] { order.push_back(1); });
    queued.count_down();
    submitted.wait(); // before the destructor interrupts the closure
  }
  BOOST_TEST(order == (std::vector<int>{1, 2}), boost::test_tools::per_element());
}

// From outside: the shared queue, front or back.
BOOST_AUTO_TEST_CASE(external_submission_order)
{
  std::vector<int> order;
  boost::latch started(1), release(1);
  {
    fork_join_thread_pool pool(1);
    pool.submit([&] {
      started.count_down();
      release.wait(); // keep the only worker busy while the queue fills
    });
    started.wait();
    pool.submit_back([&] { order.push_back(1); });
    pool.submit_back([&] { order.push_back(2); });
    pool.submit_front([&] { order.push_back(3); });
    release.count_down();
  }
  BOOST_TEST(order == (std::vector<int>{3, 1, 2}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(try_executing_one_and_reschedule_until_from_outside)
{
  boost::latch started(1), release(1);
  fork_join_thread_pool pool(1);
  pool.submit([&] {
    started.count_down();
    release.wait();
  });
  started.wait();
  int a = 0, b = 0, c = 0;
  pool.submit([&] { a = 1; });
  pool.submit([&] { b = 1; });
  pool.submit([&] { c = 1; });
  BOOST_TEST(pool.try_executing_one()); // runs `a` here, on the calling thread
  BOOST_TEST(a == 1);
  BOOST_TEST(pool.reschedule_until([&] { return b == 1; }));
  pool.schedule_one_or_yield();
  BOOST_TEST(c == 1);
  BOOST_TEST(!pool.try_executing_one());
  BOOST_TEST(!pool.reschedule_until([] { return false; }));
  release.count_down();
}

BOOST_AUTO_TEST_CASE(close_rejects_outside_submissions_but_finishes_accepted_work)
{
  std::atomic<int> children{0};
  boost::latch started(1), release(1);
  fork_join_thread_pool pool(2);
  pool.submit([&] {
    started.count_down();
    release.wait();
    // Children of accepted work are accepted after close(): the parent must be able to finish.
    for (int i = 0; i < 100; ++i)
      pool.submit([&] { children.fetch_add(1, std::memory_order_relaxed); });
  });
  started.wait();
  BOOST_TEST(!pool.closed());
  pool.close();
  BOOST_TEST(pool.closed());
  BOOST_CHECK_THROW(pool.submit([] {}), boost::sync_queue_is_closed);
  BOOST_CHECK_THROW(pool.submit_front([] {}), boost::sync_queue_is_closed);
  release.count_down();
  pool.join();
  BOOST_TEST(children.load() == 100);
}

BOOST_AUTO_TEST_CASE(destructor_runs_everything_accepted)
{
  // The destructor interrupts the closure that runs, as basic_thread_pool's does; but
  // basic_thread_pool then drops the closures still queued, and ours runs them all.
  std::atomic<int> entered{0};
  std::atomic<int> interrupted{0};
  int ran = 0;
  {
    fork_join_thread_pool pool(1);
    for (int i = 0; i < 1000; ++i)
      pool.submit([&] {
        entered.fetch_add(1, std::memory_order_relaxed);
        try
        {
          boost::this_thread::interruption_point();
        }
        catch (boost::thread_interrupted&)
        {
          interrupted.fetch_add(1, std::memory_order_relaxed);
          throw;
        }
        ++ran;
      });
  }
  BOOST_TEST(entered.load() == 1000); // each exactly once
  BOOST_TEST(interrupted.load() <= 1); // at most the one running on the only worker
  BOOST_TEST(ran + interrupted.load() == 1000);
}

BOOST_AUTO_TEST_CASE(destructor_interrupts_a_closure_that_waits_and_runs_what_is_queued)
{
  // Regression: a closure that loops on an interruption point kept the destructor waiting
  // forever (the watchdog ended this test); basic_thread_pool's destructor interrupts it.
  boost::latch started(1);
  std::atomic<int> interrupted{0};
  int ran = 0;
  {
    fork_join_thread_pool pool(1);
    pool.submit([&] {
      started.count_down();
      try
      {
        for (;;)
          boost::this_thread::sleep_for(boost::chrono::milliseconds(1));
      }
      catch (boost::thread_interrupted&)
      {
        interrupted.fetch_add(1, std::memory_order_relaxed);
        throw;
      }
    });
    started.wait();
    for (int i = 0; i < 100; ++i)
      pool.submit([&ran] { ++ran; }); // queued behind the looping closure
  }
  BOOST_TEST(interrupted.load() == 1);
  BOOST_TEST(ran == 100);
}

BOOST_AUTO_TEST_CASE(default_size_has_basic_thread_pools_extra_thread)
{
  // basic_thread_pool() starts hardware_concurrency() + 1 threads, and code whose
  // closures block in future::get() (which does not help) relies on the extra one. Here
  // hardware_concurrency() closures block until one more closure runs; with only
  // hardware_concurrency() threads it never did (the watchdog ended this test).
  const unsigned hc = boost::thread::hardware_concurrency();
  boost::promise<void> go;
  boost::shared_future<void> gate = go.get_future().share();
  boost::latch blocked(hc), passed(hc);
  std::atomic<unsigned> through{0};
  fork_join_thread_pool pool;
  for (unsigned i = 0; i < hc; ++i)
    pool.submit([&] {
      blocked.count_down();
      gate.get();
      through.fetch_add(1, std::memory_order_relaxed);
      passed.count_down();
    });
  blocked.wait(); // hardware_concurrency() threads are blocked now
  pool.submit([&] { go.set_value(); });
  passed.wait();
  BOOST_TEST(through.load() == hc);
}

BOOST_AUTO_TEST_CASE(interrupt_and_join_runs_what_the_workers_left)
{
  boost::latch started(2);
  std::atomic<int> ran{0};
  std::atomic<int> interrupted{0};
  fork_join_thread_pool pool(2);
  for (int i = 0; i < 2; ++i)
    pool.submit([&] {
      started.count_down();
      try
      {
        boost::this_thread::sleep_for(boost::chrono::hours(1)); // an interruption point
      }
      catch (boost::thread_interrupted&)
      {
        interrupted.fetch_add(1, std::memory_order_relaxed);
        throw;
      }
    });
  started.wait();
  for (int i = 0; i < 500; ++i)
    pool.submit([&] { ran.fetch_add(1, std::memory_order_relaxed); });
  pool.interrupt_and_join();
  BOOST_TEST(interrupted.load() == 2);
  BOOST_TEST(ran.load() == 500);
  BOOST_TEST(pool.closed());
}

BOOST_AUTO_TEST_CASE(idle_workers_wake_for_late_work)
{
  // Submissions spaced out so that workers park between them: no wake-up may be lost.
  fork_join_thread_pool pool(2);
  for (int i = 0; i < 200; ++i)
  {
    boost::promise<void> done;
    boost::future<void> f = done.get_future();
    pool.submit([&done] { done.set_value(); });
    f.wait(); // a lost wake-up would hang here (and the watchdog would fail the test)
    if (i % 20 == 0)
      boost::this_thread::sleep_for(boost::chrono::milliseconds(2));
  }
}

// Regression: an at_thread_entry that submits after close() ran on a thread not yet
// marked as a worker, so its submission was an outside one, threw sync_queue_is_closed out of
// the thread function and terminated the process. It is a worker's submission now (accepted).
BOOST_AUTO_TEST_CASE(at_thread_entry_submits_after_close)
{
  std::atomic<bool> closed{false};
  std::atomic<int> ran{0};
  {
    fork_join_thread_pool pool(2, [&](fork_join_thread_pool& p) {
      while (!closed.load(std::memory_order_acquire))
        std::this_thread::yield();
      p.submit([&] { ran.fetch_add(1, std::memory_order_relaxed); });
    });
    pool.close();
    closed.store(true, std::memory_order_release);
    pool.join();
  }
  BOOST_TEST(ran.load() == 2);
}

// Regression: join() after interrupt() left a deep chain of nested parallel_invoke
// levels unfinished: the joining thread ran it on its own (small) stack and its nested joins
// stopped helping when the stack ran low, with no worker left. join() now runs what
// interrupted workers left on fresh worker threads, which have worker stacks.
int chain(fork_join_thread_pool& pool, int n)
{
  if (n == 0)
    return 0;
  int below = 0;
  boost::parallel_invoke(pool, [&] { below = chain(pool, n - 1); }, [] {});
  return below + 1;
}

BOOST_AUTO_TEST_CASE(join_after_interrupt_finishes_a_deep_chain)
{
  const int depth = 100000 / BOOST_THREAD_FJ_TEST_SCALE;
  boost::latch blocked(1);
  int result = 0; // written by the chain, read after join(): plain on purpose
  fork_join_thread_pool pool(1);
  pool.submit([&] {
    blocked.count_down();
    for (;;)
      boost::this_thread::sleep_for(boost::chrono::milliseconds(1)); // an interruption point
  });
  blocked.wait();
  pool.submit([&] { result = chain(pool, depth); }); // queued behind the blocker
  pool.interrupt();
  pool.join();
  BOOST_TEST(result == depth);
}

// Regression: two threads calling join() at once joined the same boost::thread objects
// unguarded (ThreadSanitizer reports the race; boost::thread::join on a thread another join
// is joining is undefined). Both calls return once everything has run.
BOOST_AUTO_TEST_CASE(two_threads_join_at_once)
{
  for (int round = 0; round < 20; ++round)
  {
    std::atomic<int> ran{0};
    fork_join_thread_pool pool(2);
    for (int i = 0; i < 100; ++i)
      pool.submit([&] { ran.fetch_add(1, std::memory_order_relaxed); });
    pool.close();
    std::thread other([&] { pool.join(); });
    pool.join();
    other.join();
    BOOST_TEST(ran.load() == 100);
  }
}

namespace {
std::size_t nested_sum(fork_join_thread_pool& pool, std::size_t n)
{
  if (n == 0)
    return 0;
  std::size_t a = 0, b = 0;
  boost::executors::parallel_invoke(
      pool, [&] { a = nested_sum(pool, n / 2); }, [&] { b = nested_sum(pool, n - 1 - n / 2); });
  return a + b + 1;
}
} // namespace

BOOST_AUTO_TEST_CASE(starts_under_an_address_space_limit)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  BOOST_TEST_MESSAGE("skipped: the sanitizers reserve more address space than such a limit allows");
#else
  // Regression: 640 MiB worker stacks made fork_join_thread_pool(4) throw thread_resource_error
  // under a 2 GiB address-space limit (ulimit -v, as job schedulers and CI set), where
  // basic_thread_pool starts. The pool now sizes its stacks from the limit, and falls back to
  // smaller ones when a thread cannot be started.
  rlimit old;
  BOOST_REQUIRE(getrlimit(RLIMIT_AS, &old) == 0);
  unsigned long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r"))
  {
    if (std::fscanf(f, "%lu", &pages) != 1)
      pages = 0;
    std::fclose(f);
  }
  BOOST_REQUIRE(pages > 0);
  rlimit low = old;
  low.rlim_cur = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(2) << 30);
  if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur <= low.rlim_cur)
  {
    BOOST_TEST_MESSAGE("skipped: the address space is already limited to less than this test sets");
    return;
  }
  BOOST_REQUIRE(setrlimit(RLIMIT_AS, &low) == 0);
  struct restore
  {
    rlimit r;
    ~restore() { setrlimit(RLIMIT_AS, &r); }
  } restore_old{old};
  std::atomic<int> ran{0};
  std::size_t sum = 0;
  {
    fork_join_thread_pool pool(4);
    for (int i = 0; i < 100; ++i)
      pool.submit([&ran] { ran.fetch_add(1, std::memory_order_relaxed); });
    boost::executors::parallel_invoke(pool, [&] { sum = nested_sum(pool, 100000); });
  }
  BOOST_TEST(ran.load() == 100);
  BOOST_TEST(sum == 100000u);
#endif
}

BOOST_AUTO_TEST_CASE(options_set_the_stack_size_and_the_thread_entry)
{
  // The stack size is a constructor option. Each pool thread reports the size of its
  // own stack from its at_thread_entry, which the same options carry.
  fork_join_thread_pool::options opts;
  opts.stack_size = std::size_t(2) << 20;
  std::atomic<int> entered{0};
  std::atomic<std::size_t> smallest{~std::size_t(0)}, largest{0};
  opts.at_thread_entry = [&](fork_join_thread_pool&) {
    pthread_attr_t attr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0)
    {
      pthread_attr_getstacksize(&attr, &size);
      pthread_attr_destroy(&attr);
    }
    std::size_t s = smallest.load();
    while (size < s && !smallest.compare_exchange_weak(s, size))
    {
    }
    std::size_t l = largest.load();
    while (size > l && !largest.compare_exchange_weak(l, size))
    {
    }
    entered.fetch_add(1);
  };
  std::size_t sum = 0;
  {
    fork_join_thread_pool pool(3, opts);
    boost::executors::parallel_invoke(pool, [&] { sum = nested_sum(pool, 1000); });
  }
  BOOST_TEST(sum == 1000u);
  BOOST_TEST(entered.load() >= 3);
  BOOST_TEST(smallest.load() >= opts.stack_size);
  // Not the default size (ThreadSanitizer raises small stacks to its own minimum, so the test
  // cannot ask for exactly the size requested).
  BOOST_TEST(largest.load() < std::size_t(BOOST_THREAD_FJ_WORKER_STACK_SIZE));

  // Empty options: the defaults, as fork_join_thread_pool(2).
  fork_join_thread_pool::options none;
  fork_join_thread_pool pool(2, none);
  std::atomic<int> ran{0};
  pool.submit([&ran] { ran.fetch_add(1); });
  pool.close();
  pool.join();
  BOOST_TEST(ran.load() == 1);
}

BOOST_AUTO_TEST_CASE(converts_from_a_thread_count_as_basic_thread_pool_does)
{
  // basic_thread_pool's constructor is not explicit, so `basic_thread_pool pool = 2;` compiles;
  // a drop-in replacement must accept the same line.
  static_assert(std::is_convertible<unsigned, boost::executors::basic_thread_pool>::value,
                "basic_thread_pool converts from a thread count");
  static_assert(std::is_convertible<unsigned, fork_join_thread_pool>::value,
                "so does fork_join_thread_pool");
  fork_join_thread_pool pool = 2;
  BOOST_TEST(!pool.closed());
}

BOOST_AUTO_TEST_CASE(default_pool_size_is_set_before_its_first_use)
{
  // A way to size the default pool. This must be the first use of the default pool
  // in this program (the test case after this one uses it too). Three closures meet at a latch, which only three threads can do: a
  // latch's wait neither helps nor parks.
  BOOST_CHECK_THROW(boost::executors::set_default_fork_join_pool_size(0), std::invalid_argument);
  boost::executors::set_default_fork_join_pool_size(3);
  boost::latch all_there(3);
  boost::latch done(3);
  for (int i = 0; i < 3; ++i)
    boost::executors::default_fork_join_pool().submit([&] {
      all_there.count_down_and_wait();
      done.count_down();
    });
  done.wait();
  BOOST_CHECK_THROW(boost::executors::set_default_fork_join_pool_size(4), std::logic_error);
}

BOOST_AUTO_TEST_CASE(current_names_the_pool_a_thread_works_for)
{
  // The pool the calling thread works for, as oneTBB and OpenMP find theirs.
  BOOST_TEST(fork_join_thread_pool::current() == nullptr);
  std::atomic<fork_join_thread_pool*> at_entry{nullptr};
  fork_join_thread_pool::options opts;
  opts.at_thread_entry = [&](fork_join_thread_pool&) { at_entry.store(fork_join_thread_pool::current()); };
  fork_join_thread_pool pool(2, opts);
  fork_join_thread_pool other(1);
  fork_join_thread_pool* in_task = nullptr;
  fork_join_thread_pool* in_other = nullptr;
  fork_join_thread_pool* after_other = nullptr;
  boost::latch done(1);
  pool.submit([&] {
    in_task = fork_join_thread_pool::current();
    // A child on `other` (f2: f1 runs inline) runs on other's thread or, helping, here:
    // either way it runs as a task of `other`.
    boost::executors::parallel_invoke(
        other, [] {}, [&] { in_other = fork_join_thread_pool::current(); });
    after_other = fork_join_thread_pool::current();
    done.count_down();
  });
  done.wait();
  BOOST_TEST(in_task == &pool);
  BOOST_TEST(in_other == &other);
  BOOST_TEST(after_other == &pool);
  BOOST_TEST(at_entry.load() == &pool);
  BOOST_TEST(&boost::executors::current_fork_join_pool() == &boost::executors::default_fork_join_pool());
}

BOOST_AUTO_TEST_SUITE_END()
