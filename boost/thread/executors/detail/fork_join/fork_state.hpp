// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What fork() on a fork_join_thread_pool allocates: one block that is at once the future's
// shared state (derived from Boost's, as boost::async's own states are), the queued task node,
// the closure with its bound arguments, and the run record a joiner leapfrogs with
// (task_frame.hpp, rule (b)). A promise, a separate task node and a separate control block
// would cost three allocations; this costs one (boost::allocate_shared), from the calling
// thread's cache of freed blocks (block_cache.hpp), so none in a steady state.
//
// Ownership: the future holds one reference; the queue holds another, as self_, from the
// submission until the task has run or been discarded (a task is owned by one queue or one
// thread at a time, task.hpp). So the record outlives the run for every joiner that holds the
// future, and the closure's frame never outlives the block.
//
// Completion, in this order: the closure returns (or throws); the run record is marked done
// (rule (b) stops admitting what the runner pushes next); the result or exception is stored in
// the shared state, which wakes its waiters and launches its continuations; the run record is
// marked stored, which a joiner reads instead of taking the shared state's mutex.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FORK_STATE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FORK_STATE_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/block_cache.hpp>
#include <boost/thread/executors/detail/fork_join/exception.hpp>
#include <boost/thread/executors/detail/fork_join/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/task.hpp>
#include <boost/thread/executors/detail/fork_join/task_frame.hpp>
#include <boost/thread/future.hpp>
#include <boost/make_shared.hpp>
#include <boost/shared_ptr.hpp>

#include <functional>
#include <tuple>
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

  // The part of every fork_state that does not depend on its types: the task node and the run
  // record. A join that holds a plain boost::future finds it by a cross-cast from the future's
  // shared state (forked_task_of), so that boost::async(pool, f) futures are joined as forks.
  class forked_task : public task
  {
  public:
    // What the future's joiner may leapfrog with (task_frame.hpp, rule (b)).
    const run_record& record() const noexcept { return run_; }

    // The scheduler the task was queued on (set before it is queued). Not a reference: only a
    // thread that is one of its threads may use it (is_pool_thread_of() proves it alive).
    pool_core* scheduler() const noexcept { return scheduler_; }
    void set_scheduler(pool_core* core) noexcept { scheduler_ = core; }

  protected:
    explicit forked_task(action_fn action) noexcept : task(action) {}
    ~forked_task() = default;

    run_record run_;
    pool_core* scheduler_ = nullptr;
  };

  // Returns: the task behind the shared state of the future f if fork() or our
  // boost::async made it, else nullptr (also for an invalid future).
  template <class Future>
  const forked_task* forked_task_of(const Future& f) noexcept
  {
    return dynamic_cast<const forked_task*>(f.future_.get());
  }

  template <class R, class Fn, class Bound>
  class fork_state final : public boost::detail::shared_state<R>, public forked_task
  {
  public:
    fork_state(Fn&& fn, Bound&& bound) : forked_task(&fork_state::act), fn_(std::move(fn)), bound_(std::move(bound)) {}

    // Requires: called once, by fork(), before the task is queued.
    // Effects: the queue's reference (see above).
    void hold(const boost::shared_ptr<fork_state>& self) noexcept { self_ = self; }

    // A fork is never deferred: answered without the mutex Boost's own version takes.
    bool run_if_is_deferred() override { return false; }

  private:
    static void act(task* t, bool run)
    {
      fork_state* const self = static_cast<fork_state*>(t);
      // The queue's reference, released when this returns: the block may go with it.
      const boost::shared_ptr<fork_state> keep = std::move(self->self_);
      if (run)
      {
        note_runner(self->run_);
        self->run_and_store();
      }
      else
        self->store_exception(unrun_task_exception());
      // release: pairs with run_record::stored(); the shared state is ready (or, if storing
      // failed, never will be, which a joiner cannot tell from is_ready() either).
      self->run_.result_stored.store(true, std::memory_order_release);
    }

    void run_and_store()
    {
      try
      {
        if constexpr (std::is_void<R>::value)
        {
          std::apply(std::move(fn_), std::move(bound_));
          end_run();
          this->mark_finished_with_result();
        }
        else
        {
          R r = std::apply(std::move(fn_), std::move(bound_));
          end_run();
          this->mark_finished_with_result(std::forward<R>(r)); // moves a value, passes a reference
        }
      }
      catch (...)
      {
        end_run(); // a second call is harmless
        store_exception(current_exception_lossless());
      }
    }

    void end_run() noexcept
    {
      // release: pairs with the acquire in run_record::done() of a leapfrogging waiter, so
      // that it sees the end before any push that follows it on this thread.
      run_.state.store(run_record::done_state, std::memory_order_release);
    }

    void store_exception(const boost::exception_ptr& e) noexcept
    {
      try
      {
        boost::unique_lock<boost::mutex> lk(this->mutex);
        if (!this->done)
          this->mark_exceptional_finish_internal(e, lk);
      }
      catch (...)
      {
        // Only lock_error or a continuation's launch can throw here; the future then stays
        // unready, which the caller of a failed fork never sees (it holds no future).
      }
    }

    boost::shared_ptr<fork_state> self_;
    Fn fn_;
    Bound bound_;
  };

  // Requires: s is the shared state of a fork (fork_state above) whose record says stored(),
  // and only the thread that owns the unique future calls this (so is_valid_, which only the
  // owner's get() writes, needs no lock; done, the result and the exception were written
  // before the record's release store that stored() acquired).
  // Effects, Returns, Throws: as boost::future<R>::get(), without taking the state's mutex.
  template <class R>
  typename boost::detail::shared_state<R>::move_dest_type take_stored(boost::detail::shared_state<R>& s)
  {
    if (!s.is_valid_)
      boost::throw_exception(future_uninitialized());
#ifdef BOOST_THREAD_PROVIDES_FUTURE_INVALID_AFTER_GET
    s.is_valid_ = false;
#endif
    if (s.exception)
      boost::rethrow_exception(s.exception);
    if constexpr (std::is_reference<R>::value)
      return *s.result;
    else if constexpr (!std::is_void<R>::value)
      return boost::move(*s.result);
  }

  // Returns: the state of a fork of fn(bound...), holding the queue's reference.
  // Requires: the caller hands it to pool_core::submit() next, with nothing that may throw in
  // between: that reference is the state's own, and only its run or discard gives it back.
  // Throws: std::bad_alloc.
  template <class R, class Fn, class Bound>
  boost::shared_ptr<fork_state<R, Fn, Bound> > make_fork_state(Fn&& fn, Bound&& bound)
  {
    typedef fork_state<R, Fn, Bound> state_type;
    boost::shared_ptr<state_type> s =
        boost::allocate_shared<state_type>(cached_allocator<state_type>(), std::move(fn), std::move(bound));
    s->hold(s);
    return s;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
