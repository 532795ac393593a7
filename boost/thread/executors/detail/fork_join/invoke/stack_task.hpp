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
//                   spawn_all() pushes the children of one frame at once;
//   ...             the parent does its own part;
//   join(core, own, t)  returns once t has run, on whatever thread (own: core.own_slot()).
// The parent may not leave the frame before join() returns, also when its own part throws:
// invoke_all.hpp joins in a destructor-safe order.
//
// join(): the parent pops its own deque if t is its newest task: nobody stole it, and the parent
// runs it inline (the common case, which costs a push, a pop and the call). Otherwise t was
// stolen, or sits below a task the parent may not run: the parent helps (help.hpp) until t is
// done, running t wherever it is still queued and what t's thief spawns for t (task_frame.hpp),
// and, when it can do nothing else, parks its frame (a pool thread, parking.hpp) or sleeps (any
// other thread). A thread that steals t notes its own deque and push
// count in t first (note_runner), which is how the parent knows what the thief spawned for t.
//
// Completion handshake (no allocation, so a wait never needs memory): the state is pending,
// done, or the address of the parent's waker (waker.hpp: its thread_sleeper, or its parked
// frame). The parent that must wait compare-exchanges pending -> its waker and, if that
// succeeded, sleeps or stays parked until posted; the thief, after running t, exchanges the
// state to done and posts the waker it finds there. After that exchange the thief touches
// neither t (the parent may leave its frame) nor, once post() began, the waker. test/model/ has
// models of this handshake (stack_task.pml, parking.pml) that spin checks.
//
// Interruption: a thread waiting in join() cannot leave before t is done (t lives in its
// frame), so join() disables boost::thread interruption while it waits, parked or not; an
// interruption requested meanwhile is delivered at the thread's next interruption point (a
// fresh fiber's loop, parking.hpp, runs with interruption enabled).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_STACK_TASK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_STACK_TASK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/waits/help.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/waker.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  class stack_task : public task
  {
  public:
    // Returns: whether a thief has run the task to the end. acquire: pairs with the thief's
    // release exchange in finish(), for the child's effects and error_.
    bool done() const noexcept { return run_.done(); }

    // What a waiter may leapfrog to (admission.hpp, rule (b)).
    const run_record& record() const noexcept { return run_; }

    // Requires: called by the parent, at most once per wait, after spawn() returned true.
    // Effects: registers w to be posted when the task is done (the parent sleeps on it, or
    // its frame is parked on it, waker.hpp). Returns: false if the task is already done (then
    // w is not registered).
    bool add_waker(waker& w) noexcept
    {
      std::uintptr_t expected = run_record::pending;
      // acq_rel: release publishes the waker to the thief's exchange; acquire on failure pairs
      // with the thief's release exchange (the task is done).
      return run_.state.compare_exchange_strong(expected, reinterpret_cast<std::uintptr_t>(&w), std::memory_order_acq_rel,
                                                std::memory_order_acquire);
    }

    // Requires: called by the parent, once, after spawn() returned true, on a thread that is
    // not parking (help.hpp). Effects: returns once the task is done, sleeping until then.
    void wait_done() noexcept
    {
      thread_sleeper& sleeper = thread_sleeper::of_this_thread();
      if (add_waker(sleeper))
        sleeper.wait(); // the thief's post() follows its exchange: done, and ordered by the mutex
    }

    // Returns: whether the callable threw; then interrupted() or error() says what. Requires:
    // the task has run. The one check a join makes of a child that returned.
    bool threw() const noexcept { return outcome_ != outcome::returned; }

    // Returns: whether the callable threw boost::thread_interrupted (kept apart from error()
    // so that an interruption reaches the joiner as an interruption). Requires: as threw().
    bool interrupted() const noexcept { return outcome_ == outcome::interrupted; }

    // Returns: the exception the callable threw (lossless, exception.hpp).
    // Requires: threw() && !interrupted().
    const boost::exception_ptr& error() const noexcept
    {
      BOOST_THREAD_FJ_ASSERT(outcome_ == outcome::failed);
      return error_;
    }

  protected:
    stack_task(action_fn action, trace_span kind) noexcept : task(action, kind, filled_by_push()) {}
    ~stack_task()
    {
      if (BOOST_UNLIKELY(outcome_ == outcome::failed))
        error_.~exception_ptr();
    }

    // For the thief, after the callable returned: publishes the end of the task.
    void finish() noexcept
    {
      // acq_rel: release publishes the child's effects (and error_) to the parent's done() or
      // to its wake-up; acquire pairs with the parent's compare-exchange, so the sleeper it
      // registered is seen built. After this, *this may be gone.
      const std::uintptr_t old = run_.state.exchange(run_record::done_state, std::memory_order_acq_rel);
      if (old != run_record::pending)
        reinterpret_cast<waker*>(old)->post();
    }

    // Effects: records that the callable threw e (error_ is built here, not before: a child
    // that returns, nearly every one, neither builds nor destroys it, and its join checks
    // outcome_ alone) or boost::thread_interrupted. Fast path, "An exception slot built on a
    // throw" (doc/design.md, "Fast paths and their assumptions"): a task runs once, so at most
    // one of them is called, once.
    void keep_error(boost::exception_ptr&& e) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(outcome_ == outcome::returned); // a task runs once: nothing to replace
      ::new (static_cast<void*>(&error_)) boost::exception_ptr(std::move(e));
      outcome_ = outcome::failed;
    }
    void keep_interruption() noexcept
    {
      BOOST_THREAD_FJ_ASSERT(outcome_ == outcome::returned);
      outcome_ = outcome::interrupted;
    }

    // Calls run(), keeping its exception for the parent (run_capturing, exception.hpp): an
    // interruption as such, anything else in error_.
    template <class Run>
    BOOST_FORCEINLINE void keep_exception(Run run) noexcept
    {
      run_capturing(
          run, [this]() noexcept { keep_interruption(); }, [this](boost::exception_ptr e) noexcept { keep_error(std::move(e)); });
    }

    // The action of a stack task of type T, run by whoever takes it from a queue: notes the
    // runner (rule (b), admission.hpp), calls t's invoke_in_own_region() if in_own_region, else
    // its invoke(), and publishes the end. A discard (a queue dropping an unrun task, which
    // never happens to a joined stack task) still releases the parent.
    template <class T, bool in_own_region>
    static void act_as(task* t, bool run)
    {
      T* const self = static_cast<T*>(t);
      if (run)
      {
        note_runner(self->run_);
        if constexpr (in_own_region)
          self->invoke_in_own_region();
        else
          self->invoke();
      }
      self->finish();
    }

  private:
    enum class outcome : unsigned char
    {
      returned,
      interrupted,
      failed // error_ holds the exception
    };
    // First, so that it takes the base's tail padding (task.hpp), and the constructor's stores
    // of it, of kind_ and of counted_ are adjacent: a stack task of 104 bytes, not 112.
    outcome outcome_ = outcome::returned;

  protected:
    // The flags of a task block's child (block_child.hpp), which derives from stack_task: here,
    // after outcome_ in the base's tail padding, they take no word of the child's, and its
    // constructor writes them with one byte store. Not written (nor read) in any other stack
    // task.
    unsigned char child_flags_;

  private:
    union
    {
      boost::exception_ptr error_; // built by keep_error() only
    };

  protected:
    run_record run_;
  };

  // Whether F has run_in_own_region() (stack_task_impl::invoke_in_own_region).
  template <class F, class = void>
  struct has_own_region : std::false_type
  {
  };
  template <class F>
  struct has_own_region<F, std::void_t<decltype(std::declval<F&>().run_in_own_region())> > : std::true_type
  {
  };

  template <class F>
  class stack_task_impl final : public stack_task
  {
  public:
    // kind: what a trace calls the task (trace.hpp): a parallel_invoke child unless said.
    explicit stack_task_impl(F& f, trace_span kind = trace_span::invoke) noexcept
        : stack_task(&stack_task::act_as<stack_task_impl, has_own_region<F>::value>, kind), f_(f)
    {
    }

    // Runs the callable on the calling thread, keeping its exception. Inlined into the join
    // that runs a child it popped: out of line, the call and its frame were a tenth of a
    // parallel_invoke child's instructions on uts_t3 (doc/benchmark/README.md, "A child's
    // instructions: the join's call, the exception slot, a deep chain's chunks").
    BOOST_FORCEINLINE void invoke() noexcept
    {
      keep_exception([this] { std::invoke(f_); });
    }

    // As invoke(), for a run apart from the code that spawned the task (taken from a queue, or
    // run by other code than its parent's): f_.run_in_own_region(), with which a task block's
    // or a parallel algorithm's child makes its cancellation region current
    // (cancel_region.hpp). Requires: F has it.
    void invoke_in_own_region() noexcept
    {
      keep_exception([this] { f_.run_in_own_region(); });
    }

  private:
    F& f_;
  };

  // Requires: t has run and t.threw(). Effects: adds what t threw to errors. Out of line: a
  // join's code keeps only the check of t.threw().
  BOOST_NOINLINE inline void collect(exception_collector& errors, const stack_task& t) noexcept
  {
    if (t.interrupted())
      errors.interrupted();
    else
      errors.add(t.error());
  }

  // Effects: queues t on core. Returns: false if the pool refused it (closed); the caller
  // then runs it inline. Throws: std::bad_alloc (nothing queued).
  BOOST_FORCEINLINE bool spawn(pool_core& core, stack_task& t) { return core.push_stack_task(&t); }

  // Requires: own == core.own_slot(), looked up once for a frame's children (fast path, "A
  // frame's own slot", doc/design.md). Effects, Returns, Throws: as spawn(core, t).
  BOOST_FORCEINLINE bool spawn(pool_core& core, worker_slot* own, stack_task& t) { return core.push_stack_task(own, &t); }

  // Requires: own == core.own_slot(); ts[0], ..., ts[n - 1] are stack tasks of the caller's
  // frame, none queued yet.
  // Effects: queues ts[0], ..., ts[n - 1] in that order, each as spawn(core, own, *ts[i]) would:
  // from a pool thread of core all at once (pool_core::push_stack_tasks), from any other
  // thread one by one, until the pool refuses one or memory runs out.
  // Returns: how many were queued: ts[0] up to, not including, ts[returned value]. The caller
  // runs the others itself. Throws: nothing.
  BOOST_FORCEINLINE std::size_t spawn_all(pool_core& core, worker_slot* own, task* const* ts, std::size_t n) noexcept
  {
    std::size_t queued = 0;
    try
    {
      if (own)
        return core.push_stack_tasks(own, ts, n) ? n : 0;
      while (queued != n && core.push_stack_task(nullptr, ts[queued]))
        ++queued;
    }
    catch (...)
    {
      // Out of memory growing a queue: the rest was not queued.
    }
    return queued;
  }

  // The slow path of join() below, out of line: its wait_scope and help loop would otherwise
  // sit in the frame of every parallel_invoke and task block, which deep recursions (a chain of
  // 10^5 nested invokes) pay for in stack memory on every level (16 bytes more in
  // wait_scope made such a chain 1.3x slower until this moved out).
  BOOST_NOINLINE inline void wait_for_stack_task(pool_core& core, stack_task& t) noexcept
  {
    // If thieves emptied this thread's deque, they get the children kept back on this stack.
    core.queue_deferred_if_empty();
    // Stolen, or not the newest: t's parent may run t (wherever it is still queued) and what
    // t's thief spawns for t (admission.hpp, rules (a) and (b)).
    wait_scope scope;
    scope.awaited_task = &t;
    scope.claimable[0] = &t; // under a newer task (a fork nobody joins yet): taken from there
    scope.leapfrog[0] = &t.record();
    this_thread::disable_interruption no_interruption;
    const worker_context* const w = current_worker;
    pool_core* const own = (w && w->core != &core) ? w->core : nullptr;
    help_until(&core, own, scope, stack_task_wait<stack_task>(t));
  }

  // Requires: spawn(core, t) or spawn(core, own, t) returned true on this thread, and own ==
  // core.own_slot() (see spawn(core, own, t)).
  // Effects: returns once t has run, running it inline if nobody took it; helps while it waits,
  // running only what the admission rule (admission.hpp) admits.
  // Throws: nothing; a task run while helping that throws boost::thread_interrupted itself
  // (not through an interruption point: interruption is disabled), or a deque that cannot grow
  // for the children kept back below the frame before it parks (park_until_posted, help.hpp),
  // calls std::terminate, as the frame holding t cannot be left before t is done.
  // T: stack_task_impl<F>, or another class derived from stack_task with its invoke().
  template <class T>
  void join(pool_core& core, worker_slot* own, T& t) noexcept
  {
    BOOST_THREAD_FJ_ASSERT(own == core.own_slot()); // the frame resumed on its own thread
    // A child run inline gets no frame of its own: it runs as part of its parent's frame (same
    // root), and the parent waits for it anyway. Not where the stack is nearly full: the wait
    // then parks (a pool thread), and the thread runs t on a fresh stack, so that a chain of
    // children nests across stacks of any size (doc/index.md, "Deep chains").
    if (stack_has_room() && core.pop_own_if_newest(own, &t)) // the common case: nobody took it
    {
      core.count_run(own);
      const pool_core::trace_scope span(core, t.trace_kind());
      t.invoke();
      return;
    }
    wait_for_stack_task(core, t);
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
