// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// boost::async(pool, f, args...) as a fork: the body of every overload for our pool, the
// generic one (fork_join_thread_pool.hpp) and, below, the four for functions.
// Not in the public-API-only build (boost_compat.hpp): there Boost's own boost::async overloads
// run f on the pool through submit(), as on any executor, and a join of their futures helps the
// joining thread's own pool without running f itself.
//
// Functions: Boost.Thread has an overload of its own for functions,
// async(Executor&, R (*)(A&&...), A&&...), which takes `int f()` and any function whose
// parameters are all rvalue references, called with rvalues of those types. Against our generic
// overload neither is more specialized (ours in the executor, Boost's in the callable), so such
// calls would be ambiguous. Our generic overload therefore steps aside for them
// (boost_async_takes_function_t), and four overloads of Boost's shape with our executor type,
// and so more specialized than Boost's, take them: the function runs on this path too. They
// are written per number of parameters (0 to 3) because GCC (12 at least) cannot order a
// variadic `R (*)(A&&...)` against Boost's and reports the call ambiguous where Clang does not.
// A function of that shape with more than three parameters is left to Boost's overload: it
// runs on the pool, but as on other executors (its join does not run it, and an exception
// reaches get() as Boost stores it).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_ASYNC_AS_FORK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_ASYNC_AS_FORK_HPP

#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
#error "Boost.Thread fork/join executor: async_as_fork.hpp records the executor in Boost.Thread's shared state, which BOOST_THREAD_FJ_PUBLIC_API_ONLY excludes"
#endif

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/futures/fork_onto.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>
#include <boost/thread/executors/executor.hpp>
#include <boost/thread/future.hpp>
#include <boost/make_shared.hpp>
#include <boost/shared_ptr.hpp>

#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // Returns: the executor a future of boost::async(ex, ...) records: a Recorded made of ex
  // (Boost's own executor_ref<Pool>), one per pool thread (pool_core.hpp, worker_slot), from
  // other threads a new one.
  // Throws: std::bad_alloc. Inlined into async_as_fork(), whose step it is.
  template <class Recorded, class Pool>
  BOOST_FORCEINLINE boost::shared_ptr<executors::executor> executor_record(Pool& ex, pool_core& core)
  {
    BOOST_THREAD_FJ_ASSERT(core_of(ex).get() == &core);
    if (worker_slot* own = core.own_slot())
    {
      if (!own->recorded_executor)
        own->recorded_executor = boost::make_shared<Recorded>(ex);
      return own->recorded_executor;
    }
    return boost::make_shared<Recorded>(ex);
  }

  // The body of every boost::async overload for our pool: f(args...) forked onto ex
  // (fork_onto.hpp) in a plain future that records ex as its executor.
  template <class Pool, class F, class... Args>
  boost::future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  async_as_fork(Pool& ex, F&& f, Args&&... args)
  {
    typedef boost::future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> > future_type;
    const std::shared_ptr<pool_core>& core = core_of(ex);
    return fork_onto<future_type>(core, executor_record<executors::executor_ref<Pool> >(ex, *core), std::forward<F>(f),
                                  std::forward<Args>(args)...);
  }

  // Whether Boost.Thread's own overload for functions, async(Executor&, R (*)(A&&...), A&&...),
  // accepts f and args: the same deduction, without partial ordering (the int/long tag picks
  // the first one whenever it is viable).
  template <class R, class... A>
  std::true_type boost_async_takes_function(int, R (*)(A&&...), A&&...);
  template <class... T>
  std::false_type boost_async_takes_function(long, T&&...);
  template <class F, class... Args>
  using boost_async_takes_function_t =
      decltype(boost_async_takes_function(0, std::declval<F>(), std::declval<Args>()...));

} // namespace fork_join
} // namespace detail

// Requires, Effects, Returns, Synchronization, Throws: as the generic overload of
// boost::async(fork_join_thread_pool&, F&&, Args&&...) (fork_join_thread_pool.hpp), for the
// functions it leaves to these (see "Functions" above).
template <class R>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)())
{
  return detail::fork_join::async_as_fork(ex, f);
}

template <class R, class A1>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)(A1&&), A1&& a1)
{
  return detail::fork_join::async_as_fork(ex, f, std::forward<A1>(a1));
}

template <class R, class A1, class A2>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)(A1&&, A2&&), A1&& a1, A2&& a2)
{
  return detail::fork_join::async_as_fork(ex, f, std::forward<A1>(a1), std::forward<A2>(a2));
}

template <class R, class A1, class A2, class A3>
future<R> async(executors::fork_join_thread_pool& ex, R (*f)(A1&&, A2&&, A3&&), A1&& a1, A2&& a2, A3&& a3)
{
  return detail::fork_join::async_as_fork(ex, f, std::forward<A1>(a1), std::forward<A2>(a2), std::forward<A3>(a3));
}

} // namespace boost

#endif // header
