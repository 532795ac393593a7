// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Every use of Boost.Thread's internals, in one place, each with its reason and a compile-time
// guard. Boost.Thread keeps these members public (its own continuations and executors use
// them) and unchanged from Boost 1.74 to the newest upstream headers; but if one changed,
// nothing else would fail to compile: a reused fork state would keep a stale field, a join would
// quietly stop helping. So each is checked here, and a failing check says to define
// BOOST_THREAD_FJ_PUBLIC_API_ONLY, which builds the library on Boost's public API alone
// (slower: a fork then goes through a boost::promise, as on any executor; see doc/index.md,
// "Boost versions, internals and the public-API-only mode").
//
// What is used, and by what (the default build):
//  1. basic_future<R>::future_, the future's boost::shared_ptr<shared_state<R> >: fork() and
//     boost::async(pool, f) build the future around their own fork state (fork_state.hpp); a join
//     cross-casts it to find the task (forked_task_of); joinable_future moves it without
//     touching the reference count and hands it back to the forking thread's recycler.
//  2. shared_state<R> as a base class: fork_state.hpp derives from it, as Boost's own async
//     states do, completing it under the state's mutex (mark_finished_with_result_internal,
//     mark_exceptional_finish_internal, or, unwatched, the result and done alone), and
//     overriding run_if_is_deferred() and set_continuation_ptr() (both virtual).
//  3. shared_state_base's fields, reset one by one when a fork state is reused (fork_state.hpp,
//     make_idle): guarded by a layout check that fails when a field is added or renamed.
//  4. shared_state<R>::result: boost::optional<T> or csbl::unique_ptr<T> (T* for T&); read by
//     the lock-free get() (take_stored) and reset by make_idle.
//  5. is_valid_, exception and done, read without the mutex after the run record's acquire
//     (the "lock-free get()" and "unlocked readiness and validity" fast paths, doc/design.md).
//  6. get_executor() and set_executor_policy(): the executor Boost records for
//     boost::async(ex, f) and then(ex, f) (a boost::shared_ptr<executor>), read by a join to
//     find the pool to help, written by our boost::async.
//  7. callback and set_continuation_ptr(): the fast path "unwatched completion" (fork_state.hpp,
//     finish) relies on every Boost wait that can block on a state calling its callback first
//     (do_callback: wait(), get(), the timed waits, notify_when_ready), and on then() and
//     unwrap() attaching through the virtual set_continuation_ptr(). Only the members can be
//     checked here; the calls were read in Boost 1.74, 1.81 and the newest upstream headers,
//     and detail_fork_state_pass waits on a fork in every one of these ways.
//  8. set_continuation_ptr() and the virtual launch_continuation(), on the states of futures
//     this library did not make (a promise's, then()'s, another executor's): a parked frame
//     hooks a continuation of its own there (future_hook.hpp), which Boost runs when the state
//     becomes ready (mark_finished_internal, do_continuation), under the state's mutex and
//     `done` (items 1 and 5). Read in Boost 1.74, 1.81 and the newest upstream headers;
//     external_waits_pass waits on such futures by the thousand.
// In the public-API-only build none of this is compiled: futures come from promises, a join
// finds its task through the joinable_future only, a deferred future is recognised by
// wait_for(0) == future_status::deferred, the pool's boost::async overloads are left out
// (Boost's own run on the pool through submit()), and a frame waiting for a future that no
// task of this library completes is polled instead of hooked.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_BOOST_COMPAT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_BOOST_COMPAT_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/csbl/memory/unique_ptr.hpp>
#include <boost/thread/executors/executor.hpp>
#include <boost/thread/future.hpp>
#include <boost/optional.hpp>
#include <boost/shared_ptr.hpp>

#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
  constexpr bool public_api_only = true;

  // Returns: whether f (valid) is deferred; if so, it has been run (as Boost's own wait() does).
  template <class Future>
  bool run_if_deferred(Future& f)
  {
    if (f.wait_for(boost::chrono::seconds(0)) != boost::future_status::deferred)
      return false;
    f.wait();
    return true;
  }
#else
  constexpr bool public_api_only = false;

  namespace compat {
    template <class T>
    using storage_of = typename std::remove_reference<decltype(std::declval<boost::detail::shared_state<T>&>().result)>::type;

    // 4. The result storage the lock-free get() dereferences and make_idle resets.
    template <class T>
    constexpr bool known_storage() noexcept
    {
      if constexpr (std::is_void<T>::value)
        return true; // no result
      else if constexpr (std::is_reference<T>::value)
        return std::is_same<storage_of<T>, typename std::remove_reference<T>::type*>::value;
      else
        return std::is_same<storage_of<T>, boost::optional<T> >::value ||
               std::is_same<storage_of<T>, boost::csbl::unique_ptr<T> >::value;
    }

    // 3. The fields of shared_state_base, in Boost's order: FIELD(name) for each; written once
    // for the detection below and for the layout check (fields_of).
#define BOOST_THREAD_FJ_SHARED_STATE_FIELDS(FIELD)                                                                     \
  FIELD(exception) FIELD(done) FIELD(is_valid_) FIELD(is_deferred_) FIELD(is_constructed) FIELD(policy_) FIELD(mutex) \
  FIELD(waiters) FIELD(external_waiters) FIELD(callback) FIELD(continuations) FIELD(ex_)
#define BOOST_THREAD_FJ_FIELD_TYPE(name) decltype(std::declval<S&>().name),
#define BOOST_THREAD_FJ_FIELD(name) decltype(S::name) name;

    // The members of shared_state_base that fork_state.hpp uses, detected rather than
    // named, so that a missing one fails with the message below rather than deep in a template.
    template <class S, class = void>
    struct has_used_members : std::false_type
    {
    };
    template <class S>
    struct has_used_members<
        S, std::void_t<BOOST_THREAD_FJ_SHARED_STATE_FIELDS(BOOST_THREAD_FJ_FIELD_TYPE)
                       decltype(std::declval<S&>().run_if_is_deferred()), decltype(std::declval<S&>().get_executor()),
                       decltype(std::declval<S&>().launch_continuation()),
                       decltype(std::declval<S&>().set_continuation_ptr(std::declval<typename S::continuation_ptr_type>(),
                                                                       std::declval<boost::unique_lock<boost::mutex>&>())),
                       decltype(std::declval<S&>().set_executor_policy(std::declval<boost::shared_ptr<executors::executor> >())),
                       decltype(std::declval<S&>().mark_exceptional_finish_internal(
                           std::declval<const boost::exception_ptr&>(), std::declval<boost::unique_lock<boost::mutex>&>()))> >
        : std::true_type
    {
    };

    // 3. shared_state_base, field by field as make_idle resets it: the same fields in the same
    // order (and the same virtual table pointer and enable_shared_from_this base) give the same
    // size; a field Boost adds changes it. Instantiated only when the members exist.
    template <class S>
    struct fields_of : boost::enable_shared_from_this<fields_of<S> >
    {
      virtual ~fields_of() = default;
      BOOST_THREAD_FJ_SHARED_STATE_FIELDS(BOOST_THREAD_FJ_FIELD)
    };
#undef BOOST_THREAD_FJ_FIELD
#undef BOOST_THREAD_FJ_FIELD_TYPE
#undef BOOST_THREAD_FJ_SHARED_STATE_FIELDS

    template <class S, bool = has_used_members<S>::value>
    struct same_layout : std::false_type
    {
    };
    template <class S>
    struct same_layout<S, true> : std::bool_constant<sizeof(fields_of<S>) == sizeof(S)>
    {
    };

    // Every guard, for a shared state base S and a future type F of result R; each names the
    // macro that avoids what it checks. A template, so that a test can check the guards
    // themselves against a state that differs (test/boost_compat_guard_fail.cpp).
    template <class S, class F, class R>
    struct guards
    {
      static_assert(has_used_members<S>::value,
                    "Boost.Thread fork/join executor: boost::detail::shared_state_base lost a member this library uses "
                    "(detail/fork_join/base/boost_compat.hpp lists them); define BOOST_THREAD_FJ_PUBLIC_API_ONLY");
      static_assert(same_layout<S>::value,
                    "Boost.Thread fork/join executor: boost::detail::shared_state_base gained a field that a reused fork "
                    "state would not reset (fork_state.hpp, make_idle); define BOOST_THREAD_FJ_PUBLIC_API_ONLY");
      static_assert(std::is_same<decltype(std::declval<F&>().future_), boost::shared_ptr<boost::detail::shared_state<R> > >::value,
                    "Boost.Thread fork/join executor: basic_future<R>::future_ is no longer a "
                    "boost::shared_ptr<shared_state<R> >; define BOOST_THREAD_FJ_PUBLIC_API_ONLY");
      static_assert(std::is_same<decltype(std::declval<S&>().get_executor()), boost::shared_ptr<executors::executor> >::value,
                    "Boost.Thread fork/join executor: shared_state_base::get_executor() no longer returns "
                    "boost::shared_ptr<executor>; define BOOST_THREAD_FJ_PUBLIC_API_ONLY");
      static_assert(std::is_same<decltype(std::declval<S&>().run_if_is_deferred()), bool>::value,
                    "Boost.Thread fork/join executor: shared_state_base::run_if_is_deferred() changed; "
                    "define BOOST_THREAD_FJ_PUBLIC_API_ONLY");
      static constexpr bool value = true;
    };

    template <class R>
    struct result_guard
    {
      static_assert(known_storage<R>(),
                    "Boost.Thread fork/join executor: shared_state<R>::result is neither boost::optional<R> nor "
                    "csbl::unique_ptr<R> (R* for a reference); define BOOST_THREAD_FJ_PUBLIC_API_ONLY");
      static constexpr bool value = true;
    };
  } // namespace compat

  static_assert(compat::guards<boost::detail::shared_state_base, boost::future<int>, int>::value &&
                compat::guards<boost::detail::shared_state_base, boost::shared_future<int>, int>::value &&
                compat::guards<boost::detail::shared_state_base, boost::future<void>, void>::value &&
                compat::guards<boost::detail::shared_state_base, boost::future<int&>, int&>::value);

  // 1. The shared state of a future, typed (result R).
  template <class Future>
  auto& state_of(Future& f) noexcept
  {
    return f.future_;
  }
  template <class Future>
  const auto& state_of(const Future& f) noexcept
  {
    return f.future_;
  }

  // 2. Returns: whether f (valid) is deferred; if so, it has been run on the calling thread.
  template <class Future>
  bool run_if_deferred(Future& f)
  {
    return f.future_->run_if_is_deferred();
  }

  // 6. The executor Boost recorded in f's shared state, if f is valid and one was; else null.
  template <class Future>
  boost::shared_ptr<executors::executor> recorded_executor(const Future& f)
  {
    return f.future_ ? f.future_->get_executor() : boost::shared_ptr<executors::executor>();
  }

  // 5. Returns: f.valid(), read without the state's mutex. Exact only where no other thread
  // can call get() on f meanwhile (the "unlocked readiness and validity" fast path says when).
  template <class Future>
  bool valid_unlocked(const Future& f) noexcept
  {
    return f.future_ && f.future_->is_valid_;
  }
#endif

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
