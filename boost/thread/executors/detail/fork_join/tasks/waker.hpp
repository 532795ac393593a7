// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What a wait registers with the task it waits for, to be told when that task is done: a waker.
//
// Two kinds of waiter register one:
//  - a thread that is not one of the pool's, which sleeps on its thread_sleeper (below);
//  - a pool thread's parked frame (parking.hpp), which its thread resumes once posted.
// A waker lives in the waiter's stack frame, which the waiter cannot leave before it is
// posted: so whoever posts it must not touch it after post() (the waiter may be gone), and
// reads its `next` link first.
//
// Where they are registered (no allocation: a wait never needs memory):
//  - a stack task's run_record::state: pending, done, or the one waker of its parent
//    (stack_task.hpp), a compare-exchange against the thief's exchange to done;
//  - a forked heap task's run_record::result_stored: the stored and orphaned bits, and above
//    them a list of wakers (any number of threads may join one future through Boost's
//    shared_future, or wait on it while a pool thread joins it). add_waker() below pushes onto
//    the list while the stored bit is clear; the runner's fetch_or of the stored bit takes the
//    whole list in the same read-modify-write, so a waker is either in the list the runner
//    takes or sees the stored bit and does not wait: no wake-up is lost
//    (test/model/parking.pml checks this protocol).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_WAKER_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_TASKS_WAKER_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace boost {
namespace detail {
namespace fork_join {

  // Something to post once what a waiter waits for is done. Its alignment (that of a pointer,
  // at least 4) leaves the two low bits of its address free for run_record's flags.
  struct waker
  {
    typedef void (*post_fn)(waker*) noexcept;

    explicit waker(post_fn f) noexcept : post_(f) {}
    waker(const waker&) = delete;
    waker& operator=(const waker&) = delete;

    // Effects: tells the waiter; after this the caller must not touch *this.
    void post() noexcept { post_(this); }

    waker* next = nullptr; // in a list of wakers (add_waker)

  private:
    post_fn post_;
  };

  // A binary semaphore per thread, on which a thread that is not a pool thread sleeps until
  // the task it waits for is done. std::mutex and std::condition_variable: constructing and
  // waiting allocate nothing.
  class thread_sleeper final : public waker
  {
  public:
    thread_sleeper() noexcept : waker(&thread_sleeper::do_post) {}

    // Requires: called by the owning thread only. Effects: blocks until post(); consumes it.
    void wait() noexcept
    {
      std::unique_lock<std::mutex> lk(mtx_);
      cv_.wait(lk, [this] { return posted_; });
      posted_ = false;
    }

    static thread_sleeper& of_this_thread() noexcept
    {
      thread_local thread_sleeper sleeper;
      return sleeper;
    }

  private:
    // Notifies under the lock, so that the owner, which may leave once it sees posted_,
    // cannot do so before this call is done with the condition variable.
    static void do_post(waker* w) noexcept
    {
      thread_sleeper* const self = static_cast<thread_sleeper*>(w);
      std::lock_guard<std::mutex> lk(self->mtx_);
      self->posted_ = true;
      self->cv_.notify_one();
    }

    std::mutex mtx_;
    std::condition_variable cv_;
    bool posted_ = false;
  };

  // The low bits of a word that holds flags and a list of wakers (run_record::result_stored).
  constexpr std::uintptr_t waker_flag_bits = 3;
  static_assert(alignof(waker) > waker_flag_bits, "a waker's address must leave the flag bits free");

  // Effects: pushes w onto the list in `word` unless `done_bit` is set there.
  // Returns: whether w was pushed (then it will be posted exactly once, by whoever sets
  // done_bit with take_wakers()).
  inline bool add_waker(std::atomic<std::uintptr_t>& word, std::uintptr_t done_bit, waker& w) noexcept
  {
    // acquire on load and failure: when done_bit is seen, the task's effects are too.
    std::uintptr_t old = word.load(std::memory_order_acquire);
    for (;;)
    {
      if (old & done_bit)
        return false;
      w.next = reinterpret_cast<waker*>(old & ~waker_flag_bits);
      // release: the waker (and next) is seen built by the runner's acq_rel fetch_or.
      if (word.compare_exchange_weak(old, reinterpret_cast<std::uintptr_t>(&w) | (old & waker_flag_bits),
                                     std::memory_order_release, std::memory_order_acquire))
        return true;
    }
  }

  // Effects: posts every waker of the list that `old` (a value of such a word) holds.
  inline void post_wakers(std::uintptr_t old) noexcept
  {
    for (waker* w = reinterpret_cast<waker*>(old & ~waker_flag_bits); w;)
    {
      waker* const next = w->next; // read first: once posted, w may be gone
      w->post();
      w = next;
    }
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
