// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Regression test: a waiting thread must not run, on top of its own frame, a task that
// waits for it. test_progress_pass.cpp covers the original report ("A forks C and joins it; C
// is stolen; while A waits, its join runs queued task B; B joins A's future"). This file covers
// the variant random_graph_pass.cpp found, with siblings of one parallel_invoke or task block
// and waits on promises (a join that starts before the awaited work has run):
//
//   parallel_invoke(pool, X, Z, Y) on one worker:
//     X (runs inline) waits for promise pz, which Z sets;
//     Y waits for promise px, which X sets once its wait is over;
//     Z sets pz.
//
// The graph is acyclic (Y -> X -> Z). X's join may run queued stack tasks of its own root that
// are deeper than X's frame; Y and Z both qualify, and Y is the newest, so X runs Y on top of
// itself. Y's wait cannot resume X, which lies below it: unless the pool refuses to run Y
// there, X never resumes and the program hangs. The schedule is the only one possible on one
// worker (no other thread exists until a wait blocks), so no rendezvous and no sleep is needed.
//
// A hang is reported by the deadlock detector below after 60 s ("... hung") with _Exit(1).

#ifndef BOOST_TEST_MODULE // a group of test files built as one program names its own
#define BOOST_TEST_MODULE help_buries_waiter
#endif
#include "watchdog.hpp"

#include <boost/thread/executors/fork_join.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/task_block.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

BOOST_AUTO_TEST_SUITE(test_help_buries_waiter_pass) // this file's tests, which CTest runs by this name

using boost::executors::fork_join_thread_pool;
using boost::executors::joinable_future;
namespace fj = boost::executors;

namespace {

// Ends the process with a message if the scope is not left within 60 s.
class hang_detector
{
public:
  explicit hang_detector(const char* what)
      : what_(what), thread_([this] {
          std::unique_lock<std::mutex> lk(mtx_);
          if (!cv_.wait_for(lk, std::chrono::seconds(60), [this] { return done_; }))
          {
            std::fprintf(stderr, "%s hung\n", what_);
            std::fflush(stderr);
            std::_Exit(1);
          }
        })
  {
  }
  ~hang_detector()
  {
    {
      std::lock_guard<std::mutex> lk(mtx_);
      done_ = true;
    }
    cv_.notify_one();
    thread_.join();
  }

private:
  const char* what_;
  std::mutex mtx_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

struct siblings
{
  boost::promise<void> px, pz;
  boost::shared_future<void> fx = px.get_future().share();
  boost::shared_future<void> fz = pz.get_future().share();
  int x = 0, y = 0, z = 0; // written by X, Y, Z, read after the join: plain on purpose
};

void run_invoke(fork_join_thread_pool& pool, siblings& s)
{
  boost::parallel_invoke(
      pool,
      [&] { // X
        fj::join(pool, s.fz);
        s.x = s.z + 1;
        s.px.set_value();
      },
      [&] { // Z
        s.z = 1;
        s.pz.set_value();
      },
      [&] { // Y
        fj::join(pool, s.fx);
        s.y = s.x + 1;
      });
}

void run_block(fork_join_thread_pool& pool, siblings& s)
{
  boost::define_task_block(pool, [&](boost::task_block& tb) {
    tb.run([&] { // Z
      s.z = 1;
      s.pz.set_value();
    });
    tb.run([&] { // Y
      fj::join(pool, s.fx);
      s.y = s.x + 1;
    });
    // X
    fj::join(pool, s.fz);
    s.x = s.z + 1;
    s.px.set_value();
  });
}

template <class Run>
void on_one_worker(Run run, bool from_task)
{
  fork_join_thread_pool pool(1);
  siblings s;
  if (from_task)
  {
    joinable_future<void> f = fork(pool, [&] { run(pool, s); });
    f.join();
    f.get();
  }
  else
    run(pool, s);
  BOOST_TEST(s.z == 1);
  BOOST_TEST(s.x == 2);
  BOOST_TEST(s.y == 3);
}

} // namespace

BOOST_AUTO_TEST_CASE(parallel_invoke_sibling_waits_for_the_waiter)
{
  {
    hang_detector h("parallel_invoke(X, Z, Y) in a worker task");
    on_one_worker(run_invoke, true);
  }
  {
    hang_detector h("parallel_invoke(X, Z, Y) from main()");
    on_one_worker(run_invoke, false);
  }
}

BOOST_AUTO_TEST_CASE(task_block_sibling_waits_for_the_waiter)
{
  {
    hang_detector h("task block {Z, Y; X} in a worker task");
    on_one_worker(run_block, true);
  }
  {
    hang_detector h("task block {Z, Y; X} from main()");
    on_one_worker(run_block, false);
  }
}

// Rule (b) for forked heap tasks (task_frame.hpp). A forks C and joins it; C is stolen by the
// other worker, which forks D there and does not join it (D's future leaves C); D waits for
// promise pa, which A sets once its join is over. The graph is acyclic (D -> A -> C). While A
// waits, D sits in the deque of C's thief, pushed after the thief started C, with C not done:
// the JDK's helpStealer would run D on top of A, and D's wait could never end. The pool may
// only take heap tasks there that the thief is joining, which D never is. C holds on until A
// waits so that the unsafe schedule is the likely one; the test asserts only the outcome.
BOOST_AUTO_TEST_CASE(leapfrogging_skips_a_fork_that_the_thief_does_not_join)
{
  hang_detector h("a waiter leapfrogging to a detached fork of its thief");
  for (int round = 0; round < 20; ++round)
  {
    fork_join_thread_pool pool(2);
    boost::promise<int> pa;
    boost::shared_future<int> fa = pa.get_future().share();
    std::atomic<bool> c_started{false}, a_joining{false};
    joinable_future<int> d;
    joinable_future<int> a = fork(pool, [&] {
      joinable_future<void> c = fork(pool, [&] {
        c_started.store(true);
        d = fork(pool, [&fa, &pool] {
          fj::join(pool, fa);
          return fa.get() + 1;
        });
        while (!a_joining.load())
          std::this_thread::yield();
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
        while (std::chrono::steady_clock::now() < until)
          std::this_thread::yield();
      });
      while (!c_started.load()) // A is busy, so the other worker has stolen C
        std::this_thread::yield();
      a_joining.store(true);
      c.join();
      c.get();
      pa.set_value(41);
      return 1;
    });
    a.join();
    BOOST_TEST(a.get() == 1);
    d.join();
    BOOST_TEST(d.get() == 42);
  }
}

BOOST_AUTO_TEST_SUITE_END()
