// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Joining Boost futures: which pool to help, and the wait itself.
//
// Which pool: the one recorded in the future's shared state if it is provably a live
// fork_join_thread_pool (Boost records `executor_ref<Ex>` for boost::async(ex, ...) and
// then(ex, ...); our specialization of executor_ref is a pool_executor_ref, which owns the
// scheduler, so a successful dynamic_cast, as_pool_executor_ref, is the proof); failing that,
// the current thread's pool if it is a worker; failing that, none, and the join simply waits.
// A continuation made by then(f) without an executor records an executor_ref<executor> that
// refers to its parent's executor object, which may already be freed: it never matches the
// cast, so it is never used.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_JOIN_FUTURES_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_JOIN_FUTURES_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/boost_compat.hpp>
#include <boost/thread/executors/detail/fork_join/futures/forked_task.hpp>
#include <boost/thread/executors/detail/fork_join/futures/pool_executor_ref.hpp>
#include <boost/thread/executors/detail/fork_join/waits/future_hook.hpp>
#include <boost/thread/executors/detail/fork_join/waits/help.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/admission.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/waker.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/chrono/duration.hpp>
#include <boost/chrono/time_point.hpp>
#include <boost/thread/future.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace boost {
namespace executors {

  // Thrown by a join that waits for a task running on the calling thread's own stack: the
  // calling task's own future, an ancestor's that runs below it, or one whose task the calling
  // frame was run for. Such a wait could never end. Joins that wait for each other across
  // threads are not detected (doc/index.md, "Progress").
  class join_cycle_error : public std::logic_error
  {
  public:
    join_cycle_error() : std::logic_error("boost::executors::join: the awaited task waits for the joining thread (a cycle)") {}
  };

} // namespace executors

namespace detail {
namespace fork_join {

  // Returns: the scheduler recorded in f's shared state if it is a fork_join_thread_pool's.
  // In the public-API-only build the record is not read (boost_compat.hpp): always null.
  template <class Future>
  std::shared_ptr<pool_core> recorded_core(const Future& f)
  {
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    (void)f;
#else
    const boost::shared_ptr<executors::executor> ex = recorded_executor(f);
    if (const pool_executor_ref* ref = as_pool_executor_ref(ex.get()))
      return ref->core();
#endif
    return nullptr;
  }

  // Fast path, "unlocked readiness and validity" (doc/design.md, "Fast paths and their assumptions").
  // Throws: future_uninitialized if f is not valid. Given the run record of f's task (fork()
  // or our boost::async made it; else null), without the shared state's mutex, which Boost's
  // valid() takes: is_valid_ is only written by the get() of the future's owner, the thread
  // that joins it. (The public-API-only build asks valid().)
  template <class Future>
  void require_valid(const Future& f, const run_record* record)
  {
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    (void)record;
    const bool valid = f.valid();
#else
    const bool valid = record ? valid_unlocked(f) : f.valid();
#endif
    if (!valid)
      boost::throw_exception(future_uninitialized());
  }

  // Root ids of awaited heap tasks (fork_onto.hpp's fork records them), without allocating:
  // wait_scope's `awaits` callback over a fixed array.
  template <std::size_t N>
  struct awaited_roots
  {
    task_tag roots[N > 0 ? N : 1] = {};

    static bool contains(const void* self, task_tag root) noexcept
    {
      const awaited_roots& a = *static_cast<const awaited_roots*>(self);
      for (std::size_t i = 0; i < N; ++i)
        if (a.roots[i] == root)
          return true;
      return false;
    }

    // Throws: executors::join_cycle_error if an awaited task runs on the calling thread's
    // stack (task_frame.hpp: that wait could never end).
    void check_no_cycle() const
    {
      for (std::size_t i = 0; i < N; ++i)
        if (roots[i] != 0 && root_on_own_stack(roots[i]))
          boost::throw_exception(executors::join_cycle_error());
    }

    wait_scope scope() const noexcept
    {
      wait_scope s;
      s.awaits = &awaited_roots::contains;
      s.context = this;
      return s;
    }
  };

  // Effects: for a pool thread about to park in a join of f (help.hpp): registers its frame
  // with the task behind f if fork() or our boost::async made it (record not null), else hooks
  // it to f (future_hook.hpp). Returns: as arm() of help_until.
  template <class Future>
  arm_result arm_for(const run_record* record, Future& f, parked_frame& pf) noexcept
  {
    if (!record)
      return hook_future(f, pf);
    return add_waker(const_cast<run_record*>(record)->result_stored, run_record::stored_bit, pf) ? arm_result::registered
                                                                                                  : arm_result::done;
  }

  // Effects: makes every future ready: helps `preferred` (if not null), then the current
  // thread's pool (if it is a worker and a different pool), running only what `scope` admits,
  // or else parks (a pool thread: arm() registers its frame, see help_until) or waits.
  // block() sleeps until some awaited future is ready; check() runs before each sleep or park
  // and may throw. spin_rounds: as help_until's (BOOST_THREAD_FJ_FOREIGN_SPIN_ROUNDS where no
  // future has a task of this library).
  // Requires: every future is valid.
  template <class ReadyFn, class BlockFn, class CheckFn, class ArmFn>
  void help_or_wait(pool_core* preferred, const wait_scope& scope, ReadyFn&& ready, BlockFn&& block, CheckFn&& check, ArmFn&& arm,
                    int spin_rounds = BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS)
  {
    const worker_context* w = current_worker;
    pool_core* own = w ? w->core : nullptr;
    pool_core* first = preferred ? preferred : own;
    pool_core* second = (own && own != first) ? own : nullptr;
    futures_wait wait(ready, block, check, arm);
    if (!first)
    {
      while (!wait.ready())
        wait.block();
      return;
    }
    help_until(first, second, scope, wait, spin_rounds);
  }

  // Fast path, "unlocked readiness and validity" (doc/design.md, "Fast paths and their assumptions").
  // Returns: f.is_ready(), read from the run record of the task behind f (fork_state.hpp)
  // without the shared state's mutex when there is one (record not null).
  // Requires: f.valid().
  template <class Future>
  bool is_ready(const run_record* record, const Future& f)
  {
    return record ? record->stored() : f.is_ready();
  }

  // Fast path, "never deferred" (doc/design.md, "Fast paths and their assumptions"): a future whose task fork() or our
  // boost::async made (task not null) is never deferred, so only other futures are asked (in
  // the public-API-only build the question is a wait_for(0): the state's mutex and a clock).
  // Returns: whether f (valid) is deferred; if so, it has been run on the calling thread.
  template <class Future>
  bool run_if_deferred(const forked_task* task, Future& f)
  {
    return !task && run_if_deferred(f);
  }

  // Fast path, "own newest child" (doc/design.md, "Fast paths and their assumptions").
  // Requires: task is null or the task behind a valid future the caller holds (whose
  // reference keeps the state, and so the task, alive and bound to that future).
  // Precondition of the shortcut: the calling thread is a pool thread of `core` with stack to
  // spare, and task is the newest task of its own deque (its own fork, neither stolen nor
  // buried under a newer push). Then the join's first step would take exactly that task (rule
  // (a) of admission.hpp), so it is taken and run here, without building the wait: no scope
  // (nothing else runs), no publication for rule (b) (nothing awaited stays queued), and no
  // help loop in the frame, which deep chains pay for on every level.
  // Effects: if the precondition holds, runs the task. Returns: whether it ran.
  // Throws: boost::thread_interrupted if the task throws it (as the help loop would).
  // Inlined, with what calls it up to the public join, so that a level of a chain of joins nests
  // no frame of ours (pool_core::run_task_inline).
  BOOST_FORCEINLINE bool run_if_own_newest(pool_core* core, const forked_task* t)
  {
    if (!core || !t || !stack_has_room())
      return false;
    task* const popped = core->pop_own_if_newest(t); // null if not a pool thread of core
    if (!popped)
      return false;
    core->run_task_inline(popped);
    return true;
  }

  // Effects: run_if_own_newest() for tasks[n - 1], ..., tasks[0] in turn (forked in that
  // order, the last is the newest), skipping those whose record says stored, until one is not
  // run. Returns: whether every record (null: not a fork) now says stored.
  BOOST_FORCEINLINE bool run_all_if_own_newest(pool_core* core, const forked_task* const* tasks, const run_record* const* records, std::size_t n)
  {
    for (std::size_t k = n; k-- > 0;)
      if (!(records[k] && records[k]->stored()) && !run_if_own_newest(core, tasks[k]))
        return false;
    for (std::size_t k = 0; k < n; ++k)
      if (!(records[k] && records[k]->stored()))
        return false;
    return true;
  }

  // The rest of join_one, out of line so that the fast path's frame stays small.
  template <class Future>
  BOOST_NOINLINE void join_one_waiting(pool_core* preferred, const forked_task* task, const run_record* record, Future& f)
  {
    awaited_roots<1> awaited;
    awaited.roots[0] = root_of_task(task);
    wait_scope scope = awaited.scope();
    scope.claimable[0] = task; // a child joined in fork order sits under its younger siblings
    scope.leapfrog[0] = record;
    join_publication published(awaited.roots[0], 0);
    help_or_wait(
        preferred, scope, [&f, record] { return is_ready(record, f); }, [&f] { f.wait(); },
        [&awaited] { awaited.check_no_cycle(); }, [record, &f](parked_frame& pf) { return arm_for(record, f, pf); },
        record ? BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS : BOOST_THREAD_FJ_FOREIGN_SPIN_ROUNDS);
  }

  // Effects: as help_or_wait for one future, whose task fork() or our boost::async made if
  // `task` is not null; the calling pool thread publishes it as the one it joins
  // (pool_core.hpp, join_publication). A deferred future is run on the calling thread.
  // Throws: future_uninitialized; executors::join_cycle_error; boost::thread_interrupted.
  // Inlined, as run_if_own_newest() is.
  template <class Future>
  BOOST_FORCEINLINE void join_one(pool_core* preferred, const forked_task* task, Future& f)
  {
    const run_record* const record = record_of_task(task);
    require_valid(f, record);
    if (run_if_deferred(task, f))
      return;
    if (record && record->stored())
      return;
    if (run_if_own_newest(preferred, task) && is_ready(record, f))
      return;
    join_one_waiting(preferred, task, record, f);
  }

  // Returns: whether f (valid, not ready) is deferred, without running it. The public-API-only
  // build asks Boost's wait_for(0), which takes a timed wait of the state's condition variable
  // (tens of microseconds); otherwise the flag is read under the state's mutex.
  template <class Future>
  bool is_deferred(const Future& f)
  {
#ifdef BOOST_THREAD_FJ_PUBLIC_API_ONLY
    return f.wait_for(boost::chrono::seconds(0)) == boost::future_status::deferred;
#else
    boost::detail::shared_state_base& state = *state_of(f);
    const boost::unique_lock<boost::mutex> lk(state.mutex);
    return state.is_deferred_;
#endif
  }

  // Returns: t as a deadline of steady_now_ns()'s clock: now plus what remains until t on
  // Clock (clamped, so that a far deadline does not overflow).
  template <class Clock, class Duration>
  std::int64_t steady_deadline(const boost::chrono::time_point<Clock, Duration>& t)
  {
    typedef boost::chrono::duration<double, boost::nano> fns;
    const double left = boost::chrono::duration_cast<fns>(t - Clock::now()).count();
    const double far = 1e17; // about three years: later than any sleep needs to reach
    return steady_now_ns() + static_cast<std::int64_t>(left < 0 ? 0 : left > far ? far : left);
  }

  // The waiting part of join_one_until, out of line as join_one_waiting is.
  // Effects: as join_one_waiting, but gives up once Clock::now() >= t: ready() and block() (a
  // thread that is not a pool thread: Boost's own wait_until) see the deadline, and a pool
  // thread parks the frame timed and hooked to f's shared state (cancellable, unlike a
  // registration with the task's run record; polled where no hook can be made).
  // Returns: future_status::ready if f is ready, else future_status::timeout.
  template <class Future, class Clock, class Duration>
  BOOST_NOINLINE boost::future_status join_one_until_waiting(pool_core* preferred, const forked_task* task, const run_record* record,
                                                            Future& f, const boost::chrono::time_point<Clock, Duration>& t)
  {
    awaited_roots<1> awaited;
    awaited.roots[0] = root_of_task(task);
    wait_scope scope = awaited.scope();
    scope.claimable[0] = task;
    scope.leapfrog[0] = record;
    join_publication published(awaited.roots[0], 0);
    help_or_wait(
        preferred, scope, [&f, record, &t] { return is_ready(record, f) || Clock::now() >= t; }, [&f, &t] { f.wait_until(t); },
        [&awaited] { awaited.check_no_cycle(); },
        [&f, &t](parked_frame& pf) {
          if (Clock::now() >= t)
            return arm_result::done; // the loop sees the deadline: never parks past it
          pf.time_out_at(steady_deadline(t));
          return hook_future(f, pf);
        },
        record ? BOOST_THREAD_FJ_IDLE_SPIN_ROUNDS : BOOST_THREAD_FJ_FOREIGN_SPIN_ROUNDS);
    return is_ready(record, f) ? boost::future_status::ready : boost::future_status::timeout;
  }

  // Effects: as join_one, but gives up at t (Clock::now() >= t): a deadline already passed
  // only looks (no help, no park); a deferred future is not run.
  // Returns: future_status::ready, timeout, or deferred (a deferred future, as Boost's
  // wait_until says).
  // Throws: future_uninitialized; executors::join_cycle_error; boost::thread_interrupted;
  // executors::fiber_stack_error; std::bad_alloc (a pool thread's heap of timed frames).
  template <class Future, class Clock, class Duration>
  boost::future_status join_one_until(pool_core* preferred, const forked_task* task, Future& f,
                                      const boost::chrono::time_point<Clock, Duration>& t)
  {
    const run_record* const record = record_of_task(task);
    require_valid(f, record);
    if (record)
    {
      if (record->stored())
        return boost::future_status::ready;
    }
    else if (f.is_ready())
      return boost::future_status::ready;
    else if (is_deferred(f))
      return boost::future_status::deferred; // not run here, as Boost's wait_until
    if (Clock::now() >= t)
      return is_ready(record, f) ? boost::future_status::ready : boost::future_status::timeout;
    if (run_if_own_newest(preferred, task) && is_ready(record, f))
      return boost::future_status::ready;
    return join_one_until_waiting(preferred, task, record, f, t);
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
