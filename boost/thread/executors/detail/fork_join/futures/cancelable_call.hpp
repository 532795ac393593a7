// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The callable of a fork with a cancellation_source (cancellation.hpp): what
// fork(ex, src, f, args...) forks instead of f. Declared, with the trait a forked task checks
// for it (is_cancelable_call), in tasks/cancel_region.hpp.
//
// What it costs: nothing on the paths of fork() without a source (the overloads of
// cancellation.hpp wrap f and call the plain fork(); a fork without a source compiles to the same
// code). A fork with a source costs a pointer more in its closure and two checks of the source
// when its task starts (48 instructions per fork, measured at fbb0afd); a canceled task that had
// not started stores an exception made once instead of calling f, without a throw on a
// fork_join_thread_pool (tasks/cancel_region.hpp). doc/index.md, "Cancellation", has the
// measurements.
//
// Why the task checks when it starts rather than being taken out of the queues: a queued task
// is owned by one deque or one thread at a time (tasks/task.hpp), and every
// accepted task is run exactly once, which keeps the pool's accounting (its unfinished count,
// close(), join(), the destructor) as it is: a canceled task "runs" by storing the exception.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_CANCELABLE_CALL_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_CANCELABLE_CALL_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>

#include <functional>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // The callable a fork with a source runs: f, unless the source was canceled before the task
  // started; f runs in the source's region, so that the blocks and algorithms it starts stop
  // when the source is canceled. On a fork_join_thread_pool the task checks canceled() first
  // and stores the exception without a throw (cancel_region.hpp says why); on other executors
  // the call throws it.
  template <class Fn>
  class cancelable_call
  {
  public:
    cancelable_call(const cancel_region& region, Fn&& fn) : region_(&region), fn_(std::move(fn)) {}

    bool canceled() const noexcept { return region_->canceled(); }

    template <class... A>
    std::invoke_result_t<Fn, A...> operator()(A&&... a)
    {
      if (region_->canceled())
        throw_canceled();
      const region_proxy in(*region_);
      return std::invoke(std::move(fn_), std::forward<A>(a)...);
    }

  private:
    const cancel_region* region_; // a pointer: the closure stays move-assignable
    Fn fn_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
