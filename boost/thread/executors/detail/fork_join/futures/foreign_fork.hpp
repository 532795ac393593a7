// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork(ex, f, args...) on an executor that is not one of our pools: a closure that completes a
// boost::promise, submitted as any closure (at the front if the executor has submit_front).
// Its future has no task of this library behind it: a join of it waits (helping the joining
// thread's own pool, if any), as for any other future.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FOREIGN_FORK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FOREIGN_FORK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/futures/forked_task.hpp>
#include <boost/thread/future.hpp>

#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  template <class R, class Fn>
  void fulfil(promise<R>& p, Fn& fn)
  {
    try
    {
      if constexpr (std::is_void<R>::value)
      {
        fn();
        p.set_value();
      }
      else
        p.set_value(fn());
    }
    catch (...)
    {
      p.set_exception(current_exception_lossless());
    }
  }

  // The closure fork() submits: runs fn(args...) into the promise; destroyed unrun, it
  // satisfies the promise with unrun_task_exception() instead of letting ~promise allocate.
  template <class R, class Fn, class Bound>
  class fork_body
  {
  public:
    fork_body(promise<R>&& p, Fn&& fn, Bound&& bound)
        : p_(boost::move(p)), fn_(std::move(fn)), bound_(std::move(bound))
    {
    }
    fork_body(fork_body&& o) noexcept(std::is_nothrow_move_constructible<Fn>::value &&
                                      std::is_nothrow_move_constructible<Bound>::value)
        : p_(boost::move(o.p_)), fn_(std::move(o.fn_)), bound_(std::move(o.bound_)), armed_(o.armed_)
    {
      o.armed_ = false;
    }
    fork_body& operator=(fork_body&&) = delete;

    ~fork_body()
    {
      if (!armed_)
        return;
      try
      {
        p_.set_exception(unrun_task_exception());
      }
      catch (...)
      {
        // Only lock_error is possible; the promise's own destructor then reports as it can.
      }
    }

    void operator()()
    {
      armed_ = false;
      auto call = [this]() -> R { return std::apply(std::move(fn_), std::move(bound_)); };
      fulfil(p_, call);
    }

  private:
    promise<R> p_;
    Fn fn_;
    Bound bound_;
    bool armed_ = true;
  };

  // Requires: as fork(ex, f, args...); Executor is not fork_join_thread_pool.
  // Effects: submits f(args...) (on decayed copies) to ex in a fork_body: with submit_front if
  // ex has it, else with submit.
  // Returns: the future of its promise.
  // Throws: what ex's submission throws; std::bad_alloc.
  template <class Executor, class F, class... Args>
  boost::future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork_onto_foreign(Executor& ex, F&& f, Args&&... args)
  {
    typedef std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> result_type;
    typedef typename std::decay<F>::type fn_type;
    typedef std::tuple<typename std::decay<Args>::type...> bound_type;
    unrun_task_exception(); // made before anything it would stand in for
    promise<result_type> p;
    boost::future<result_type> result = p.get_future();
    fork_body<result_type, fn_type, bound_type> body(boost::move(p), fn_type(std::forward<F>(f)),
                                                     bound_type(std::forward<Args>(args)...));
    if constexpr (has_submit_front<Executor>::value)
      ex.submit_front(std::move(body));
    else
      ex.submit(std::move(body));
    return result;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
