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

#include <boost/thread/executors/detail/fork_join/invoke/block_arena.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/condition_variable.hpp>
#include <boost/thread/experimental/exception_list.hpp>
#include <boost/thread/mutex.hpp>

#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace boost {
namespace executors {

  // task_canceled_exception: detail/fork_join/tasks/cancel_region.hpp, which the parallel
  // algorithms and cancellation_source share.

  class task_block;

} // namespace executors

namespace detail {
namespace fork_join {

  // A child of a block on our pool: linked into the block's list, joined by the block.
  struct block_child
  {
    block_child* next = nullptr;
    // Joins the child, adds its exception to `errors`, destroys it.
    void (*finish)(pool_core& core, block_child* self, exception_collector& errors) = nullptr;
    bool on_heap = false;      // from operator new, else from the owner's arena
    // Owner-only (written and read on the block's owner stack only, see task_block::owner_):
    // whether the child runs on the owner's stack right now, so that a wait() nested in it must
    // not join it.
    bool running_here = false;
  };

  // Marks a child as running on its block's owner stack while it runs there.
  class running_on_owner
  {
  public:
    running_on_owner(block_child& c, const void* owner) noexcept
        : child_(detail::fork_join::current_stack_id() == owner ? &c : nullptr)
    {
      if (child_)
        child_->running_here = true;
    }
    ~running_on_owner()
    {
      if (child_)
        child_->running_here = false;
    }
    running_on_owner(const running_on_owner&) = delete;
    running_on_owner& operator=(const running_on_owner&) = delete;

  private:
    block_child* const child_;
  };

  template <class G>
  class block_child_impl final : public block_child
  {
  public:
    template <class H>
    block_child_impl(H&& h, cancel_region& region, const void* owner, bool heap)
        : g_(std::forward<H>(h)), region_(region), owner_(owner), task_(*this, detail::fork_join::trace_span::block)
    {
      finish = &block_child_impl::finish_impl;
      on_heap = heap;
    }

    // Returns: storage for one child from operator new, aligned as the child (a capture may be
    // over-aligned). Throws: std::bad_alloc.
    static void* allocate_on_heap()
    {
      if constexpr (alignof(block_child_impl) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
        return ::operator new(sizeof(block_child_impl), std::align_val_t(alignof(block_child_impl)));
      else
        return ::operator new(sizeof(block_child_impl));
    }

    // Effects: frees storage of allocate_on_heap().
    static void deallocate_on_heap(void* p) noexcept
    {
      if constexpr (alignof(block_child_impl) > __STDCPP_DEFAULT_NEW_ALIGNMENT__)
        ::operator delete(p, std::align_val_t(alignof(block_child_impl)));
      else
        ::operator delete(p);
    }

    stack_task_impl<block_child_impl>& task() noexcept { return task_; }
    void mark_inline() noexcept { queued_ = false; }

    // What the stack task runs: skipped once the block (or a region enclosing it) is
    // canceled; a throw cancels the block. Run inline (the owner's join popped it), the child
    // runs in the owner's code, where the block's region is current: define_task_block and
    // wait() make it so around the joins (cancel_region.hpp).
    void operator()()
    {
      // Cancellation is a hint to skip work not yet started (cancel_region.hpp); the exceptions
      // themselves travel through the stack task's completion.
      if (region_.canceled())
        return;
      const running_on_owner mark(*this, owner_);
      try
      {
        std::invoke(g_);
      }
      catch (const executors::task_canceled_exception&)
      {
        // Usually a nested run(), wait(), block or algorithm saw the cancellation, whose cause
        // is already collected (or is a cancel()); one thrown on its own (block not canceled)
        // is collected like any other.
        if (region_.canceled())
          return;
        region_.cancel();
        throw;
      }
      catch (...)
      {
        region_.cancel();
        throw;
      }
    }

    // What the stack task runs when taken from a queue (a thief, or a join helping in a frame
    // of its own), or when run() runs it where it was called: the same, in the block's region
    // made current here (stack_task.hpp).
    void run_in_own_region()
    {
      const region_proxy in(region_);
      (*this)();
    }

  private:
    static void finish_impl(pool_core& core, block_child* b, exception_collector& errors) noexcept
    {
      block_child_impl* const self = static_cast<block_child_impl*>(b);
      if (self->queued_)
        join(core, self->task_);
      errors.add(self->task_.error());
      if (self->task_.interrupted())
        errors.interrupted();
      const bool heap = self->on_heap;
      self->~block_child_impl();
      if (heap)
        deallocate_on_heap(self);
    }

    G g_;
    cancel_region& region_; // the block's
    const void* const owner_; // the block's owner stack (current_stack_id())
    stack_task_impl<block_child_impl> task_;
    bool queued_ = true;
  };

  // A child of a block on any other executor. The closure submitted to the executor and the
  // block's list of children share it, and whoever claims it first runs it: a thread of the
  // executor, or the block's owner when it joins. So the owner never waits for a child that
  // is still queued, only for children other threads are running, which finish without its
  // help; its wait may block, and the help it gives meanwhile can be bounded (help_bounded in
  // parallel_invoke.hpp says why it must be). A closure that runs after the block has ended
  // finds its child claimed and does nothing; only the claimant touches the block.
  struct generic_child
  {
    virtual ~generic_child() = default;

    // Requires: claim() returned true on this thread.
    // Effects: runs the child (or skips it if the block is canceled), destroys its function
    // object, then reports to the block; *this may outlive the block, the block not *this.
    virtual void execute() noexcept = 0;

    // Returns: whether the caller won the child. relaxed: exchanges on one flag are totally
    // ordered, so exactly one claimant wins; the child's function object reaches a closure
    // through the executor's queue and the owner through the block's mutex, and its outcome
    // reaches the owner through that mutex.
    bool claim() noexcept { return !claimed_.exchange(true, std::memory_order_relaxed); }

  private:
    std::atomic<bool> claimed_{false};
  };

  // The type-erased executor of a block that does not run on our pool.
  struct generic_executor
  {
    void* ex = nullptr;
    // Throws if the executor refuses the closure.
    void (*submit)(void* ex, const std::shared_ptr<generic_child>& c) = nullptr;
    bool (*try_executing_one)(void* ex) = nullptr;        // null if the executor has none

    template <class Executor>
    static generic_executor of(Executor& e)
    {
      generic_executor g;
      g.ex = &e;
      g.submit = [](void* x, const std::shared_ptr<generic_child>& c) {
        static_cast<Executor*>(x)->submit([c] {
          if (c->claim())
            c->execute();
        });
      };
      if constexpr (has_try_executing_one<Executor>::value)
        g.try_executing_one = [](void* x) { return static_cast<Executor*>(x)->try_executing_one(); };
      return g;
    }
  };

} // namespace fork_join
} // namespace detail

namespace executors {

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
      if (region_.canceled()) // a hint, see block_child_impl
        detail::fork_join::throw_canceled();
      typedef typename std::decay<G>::type fn;
      if (core_)
        run_on_pool<fn>(std::forward<G>(g));
      else
        run_generic<fn>(std::forward<G>(g));
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
    void wait()
    {
      if (detail::fork_join::current_stack_id() != owner_)
        boost::throw_exception(std::logic_error("task_block::wait: not on the thread (stack) that runs the block"));
      {
        // The children that the join runs inline run in the block's region (block_child_impl),
        // wherever the wait was called from.
        const detail::fork_join::region_proxy in(region_);
        join_all();
      }
      if (region_.canceled()) // join_all() has synchronized with every child
        detail::fork_join::throw_canceled();
    }

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
    void cancel() noexcept { region_.cancel(); }

    // Extension (not in N4411), as oneTBB's is_current_task_group_canceling().
    // Requires: as cancel().
    // Returns: whether the block is canceled: by cancel(), by a task of it that threw, or
    // because a region enclosing the block (an enclosing block, a canceled cancellation_source
    // whose fork runs the block, an enclosing algorithm's call) is canceled. Once true, it stays
    // true. A child that polls it can stop early.
    // Throws: nothing.
    bool is_canceling() const noexcept { return region_.canceled(); }

  private:
    template <class Executor, class F>
    friend void define_task_block(Executor& ex, F&& f);

    template <class Executor, class = typename std::enable_if<!std::is_same<Executor, task_block>::value>::type>
    explicit task_block(Executor& ex) : core_(core_for(ex)), generic_(generic_for(ex))
    {
    }
    ~task_block() = default;

    static detail::fork_join::pool_core* core_for(fork_join_thread_pool& ex) noexcept
    {
      return detail::fork_join::core_of(ex).get();
    }
    template <class Executor>
    static detail::fork_join::pool_core* core_for(Executor&) noexcept
    {
      return nullptr;
    }
    static detail::fork_join::generic_executor generic_for(fork_join_thread_pool&) noexcept { return {}; }
    template <class Executor>
    static detail::fork_join::generic_executor generic_for(Executor& ex) noexcept
    {
      return detail::fork_join::generic_executor::of(ex);
    }

    template <class Fn, class G>
    void run_on_pool(G&& g)
    {
      typedef detail::fork_join::block_child_impl<Fn> child;
      // The block's owner takes storage from the arena; any other thread (a child calling
      // run on its parent's block) from operator new. Both align it as the child, whose
      // function object may be over-aligned.
      const bool own = detail::fork_join::current_stack_id() == owner_;
      void* mem = own ? arena_.allocate(sizeof(child), alignof(child)) : child::allocate_on_heap();
      child* c = nullptr;
      try
      {
        c = new (mem) child(std::forward<G>(g), region_, owner_, !own);
      }
      catch (...)
      {
        if (!own)
          child::deallocate_on_heap(mem);
        throw;
      }
      if (own)
        ++arena_children_;
      bool queued = false;
      try
      {
        queued = detail::fork_join::spawn(*core_, c->task());
      }
      catch (...)
      {
        // Out of memory growing a queue: nothing queued, the child runs here below.
      }
      if (!queued)
      {
        c->mark_inline();
        run_unqueued(c->task()); // run() may be called from another region, or thread
      }
      // release: the child's construction is published with it to the owner's acquire
      // exchange in join_all().
      c->next = head_.load(std::memory_order_relaxed);
      while (!head_.compare_exchange_weak(c->next, c, std::memory_order_release, std::memory_order_relaxed))
      {
      }
    }

    // Effects: runs a child that could not be queued, where run() was called, in the block's
    // region. Out of line: a rare path, kept out of the code of every block's function.
    template <class Task>
    BOOST_NOINLINE static void run_unqueued(Task& t) noexcept
    {
      t.invoke_in_own_region();
    }

    // Counts a generic child as running on the owner's stack while it runs there, so that a
    // wait() nested in it does not wait for it (nor for the children it runs in).
    class running_here
    {
    public:
      explicit running_here(task_block& b) noexcept : block_(detail::fork_join::current_stack_id() == b.owner_ ? &b : nullptr)
      {
        if (block_)
        {
          lock_guard<mutex> lk(block_->mtx_);
          ++block_->generic_here_;
        }
      }
      ~running_here()
      {
        if (block_)
        {
          lock_guard<mutex> lk(block_->mtx_);
          --block_->generic_here_;
        }
      }
      running_here(const running_here&) = delete;
      running_here& operator=(const running_here&) = delete;

    private:
      task_block* const block_;
    };

    template <class Fn, class G>
    void run_generic(G&& g)
    {
      struct child final : detail::fork_join::generic_child
      {
        child(G&& h, task_block& b) : fn(std::in_place, std::forward<G>(h)), block(b) {}
        void execute() noexcept override
        {
          boost::exception_ptr error;
          bool interrupted = false;
          if (!block.region_.canceled()) // a hint, see block_child_impl
          {
            const running_here mark(block);
            try
            {
              const detail::fork_join::region_proxy in(block.region_);
              std::invoke(*fn);
            }
            catch (const task_canceled_exception&)
            {
              // As in block_child_impl: a consequence of the cancellation is not collected.
              if (!block.region_.canceled())
                error = detail::fork_join::current_exception_lossless();
            }
            catch (const thread_interrupted&)
            {
              interrupted = true;
            }
            catch (...)
            {
              error = detail::fork_join::current_exception_lossless();
            }
          }
          fn.reset(); // the function object may refer to the block's frame: gone before it ends
          block.generic_done(error, interrupted);
        }
        std::optional<Fn> fn;
        task_block& block;
      };
      const std::shared_ptr<child> c = std::make_shared<child>(std::forward<G>(g), *this);
      const bool owner = detail::fork_join::current_stack_id() == owner_;
      {
        lock_guard<mutex> lk(mtx_);
        unclaimed_.push_back(c);
        ++pending_;
      }
      if (!owner)
        cv_.notify_all(); // an owner blocked in join_all() runs it if no thread of the executor does
      try
      {
        generic_.submit(generic_.ex, c);
      }
      catch (...)
      {
        // refused (closed, out of memory): run it here; nothing is lost
        if (c->claim())
          c->execute();
      }
    }

    void generic_done(const boost::exception_ptr& error, bool interrupted)
    {
      lock_guard<mutex> lk(mtx_);
      if (interrupted)
        errors_.interrupted();
      if (error)
      {
        region_.cancel();
        errors_.add(error);
      }
      if (--pending_ == generic_here_) // 0, unless a wait() nested in a child of the owner waits
        cv_.notify_all();
    }

    // Requires: called on the owner's thread.
    // Effects: joins every child but those running on the calling thread's stack; collects
    // their exceptions (which needs no memory: exception_collector).
    // Nesting: a child that the owner runs (inline, or while its join helps) may call wait(),
    // so join_all() may be nested in itself on the owner's thread. The walk is therefore kept
    // in members rather than in this frame: taken_ holds the children taken from head_ and
    // not yet joined, and a nested join_all() goes on with it, so that no frame holds a
    // pointer to a child that another frame destroys. A child on this thread's stack (the
    // caller of a nested wait() and the children it runs in) cannot be joined here: it is
    // set aside and handed back, for the join it is nested in. The arena is released only once
    // none of its children is alive, never under a child that still runs.
    void join_all() noexcept
    {
      if (core_)
      {
        detail::fork_join::block_child* aside = nullptr;
        for (;;)
        {
          detail::fork_join::block_child* c = taken_;
          if (!c)
          {
            // acquire: pairs with the release CAS in run_on_pool(). Children may add children
            // while we join, so repeat until the list stays empty.
            c = head_.exchange(nullptr, std::memory_order_acquire);
            if (!c)
              break;
          }
          taken_ = c->next;
          if (c->running_here)
          {
            c->next = aside;
            aside = c;
            continue;
          }
          const bool in_arena = !c->on_heap;
          c->finish(*core_, c, errors_);
          if (in_arena)
            --arena_children_;
        }
        while (aside)
        {
          detail::fork_join::block_child* const next = aside->next;
          aside->next = taken_;
          taken_ = aside;
          aside = next;
        }
        if (arena_children_ == 0)
          arena_.release();
        return;
      }
      this_thread::disable_interruption no_interruption; // children refer to this frame
      run_unclaimed();
      if (generic_.try_executing_one)
        detail::fork_join::help_bounded([this] { return generic_.try_executing_one(generic_.ex); },
                                        [this] { return generic_idle(); });
      // Block only while every unfinished child is claimed; children that other threads run
      // may add children (run() from a non-owner notifies), which are claimed here.
      unique_lock<mutex> lk(mtx_);
      while (pending_ != generic_here_)
      {
        if (unclaimed_.empty())
          cv_.wait(lk);
        else
        {
          lk.unlock();
          run_unclaimed();
          lk.lock();
        }
      }
    }

    // Effects: runs, on the calling thread, every child in unclaimed_ that nobody has claimed,
    // until the list stays empty.
    void run_unclaimed() noexcept
    {
      for (;;)
      {
        std::vector<std::shared_ptr<detail::fork_join::generic_child> > taken;
        {
          lock_guard<mutex> lk(mtx_);
          if (unclaimed_.empty())
            return;
          taken.swap(unclaimed_);
        }
        for (const std::shared_ptr<detail::fork_join::generic_child>& c : taken)
          if (c->claim())
            c->execute();
      }
    }

    bool generic_idle()
    {
      lock_guard<mutex> lk(mtx_);
      return pending_ == generic_here_;
    }

    // Joins the block when define_task_block's scope ends, however it ends.
    class join_on_exit
    {
    public:
      explicit join_on_exit(task_block& tb) noexcept : tb_(tb) {}
      ~join_on_exit() { tb_.join_all(); }
      join_on_exit(const join_on_exit&) = delete;
      join_on_exit& operator=(const join_on_exit&) = delete;

    private:
      task_block& tb_;
    };

    // Effects: records an exception of the block's own function and cancels the block.
    // Throws: nothing but lock_error (recording needs no memory: exception_collector).
    void fail(const boost::exception_ptr& e)
    {
      region_.cancel();
      lock_guard<mutex> lk(mtx_);
      errors_.add(e);
    }

    // Effects: records that f was interrupted; define_task_block rethrows the interruption.
    void fail_interrupted()
    {
      region_.cancel();
      lock_guard<mutex> lk(mtx_);
      errors_.interrupted();
    }

    bool canceled() const noexcept { return region_.canceled(); }

    // Throws: what the block collected; else task_canceled_exception if a region enclosing the
    // block is canceled (children may have been skipped: the block's work is not whole).
    void rethrow()
    {
      errors_.rethrow();
      if (region_.outer_canceled())
        detail::fork_join::throw_canceled();
    }

    // The block's cancellation region, nested in the region that called define_task_block, and
    // current on the calling stack while the block lives: for f and for the final join, where
    // the children that nobody took run inline (cancel_region.hpp). Its flag is the block's:
    // set by cancel() or a failure.
    detail::fork_join::nested_region region_;
    detail::fork_join::pool_core* const core_ = nullptr;
    const detail::fork_join::generic_executor generic_{};
    // The stack the block runs on (the thread that called define_task_block, or the fiber it
    // ran on there: parking.hpp), which alone nests the block's frames; another stack of the
    // same thread may run while the block's frame is parked, and is not nested in it.
    const void* const owner_ = detail::fork_join::current_stack_id();
    std::atomic<detail::fork_join::block_child*> head_{nullptr};
    detail::fork_join::block_arena arena_;
    // Owner-only: children taken from head_ and not yet joined (join_all()), and how many
    // children of the arena are alive.
    detail::fork_join::block_child* taken_ = nullptr;
    std::size_t arena_children_ = 0;
    mutex mtx_;                                 // generic children and errors_ from them
    condition_variable cv_;
    std::size_t pending_ = 0;                   // generic children not finished, under mtx_
    std::size_t generic_here_ = 0;              // of them, running on the owner's stack, under mtx_
    // Generic children that may still be unclaimed, under mtx_.
    std::vector<std::shared_ptr<detail::fork_join::generic_child> > unclaimed_;
    detail::fork_join::exception_collector errors_;
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
  // adds nothing: with no exception, define_task_block returns normally. Joining needs no memory: if memory runs out while an exception
  // is recorded, the list holds a std::bad_alloc in its place, and if it runs out while the
  // list itself is made, std::bad_alloc is thrown instead of the list; in every case only
  // after every child has finished.
  // Progress: on a fork_join_thread_pool the waits help, so nested blocks in children never
  // deadlock; a waiting thread cannot be interrupted (children refer to its frame).
  template <class Executor, class F>
  void define_task_block(Executor& ex, F&& f)
  {
    task_block tb(ex);
    {
      // Children refer to this frame: joined on every way out of this scope, also if
      // recording f's exception throws.
      const task_block::join_on_exit join(tb);
      try
      {
        std::invoke(f, tb);
      }
      catch (const task_canceled_exception&)
      {
        if (!tb.canceled()) // thrown by f itself, not a consequence of a failure
          tb.fail(detail::fork_join::current_exception_lossless());
      }
      catch (const thread_interrupted&)
      {
        tb.fail_interrupted();
      }
      catch (...)
      {
        tb.fail(detail::fork_join::current_exception_lossless());
      }
    }
    tb.rethrow();
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
