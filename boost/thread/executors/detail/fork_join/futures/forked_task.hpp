// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The part of a forked heap task that a join needs, whatever stores the task's result: the
// task node, its run record (admission.hpp, rule (b)) and its scheduler. Two kinds of task
// derive from it: fork_state.hpp's fork state, which is also the future's shared state (the default
// build), and promise_task.hpp's node, which completes a boost::promise (the public-API-only
// build, boost_compat.hpp).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORKED_TASK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FUTURES_FORKED_TASK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/exception_ptr.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/future.hpp>

#include <atomic>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // The exception a fork's future gets if its task is destroyed without running (its
  // submission failed, so fork() threw and nobody holds the future). Made once, at the first
  // fork, where an allocation may still fail by throwing: a promise destroyed unsatisfied
  // would make one itself (broken_promise), and that allocation, failing inside a destructor,
  // would terminate the process.
  inline const boost::exception_ptr& unrun_task_exception()
  {
    static const boost::exception_ptr e = boost::copy_exception(broken_promise());
    return e;
  }

  class forked_task : public task
  {
  public:
    // What the future's joiner may leapfrog with (admission.hpp, rule (b)), and whether the
    // result is stored (run_record::stored()).
    const run_record& record() const noexcept { return run_; }

    // The scheduler the task was queued on (set before it is queued). Not a reference: only a
    // thread that is one of its threads may use it (is_pool_thread_of() proves it alive).
    pool_core* scheduler() const noexcept { return scheduler_; }
    void set_scheduler(pool_core* core) noexcept { scheduler_ = core; }

  protected:
    template <class Self>
    friend void run_or_discard(Self*, bool);

    forked_task(action_fn action, trace_span kind) noexcept : task(action, kind) {}
    ~forked_task() = default;

    // Effects: marks the run over, before its result is stored. release: pairs with the
    // acquire in run_record::done() of a leapfrogging waiter, so that it sees the end before
    // any push that follows it on this thread.
    void end_run() noexcept { run_.state.store(run_record::done_state, std::memory_order_release); }

    run_record run_;
    pool_core* scheduler_ = nullptr;
  };

  // A fork's callable and its bound arguments, from the fork to the end of its run.
  template <class Fn, class Bound>
  struct fork_closure
  {
    fork_closure(Fn&& f, Bound&& b) : fn(std::move(f)), bound(std::move(b)) {}
    Fn fn;
    Bound bound;
  };

  // Effects: the first half of a forked task's action (task.hpp): if `run`, a pool thread that
  // took the task notes itself as its runner (rule (b)), then self runs the closure and stores
  // its outcome (for a fork whose cancellation_source is canceled, cancel_region.hpp: drops the
  // closure and stores canceled_task_exception(), without a throw); else self drops the closure
  // and stores the exception of a task that never ran.
  // Requires: Self derives from forked_task and has closure_ (an optional), run_and_store()
  // and store_exception(const boost::exception_ptr&) noexcept.
  template <class Self>
  void run_or_discard(Self* self, bool run)
  {
    if (run)
    {
      note_runner(self->run_);
      if constexpr (is_cancelable_call<typename std::decay<decltype(self->closure_->fn)>::type>::value)
        if (self->closure_->fn.canceled())
        {
          self->closure_.reset();
          self->end_run();
          self->store_exception(canceled_task_exception());
          return;
        }
      self->run_and_store();
    }
    else
    {
      self->closure_.reset();
      self->store_exception(unrun_task_exception());
    }
  }

  // The root id (task_frame.hpp) and the run record of a forked task, if any; else 0, null.
  inline task_tag root_of_task(const forked_task* t) noexcept { return t ? t->root() : 0; }
  inline const run_record* record_of_task(const forked_task* t) noexcept { return t ? &t->record() : nullptr; }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
