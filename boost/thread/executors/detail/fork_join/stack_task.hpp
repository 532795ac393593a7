// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The lightest fork/join path: a child task that lives in its parent's stack frame.
//
// A stack task refers to a callable of the parent's frame and holds the child's exception, if
// any; it needs no allocation and no future. Its life, all within one frame of the parent:
//   spawn(core, t)  pushes t (pool_core::push_stack_task), or reports that the pool refused;
//   ...             the parent does its own part;
//   join(core, t)   returns once t has run, on whatever thread.
// The parent may not leave the frame before join() returns, also when its own part throws:
// parallel_invoke.hpp joins in a destructor-safe order.
//
// join(): the parent pops its own deque. If the pop returns t, nobody stole it and the parent
// runs it inline (the common case, which costs a push, a pop and the call). A newer task than t
// (a heap task its own part forked and did not join) is run and the pop repeated. Otherwise t
// was stolen: the parent helps (help.hpp) until t is done, and may sleep as a joiner; the thief
// marks t done, then calls notify_joiners() of the pool it took t from, which fires the
// parent's wake token (event_count.hpp has the store-buffering argument for `done`).
//
// Interruption: a thread waiting in join() cannot leave before t is done (t lives in its
// frame), so join() disables boost::thread interruption while it waits; an interruption
// requested meanwhile is delivered at the thread's next interruption point.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_STACK_TASK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_STACK_TASK_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/event_count.hpp>
#include <boost/thread/executors/detail/fork_join/exception.hpp>
#include <boost/thread/executors/detail/fork_join/help.hpp>
#include <boost/thread/executors/detail/fork_join/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/task.hpp>
#include <boost/thread/executors/detail/fork_join/worker_context.hpp>
#include <boost/thread/future.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <exception>
#include <functional>

namespace boost {
namespace detail {
namespace fork_join {

  class stack_task : public task
  {
  public:
    // Returns: whether a thief has run the task to the end. seq_cst: the parent's half of
    // the store-buffering pair with the thief's store and notify_joiners() (acquire would do
    // for the data; the sleep protocol needs the total order).
    bool done() const noexcept { return done_.load(std::memory_order_seq_cst); }

    // Returns: the exception the callable threw (lossless, exception.hpp), if any.
    // Requires: the task has run.
    const boost::exception_ptr& error() const noexcept { return error_; }

    // Returns: whether the callable threw boost::thread_interrupted (kept apart from error()
    // so that an interruption reaches the joiner as an interruption). Requires: as error().
    bool interrupted() const noexcept { return interrupted_; }

  protected:
    stack_task(action_fn action, event_count& parking) noexcept : task(action), parking_(&parking) {}
    ~stack_task() = default;

    // For the thief, after the callable returned: publishes the end of the task.
    void finish() noexcept
    {
      event_count* const parking = parking_; // read first: the parent may leave once done
      // seq_cst: releases the child's effects (and error_) to the parent's done(), and is the
      // thief's half of the store-buffering pair with the parent's registration.
      done_.store(true, std::memory_order_seq_cst);
      parking->notify_joiners();
    }

    boost::exception_ptr error_;
    bool interrupted_ = false;

  private:
    std::atomic<bool> done_{false};
    event_count* const parking_;
  };

  template <class F>
  class stack_task_impl final : public stack_task
  {
  public:
    stack_task_impl(F& f, event_count& parking) noexcept : stack_task(&stack_task_impl::act, parking), f_(f) {}

    // Runs the callable on the calling thread, keeping its exception.
    void invoke() noexcept
    {
      try
      {
        std::invoke(f_);
      }
      catch (const thread_interrupted&)
      {
        interrupted_ = true;
      }
      catch (...)
      {
        error_ = current_exception_lossless();
      }
    }

  private:
    // Run by whoever takes the task from a queue. A discard (a queue dropping an unrun task,
    // which never happens to a joined stack task) still releases the parent.
    static void act(task* t, bool run)
    {
      stack_task_impl* const self = static_cast<stack_task_impl*>(t);
      if (run)
        self->invoke();
      self->finish();
    }

    F& f_;
  };

  // Effects: queues t on core. Returns: false if the pool refused it (closed); the caller
  // then runs it inline. Throws: std::bad_alloc (nothing queued).
  inline bool spawn(pool_core& core, stack_task& t) { return core.push_stack_task(&t); }

  // Requires: spawn(core, t) returned true on this thread. Effects: returns once t has run,
  // running it inline if nobody took it; helps while it waits.
  // Throws: nothing; a task run while helping that throws boost::thread_interrupted itself
  // (not through an interruption point: interruption is disabled) calls std::terminate, as the
  // frame holding t cannot be left before t is done.
  template <class F>
  void join(pool_core& core, stack_task_impl<F>& t) noexcept
  {
    task* newest = core.pop_own();
    if (newest == &t) // the common case: nobody took it
    {
      core.count_run();
      t.invoke();
      return;
    }
    this_thread::disable_interruption no_interruption;
    while (newest)
    {
      if (newest == &t)
      {
        core.count_run();
        t.invoke();
        return;
      }
      core.run_task(newest); // a newer heap task, or an older task if t was stolen
      if (t.done())
        return;
      newest = core.pop_own();
    }
    const worker_context* const w = current_worker;
    pool_core* const own = (w && w->core != &core) ? w->core : nullptr;
    help_until(
        &core, own, [&t] { return t.done(); }, [](future<void>& woken) { woken.wait(); });
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
