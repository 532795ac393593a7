// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A child of a task block on a fork_join_thread_pool: a stack task (stack_task.hpp, from which
// it derives) holding the child's function object, in storage from the block's arena
// (block_arena.hpp) or from operator new, linked into the block's list and joined by the block
// (block_state.hpp).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_CHILD_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_CHILD_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/executors/detail/fork_join/trace/trace.hpp>

#include <functional>
#include <new>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // What a block's children refer to of their block (block_state derives from it): its
  // cancellation region and its owner stack, through one reference in each child (a reference
  // to each made the child 8 bytes larger).
  struct block_home
  {
    // The block's cancellation region, nested in the region that called define_task_block, and
    // current on the calling stack while the block lives: for f and for the final join, where
    // the children that nobody took run inline (cancel_region.hpp). Its flag is the block's:
    // set by cancel() or a failure.
    nested_region region_;
    // The stack the block runs on (the thread that called define_task_block, or the fiber it
    // ran on there: parking.hpp), which alone nests the block's frames; another stack of the
    // same thread may run while the block's frame is parked, and is not nested in it.
    const void* const owner_ = current_stack_id();
  };

  // A child of a block on our pool: a stack task (stack_task.hpp), linked into the block's list,
  // joined by the block. Its flags live in the stack task's tail (stack_task::child_flags_).
  class block_child : public stack_task
  {
  public:
    // The block's list, written when the child is linked (run() links it after its push).
    block_child* next;
    // Joins the child, adds its exception to `errors`, destroys it; own: core.own_slot().
    void (*const settle)(pool_core& core, worker_slot* own, block_child* self, exception_collector& errors) noexcept;

    // Whether the child's storage is from operator new, else from the owner's arena.
    bool on_heap() const noexcept { return (child_flags_ & on_heap_bit) != 0; }
    // Owner-only (written and read on the block's owner stack only, see block_home::owner_):
    // whether the child runs on the owner's stack right now, so that a wait() nested in it must
    // not join it.
    bool running_here() const noexcept { return (child_flags_ & running_here_bit) != 0; }
    void set_running_here(bool r) noexcept
    {
      child_flags_ = static_cast<unsigned char>(r ? child_flags_ | running_here_bit : child_flags_ & ~running_here_bit);
    }
    // Owner-only: false once run() ran the child where it was called (the pool refused it).
    bool queued() const noexcept { return (child_flags_ & inline_bit) == 0; }
    void mark_inline() noexcept { child_flags_ |= inline_bit; }

  protected:
    block_child(action_fn act, decltype(settle) s, block_home& home, bool heap) noexcept
        : stack_task(act, trace_span::block), settle(s), home_(home)
    {
      child_flags_ = heap ? on_heap_bit : 0;
    }
    ~block_child() = default;

    block_home& home_; // the block's

  private:
    // The bits of stack_task::child_flags_, one byte. The thread that makes the child writes it
    // (on_heap_bit at construction, inline_bit if no queue took the child); once the child is
    // queued, only the owner's stack writes it (running_here_bit), ordered after those writes
    // by the queue's hand-over, or by the owner having made the child itself.
    static constexpr unsigned char on_heap_bit = 1, running_here_bit = 2, inline_bit = 4;
  };

  // Marks a child as running on its block's owner stack while it runs there.
  class running_on_owner
  {
  public:
    running_on_owner(block_child& c, const void* owner) noexcept
        : child_(detail::fork_join::current_stack_id() == owner ? &c : nullptr)
    {
      if (child_)
        child_->set_running_here(true);
    }
    ~running_on_owner()
    {
      if (child_)
        child_->set_running_here(false);
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
    block_child_impl(H&& h, block_home& home, bool heap)
        : block_child(&stack_task::act_as<block_child_impl, true>, &block_child_impl::settle_impl, home, heap),
          g_(std::forward<H>(h))
    {
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

    // Runs the child on the calling thread, keeping its exception (stack_task_impl::invoke).
    // Run inline (the owner's join popped it), the child runs in the owner's code, where the
    // block's region is current: define_task_block and wait() make it so around the joins
    // (cancel_region.hpp). It needs no running_on_owner mark there either: the join took it off
    // the block's lists before, so a wait() nested in it cannot meet it (fast path, "No running
    // mark for a child that its block's join runs inline", doc/design.md, "Fast paths and their
    // assumptions"). Inlined into the join's settle_impl(), which runs it (one call fewer per
    // child).
    BOOST_FORCEINLINE void invoke() noexcept
    {
      keep_exception([this] { call(); });
    }

    // As invoke(), when taken from a queue (a thief, or a join helping in a frame of its own),
    // or when run() runs it where it was called: in the block's region made current here
    // (stack_task.hpp). Taken from a queue by the owner's stack (a join of the block's that
    // helps), it is still on the block's lists: marked, so that a wait() nested in it does not
    // wait for it.
    void invoke_in_own_region() noexcept
    {
      keep_exception([this] {
        const region_proxy in(home_.region_);
        const running_on_owner mark(*this, home_.owner_);
        call();
      });
    }

  private:
    // What the child runs: skipped once the block (or a region enclosing it) is canceled; a
    // throw cancels the block.
    BOOST_FORCEINLINE void call()
    {
      // Cancellation is a hint to skip work not yet started (cancel_region.hpp); the exceptions
      // themselves travel through the stack task's completion.
      if (home_.region_.canceled())
        return;
      try
      {
        std::invoke(g_);
      }
      catch (const executors::task_canceled_exception&)
      {
        // Usually a nested run(), wait(), block or algorithm saw the cancellation, whose cause
        // is already collected (or is a cancel()); one thrown on its own (block not canceled)
        // is collected like any other.
        if (home_.region_.canceled())
          return;
        home_.region_.cancel();
        throw;
      }
      catch (...)
      {
        home_.region_.cancel();
        throw;
      }
    }

    static void settle_impl(pool_core& core, worker_slot* own, block_child* b, exception_collector& errors) noexcept
    {
      block_child_impl* const self = static_cast<block_child_impl*>(b);
      if (self->queued())
        join(core, own, *self);
      if (BOOST_UNLIKELY(self->threw()))
        collect(errors, *self);
      const bool heap = self->on_heap();
      self->~block_child_impl();
      if (heap)
        deallocate_on_heap(self);
    }

    G g_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
