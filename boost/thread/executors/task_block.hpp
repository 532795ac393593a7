// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// task_block (N4411): structured, fully-strict fork/join. A task cannot leave its block
// before its children, and nobody has to remember to join.
//
//   define_task_block(pool, [&](task_block& tb) {
//     tb.run([&] { left = work(l); });   // may run in parallel
//     right = work(r);
//   });                                  // every child has finished here
//
// Outline
//   class task_canceled_exception;                                      // cancel_region.hpp
//   class task_block { public: template <class F> void run(F&&); void wait();
//                      void cancel() noexcept; bool is_canceling() const noexcept; };  // extension
//   template <class F> void define_task_block(F&& f);                   // current_fork_join_pool()
//   template <class Ex, class F> void define_task_block(Ex& ex, F&& f);
//   template <class F> void define_task_block_restore_thread(F&& f);
//   template <class Ex, class F> void define_task_block_restore_thread(Ex& ex, F&& f);
//
// On a fork_join_thread_pool a child costs what parallel_invoke's children cost: it is a stack
// task (detail/fork_join/invoke/stack_task.hpp) pushed to the running worker's deque, its storage
// taken from an arena in the block's frame (no allocation for the first few children), and a
// wait pops it back and runs it inline unless it was stolen, else helps. On any other Boost
// executor children are submitted as closures; a wait runs each child no thread of the
// executor has started yet, then runs the executor's queued closures (try_executing_one,
// nested at most 8 deep on one thread) while there are any, else blocks.
//
// Differences from Boost's experimental task_region, on purpose: waits help instead of
// blocking a worker (task_region deadlocks on a fixed pool), and define_task_block without an
// executor uses one process-wide pool instead of building a thread pool per block.
//
// Beyond N4411: cancel() and is_canceling(), as oneTBB's task_group::cancel() and
// is_current_task_group_canceling(). A block is a cancellation region
// (detail/fork_join/tasks/cancel_region.hpp): its function and its children run in it, so that the
// blocks and parallel algorithms they start stop when it is canceled, and it is canceled
// itself when a region enclosing it is.

#ifndef BOOST_THREAD_EXECUTORS_TASK_BLOCK_HPP
#define BOOST_THREAD_EXECUTORS_TASK_BLOCK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/block_state.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>

#include <type_traits>
#include <utility>

namespace boost {
namespace executors {

  // task_canceled_exception: detail/fork_join/tasks/cancel_region.hpp, which the parallel
  // algorithms and cancellation_source share. The machinery of a block:
  // detail/fork_join/invoke/block_state.hpp.

  class task_block
  {
  public:
    task_block(const task_block&) = delete;
    task_block& operator=(const task_block&) = delete;

    // Requires: called by f of the define_task_block that made *this, or by a task run by it
    // (directly or not), before that define_task_block returns.
    // Effects: runs a copy of g (decayed) as a child of the block, possibly in parallel with
    // the caller; on a fork_join_thread_pool it goes to the front of the calling worker's
    // deque. If the executor refuses it (closed), the child runs on the calling thread
    // before run() returns.
    // Synchronization: the call of run() happens before g starts; g's completion happens
    // before the return of the wait() or define_task_block() that joins it.
    // Throws: task_canceled_exception if the block is canceled (is_canceling()); what copying
    // g throws; std::bad_alloc. In every case g does not run.
    template <class G>
    void run(G&& g)
    {
      state_.run(std::forward<G>(g));
    }

    // Requires: called on the thread that runs the block's f, on the stack f runs on (by f, or
    // by a child that this thread runs nested in f; a child the thread runs on another stack
    // while a join of f is parked, doc/index.md "Parking", is not nested in f).
    // Effects: returns when every child run so far (and every child they ran into this block)
    // has finished, helping meanwhile on a fork_join_thread_pool; but for the children that
    // run on the calling thread's stack: a child calling wait() does not wait for itself, nor
    // for the children of this block it runs in (their own join ends them).
    // Synchronization: the completion of the children it waits for happens before wait()
    // returns.
    // Throws: task_canceled_exception if the block is canceled (a task of it threw, and the
    // exceptions reach the caller of define_task_block; or cancel() was called; or a region
    // enclosing the block is canceled); std::logic_error if called on another thread or stack.
    void wait() { state_.wait(); }

    // Extension (not in N4411), as oneTBB's task_group::cancel().
    // Requires: called by f of the define_task_block that made *this, or by a task run by it
    // (directly or not), on any thread, before that define_task_block returns.
    // Effects: cancels the block: children not started yet are skipped (they never run),
    // run() and wait() throw task_canceled_exception, and the blocks and parallel algorithms
    // that f and the children started stop early (doc/index.md, "Cancellation"); children
    // that are running go on to their end. Has no effect on a block already canceled. Unlike
    // a failure, cancel() adds nothing to what define_task_block throws: if no task threw, it
    // returns normally.
    // Synchronization: the call synchronizes with every is_canceling() (of this block or of a
    // block or algorithm nested in it) that returns true because of it.
    // Throws: nothing.
    void cancel() noexcept { state_.cancel(); }

    // Extension (not in N4411), as oneTBB's is_current_task_group_canceling().
    // Requires: as cancel().
    // Returns: whether the block is canceled: by cancel(), by a task of it that threw, or
    // because a region enclosing the block (an enclosing block, a canceled cancellation_source
    // whose fork runs the block, an enclosing algorithm's call) is canceled. Once true, it stays
    // true. A child that polls it can stop early.
    // Throws: nothing.
    bool is_canceling() const noexcept { return state_.canceled(); }

  private:
    template <class Executor, class F>
    friend void define_task_block(Executor& ex, F&& f);

    template <class Executor, class = typename std::enable_if<!std::is_same<Executor, task_block>::value>::type>
    explicit task_block(Executor& ex) : state_(ex)
    {
    }
    ~task_block() = default;

    detail::fork_join::block_state state_;
  };

  // Requires: f is callable as f(task_block&); ex is a fork_join_thread_pool or any Boost
  // executor with submit(Closure).
  // Effects: calls f(tb) with a new task_block tb on the calling thread, then waits for every
  // child run in tb (whether f returned or threw) as task_block::wait() does.
  // Synchronization: the completion of every child happens before the return.
  // Throws: experimental::parallel::exception_list holding every exception thrown by f and by
  // the children (but task_canceled_exception), after all of them have finished, or
  // boost::thread_interrupted if f or a child threw that (a pool's interrupt()). After the
  // first one the block is canceled: children not yet started are skipped and run() throws
  // task_canceled_exception. If nothing was thrown but a region enclosing the block is
  // canceled when every child has finished (doc/index.md, "Cancellation"),
  // task_canceled_exception: children may have been skipped. A cancel() of the block itself
  // adds nothing: with no exception, define_task_block returns normally. Joining needs no
  // memory: if memory runs out while an exception is recorded, the list holds a std::bad_alloc
  // in its place, and if it runs out while the list itself is made, std::bad_alloc is thrown
  // instead of the list; in every case only after every child has finished. On an executor
  // other than fork_join_thread_pool, std::bad_alloc before f is called if the block's state
  // for it cannot be allocated.
  // Progress: on a fork_join_thread_pool the waits help, so nested blocks in children never
  // deadlock; a waiting thread cannot be interrupted (children refer to its frame).
  template <class Executor, class F>
  void define_task_block(Executor& ex, F&& f)
  {
    task_block tb(ex);
    tb.state_.define(f, tb);
  }

  // Effects: define_task_block(current_fork_join_pool(), f): the pool whose task the calling
  // thread runs, or the default pool outside every pool.
  template <class F>
  void define_task_block(F&& f)
  {
    define_task_block(current_fork_join_pool(), std::forward<F>(f));
  }

  // Effects: as define_task_block(ex, f). N4411 lets define_task_block return on another
  // thread than the one that called it; this library never does (waits help on the calling
  // thread, they never migrate it), so both forms restore the thread.
  template <class Executor, class F>
  void define_task_block_restore_thread(Executor& ex, F&& f)
  {
    define_task_block(ex, std::forward<F>(f));
  }

  template <class F>
  void define_task_block_restore_thread(F&& f)
  {
    define_task_block(current_fork_join_pool(), std::forward<F>(f));
  }

} // namespace executors

using executors::define_task_block;
using executors::define_task_block_restore_thread;
using executors::task_block;
using executors::task_canceled_exception;

} // namespace boost

#endif // header
