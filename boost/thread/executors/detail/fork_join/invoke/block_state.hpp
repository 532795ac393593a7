// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The state and the machinery of one task_block (task_block.hpp, which forwards to it): its
// cancellation region, its children and their storage, their join, its exceptions.
//
// On a fork_join_thread_pool a child is a block_child_impl (block_child.hpp): a stack task
// pushed to the running worker's deque, its storage taken from the block's arena (no
// allocation for the first few children) when the block's owner calls run(), and linked into
// one of the block's two lists, which a join walks: the owner's (own_head_, no atomic
// operation) or, for a run() on another thread, the shared one (foreign_head_). On any other
// executor the children are generic_children (generic_fallback.hpp), made only there.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_STATE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_STATE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/block_arena.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/block_child.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/generic_fallback.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/throw_exception.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // The block's region_ and owner_ are its block_home's (block_child.hpp), which its children
  // refer to.
  class block_state : private block_home
  {
  public:
    // Effects: the state of a block on ex, made on the calling stack (its owner).
    template <class Executor>
    explicit block_state(Executor& ex) : core_(core_for(ex)), generic_(generic_for(ex))
    {
    }
    block_state(const block_state&) = delete;
    block_state& operator=(const block_state&) = delete;

    // task_block::run.
    template <class G>
    void run(G&& g)
    {
      if (region_.canceled()) // a hint, see block_child_impl
        throw_canceled();
      typedef typename std::decay<G>::type fn;
      if (core_)
        run_on_pool<fn>(std::forward<G>(g));
      else
        generic_->children.run<fn>(std::forward<G>(g), generic_->ex, region_, owner_, errors_);
    }

    // task_block::wait.
    void wait()
    {
      if (current_stack_id() != owner_)
        boost::throw_exception(std::logic_error("task_block::wait: not on the thread (stack) that runs the block"));
      {
        // The children that the join runs inline run in the block's region (block_child_impl),
        // wherever the wait was called from.
        const region_proxy in(region_);
        join_all();
      }
      // The children run after this wait reuse the storage of those it joined; not under a
      // child that still runs (a wait() nested in it), which arena_children_ counts.
      if (arena_children_ == 0)
        arena_.release();
      if (region_.canceled()) // join_all() has synchronized with every child
        throw_canceled();
    }

    // task_block::cancel and task_block::is_canceling.
    void cancel() noexcept { region_.cancel(); }
    bool canceled() const noexcept { return region_.canceled(); }

    // Requires: tb is the task_block of *this, on the stack that made it.
    // Effects: define_task_block's: calls f(tb), then joins every child, however f ends; an
    // exception of f is recorded and cancels the block.
    // Throws: what the block collected (rethrow()).
    template <class F, class TaskBlock>
    void define(F& f, TaskBlock& tb)
    {
      {
        // Children refer to this frame: joined on every way out of this scope, also if
        // recording f's exception throws.
        const join_on_exit join(*this);
        run_capturing_causes(
            region_, [&f, &tb] { std::invoke(f, tb); }, [this] { fail(boost::exception_ptr(), true); },
            [this](boost::exception_ptr e) { fail(e, false); });
      }
      rethrow();
    }

  private:
    static pool_core* core_for(executors::fork_join_thread_pool& ex) noexcept { return core_of(ex).get(); }
    template <class Executor>
    static pool_core* core_for(Executor&) noexcept
    {
      return nullptr;
    }
    // A block on another executor: the executor and the children (generic_fallback.hpp).
    struct generic_block
    {
      explicit generic_block(const generic_executor& e) : ex(e) {}
      const generic_executor ex;
      generic_children children;
    };
    // Made only for other executors (one allocation per block there): the children's mutex
    // and condition variable, made and ended with every block, were a quarter of the
    // instructions of a block with one child on our pool.
    static std::unique_ptr<generic_block> generic_for(executors::fork_join_thread_pool&) noexcept
    {
      return nullptr;
    }
    template <class Executor>
    static std::unique_ptr<generic_block> generic_for(Executor& ex)
    {
      return std::unique_ptr<generic_block>(new generic_block(generic_executor::of(ex)));
    }

    template <class Fn, class G>
    void run_on_pool(G&& g)
    {
      typedef block_child_impl<Fn> child;
      // The block's owner takes storage from the arena; any other thread (a child calling
      // run on its parent's block) from operator new. Both align it as the child, whose
      // function object may be over-aligned.
      const bool own = current_stack_id() == owner_;
      void* mem = own ? arena_.allocate(sizeof(child), alignof(child)) : child::allocate_on_heap();
      child* c = nullptr;
      try
      {
        c = new (mem) child(std::forward<G>(g), *this, !own);
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
        queued = own ? spawn(*core_, own_slot_, *c) : spawn(*core_, *c);
      }
      catch (...)
      {
        // Out of memory growing a queue: nothing queued, the child runs here below.
      }
      if (!queued)
      {
        c->mark_inline();
        run_unqueued(*c); // run() may be called from another region, or thread
      }
      if (own)
      {
        // Fast path, "Owner's list of a block's children" (doc/design.md, "Fast paths and
        // their assumptions"): only the owner's stack touches own_head_.
        c->next = own_head_;
        own_head_ = c;
        return;
      }
      // release: the child's construction is published with it to the owner's acquire
      // exchange in join_all().
      c->next = foreign_head_.load(std::memory_order_relaxed);
      while (!foreign_head_.compare_exchange_weak(c->next, c, std::memory_order_release, std::memory_order_relaxed))
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

    // Requires: called on the owner's thread.
    // Effects: joins every child but those running on the calling thread's stack; collects
    // their exceptions (which needs no memory: exception_collector).
    // Nesting: a child that the owner runs (inline, or while its join helps) may call wait(),
    // so join_all() may be nested in itself on the owner's thread. The walk is therefore kept
    // in members rather than in this frame: taken_ holds the children taken from the lists and
    // not yet joined, and a nested join_all() goes on with it, so that no frame holds a
    // pointer to a child that another frame destroys. A child on this thread's stack (the
    // caller of a nested wait() and the children it runs in) cannot be joined here: it is
    // set aside and handed back, for the join it is nested in. The arena's storage is not
    // touched here: wait() rewinds it, and the block's end gives its chunks back (the arena's
    // destructor), so that a block's final join, nearly every block's only one, does neither.
    void join_all() noexcept
    {
      BOOST_THREAD_FJ_ASSERT(current_stack_id() == owner_);
      if (core_)
      {
        block_child* aside = nullptr;
        for (;;)
        {
          block_child* c = taken_;
          if (!c && own_head_)
          {
            c = own_head_;
            own_head_ = nullptr;
          }
          // Children may add children while we join, so repeat until both lists stay empty.
          // The relaxed load sees every child that a child joined so far added (its push
          // happens before the join returned), and a child added meanwhile by one still
          // running is seen after its join; it only spares the exchange when the list is
          // empty. acquire: pairs with the release CAS in run_on_pool().
          if (!c && foreign_head_.load(std::memory_order_relaxed))
            c = foreign_head_.exchange(nullptr, std::memory_order_acquire);
          if (!c)
            break;
          taken_ = c->next;
          if (c->running_here())
          {
            c->next = aside;
            aside = c;
            continue;
          }
          const bool in_arena = !c->on_heap();
          c->settle(*core_, own_slot_, c, errors_);
          if (in_arena)
          {
            BOOST_THREAD_FJ_ASSERT(arena_children_ != 0);
            --arena_children_;
          }
        }
        while (aside)
        {
          block_child* const next = aside->next;
          aside->next = taken_;
          taken_ = aside;
          aside = next;
        }
        return;
      }
      generic_->children.join(generic_->ex);
    }

    // Joins the block when define()'s scope ends, however it ends.
    class join_on_exit
    {
    public:
      explicit join_on_exit(block_state& b) noexcept : b_(b) {}
      ~join_on_exit()
      {
        b_.join_all();
        BOOST_THREAD_FJ_ASSERT(b_.arena_children_ == 0); // nothing of the block runs any more
      }
      join_on_exit(const join_on_exit&) = delete;
      join_on_exit& operator=(const join_on_exit&) = delete;

    private:
      block_state& b_;
    };

    // Effects: records an exception (or an interruption) of the block's own function and
    // cancels the block.
    // Throws: nothing but lock_error (recording needs no memory: exception_collector).
    void fail(const boost::exception_ptr& e, bool interrupted)
    {
      region_.cancel();
      if (generic_) // its children report to errors_ under its mutex
        generic_->children.record(errors_, e, interrupted);
      else
      {
        // On our pool only the owner's stack writes errors_ (this call, and join_all()).
        errors_.add(e);
        if (interrupted)
          errors_.interrupted();
      }
    }

    // Throws: what the block collected; else task_canceled_exception if a region enclosing the
    // block is canceled (children may have been skipped: the block's work is not whole).
    void rethrow()
    {
      errors_.rethrow();
      if (region_.outer_canceled())
        throw_canceled();
    }

    pool_core* const core_ = nullptr;
    // On another executor, the executor and the children (else null); their reports to errors_
    // take the children's mutex.
    const std::unique_ptr<generic_block> generic_;
    // The owner's slot in core_ (pool_core::own_slot(): null if the owner is not one of its
    // threads), looked up once for the block's run() and join_all() on the owner's stack, which
    // stays on its thread (fast path, "A frame's own slot", doc/design.md).
    worker_slot* const own_slot_ = core_ ? core_->own_slot() : nullptr;
    // Owner-only: the children that the owner's run() made and no join took yet.
    block_child* own_head_ = nullptr;
    // The children that run() on another thread made (a child calling its block's run()).
    std::atomic<block_child*> foreign_head_{nullptr};
    // Owner-only: children taken from the lists and not yet joined (join_all()), and how many
    // children of the arena are alive.
    block_child* taken_ = nullptr;
    std::size_t arena_children_ = 0;
    exception_collector errors_;
    // Last, so that the fields above, the arena's pointers and its first children are adjacent
    // in the block's frame (block_arena.hpp).
    block_arena arena_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
