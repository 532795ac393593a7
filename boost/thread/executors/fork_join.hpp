// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork and join: dynamic task decomposition on a fixed number of threads.
//
// Outline (namespace boost::executors; found by argument-dependent lookup)
//   joinable_future<R> fork(Executor& ex, F&& f, Args&&... args);   // child runs next
//   joinable_future<R> fork(F&& f, Args&&... args);     // on current_fork_join_pool()
//   void join(Futures&... fs);                     // each on the pool recorded in it
//   void join(Executor& ex, Futures&... fs);       // help ex until all are ready
//   void join(Iterator first, Iterator last);
//   void join(Executor& ex, Iterator first, Iterator last);
//   future_status join_for(Future& f, duration d);         // gives up at now + d
//   future_status join_until(Future& f, time_point t);     // gives up at t
//   future_status join_for(Executor& ex, Future& f, duration d);
//   future_status join_until(Executor& ex, Future& f, time_point t);
//
//   int fib(fork_join_thread_pool& ex, int n) {
//     if (n < 2) return n;
//     auto a = fork(ex, fib, std::ref(ex), n - 1);
//     auto b = fork(ex, fib, std::ref(ex), n - 2);
//     join(ex, a, b);                              // helps; never deadlocks the pool
//     return a.get() + b.get();
//   }
//
// `fork` is deliberately not lifted into namespace boost: it would collide with POSIX fork().

#ifndef BOOST_THREAD_EXECUTORS_FORK_JOIN_HPP
#define BOOST_THREAD_EXECUTORS_FORK_JOIN_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/futures/forked_task.hpp>
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
#include <boost/thread/executors/detail/fork_join/futures/promise_task.hpp>
#else
#include <boost/thread/executors/detail/fork_join/futures/fork_state.hpp>
#endif
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/futures/join_futures.hpp>
#include <boost/thread/executors/detail/fork_join/waits/root_set.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/joinable_future.hpp>
#include <boost/thread/future.hpp>

#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  template <class... Ts>
  struct all_futures : std::conjunction<is_future_type<typename std::decay<Ts>::type>...>
  {
  };

  template <class Ex, class = void>
  struct has_submit_front : std::false_type
  {
  };
  template <class Ex>
  struct has_submit_front<Ex, std::void_t<decltype(std::declval<Ex&>().submit_front(std::declval<void (*)()>()))> >
      : std::true_type
  {
  };

  template <class Future>
  struct is_joinable_future : std::false_type
  {
  };
  template <class R>
  struct is_joinable_future<executors::joinable_future<R> > : std::true_type
  {
  };

  // Joins one future the way its own join() would: a joinable_future knows the pool fork()
  // submitted it to; any other future is looked up in its shared state.
  template <class R>
  void join_single(executors::joinable_future<R>& f)
  {
    f.join();
  }
  template <class Future>
  void join_single(Future& f)
  {
    join_one(recorded_core(f).get(), task_of(f), f);
  }

  // The scheduler behind an executor argument, if it is one of ours.
  inline pool_core* core_ptr(executors::fork_join_thread_pool& ex) noexcept { return core_of(ex).get(); }
  template <class Ex>
  pool_core* core_ptr(Ex&) noexcept
  {
    return nullptr;
  }

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

  // Effects: run_all_if_own_newest() over a range of futures from its back: for each future
  // of [first, last) from the last on (forked in range order, the last is the newest), checks
  // that it is valid, runs it if deferred, and, unless it is ready, runs its task if
  // run_if_own_newest() may; stops at the first future that is still not ready. A forward
  // range (no way back) is left as it is.
  // Returns: the end of what is left to wait for: every future of [result, last) is ready.
  // Throws: future_uninitialized; boost::thread_interrupted if a task throws it.
  // Complexity: O(1) per future visited, each visited once.
  template <class Iterator>
  BOOST_FORCEINLINE Iterator run_back_if_own_newest(pool_core* core, Iterator first, Iterator last)
  {
    if constexpr (std::is_base_of<std::bidirectional_iterator_tag,
                                  typename std::iterator_traits<Iterator>::iterator_category>::value)
    {
      while (last != first)
      {
        Iterator back = std::prev(last);
        const forked_task* const t = task_of(*back);
        const run_record* const record = record_of_task(t);
        require_valid(*back, record);
        if (!run_if_deferred(t, *back) && !is_ready(record, *back) &&
            !(run_if_own_newest(core, t) && is_ready(record, *back)))
          break;
        last = back;
      }
    }
    return last;
  }

  // The waiting part of join(ex, fs...), out of line so that the frame of its fast path
  // (run_all_if_own_newest) stays small. tasks[k] and records[k]: as join(ex, fs...) found them
  // for the k-th future; records has one more entry, null.
  template <class... Futures>
  BOOST_NOINLINE void join_all_waiting(pool_core* core, const forked_task* const* tasks, const run_record* const* records,
                                      Futures&... fs)
  {
    constexpr std::size_t n = sizeof...(Futures);
    awaited_roots<n> awaited;
    for (std::size_t k = 0; k < n; ++k)
      awaited.roots[k] = root_of_task(tasks[k]);
    wait_scope scope = awaited.scope();
    scope.claimable[0] = tasks[0]; // the first two, as for leapfrogging; the others are popped
    scope.claimable[1] = n > 1 ? tasks[1 % n] : nullptr; // as they come up
    scope.leapfrog[0] = records[0];
    scope.leapfrog[1] = records[1];
    // The first two are published as the tasks this thread joins (rule (b), task_frame.hpp).
    join_publication published(awaited.roots[0], n > 1 ? awaited.roots[1 % n] : 0);
    auto ready = [&] {
      std::size_t k = 0;
      return (is_ready(records[k++], fs) && ...);
    };
    auto block = [&] {
      // Sleep on the first future that is not ready; the loop re-checks all of them.
      bool waited = false;
      std::size_t k = 0;
      auto wait_if_pending = [&](auto& f) {
        if (!waited && !is_ready(records[k], f))
        {
          f.wait();
          waited = true;
        }
        ++k;
      };
      (wait_if_pending(fs), ...);
    };
    // Park on the first future that is not ready; the loop re-checks all of them.
    auto arm = [&](parked_frame& pf) {
      arm_result armed = arm_result::done;
      std::size_t k = 0;
      auto arm_if_pending = [&](auto& f) {
        if (armed == arm_result::done && !is_ready(records[k], f))
          armed = arm_for(records[k], f, pf);
        ++k;
      };
      (arm_if_pending(fs), ...);
      return armed;
    };
    bool any_task = false;
    for (std::size_t k = 0; k < n; ++k)
      any_task = any_task || records[k] != nullptr;
    help_or_wait(core, scope, ready, block, [&] { awaited.check_no_cycle(); }, arm,
                 any_task ? BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS : BOOST_THREAD_FJ_FOREIGN_SPIN_ROUNDS);
  }

  // The waiting part of join(ex, first, last), out of line as join_all_waiting() is: helps until
  // every future of [first, last) is ready. [first, last) is what run_back_if_own_newest() left:
  // the range's futures after it are ready.
  template <class Iterator>
  BOOST_NOINLINE void join_range_waiting(pool_core* core, Iterator first, Iterator last)
  {
    // The root ids of the awaited tasks, for rule (a) of the admission rule: fixed for the
    // whole join, since a queued task is not ready and so is still pending.
    root_set awaited;
    // The first two tasks, as join(ex, fs...) treats its first two: they may be taken from
    // under newer tasks of this thread's deque (a range of one, joined per child in fork order;
    // the others are popped as they come up), their thieves may be leapfrogged, and they are
    // published as the tasks this thread joins (rule (b), task_frame.hpp).
    wait_scope scope;
    task_tag first_roots[2] = {0, 0};
    bool any_task = false; // whether a future has a task of this library behind it
    std::size_t k = 0;
    for (Iterator it = first; it != last; ++it, ++k)
    {
      const forked_task* t = task_of(*it);
      if (k < 2)
      {
        scope.claimable[k] = t;
        scope.leapfrog[k] = record_of_task(t);
        first_roots[k] = root_of_task(t);
      }
      require_valid(*it, record_of_task(t));
      run_if_deferred(t, *it);
      awaited.insert(root_of_task(t));
      any_task = any_task || t != nullptr;
    }
    // Invariant: [pending, last) holds every future that was not ready when last looked at.
    Iterator pending = first;
    auto ready = [&] {
      while (pending != last && fork_join::ready(*pending))
        ++pending;
      return pending == last;
    };
    scope.awaits = &root_set::contains;
    scope.context = &awaited;
    join_publication published(first_roots[0], first_roots[1]);
    // Once: the frames below a join do not change while it waits (those it runs above them
    // have returned before each check).
    bool checked = false;
    auto check = [&] {
      if (!checked && awaited.any_on_own_stack())
        boost::throw_exception(executors::join_cycle_error());
      checked = true;
    };
    // Park on the first future that is not ready (ready() left `pending` there).
    auto arm = [&](parked_frame& pf) {
      return arm_for(record_of_task(task_of(*pending)), *pending, pf);
    };
    help_or_wait(core, scope, ready, [&] { pending->wait(); }, check, arm,
                 any_task ? BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS : BOOST_THREAD_FJ_FOREIGN_SPIN_ROUNDS);
  }

} // namespace fork_join
} // namespace detail

namespace executors {

  // Requires: F and each of Args are MoveConstructible; invoking a decayed copy of f with
  // decayed copies of args is well-formed. Executor is a Boost.Thread executor.
  // Effects: schedules f(args...) (on decayed copies, as boost::async and std::thread do) to run
  // next: on a fork_join_thread_pool, or any executor with submit_front, at the front of the
  // calling worker's deque (or of the shared queue from outside), so that the child runs before
  // older work, as the parent's continuation is stolen; on other executors with submit().
  // Returns: a joinable_future for the result; an exception thrown by f is stored in it, and
  // get() rethrows that very exception (Boost's own boost::async, on executors other than a
  // fork_join_thread_pool, slices a type derived from a standard exception to its standard base
  // up to Boost 1.81; from 1.82 Boost.Exception keeps the type).
  // Synchronization: the call happens before the task runs; the task's completion happens
  // before join() on the returned future returns.
  // Throws: sync_queue_is_closed if the executor is closed (for a fork_join_thread_pool: and
  // the caller runs none of its tasks); std::bad_alloc.
  template <class Executor, class F, class... Args,
            class = typename std::enable_if<detail::fork_join::is_executor<Executor>::value>::type>
  joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork(Executor& ex, F&& f, Args&&... args)
  {
    typedef std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> result_type;
    typedef typename std::decay<F>::type fn_type;
    typedef std::tuple<typename std::decay<Args>::type...> bound_type;
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    if constexpr (std::is_same<Executor, fork_join_thread_pool>::value)
    {
      detail::fork_join::unrun_task_exception(); // made before anything it would stand in for
      // A task node that completes a boost::promise (promise_task.hpp).
      typedef detail::fork_join::promise_task<result_type, fn_type, bound_type> node_type;
      future<result_type> future_of_node;
      const std::shared_ptr<node_type> node =
          node_type::make(fn_type(std::forward<F>(f)), bound_type(std::forward<Args>(args)...), future_of_node);
      const std::shared_ptr<detail::fork_join::pool_core>& core = detail::fork_join::core_of(ex);
      node->set_scheduler(core.get());
      // The future first: if the submission throws, it discards the task (its promise gets
      // broken_promise), and the node goes when both references have.
      joinable_future<result_type> result(boost::move(future_of_node), node, core);
      core->submit(node.get(), detail::fork_join::queue_end::front);
      return result;
    }
#else
    if constexpr (std::is_same<Executor, fork_join_thread_pool>::value)
    {
      // The shared state, task node and closure in one block, reused (fork_state.hpp).
      typedef detail::fork_join::fork_state<result_type, fn_type, bound_type> state_type;
      state_type* const state = state_type::take(fn_type(std::forward<F>(f)), bound_type(std::forward<Args>(args)...));
      const std::shared_ptr<detail::fork_join::pool_core>& core = detail::fork_join::core_of(ex);
      state->set_scheduler(core.get());
      // The future first: if the submission throws, it discards the task, and the future's
      // destruction gives the block back.
      joinable_future<result_type> result(state->future_reference(), state, core);
      core->submit(state, detail::fork_join::queue_end::front);
      return result;
    }
#endif
    else
    {
      detail::fork_join::unrun_task_exception(); // made before anything it would stand in for
      promise<result_type> p;
      future<result_type> result = p.get_future();
      detail::fork_join::fork_body<result_type, fn_type, bound_type> body(
          boost::move(p), fn_type(std::forward<F>(f)), bound_type(std::forward<Args>(args)...));
      if constexpr (detail::fork_join::has_submit_front<Executor>::value)
        ex.submit_front(std::move(body));
      else
        ex.submit(std::move(body));
      return joinable_future<result_type>(std::move(result));
    }
  }

  // Requires: as above; F is not an executor.
  // Effects: fork(current_fork_join_pool(), f, args...): on the pool whose task the calling
  // thread runs, or on the default pool outside every pool. Call it qualified
  // (boost::executors::fork(f)) where no argument is from namespace boost::executors.
  // Returns, Synchronization, Throws: as above; also what default_fork_join_pool() throws.
  template <class F, class... Args,
            class = typename std::enable_if<!detail::fork_join::is_executor<typename std::remove_reference<F>::type>::value>::type>
  joinable_future<std::invoke_result_t<typename std::decay<F>::type, typename std::decay<Args>::type...> >
  fork(F&& f, Args&&... args)
  {
    return fork(current_fork_join_pool(), std::forward<F>(f), std::forward<Args>(args)...);
  }

  // Requires: each f is a valid boost::future, shared_future or joinable_future.
  // Effects: joins each future in turn as joinable_future::join() does: helping the pool
  // recorded in it, else the calling worker's pool, else waiting.
  // Postconditions: every future is ready.
  // Synchronization: the completion of every future's task happens before join returns.
  // Throws: future_uninitialized; boost::thread_interrupted. Progress: may run other tasks.
  template <class... Futures>
  typename std::enable_if<(sizeof...(Futures) > 0) && detail::fork_join::all_futures<Futures...>::value>::type
  join(Futures&... fs)
  {
    (detail::fork_join::join_single(fs), ...);
  }

  // Requires: each f is a valid future; ex is an executor.
  // Effects: until every future is ready, runs queued tasks of ex if it is a
  // fork_join_thread_pool (and of the calling worker's own pool), one at a time, re-checking
  // after each; with nothing to run, sleeps until new work arrives or a future becomes ready.
  // For other executors, as join(fs...).
  // Postconditions, Synchronization, Throws, Progress: as join(fs...).
  template <class Executor, class... Futures>
  BOOST_FORCEINLINE typename std::enable_if<!is_future_type<Executor>::value && (sizeof...(Futures) > 0) &&
                                            detail::fork_join::all_futures<Futures...>::value>::type
  join(Executor& ex, Futures&... fs)
  {
    detail::fork_join::pool_core* core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join(fs...);
    constexpr std::size_t n = sizeof...(Futures);
    // Looked up once: for a plain boost::future each lookup is a cross-cast (forked_task_of).
    // Fast path, "cached task lookups" (doc/index.md ledger): no future changes its state during the join
    // (that would be a non-const call on it, which Boost forbids meanwhile).
    const detail::fork_join::forked_task* const tasks[n] = {detail::fork_join::task_of(fs)...};
    const detail::fork_join::run_record* records[n + 1] = {};
    for (std::size_t k = 0; k < n; ++k)
      records[k] = detail::fork_join::record_of_task(tasks[k]);
    std::size_t i = 0;
    (detail::fork_join::require_valid(fs, records[i++]), ...);
    i = 0;
    (detail::fork_join::run_if_deferred(tasks[i++], fs), ...);
    if (detail::fork_join::run_all_if_own_newest(core, tasks, records, n))
      return;
    detail::fork_join::join_all_waiting(core, tasks, records, fs...);
  }

  // Requires: f is a valid boost::future, shared_future or joinable_future.
  // Effects: as join(f), until f is ready or Clock::now() >= t, whichever is first (for a
  // joinable_future, f.join_until(t)): helps, then parks (a pool thread) or waits with f's
  // wait_until (any other thread); a deadline already passed only looks; a deferred task is
  // not run.
  // Returns: future_status::ready, timeout, or deferred (a deferred future).
  // Synchronization: if it returns ready, the completion of f's task happens before it returns.
  // Throws: as join(f); std::bad_alloc (joinable_future::join_until).
  template <class Future, class Clock, class Duration>
  typename std::enable_if<is_future_type<Future>::value, future_status>::type
  join_until(Future& f, const boost::chrono::time_point<Clock, Duration>& t)
  {
    if constexpr (detail::fork_join::is_joinable_future<Future>::value)
      return f.join_until(t);
    else
      return detail::fork_join::join_one_until(detail::fork_join::recorded_core(f).get(), detail::fork_join::task_of(f), f, t);
  }

  // Requires: as join_until(f, t); ex is an executor.
  // Effects: as join_until(f, t), helping ex if it is a fork_join_thread_pool (as join(ex, f)).
  // Returns, Synchronization, Throws: as join_until(f, t).
  template <class Executor, class Future, class Clock, class Duration>
  typename std::enable_if<!is_future_type<Executor>::value && is_future_type<Future>::value, future_status>::type
  join_until(Executor& ex, Future& f, const boost::chrono::time_point<Clock, Duration>& t)
  {
    detail::fork_join::pool_core* const core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join_until(f, t);
    return detail::fork_join::join_one_until(core, detail::fork_join::task_of(f), f, t);
  }

  // Effects, Returns, Synchronization, Throws: join_until(f, boost::chrono::steady_clock::now() + d).
  template <class Future, class Rep, class Period>
  typename std::enable_if<is_future_type<Future>::value, future_status>::type
  join_for(Future& f, const boost::chrono::duration<Rep, Period>& d)
  {
    return join_until(f, boost::chrono::steady_clock::now() + d);
  }

  // Effects, Returns, Synchronization, Throws: join_until(ex, f, boost::chrono::steady_clock::now() + d).
  template <class Executor, class Future, class Rep, class Period>
  typename std::enable_if<!is_future_type<Executor>::value && is_future_type<Future>::value, future_status>::type
  join_for(Executor& ex, Future& f, const boost::chrono::duration<Rep, Period>& d)
  {
    return join_until(ex, f, boost::chrono::steady_clock::now() + d);
  }

  // Requires: [first, last) is a range of valid futures.
  // Effects, Postconditions, Synchronization, Throws: as join(fs...) over the range.
  template <class Iterator>
  typename std::enable_if<!is_future_type<Iterator>::value &&
                          is_future_type<typename std::iterator_traits<Iterator>::value_type>::value>::type
  join(Iterator first, Iterator last)
  {
    for (; first != last; ++first)
      join(*first);
  }

  // Requires: [first, last) is a range of valid futures (a forward range: it is walked more
  // than once); ex is an executor.
  // Effects, Postconditions, Synchronization: as join(ex, fs...) over the range.
  // Throws: as join(ex, fs...); std::bad_alloc if the set of awaited tasks of a range of more
  // than 16 futures cannot be allocated (then no future was waited for).
  // Complexity: O(n) expected for n futures, plus O(1) expected per queued task the calling
  // thread looks at while it waits and O(d) for a cycle check on a stack of d frames
  // (detail/fork_join/waits/root_set.hpp); it never scans the range per task.
  template <class Executor, class Iterator>
  BOOST_FORCEINLINE typename std::enable_if<!is_future_type<Executor>::value && !is_future_type<Iterator>::value &&
                                            is_future_type<typename std::iterator_traits<Iterator>::value_type>::value>::type
  join(Executor& ex, Iterator first, Iterator last)
  {
    detail::fork_join::pool_core* core = detail::fork_join::core_ptr(ex);
    if (!core)
      return join(first, last);
    // Fast path, "own newest child" (doc/index.md ledger), from the range's back: children
    // forked in range order and joined at once are popped newest first, as the help loop would
    // take them, without building its wait.
    last = detail::fork_join::run_back_if_own_newest(core, first, last);
    if (first == last)
      return;
    detail::fork_join::join_range_waiting(core, first, last);
  }

} // namespace executors
} // namespace boost

#endif // header
