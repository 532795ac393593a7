// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Parking: an event count shared by idle workers and by joiners that have nothing to run.
//
// Protocol (prepare, re-check, commit), the classic event count:
//   waiter:   key = prepare_wait();  re-check for work / for its condition;
//             then either cancel_wait() or commit_wait(key) / wait_with(key, ...);
//   notifier: publish the work, then notify_one() (or notify_all()).
// Invariant: a waiter sleeps only while the epoch still equals its key, and every notify
// advances the epoch and, if any waiter is registered, wakes at least one sleeping worker (all
// of them for notify_all) and every enlisted joiner. So work that is published before a notify
// is either seen by a waiter's re-check or ends a sleep: no wake-up is lost, and while any queue
// is non-empty some thread is awake or searching. See notify() for the store-buffering argument.
//
// Two kinds of sleepers: a worker sleeps on the condition variable (commit_wait); a joiner must
// also wake when its future becomes ready, which only Boost's future machinery can tell it, so
// it enlists a wake_token and sleeps in boost::wait_for_any(its future, the token's future);
// notify() fires every enlisted token. A joiner's wake-up is therefore "new work arrived or the
// epoch moved" or "its future is ready", whichever comes first, and it never burns a core.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_EVENT_COUNT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_EVENT_COUNT_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/condition_variable.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/mutex.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

namespace boost {
namespace detail {
namespace fork_join {

  class event_count
  {
  public:
    typedef std::uint64_t key_type;

    event_count() = default;
    event_count(const event_count&) = delete;
    event_count& operator=(const event_count&) = delete;

    // Registers the caller as a prospective sleeper and returns the epoch to sleep on.
    // The caller must re-check its condition after this call, then sleep with commit_wait()
    // (which ends the registration) or with enlist()/delist(), and end the registration with
    // cancel_wait() in every other case.
    key_type prepare_wait()
    {
      // seq_cst: the store-buffering pair with notify() (see there).
      waiters_.fetch_add(1, std::memory_order_seq_cst);
      return epoch_.load(std::memory_order_seq_cst);
    }

    void cancel_wait()
    {
      // relaxed: the count is only a hint for notify() to skip the mutex; over-counting
      // costs a spurious lock, and the decrement of a waiter that found work races with nothing.
      waiters_.fetch_sub(1, std::memory_order_relaxed);
    }

    // Blocks until the epoch differs from key. An interruption point (boost::thread).
    void commit_wait(key_type key)
    {
      waiter_guard g{*this};
      unique_lock<mutex> lk(mtx_);
      // relaxed under mtx_: notify() advances the epoch before it locks mtx_, so either this
      // load sees the new epoch or notify()'s wake-up finds us inside cv_.wait.
      while (epoch_.load(std::memory_order_relaxed) == key)
        cv_.wait(lk);
    }

    // Joiners: a joiner sleeps in boost::wait_for_any(its future, wake.get_future()) and may be
    // enlisted in several event counts at once (its future's pool and its own pool).
    class wake_token
    {
    public:
      future<void> get_future() { return promise_.get_future(); }
      void fire()
      {
        // relaxed: only the exclusivity of the exchange matters (one notifier fulfils the
        // promise); the promise's own mutex carries the happens-before edge to the joiner.
        if (!fired_.exchange(true, std::memory_order_relaxed))
          promise_.set_value();
      }

    private:
      promise<void> promise_;
      std::atomic<bool> fired_{false};
    };

    // Enlists w to be fired by the next notify(), unless the epoch already differs from key.
    // Returns: false if the epoch moved (the caller must not sleep). Pair with delist().
    bool enlist(key_type key, wake_token& w)
    {
      lock_guard<mutex> lk(mtx_);
      // relaxed under mtx_: same argument as in commit_wait().
      if (epoch_.load(std::memory_order_relaxed) != key)
        return false;
      joiners_.push_back(&w);
      return true;
    }

    void delist(wake_token& w)
    {
      lock_guard<mutex> lk(mtx_);
      joiners_.erase(std::remove(joiners_.begin(), joiners_.end(), &w), joiners_.end());
    }

    // Advances the epoch; wakes one worker sleeping in commit_wait() and fires every enlisted
    // joiner's token. For a new task: one more awake thread is enough to take it (a woken
    // worker that finds the task gone has lost nothing, someone else took it), and every
    // joiner re-checks its own future.
    void notify_one() { notify(false); }

    // Advances the epoch and wakes every registered waiter: for state that every sleeper must
    // see, such as "closed" or "drained".
    void notify_all() { notify(true); }

  private:
    void notify(bool all)
    {
      // seq_cst on both sides (here: fetch_add epoch, load waiters; waiter: fetch_add waiters,
      // load epoch) rules out the store-buffering outcome in which the notifier sees no waiter
      // while the waiter sees the old epoch: if the load below misses the waiter's increment,
      // that increment, and so the waiter's epoch load, come later in the single total order,
      // so the waiter's key already includes this increment and its re-check, which
      // synchronizes with this release RMW, sees the work published before notify().
      epoch_.fetch_add(1, std::memory_order_seq_cst);
      if (waiters_.load(std::memory_order_seq_cst) == 0)
        return;
      lock_guard<mutex> lk(mtx_);
      if (all)
        cv_.notify_all();
      else
        cv_.notify_one();
      for (wake_token* w : joiners_)
        w->fire();
      joiners_.clear();
    }

    struct waiter_guard
    {
      event_count& ec;
      ~waiter_guard() { ec.cancel_wait(); }
    };

    // Hot: written by every notify(); on its own cache line so that a notifier does not
    // invalidate the line holding the waiter count and the mutex.
    alignas(64) std::atomic<key_type> epoch_{0};
    alignas(64) std::atomic<std::uint32_t> waiters_{0};
    mutex mtx_;
    condition_variable cv_;
    std::vector<wake_token*> joiners_; // guarded by mtx_
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
