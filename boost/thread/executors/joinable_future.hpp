// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// joinable_future<R>: a boost::future<R> with an executor-aware join().
//
// Outline
//   template <class R> class joinable_future : public boost::future<R> {
//     joinable_future() noexcept;
//     joinable_future(boost::future<R>&& f) noexcept;   // implicit: = boost::async(pool, g)
//     joinable_future(joinable_future&&) noexcept;     // movable, not copyable
//     void join();                                     // helps instead of blocking
//   };
//
// get(), is_ready(), then(), wait_for_all() and the rest are boost::future<R>'s, unchanged.

#ifndef BOOST_THREAD_EXECUTORS_JOINABLE_FUTURE_HPP
#define BOOST_THREAD_EXECUTORS_JOINABLE_FUTURE_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/join_futures.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/future.hpp>

#include <memory>
#include <type_traits>
#include <utility>

namespace boost {
namespace executors {

  template <class R>
  class joinable_future : public boost::future<R>
  {
    typedef boost::future<R> base_type;

  public:
    // Effects: an invalid future (valid() == false).
    joinable_future() noexcept = default;

    // Effects: takes over f's shared state; join() will help the pool recorded in it, if any.
    // Postconditions: f.valid() == false.
    joinable_future(base_type&& f) noexcept : base_type(boost::move(f)) {}

    joinable_future(joinable_future&&) noexcept = default;
    joinable_future& operator=(joinable_future&&) noexcept = default;
    joinable_future(const joinable_future&) = delete;
    joinable_future& operator=(const joinable_future&) = delete;

    // Requires: valid().
    // Effects: returns when the future is ready. Until then the calling thread runs queued
    // tasks of the pool the future's task was submitted to (when that pool is a live
    // fork_join_thread_pool), else of its own pool (when it is a worker), one at a time,
    // re-checking readiness after each; with nothing to run it sleeps until new work arrives or
    // the future becomes ready. With neither pool it just waits. A deferred task is run here.
    // Postconditions: is_ready(); valid() is unchanged, so get() may follow.
    // Synchronization: the completion of the future's task happens before join() returns.
    // Throws: future_uninitialized if !valid(); boost::thread_interrupted (an interruption
    // point). The task's own exception is not thrown here; get() throws it.
    // Progress: may run other tasks while waiting; never blocks a worker while work is queued.
    void join()
    {
      // join_one() checks valid(); recorded_core() copes with an invalid future.
      std::shared_ptr<detail::fork_join::pool_core> recorded =
          pool_ ? pool_ : detail::fork_join::recorded_core(*this);
      detail::fork_join::join_one(recorded.get(), static_cast<base_type&>(*this));
    }

    // Detail: the future of a task forked onto pool's scheduler (fork() knows it directly).
    joinable_future(base_type&& f, std::shared_ptr<detail::fork_join::pool_core> pool) noexcept
        : base_type(boost::move(f)), pool_(std::move(pool))
    {
    }

  private:
    std::shared_ptr<detail::fork_join::pool_core> pool_;
  };

} // namespace executors

using executors::joinable_future;

// So that wait_for_all, wait_for_any and our join() accept a joinable_future as a future.
template <class R>
struct is_future_type<executors::joinable_future<R> > : true_type
{
};

} // namespace boost

#endif // header
