// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The free join forms of fork_join.hpp (join(fs...), join(ex, fs...), join(ex, first, last))
// and the lookups of the task behind a future that they and joinable_future share: each form
// finds the scheduler to help and the tasks behind the futures, tries the fast path "own
// newest child" (join_futures.hpp), and only then builds its wait (help_or_wait), out of line.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_JOIN_FORMS_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_JOIN_FORMS_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/futures/forked_task.hpp>
#include <boost/thread/executors/detail/fork_join/futures/join_futures.hpp>
#ifndef BOOST_THREAD_FJ_PUBLIC_API_ONLY
#include <boost/thread/executors/detail/fork_join/futures/fork_state.hpp>
#endif
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/admission.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/waits/help.hpp>
#include <boost/thread/executors/detail/fork_join/waits/root_set.hpp>
#include <boost/chrono/time_point.hpp>
#include <boost/thread/future.hpp>

#include <cstddef>
#include <iterator>
#include <memory>
#include <type_traits>

namespace boost {
namespace detail {
namespace fork_join {

  // The task behind a valid future, if fork() or our boost::async made it (fork_state.hpp);
  // else nullptr. Free for a joinable_future, which keeps it; for any other future a cross-cast
  // from its shared state (none in the public-API-only build: a plain future's task is not
  // found). Requires: f.valid() (the task lives in the shared state).
  template <class R>
  const forked_task* task_of(const executors::joinable_future<R>& f) noexcept;
  template <class Future>
  const forked_task* task_of(const Future& f) noexcept
  {
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    (void)f;
    return nullptr;
#else
    return forked_task_of(f);
#endif
  }

  // The run record (fork_state.hpp) of the task behind a valid future, as task_of; else null.
  template <class Future>
  const run_record* record_of(const Future& f) noexcept
  {
    return record_of_task(task_of(f));
  }

  // Returns: f.is_ready(), without the shared state's mutex for a future fork() made.
  // Requires: f.valid().
  template <class Future>
  bool ready(const Future& f)
  {
    return is_ready(record_of(f), f);
  }

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

  // The scheduler behind an executor argument, if it is one of our pools (exactly: not a
  // const one, nor a class derived from it); else null.
  template <class Ex>
  pool_core* core_ptr(Ex& ex) noexcept
  {
    if constexpr (std::is_same<Ex, executors::fork_join_thread_pool>::value)
      return core_of(ex).get();
    else
    {
      (void)ex;
      return nullptr;
    }
  }

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
    // The first two are published as the tasks this thread joins (rule (b), admission.hpp).
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
    // published as the tasks this thread joins (rule (b), admission.hpp).
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

  // The body of joinable_future<R>::join_until(t) (joinable_future.hpp): join_one_until,
  // helping the pool join() helps: f's task's scheduler if it is provably alive (`held` by the
  // future, or the caller is one of its threads), else the one recorded in f's shared state.
  // scheduler, task: f's, if fork() or our boost::async made its task and f is valid; else null.
  template <class Future, class Clock, class Duration>
  boost::future_status join_until_helping(pool_core* scheduler, bool held, const forked_task* task, Future& f,
                                          const boost::chrono::time_point<Clock, Duration>& t)
  {
    BOOST_THREAD_FJ_ASSERT(!task || task->scheduler() == scheduler);
    std::shared_ptr<pool_core> recorded;
    pool_core* core = scheduler;
    if (!core || !(held || is_pool_thread_of(core)))
      core = (recorded = recorded_core(f)).get();
    return join_one_until(core, task, f, t);
  }

  // The body of join(ex, fs...) for a scheduler of ours (fork_join.hpp): inlined, as that is.
  template <class... Futures>
  BOOST_FORCEINLINE void join_all(pool_core* core, Futures&... fs)
  {
    constexpr std::size_t n = sizeof...(Futures);
    // Looked up once: for a plain boost::future each lookup is a cross-cast (forked_task_of).
    // Fast path, "cached task lookups" (doc/design.md, "Fast paths and their assumptions"): no future changes its state during the join
    // (that would be a non-const call on it, which Boost forbids meanwhile).
    const forked_task* const tasks[n] = {task_of(fs)...};
    const run_record* records[n + 1] = {};
    for (std::size_t k = 0; k < n; ++k)
      records[k] = record_of_task(tasks[k]);
    std::size_t i = 0;
    (require_valid(fs, records[i++]), ...);
    i = 0;
    (run_if_deferred(tasks[i++], fs), ...);
    if (run_all_if_own_newest(core, tasks, records, n))
      return;
    join_all_waiting(core, tasks, records, fs...);
  }

  // The body of join(ex, first, last) for a scheduler of ours (fork_join.hpp): inlined, as that is.
  template <class Iterator>
  BOOST_FORCEINLINE void join_range(pool_core* core, Iterator first, Iterator last)
  {
    // Fast path, "own newest child" (doc/design.md, "Fast paths and their assumptions"), from the range's back: children
    // forked in range order and joined at once are popped newest first, as the help loop would
    // take them, without building its wait.
    last = run_back_if_own_newest(core, first, last);
    if (first == last)
      return;
    join_range_waiting(core, first, last);
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
