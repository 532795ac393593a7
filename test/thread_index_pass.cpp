// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_thread_pool::current_thread_index(), thread_count() and options::at_thread_exit:
// the index of a pool thread in its own pool (also after a parked join, also while it runs
// another pool's task), -1 elsewhere; the exit hook once per thread that entered, on that
// thread, after its last closure, also after an interruption, and its exception handled as
// documented. Public API only.

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE thread_index
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/basic_thread_pool.hpp>
#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/latch.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(thread_index_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;

namespace {

// Which index each thread reported, from every task that reported one.
struct index_log
{
  std::mutex mtx;
  std::map<std::thread::id, std::set<int> > seen;

  void record()
  {
    const int i = fork_join_thread_pool::current_thread_index();
    std::lock_guard<std::mutex> lk(mtx);
    seen[std::this_thread::get_id()].insert(i);
  }
};

// The entries and exits of a pool's threads, by thread id, and what each exit saw.
struct thread_log
{
  std::mutex mtx;
  std::multiset<std::thread::id> entries, exits;
  std::vector<int> exit_indices;
  std::vector<int> done_at_exit;
  std::vector<bool> exit_saw_pool;
};

thread_local bool exited_here = false; // set by at_thread_exit on the thread that calls it

fork_join_thread_pool::options logging_options(thread_log& log, const std::atomic<int>& done)
{
  fork_join_thread_pool::options opts;
  opts.at_thread_entry = [&log](fork_join_thread_pool&) {
    exited_here = false;
    std::lock_guard<std::mutex> lk(log.mtx);
    log.entries.insert(std::this_thread::get_id());
  };
  opts.at_thread_exit = [&log, &done](fork_join_thread_pool& pool) {
    exited_here = true;
    std::lock_guard<std::mutex> lk(log.mtx);
    log.exits.insert(std::this_thread::get_id());
    log.exit_indices.push_back(fork_join_thread_pool::current_thread_index());
    log.done_at_exit.push_back(done.load(std::memory_order_relaxed)); // ordered by the pool's drain
    log.exit_saw_pool.push_back(fork_join_thread_pool::current() == &pool);
  };
  return opts;
}

} // namespace

BOOST_AUTO_TEST_CASE(thread_count_is_the_constructors)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    fork_join_thread_pool pool(threads);
    BOOST_TEST(pool.thread_count() == threads);
    fork_join_thread_pool with_options(threads, fork_join_thread_pool::options());
    BOOST_TEST(with_options.thread_count() == threads);
  }
  fork_join_thread_pool by_default;
  BOOST_TEST(by_default.thread_count() == boost::thread::hardware_concurrency() + 1);
}

// Every thread of the pool reports one index, its own, distinct from the others', in 0..P-1.
BOOST_AUTO_TEST_CASE(each_pool_thread_has_its_own_index)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    index_log log;
    boost::latch all_busy(threads); // outlives the pool: a closure may still be leaving wait()
    {
      fork_join_thread_pool pool(threads);
      // P closures that wait for each other occupy all P threads at once.
      for (unsigned i = 0; i < threads; ++i)
        pool.submit([&] {
          log.record();
          all_busy.count_down_and_wait();
        });
      std::vector<joinable_future<void> > forks;
      for (int i = 0; i < 2000; ++i)
        forks.push_back(fork(pool, [&] { log.record(); }));
      for (joinable_future<void>& f : forks)
        fj::join(f);
    }
    // The joins above ran forks on this thread too when they found them queued: no pool thread.
    const auto here = log.seen.find(std::this_thread::get_id());
    if (here != log.seen.end())
    {
      BOOST_TEST((here->second == std::set<int>{-1}));
      log.seen.erase(here);
    }
    BOOST_TEST(log.seen.size() == threads);
    std::set<int> indices;
    for (const auto& entry : log.seen)
    {
      BOOST_TEST(entry.second.size() == 1u); // one index per thread
      indices.insert(*entry.second.begin());
    }
    BOOST_TEST(indices.size() == threads); // distinct
    BOOST_TEST(*indices.begin() == 0);
    BOOST_TEST(*indices.rbegin() == static_cast<int>(threads) - 1);
  }
}

BOOST_AUTO_TEST_CASE(no_index_outside_the_pools)
{
  BOOST_TEST(fork_join_thread_pool::current_thread_index() == -1);
  fork_join_thread_pool pool(2); // a pool elsewhere changes nothing for this thread
  BOOST_TEST(fork_join_thread_pool::current_thread_index() == -1);

  std::atomic<int> on_std_thread{0};
  std::thread([&] { on_std_thread = fork_join_thread_pool::current_thread_index(); }).join();
  BOOST_TEST(on_std_thread.load() == -1);

  boost::executors::basic_thread_pool other(2);
  boost::future<int> f = boost::async(other, [] { return fork_join_thread_pool::current_thread_index(); });
  BOOST_TEST(f.get() == -1);
}

// A frame that parks in a join resumes on its own thread: same thread, same index.
BOOST_AUTO_TEST_CASE(index_is_stable_across_a_parked_join)
{
  const int tasks = 8;
  fork_join_thread_pool pool(2);
  boost::promise<int> later;
  boost::shared_future<int> value = later.get_future().share();
  std::atomic<int> same_thread{0}, same_index{0}, valid{0}, got{0};
  std::vector<joinable_future<void> > forks;
  for (int i = 0; i < tasks; ++i)
    forks.push_back(fork(pool, [&] {
      const int before = fork_join_thread_pool::current_thread_index();
      const std::thread::id id = std::this_thread::get_id();
      fj::join(pool, value);
      got.fetch_add(value.get() == 42, std::memory_order_relaxed);
      const int after = fork_join_thread_pool::current_thread_index();
      same_thread.fetch_add(id == std::this_thread::get_id(), std::memory_order_relaxed);
      same_index.fetch_add(before == after, std::memory_order_relaxed);
      valid.fetch_add(before >= 0 && before < 2, std::memory_order_relaxed);
    }));
  while (pool.statistics().frames_parked_now < std::uint64_t(tasks)) // all parked
    std::this_thread::yield();
  later.set_value(42);
  for (joinable_future<void>& f : forks)
    fj::join(f);
  BOOST_TEST(pool.statistics().frames_parked >= std::uint64_t(tasks));
  BOOST_TEST(same_thread.load() == tasks);
  BOOST_TEST(same_index.load() == tasks);
  BOOST_TEST(valid.load() == tasks);
  BOOST_TEST(got.load() == tasks);
}

// A task of pool A that a thread of B runs (B's join helps A) reports B's index: the index is
// the thread's, not the task's. A's own threads report theirs.
BOOST_AUTO_TEST_CASE(nested_pools_report_the_threads_own_index)
{
  fork_join_thread_pool a(2), b(3);
  // Both of A's threads block, so only B's joining thread can run the task forked on A.
  boost::promise<void> release;
  boost::shared_future<void> gate = release.get_future().share();
  boost::latch a_busy(2);
  index_log a_log;
  for (int i = 0; i < 2; ++i)
    a.submit([&] {
      a_log.record();
      a_busy.count_down();
      gate.get(); // blocks (no help): A's thread stays busy
    });
  a_busy.wait();

  struct seen
  {
    int b_index, a_task_index;
    std::thread::id b_thread, a_task_thread;
    bool a_task_in_a;
  };
  // Submitted, and awaited with a plain get(): a join from this thread could run it here.
  boost::promise<seen> result;
  boost::future<seen> r = result.get_future();
  b.submit([&a, &result] {
    seen s;
    s.b_index = fork_join_thread_pool::current_thread_index();
    s.b_thread = std::this_thread::get_id();
    joinable_future<seen> inner = fork(a, [&a] {
      seen t;
      t.a_task_index = fork_join_thread_pool::current_thread_index();
      t.a_task_thread = std::this_thread::get_id();
      t.a_task_in_a = fork_join_thread_pool::current() == &a;
      return t;
    });
    fj::join(inner);
    const seen t = inner.get();
    s.a_task_index = t.a_task_index;
    s.a_task_thread = t.a_task_thread;
    s.a_task_in_a = t.a_task_in_a;
    result.set_value(s);
  });
  const seen s = r.get();
  release.set_value();
  BOOST_TEST(s.b_index >= 0);
  BOOST_TEST(s.b_index < 3);
  BOOST_TEST(s.a_task_in_a);                      // it is A's task...
  BOOST_TEST((s.a_task_thread == s.b_thread));    // ...run by B's joining thread...
  BOOST_TEST(s.a_task_index == s.b_index);        // ...which reports its index in B
  a.close();
  a.join();
  std::set<int> a_indices;
  for (const auto& entry : a_log.seen)
    a_indices.insert(entry.second.begin(), entry.second.end());
  BOOST_TEST((a_indices == std::set<int>{0, 1}));
}

// close() then join(): each thread that entered exits once, on itself, after every closure.
BOOST_AUTO_TEST_CASE(at_thread_exit_once_per_thread_after_all_tasks)
{
  for (unsigned threads : {1u, 2u, 4u})
  {
    const int n = 5000;
    thread_log log;
    std::atomic<int> done{0}, after_exit{0};
    fork_join_thread_pool pool(threads, logging_options(log, done));
    for (int i = 0; i < n; ++i)
      pool.submit([&] {
        after_exit.fetch_add(exited_here, std::memory_order_relaxed);
        done.fetch_add(1, std::memory_order_relaxed);
      });
    pool.close();
    pool.join();
    BOOST_TEST(done.load() == n);
    BOOST_TEST(after_exit.load() == 0);
    BOOST_TEST(log.entries.size() == threads);
    BOOST_TEST((log.exits == log.entries)); // once per thread, on that thread
    BOOST_TEST(log.done_at_exit == std::vector<int>(threads, n), boost::test_tools::per_element());
    BOOST_TEST(log.exit_saw_pool == std::vector<bool>(threads, true), boost::test_tools::per_element());
    for (int i : log.exit_indices)
      BOOST_TEST((i >= 0 && i < static_cast<int>(threads)));
  }
}

// Interrupted threads exit too, and so do the fresh threads join() starts for what they left.
BOOST_AUTO_TEST_CASE(at_thread_exit_after_interrupt_and_join)
{
  const unsigned threads = 2;
  const int n = 500;
  thread_log log;
  std::atomic<int> done{0}, after_exit{0}, interrupted{0};
  {
    fork_join_thread_pool pool(threads, logging_options(log, done));
    boost::latch started(threads);
    for (unsigned i = 0; i < threads; ++i)
      pool.submit([&] {
        started.count_down();
        try
        {
          for (;;)
          {
            boost::this_thread::interruption_point();
            std::this_thread::yield();
          }
        }
        catch (boost::thread_interrupted&)
        {
          interrupted.fetch_add(1, std::memory_order_relaxed);
          throw;
        }
      });
    started.wait();
    for (int i = 0; i < n; ++i)
      pool.submit([&] {
        after_exit.fetch_add(exited_here, std::memory_order_relaxed);
        done.fetch_add(1, std::memory_order_relaxed);
      });
    pool.interrupt_and_join();
    BOOST_TEST(interrupted.load() == static_cast<int>(threads));
    BOOST_TEST(done.load() == n);
    BOOST_TEST(after_exit.load() == 0);
    BOOST_TEST(log.entries.size() >= threads); // the workers, and the fresh threads
    BOOST_TEST((log.exits == log.entries));
  }
  BOOST_TEST((log.exits == log.entries)); // the destructor added no unpaired call
}

// at_thread_exit throwing boost::thread_interrupted: the thread leaves as it was about to;
// nothing is restarted, everything accepted ran, each thread exited once.
BOOST_AUTO_TEST_CASE(at_thread_exit_throwing_interruption)
{
  const unsigned threads = 3;
  const int n = 1000;
  std::mutex mtx;
  std::multiset<std::thread::id> entries, exits;
  std::atomic<int> done{0};
  {
    fork_join_thread_pool::options opts;
    opts.at_thread_entry = [&](fork_join_thread_pool&) {
      std::lock_guard<std::mutex> lk(mtx);
      entries.insert(std::this_thread::get_id());
    };
    opts.at_thread_exit = [&](fork_join_thread_pool&) {
      {
        std::lock_guard<std::mutex> lk(mtx);
        exits.insert(std::this_thread::get_id());
      }
      throw boost::thread_interrupted();
    };
    fork_join_thread_pool pool(threads, opts);
    for (int i = 0; i < n; ++i)
      pool.submit([&] { done.fetch_add(1, std::memory_order_relaxed); });
    pool.close();
    pool.join();
  }
  BOOST_TEST(done.load() == n);
  BOOST_TEST(entries.size() == threads);
  BOOST_TEST((exits == entries));
}

// A thread whose at_thread_entry threw still calls at_thread_exit; one whose at_thread_entry
// was skipped (join()'s later rounds, once a whole round refused) does not, and runs the work.
BOOST_AUTO_TEST_CASE(at_thread_exit_pairs_with_at_thread_entry)
{
  const unsigned threads = 2;
  std::mutex mtx;
  std::multiset<std::thread::id> entries, exits;
  fork_join_thread_pool::options opts;
  opts.at_thread_entry = [&](fork_join_thread_pool&) {
    {
      std::lock_guard<std::mutex> lk(mtx);
      entries.insert(std::this_thread::get_id());
    }
    throw boost::thread_interrupted();
  };
  opts.at_thread_exit = [&](fork_join_thread_pool&) {
    std::lock_guard<std::mutex> lk(mtx);
    exits.insert(std::this_thread::get_id());
  };
  const int n = 100;
  std::atomic<int> done{0};
  {
    fork_join_thread_pool pool(threads, opts);
    for (int i = 0; i < n; ++i)
      pool.submit([&] { done.fetch_add(1, std::memory_order_relaxed); });
    pool.close();
    pool.join();
    BOOST_TEST(done.load() == n); // by threads that skipped at_thread_entry
    BOOST_TEST(entries.size() >= threads);
    BOOST_TEST((exits == entries));
  }
  BOOST_TEST((exits == entries));
}

BOOST_AUTO_TEST_SUITE_END()
