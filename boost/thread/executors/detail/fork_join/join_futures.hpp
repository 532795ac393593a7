// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Joining Boost futures: which pool to help, and the wait itself.
//
// Which pool: the one recorded in the future's shared state if it is provably a live
// fork_join_thread_pool (Boost records `executor_ref<Ex>` for boost::async(ex, ...) and
// then(ex, ...); our specialization of executor_ref owns the scheduler, so a successful
// dynamic_cast is the proof); failing that, the current thread's pool if it is a worker;
// failing that, none, and the join simply waits. A continuation made by then(f) without an
// executor records an executor_ref<executor> that refers to its parent's executor object, which
// may already be freed: it never matches the cast, so it is never used.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_JOIN_FUTURES_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_JOIN_FUTURES_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/help.hpp>
#include <boost/thread/executors/detail/fork_join/worker_context.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/future.hpp>

#include <memory>

namespace boost {
namespace detail {
namespace fork_join {

  // Returns: the scheduler recorded in f's shared state if it is a fork_join_thread_pool's.
  template <class Future>
  std::shared_ptr<pool_core> recorded_core(const Future& f)
  {
    if (!f.future_)
      return nullptr;
    const auto ex = f.future_->get_executor();
    if (const auto* ref = dynamic_cast<const executors::executor_ref<executors::fork_join_thread_pool>*>(ex.get()))
      return ref->core();
    return nullptr;
  }

  template <class Future>
  void require_valid(const Future& f)
  {
    if (!f.valid())
      boost::throw_exception(future_uninitialized());
  }

  // Effects: makes every future ready: helps `preferred` (if not null), then the current
  // thread's pool (if it is a worker and a different pool), or else waits.
  // Requires: every future is valid.
  template <class ReadyFn, class WaitFn>
  void help_or_wait(pool_core* preferred, ReadyFn&& ready, WaitFn&& wait_fn)
  {
    const worker_context* w = current_worker;
    pool_core* own = w ? w->core : nullptr;
    pool_core* first = preferred ? preferred : own;
    pool_core* second = (own && own != first) ? own : nullptr;
    if (!first)
    {
      while (!ready())
        wait_fn(nullptr);
      return;
    }
    help_until(first, second, ready, [&](future<void>& woken) { wait_fn(&woken); });
  }

  // Blocks until f or *woken (if not null) is ready.
  template <class Future>
  void wait_one(Future& f, future<void>* woken)
  {
    if (woken)
      boost::wait_for_any(f, *woken);
    else
      f.wait();
  }

  // Effects: as help_or_wait for one future. A deferred future is run on the calling thread.
  template <class Future>
  void join_one(pool_core* preferred, Future& f)
  {
    require_valid(f);
    if (f.future_->run_if_is_deferred())
      return;
    help_or_wait(
        preferred, [&f] { return f.is_ready(); }, [&f](future<void>* woken) { wait_one(f, woken); });
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
