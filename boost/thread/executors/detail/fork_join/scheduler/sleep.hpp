// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Idle sleep and wake-up of a core's pool threads, around one event count (event_count.hpp).
//
// Threading contract
//  - Only pool threads sleep here, and only in their scheduler loop (worker_loop.hpp), with the
//    event count's prepare / re-check / commit protocol: prepare(), then a re-check of their
//    posted frames and of every queue, then cancel() or sleep(). A wait of a task never sleeps
//    here: a pool thread parks the waiting frame (parking.hpp), any other thread sleeps on what
//    it waits for.
//  - Any thread wakes sleepers after it publishes work: wake_one() after a push to the shared
//    queue, advertise() after a worker's push to its own deque, wake_all() for what every
//    sleeper must see (a posted frame, "closed", "drained"). pool_core.hpp (hazard 2, lost
//    wake-ups) has the argument that no task is stranded.
//  - The threads that look for work are counted here: a pool thread from the moment its
//    scheduler loop finds nothing until it finds something, its sleep included, and any thread
//    while it yields in a join's rounds of looking again (help.hpp). A hint that orders
//    nothing: pool threads keep their children back while it is 0
//    (pool_core::defer_stack_tasks).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_SLEEP_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_SCHEDULER_SLEEP_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/event_count.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/worker_slot.hpp>

#include <atomic>
#include <cstdint>

namespace boost {
namespace detail {
namespace fork_join {

  class idle_sleep
  {
  public:
    typedef event_count::key_type key_type;

    // Effects: after a worker's push to its own deque: wakes a sleeper if any is registered
    // (a seq_cst fence and a load when nobody sleeps).
    BOOST_FORCEINLINE void advertise() { events_.notify_one_if_waiting(); }

    // Effects: after a steal from `victim`, wakes a sleeper if the victim's deque still holds
    // tasks: stack tasks pushed onto a non-empty deque were not advertised (push_own), so the
    // thief that takes the one that was passes the word on. Steals are rare next to pushes, so
    // the fence moves from every push to every steal that leaves work behind.
    void advertise_rest(worker_slot& victim) noexcept
    {
      if (!victim.deque.empty())
        events_.notify_one_if_waiting();
    }

    // Effects: after a push to the shared queue: wakes one sleeper.
    void wake_one() { events_.notify_one(); }

    // Effects: wakes every sleeper.
    void wake_all() { events_.notify_all(); }

    // The sleeper's side: prepare(), re-check, then cancel() or sleep(key, ...).
    key_type prepare() { return events_.prepare_wait(); }
    void cancel() { events_.cancel_wait(); }

    // Requires: key from prepare() on this thread, a pool thread whose home is `home`, and a
    // re-check after it that found nothing to do.
    // Effects: sleeps until woken. A thread with polled frames (parking.hpp) sleeps at most
    // poll_sleep_us microseconds (or to a timed frame's deadline) and then polls them, doubling
    // poll_sleep_us up to BOOST_THREAD_FJ_POLL_SLEEP_MAX_US; one with timed frames sleeps until
    // the earliest deadline. An interruption point.
    void sleep(key_type key, fiber_home& home, unsigned& poll_sleep_us)
    {
      if (home.polling())
      {
        events_.commit_wait_for(key, home.sleep_us(poll_sleep_us)); // to a timed frame's deadline at most
        home.poll_all();
        poll_sleep_us = poll_sleep_us * 2 > BOOST_THREAD_FJ_POLL_SLEEP_MAX_US ? BOOST_THREAD_FJ_POLL_SLEEP_MAX_US : poll_sleep_us * 2;
      }
      else if (home.timed())
        events_.commit_wait_for(key, home.sleep_us(~0u)); // until the earliest deadline (parking.hpp)
      else
        events_.commit_wait(key);
    }

    // Effects: counts the calling thread among those that look for work (a pool thread in its
    // scheduler loop that found none, asleep or not; a join's yield between its looks), until
    // end_seeking(). relaxed: a hint that orders nothing (seekers()).
    void begin_seeking() noexcept { seeking_.fetch_add(1, std::memory_order_relaxed); }
    void end_seeking() noexcept { seeking_.fetch_sub(1, std::memory_order_relaxed); }

    // Returns: whether some thread looks for work. relaxed: a hint for keeping children back
    // (pool_core::defer_stack_tasks); a stale answer costs parallelism for as long as the
    // owner runs without asking again, never progress (every wait that stops a stack queues
    // what it keeps back).
    BOOST_FORCEINLINE bool seekers() const noexcept { return seeking_.load(std::memory_order_relaxed) != 0; }

  private:
    event_count events_;
    // Its own line: pool threads read it at every call that could keep children back, and
    // the event count's line is written by every sleeper's prepare().
    alignas(64) std::atomic<std::uint32_t> seeking_{0};
  };

  // Counts the calling thread among the seekers of `sleep` for its lifetime, or until end().
  class seeking_scope
  {
  public:
    explicit seeking_scope(idle_sleep& sleep) noexcept : sleep_(&sleep) { sleep.begin_seeking(); }
    seeking_scope(const seeking_scope&) = delete;
    seeking_scope& operator=(const seeking_scope&) = delete;
    ~seeking_scope() { end(); }
    void end() noexcept
    {
      if (sleep_)
        sleep_->end_seeking();
      sleep_ = nullptr;
    }

  private:
    idle_sleep* sleep_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
