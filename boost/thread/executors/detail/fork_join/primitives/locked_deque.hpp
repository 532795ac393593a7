// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A closable double-ended queue in the style of Boost.Thread's concurrent queues.
//
// Boost's `locked_deque` only pushes at the back and pulls at the front; fork/join needs all four
// ends: an owner pushes and pulls at the front (LIFO), work submitted "for later" goes to the
// back, and thieves pull from the back (the oldest work). Statuses and exceptions are Boost's:
// `queue_op_status`, `sync_queue_is_closed`.
//
// Threading contract: every member may be called from any thread; each is linearizable through
// one mutex (blocking, but the critical sections are a few instructions and never run user code).
// Closing only rejects further `push_*` calls: values already queued can still be pulled, as with
// Boost's `sync_queue`. `force_push_*` ignores the closed state; the pool uses it for children of
// already accepted work, which must be able to finish after `close()`.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_LOCKED_DEQUE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_PRIMITIVES_LOCKED_DEQUE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/concurrent_queues/queue_op_status.hpp>
#include <boost/thread/lock_guard.hpp>
#include <boost/thread/mutex.hpp>
#include <boost/throw_exception.hpp>

#include <cstddef>
#include <deque>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  template <class ValueType>
  class locked_deque
  {
  public:
    typedef ValueType value_type;
    typedef std::size_t size_type;

    locked_deque() = default;
    locked_deque(const locked_deque&) = delete;
    locked_deque& operator=(const locked_deque&) = delete;

    // Effects: inserts x at the front (pulled next by try_pull_front).
    // Throws: sync_queue_is_closed if closed; whatever the allocation throws.
    void push_front(value_type x) { push(std::move(x), true, false); }

    // Effects: inserts x at the back (pulled next by try_pull_back).
    // Throws: sync_queue_is_closed if closed; whatever the allocation throws.
    void push_back(value_type x) { push(std::move(x), false, false); }

    // Effects: as push_front / push_back, also when closed.
    // Throws: whatever the allocation throws.
    void force_push_front(value_type x) { push(std::move(x), true, true); }
    void force_push_back(value_type x) { push(std::move(x), false, true); }

    // Effects: moves the front (resp. back) element into x if there is one.
    // Returns: success; otherwise closed if closed, else empty. Never blocks on emptiness.
    queue_op_status try_pull_front(value_type& x) { return pull(x, true); }
    queue_op_status try_pull_back(value_type& x) { return pull(x, false); }

    // Requires: accept(const value_type&) does not throw.
    // Effects: moves into x the first of the `look_at` front elements for which accept is true,
    // if any, and removes it. accept runs under the queue's lock, so it may look at the
    // elements, which the queue still owns.
    // Returns: success; otherwise empty (also when none was accepted) or closed.
    template <class Accept>
    queue_op_status try_pull_first_if(value_type& x, std::size_t look_at, Accept&& accept)
    {
      lock_guard<mutex> lk(mtx_);
      if (data_.empty())
        return closed_ ? queue_op_status::closed : queue_op_status::empty;
      const std::size_t n = data_.size() < look_at ? data_.size() : look_at;
      for (std::size_t i = 0; i < n; ++i)
        if (accept(static_cast<const value_type&>(data_[i])))
        {
          x = std::move(data_[i]);
          data_.erase(data_.begin() + static_cast<std::ptrdiff_t>(i));
          return queue_op_status::success;
        }
      return queue_op_status::empty;
    }

    // Effects: further push_front/push_back calls throw sync_queue_is_closed.
    void close()
    {
      lock_guard<mutex> lk(mtx_);
      closed_ = true;
    }

    bool closed() const
    {
      lock_guard<mutex> lk(mtx_);
      return closed_;
    }

    bool empty() const
    {
      lock_guard<mutex> lk(mtx_);
      return data_.empty();
    }

    size_type size() const
    {
      lock_guard<mutex> lk(mtx_);
      return data_.size();
    }

  private:
    void push(value_type&& x, bool front, bool force)
    {
      lock_guard<mutex> lk(mtx_);
      if (closed_ && !force)
        boost::throw_exception(sync_queue_is_closed());
      if (front)
        data_.push_front(std::move(x));
      else
        data_.push_back(std::move(x));
    }

    queue_op_status pull(value_type& x, bool front)
    {
      lock_guard<mutex> lk(mtx_);
      if (data_.empty())
        return closed_ ? queue_op_status::closed : queue_op_status::empty;
      if (front)
      {
        x = std::move(data_.front());
        data_.pop_front();
      }
      else
      {
        x = std::move(data_.back());
        data_.pop_back();
      }
      return queue_op_status::success;
    }

    mutable mutex mtx_;
    std::deque<value_type> data_;
    bool closed_ = false;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
