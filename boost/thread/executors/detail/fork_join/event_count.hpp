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
// also wake when what it waits for is done, which only that thing's completion can tell it, so
// it enlists a wake_token and sleeps in boost::wait_for_any(its future, the token's future)
// (or on the token alone for a stack task, stack_task.hpp). notify() fires every enlisted
// token, and so does notify_joiners(), which the thief of a stack task calls after it marked
// the task done. A joiner's wake-up is therefore "new work arrived or the epoch moved" or "what
// it waits for is done", whichever comes first, and it never burns a core.
//
// Cheap pushes: a worker that pushes to its own deque calls notify_one_if_waiting(), which is a
// seq_cst fence and a relaxed load when nobody is registered; the fence takes the place of the
// seq_cst RMW on the epoch in the store-buffering argument of notify().

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_EVENT_COUNT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_EVENT_COUNT_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/fence.hpp>
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

    // What a prospective sleeper wants to be woken by.
    enum class interest
    {
      work,      // new work or completion: workers, and joiners that help
      completion // only completion: a joiner that cannot help (stack_bounds.hpp); pushes of
                 // new work do not pay for waking it
    };

    // Registers the caller as a prospective sleeper and returns the epoch to sleep on.
    // The caller must re-check its condition after this call, then sleep with commit_wait()
    // (which ends the registration) or with enlist()/delist(), and end the registration with
    // cancel_wait() in every other case, with the same interest.
    key_type prepare_wait(interest i = interest::work)
    {
      // seq_cst: the store-buffering pair with notify() and notify_joiners() (see there).
      counter(i).fetch_add(1, std::memory_order_seq_cst);
      return epoch_.load(std::memory_order_seq_cst);
    }

    void cancel_wait(interest i = interest::work)
    {
      // relaxed: the count is only a hint for notifiers to skip the mutex; over-counting
      // costs a spurious lock, and the decrement of a waiter that found work races with nothing.
      counter(i).fetch_sub(1, std::memory_order_relaxed);
    }

    // Blocks until the epoch differs from key; ends the registration of prepare_wait().
    // An interruption point (boost::thread).
    void commit_wait(key_type key)
    {
      waiter_guard g{*this};
      unique_lock<mutex> lk(mtx_);
      // relaxed under mtx_: every notify advances the epoch before it locks mtx_, so either
      // this load sees the new epoch or the notifier's wake-up finds us inside cv_.wait.
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

    // For a worker that has just pushed to its own deque: notify_one() if anybody is registered.
    void notify_one_if_waiting()
    {
      // seq_cst fence: the pusher's half of the store-buffering pair with prepare_wait(). The
      // push (a release store to the deque's bottom) is sequenced before this fence, and a
      // waiter's re-check steals through a seq_cst fence after its seq_cst increment of
      // waiters_: if this load misses the increment, the waiter's fence comes later in the
      // single total order and its steal sees the push. relaxed load: ordered by the fence.
      seq_cst_fence();
      if (waiters_.load(std::memory_order_relaxed) != 0)
        notify(false);
    }

    // For the thief of a stack task, after it stored `done` (seq_cst): fires every enlisted
    // joiner's token (the parent may be one of them) but wakes no worker.
    void notify_joiners()
    {
      // seq_cst load: pairs with the parent's seq_cst increment in prepare_wait() followed by
      // its seq_cst load of `done`; one of the two sees the other's store, so either the parent
      // does not sleep or this load sees it registered and the epoch moves under it (enlist()
      // then refuses, or the token is fired below).
      if (waiters_.load(std::memory_order_seq_cst) == 0 &&
          completion_waiters_.load(std::memory_order_seq_cst) == 0)
        return;
      // seq_cst: as in notify().
      epoch_.fetch_add(1, std::memory_order_seq_cst);
      lock_guard<mutex> lk(mtx_);
      fire_joiners();
    }

  private:
    void notify(bool all)
    {
      // seq_cst on both sides (here: fetch_add epoch, load waiters; waiter: fetch_add waiters,
      // load epoch) rules out the store-buffering outcome in which the notifier sees no waiter
      // while the waiter sees the old epoch: if the load below misses the waiter's increment,
      // that increment, and so the waiter's epoch load, come later in the single total order,
      // so the waiter's key already includes this increment and its re-check, which
      // synchronizes with this release RMW, sees the work published before notify().
      // notify_all() (closed, drained) is also for joiners that only wait for completion.
      epoch_.fetch_add(1, std::memory_order_seq_cst);
      if (waiters_.load(std::memory_order_seq_cst) == 0 &&
          (!all || completion_waiters_.load(std::memory_order_seq_cst) == 0))
        return;
      lock_guard<mutex> lk(mtx_);
      if (all)
        cv_.notify_all();
      else
        cv_.notify_one();
      fire_joiners();
    }

    // Requires: mtx_ is held.
    void fire_joiners()
    {
      for (wake_token* w : joiners_)
        w->fire();
      joiners_.clear();
    }

    std::atomic<std::uint32_t>& counter(interest i) noexcept
    {
      return i == interest::work ? waiters_ : completion_waiters_;
    }

    struct waiter_guard
    {
      event_count& ec;
      ~waiter_guard() { ec.cancel_wait(); }
    };

    // Hot: written by every notify(); on its own cache line so that a notifier does not
    // invalidate the line holding the waiter count and the mutex.
    alignas(64) std::atomic<key_type> epoch_{0};
    alignas(64) std::atomic<std::uint32_t> waiters_{0};            // interest::work
    std::atomic<std::uint32_t> completion_waiters_{0};             // interest::completion
    mutex mtx_;
    condition_variable cv_;
    std::vector<wake_token*> joiners_; // guarded by mtx_
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
