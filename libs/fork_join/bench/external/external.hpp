// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The plain executor use: many independent tiny closures submitted from threads that are not
// the pool's (submitters threads, each submitting per_submitter closures), then a wait until
// all of them have run. Each closure adds its id to a tally; the time measures what a
// submission and its execution cost, through the queue external threads share.
//
// "threads" is the number of threads that run the closures; the submitting threads only
// submit, and the thread that waits only waits.

#ifndef BOOST_FORK_JOIN_BENCH_EXTERNAL_EXTERNAL_HPP
#define BOOST_FORK_JOIN_BENCH_EXTERNAL_EXTERNAL_HPP

#include "../bench.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace bench {
namespace external {

  inline constexpr unsigned submitters = 4;

  inline unsigned per_submitter(scale s) { return s == scale::quick ? 1000 : 250000; }

  inline std::uint64_t closures(scale s) { return static_cast<std::uint64_t>(submitters) * per_submitter(s); }

  // The sum of ids 1 .. n that a complete run tallies.
  inline std::uint64_t closed_form(std::uint64_t n) { return n * (n + 1) / 2; }

  // What the closures add to, and what the waiting thread waits on. Any thread may call add();
  // one thread calls wait().
  class tally
  {
  public:
    explicit tally(std::uint64_t expected) : expected_(expected) {}

    // Effects: adds id to the sum; the closure that completes the count wakes the waiter.
    void add(std::uint64_t id)
    {
      // relaxed: ordered before this closure's release on count_ below, which the last
      // closure's acq_rel increment reads through the release sequence of count_.
      sum_.fetch_add(id, std::memory_order_relaxed);
      if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == expected_)
      {
        std::lock_guard<std::mutex> lock(mutex_);
        done_ = true;
        cv_.notify_one();
      }
    }

    // Effects: blocks until the expected number of closures have called add(), then rearms
    // for another run.
    // Returns: the sum of their ids.
    std::uint64_t wait()
    {
      std::unique_lock<std::mutex> lock(mutex_);
      cv_.wait(lock, [this] { return done_; });
      done_ = false;
      // relaxed: the mutex orders this after the last add(), which saw every other add().
      const std::uint64_t sum = sum_.load(std::memory_order_relaxed);
      sum_.store(0, std::memory_order_relaxed);
      count_.store(0, std::memory_order_relaxed);
      return sum;
    }

  private:
    const std::uint64_t expected_;
    alignas(64) std::atomic<std::uint64_t> sum_{0};
    alignas(64) std::atomic<std::uint64_t> count_{0};
    std::mutex mutex_;
    std::condition_variable cv_;
    bool done_ = false;
  };

  // Effects: starts `submitters` threads; thread s calls submit(id) for its per_submitter ids
  // (1 .. submitters * per_submitter in all), then all are joined.
  template <class Submit>
  void submit_from_outside(scale s, Submit submit)
  {
    const unsigned per = per_submitter(s);
    std::vector<std::thread> threads;
    threads.reserve(submitters);
    for (unsigned t = 0; t < submitters; ++t)
      threads.emplace_back([&submit, t, per] {
        const std::uint64_t first = static_cast<std::uint64_t>(t) * per + 1;
        for (std::uint64_t id = first; id < first + per; ++id)
          submit(id);
      });
    for (std::thread& t : threads)
      t.join();
  }

  // Effects: a complete run for a pool whose submit(f) schedules f: submissions from outside,
  // then the wait. Returns: the tally.
  template <class Submit>
  std::uint64_t run_once(scale s, tally& counted, Submit submit)
  {
    submit_from_outside(s, [&](std::uint64_t id) { submit([&counted, id] { counted.add(id); }); });
    return counted.wait();
  }

} // namespace external
} // namespace bench

#endif // header
