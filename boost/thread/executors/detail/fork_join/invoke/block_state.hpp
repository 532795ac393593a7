// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The state and the machinery of one task_block (task_block.hpp, which forwards to it): its
// cancellation region, its children and their storage, their join, its exceptions.
//
// On a fork_join_thread_pool, a child is a block_child_impl (block_child.hpp), a stack task of
// its own in the block's arena (no allocation for the first few children) or from operator
// new, linked into one of the block's two lists that a join walks: the owner's (own_head_, no
// atomic operation) or the shared one (foreign_head_) for a run() on another stack (a child
// calling run() on its parent's block); except where a pool thread of the block's pool runs
// the block, whose own stack makes its first child not yet joined so, and each further one a
// record (block_record.hpp) in the arena; the first one too where the thread's deque already
// holds BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH tasks. The block queues one task for all its records,
// a claimer: whoever runs a claimer claims the records oldest first and runs them, queuing
// another claimer (a helper) before each, so that other threads can join in; the owner's join
// claims them newest first, with no read-modify-write where no claimer can have seen them
// ("The records of a task block", doc/design.md). Where the deque holds that many tasks, no
// claimer is queued at run() (the records are kept back): the block's stop hook queues one if
// the thread parks or blocks, and so does a join of a stolen child that finds the deque empty.
// On any other executor the children are generic_children (generic_fallback.hpp), made only
// there.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_STATE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_BLOCK_STATE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/base/fence.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/block_arena.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/block_child.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/block_record.hpp>
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
  // refer to. Its stop_hook is linked into its stack's hooks (task_frame.hpp) while define()
  // runs, where the block can have records (join_on_exit).
  class block_state : private block_home, private stop_hook
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
      // child that still runs (a wait() nested in it), which arena_children_ counts, nor under
      // a join that walks the claimers (a wait() nested in a task that join ran).
      if (arena_children_ == 0)
      {
        if (records_)
        {
          BOOST_THREAD_FJ_ASSERT(!claimers_); // each joined (settle_claimers())
          newest_made_ = nullptr;
          // relaxed: every claimer that could load it was joined.
          oldest_.store(nullptr, std::memory_order_relaxed);
        }
        arena_.release();
      }
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
      // The first child of the owner's that no join took yet is a task of its own (as a block
      // of one child needs no more), but where records are kept back; the others are records
      // behind one queued claimer.
      if (own && own_slot_ && (records_ || own_head_ || keeps_back()))
      {
        make_record<Fn>(std::forward<G>(g));
        return;
      }
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
          // First the records, and again after any child that ran here (it may run() more).
          if (records_ && (newest_ || claimers_))
            join_records();
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

    // ---- The owner's children as records behind queued claimers (see the top of this file).
    //
    // The queued-task invariant (doc/design.md, "The records of a task block"): a record that
    // nobody claimed has, at every moment, a claimer of its block that is queued and not
    // started, or an owner's stack that runs. Kept by three rules:
    //  1. run() queues a claimer when the last one it queued was joined or has ended, unless
    //     the records are kept back (keeps_back(): then the owner's stack runs);
    //  2. a claimer queues a helper (a claimer) before each record it runs, and the record may
    //     wait only after that; the helper's start is what the records after it wait for;
    //  3. before the owner's stack stops (a park, or a block in an isolated frame), the
    //     block's stop hook queues a claimer if records may be unclaimed and the newest claimer
    //     the owner queued has started (on_stop(); has_unstarted_claimer() says why the newest
    //     is enough).
    // A record that the owner made after a claimer's last look is covered by rule 3 if the
    // owner then stops, and by the owner's join otherwise. The owner's stack runs records only
    // in its join: a claimer that starts there returns at once, so that no claimer ever waits
    // for a frame of the owner's stack (a wait() nested in a record joins the claimers).

    // A task that claims and runs the block's records (claim_records()).
    struct claimer
    {
      struct call
      {
        block_state& block;
        claimer& self;
        void operator()() const noexcept { block.claim_records(self); }
      };
      explicit claimer(block_state& b) noexcept : fn{b, *this}, task(fn, trace_span::block) {}
      claimer(const claimer&) = delete;
      claimer& operator=(const claimer&) = delete;

      call fn;
      stack_task_impl<call> task;
      // Stored by the claimer as it starts; loaded by the owner's stop hook. relaxed on both
      // sides: each is followed (the start) or preceded (the hook) by a seq_cst fence, which is
      // what orders them (claim_records(), pool_core::run_stop_hooks()).
      std::atomic<bool> started{false};
      // Owner-only, for the claimers the owner queued: whether its join took it (then it has
      // ended, and left the owner's list), and the next older one in that list.
      bool joined = false;
      claimer* next = nullptr;
      // The exceptions of the records it ran: written by its runner, read after its join.
      exception_collector errors;
    };

    // Effects: makes a record of g and offers it (rule 1 above), unless keeps_back(). If no
    // claimer can be queued (the pool's thread has no spare stack and the system refuses a
    // mapping, or its deque cannot grow), the record runs here, as a child that no queue took
    // does.
    // Throws: what copying g throws, std::bad_alloc from the arena; then nothing was made.
    template <class Fn, class G>
    void make_record(G&& g)
    {
      typedef block_record_impl<Fn> record;
      if (BOOST_UNLIKELY(!records_))
        start_records();
      // The claimer first, so that a throw leaves no record made.
      claimer* const c = (!claimers_ || claimers_->task.done()) && !keeps_back() ? make_claimer() : nullptr;
      block_record* const r = ::new (arena_.allocate(sizeof(record), alignof(record))) record(std::forward<G>(g));
      ++arena_children_;
      // release: publishes the record's construction to the claimers' acquire loads
      // (claim_oldest()).
      if (newest_made_)
        newest_made_->newer.store(r, std::memory_order_release);
      else
        oldest_.store(r, std::memory_order_release);
      newest_made_ = r;
      // Fast path, "Owner's list of a block's children" (doc/design.md, "Fast paths and their
      // assumptions"): only the owner's stack touches newest_.
      r->older = newest_;
      newest_ = r;
      if (c && !queue_claimer(*c))
        run_unoffered(*r);
    }

    // Returns: whether the owner's deque holds BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH tasks or more,
    // so that a child made now is kept back: a record, for which no claimer is queued.
    // Fast path, "A block's records kept back" (doc/design.md, "Fast paths and their
    // assumptions"): it spares a child the push and pop of a task (its first child), or of the
    // claimer, and its join the claim's exchange, assuming that the other threads find work
    // enough in the tasks already queued; no progress depends on it (rule 3 above). size():
    // two relaxed loads, a hint (a stale top only overstates).
    BOOST_FORCEINLINE bool keeps_back() const noexcept
    {
      return BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH != 0 &&
             own_slot_->deque.size() >= std::size_t(BOOST_THREAD_FJ_BLOCK_DEFER_DEPTH);
    }

    // Effects: makes the state of the records (none made, no claimer) and reserves the number
    // that their claimers bear (queue_claimer()). Called by run() on the owner's stack, from the
    // block's function or from a child that the block's join runs there: no task that the
    // stack started after the block's frame runs below that call, so that the number stands
    // for the block's frame.
    BOOST_NOINLINE void start_records() noexcept
    {
      claimer_seq_ = core_->reserve_push_seq(own_slot_);
      newest_ = nullptr;
      newest_made_ = nullptr;
      // relaxed: no claimer of the block exists yet to load it; the first record is published
      // with release.
      oldest_.store(nullptr, std::memory_order_relaxed);
      claimers_ = nullptr;
      records_ = true;
    }

    // Returns: a claimer in the arena, made, not queued. (In the block's frame, it made a
    // chain of nested blocks use 176 bytes more stack a level, for no time measured.)
    // Throws: std::bad_alloc.
    BOOST_FORCEINLINE claimer* make_claimer() { return ::new (arena_.allocate(sizeof(claimer), alignof(claimer))) claimer(*this); }

    // Effects: queues c (made by make_claimer()) as the owner's newest claimer. Returns: whether
    // it is queued; if not, c is gone.
    BOOST_FORCEINLINE bool queue_claimer(claimer& c) noexcept
    {
      // A claimer is the block's, wherever the owner's stack queues it (run() from a task
      // that a wait on the stack runs, a stop hook above other frames): it takes the root and
      // isolation of the frame that made the block (task_frame.hpp), which admission and the
      // joins' cycle check read.
      const task_frame* const innermost = current_context.frame;
      const task_frame* const mine = region_.made_in();
      if (BOOST_UNLIKELY(innermost != mine))
        current_context.frame = mine;
      bool queued = false;
      try
      {
        // Numbered as if the block's frame queued it when its records began, not at the top of
        // the stack, where a stop hook queues it: pool_core::reserve_push_seq() says why.
        queued = core_->push_stack_task_as(own_slot_, &c.task, claimer_seq_);
      }
      catch (...)
      {
        // Out of memory growing the deque: nothing queued.
      }
      if (BOOST_UNLIKELY(innermost != mine))
        current_context.frame = innermost;
      if (BOOST_UNLIKELY(!queued))
      {
        c.~claimer();
        return false;
      }
      c.next = claimers_;
      claimers_ = &c;
      return true;
    }

    // Effects: runs r here, in the block's region (run() may be called in another), unless a
    // claimer has it. Out of line: a rare path.
    BOOST_NOINLINE void run_unoffered(block_record& r) noexcept
    {
      if (const block_record::run_fn go = r.claim())
      {
        const region_proxy in(region_);
        run_record_here(r, go);
      }
    }

    // Effects: runs r (whose run function the caller took) on the owner's stack, where the
    // block's region is current (its join: define_task_block and wait() make it so,
    // cancel_region.hpp).
    BOOST_FORCEINLINE void run_record_here(block_record& r, block_record::run_fn go) noexcept
    {
      core_->count_run(own_slot_);
      const pool_core::trace_scope span(*core_, trace_span::block);
      go(r, region_, errors_);
    }

    // Effects: claims the oldest record that nobody claimed; r is set to it and its run
    // function returned; null if there is none. Claimers and the owner's join race for records
    // only through block_record::claim(); oldest_ only spares later looks the records claimed
    // already.
    block_record::run_fn claim_oldest(block_record*& claimed) noexcept
    {
      // acquire: pairs with the owner's release stores in make_record(), for the records'
      // construction, as do the loads of `newer` below.
      block_record* r = oldest_.load(std::memory_order_acquire);
      while (r)
      {
        block_record* const next = r->newer.load(std::memory_order_acquire);
        const block_record::run_fn go = r->look() ? r->claim() : nullptr;
        if (next)
        {
          // Past a claimed record (this one now, too). release: another claimer that loads
          // `next` from oldest_ (acquire, above) reads next's fields, and only this claimer's
          // acquire load of r->newer saw next made: a relaxed exchange would pass on the pointer
          // without that edge (the owner's release store that heads oldest_'s release sequence
          // came before next was made). relaxed on failure: nothing is stored.
          block_record* expected = r;
          oldest_.compare_exchange_strong(expected, next, std::memory_order_release, std::memory_order_relaxed);
        }
        if (go)
        {
          claimed = r;
          return go;
        }
        r = next;
      }
      return nullptr;
    }

    // The action of a claimer: claims the block's records oldest first and runs each, after
    // queuing a helper for the rest (rule 2). Runs on any thread but the owner's stack.
    void claim_records(claimer& self) noexcept
    {
      self.started.store(true, std::memory_order_relaxed);
      // seq_cst: pairs with the fence of the owner's stack before its stop hooks
      // (pool_core::run_stop_hooks()): if a hook did not see this start, the walk below sees
      // every record the owner made before that hook.
      seq_cst_fence();
      if (current_stack_id() == owner_)
        return; // the owner's join runs them, or a claimer queued when it stops (rule 3)
      pool_core& core = *core_;
      worker_slot* const own = core.own_slot();
      alignas(claimer) unsigned char helper_storage[sizeof(claimer)];
      block_record* r = nullptr;
      while (const block_record::run_fn go = claim_oldest(r))
      {
        claimer* const h = ::new (static_cast<void*>(helper_storage)) claimer(*this);
        bool queued = false;
        try
        {
          queued = spawn(core, own, h->task);
        }
        catch (...)
        {
          // Out of memory growing the deque: no helper, as with no spare stack.
        }
        core.count_run(own);
        {
          const pool_core::trace_scope span(core, trace_span::block);
          const region_proxy in(region_);
          go(*r, region_, self.errors);
        }
        if (queued && !core.pop_own_if_newest(own, &h->task))
        {
          wait_for_stack_task(core, h->task);
          self.errors.absorb(h->errors);
        }
        h->~claimer();
      }
    }

    // The owner's join of its records: runs them newest first, each claimed unless nobody can
    // have seen it (no claimer is unjoined, or it is the last and the only unjoined claimer is
    // taken back), while the owner's claimers stay queued for thieves; then joins the
    // claimers. A record run here may run() more (the walk goes on until no
    // record is left and every claimer is joined), or wait() (then a join nested in this one
    // goes on with the members). Where the stack has no room for a record's frames, the
    // records go to a queued claimer instead, which a park runs on a fresh stack.
    BOOST_NOINLINE void join_records() noexcept
    {
      for (;;)
      {
        if (BOOST_UNLIKELY(!stack_has_room()))
          join_records_elsewhere();
        else
        {
          while (block_record* const r = newest_)
          {
            newest_ = r->older;
            block_record::run_fn go;
            if (!claimers_)
            {
              // Shortcut, "A block's records kept back" (doc/design.md, "Fast paths and their
              // assumptions"): every claimer the owner queued was joined (their helpers with
              // them), so no one else can claim r now; a claimer queued later (a stop hook
              // while a record runs here) finds it claimed (claim_alone()), and from then on
              // the records left are claimed by exchange (the branches below).
              go = r->claim_alone();
            }
            else if (!r->older && !claimers_->next && core_->pop_own_if_newest(own_slot_, &claimers_->task))
            {
              // Shortcut, "The last record without a claim" (doc/design.md, "Fast paths and
              // their assumptions"): the owner's only unjoined claimer never started, and
              // every other one was joined (their helpers with them), so no one else can
              // claim r now; a claimer queued later finds it claimed (claim_alone()). A
              // claim by a joined claimer happened before its join.
              BOOST_THREAD_FJ_ASSERT(!claimers_->joined);
              claimers_->joined = true;
              claimers_ = nullptr;
              go = r->claim_alone();
            }
            else
              go = r->claim();
            if (go)
              run_record_here(*r, go);
            --arena_children_;
          }
          if (claimers_)
            settle_claimers(true);
        }
        if (!newest_ && !claimers_)
          return;
      }
    }

    // The records' join where the stack has no room for their frames: a claimer that starts
    // after this point sees every record made, and the settling waits for it without taking it
    // back (join(), stack_task.hpp: the wait parks, and the thread runs it on a fresh stack).
    BOOST_NOINLINE void join_records_elsewhere() noexcept
    {
      if (newest_)
        offer_or_abort();
      settle_claimers(false);
      while (block_record* const r = newest_) // each claimed by a claimer just joined
      {
        newest_ = r->older;
        --arena_children_;
      }
    }

    // Effects: joins every claimer the owner queued and collects its exceptions; if
    // take_back, a claimer still queued where the owner can pop it is taken back instead of
    // run (the owner's join claimed every record before). Each claimer leaves the owner's list
    // as it is joined, so the list holds only those not yet joined, and no walk passes a joined
    // one. A wait() in a task that this join runs meanwhile may settle the same claimers (a
    // nested join): each is marked when joined, and its storage stays until the block ends or
    // wait() rewinds the arena, which this join holds off.
    void settle_claimers(bool take_back) noexcept
    {
      ++arena_children_; // holds off wait()'s rewind, as a child in the arena would
      while (claimer* const c = claimers_)
      {
        // Not taken: nothing of it ran; the records it would claim are the owner's join's.
        if (!take_back || !core_->pop_own_if_newest(own_slot_, &c->task))
          wait_for_stack_task(*core_, c->task);
        if (c->joined) // a nested join settled it while this one waited
          continue;
        c->joined = true;
        BOOST_THREAD_FJ_ASSERT(!c->task.threw()); // never destroyed: see claimers_
        errors_.absorb(c->errors);
        // Usually still the newest: a stop hook may have queued newer ones during the wait.
        claimer** link = &claimers_;
        while (*link != c)
          link = &(*link)->next;
        *link = c->next;
      }
      --arena_children_;
    }

    // Returns: whether the newest claimer the owner queued has not started. Only it can be
    // unstarted, but where a join without room queued one more beside it
    // (join_records_elsewhere()): an older one unstarted there is not seen, and a stop hook
    // queues one more, which costs a task, never progress. relaxed: the caller is the owner's
    // stack after a seq_cst fence (on_stop()).
    bool has_unstarted_claimer() const noexcept { return claimers_ && !claimers_->started.load(std::memory_order_relaxed); }

    // Effects: queues one more claimer (rule 3, and a join without room on its stack).
    // Throws: std::bad_alloc (no memory for the claimer or for the deque);
    // executors::fiber_stack_error if the thread has no spare stack and the system refuses a
    // mapping (a queued stack task needs one for its wait: pool_core::push_stack_tasks). Then
    // nothing is queued: the records' progress would depend on it, so the failure is not
    // silent.
    void offer()
    {
      if (!queue_claimer(*make_claimer()))
      {
        if (!own_slot_->home.has_spare())
          throw_no_fiber_stack(*core_);
        throw std::bad_alloc();
      }
    }

    // As offer(), where nothing may throw: a join whose records must run elsewhere. Without
    // memory or a stack there, the records could never run: std::terminate with the
    // exception, as a join that cannot park.
    BOOST_NOINLINE void offer_or_abort() noexcept { offer(); }

    // The block's stop hook (task_frame.hpp): rule 3. Throws: as offer(), as the stack's park
    // does when its deque cannot grow or it has no stack (help.hpp).
    static void on_stop(stop_hook& h)
    {
      block_state& b = static_cast<block_state&>(h);
      if (b.records_ && b.newest_ && !b.has_unstarted_claimer())
        b.offer();
    }

    // Links the block's stop hook into its stack's from before f runs (where the block can
    // have records), joins the block when define()'s scope ends, however it ends, then
    // unlinks the hook. The scopes of the blocks on a stack nest, so the list does: innermost
    // first, as a stop must see them (its newest claimers are the innermost block's).
    class join_on_exit
    {
    public:
      explicit join_on_exit(block_state& b) noexcept : b_(b)
      {
        if (b_.own_slot_)
        {
          b_.before_stop = &block_state::on_stop;
          b_.prev = current_stop_hooks;
          current_stop_hooks = &b_;
        }
      }
      ~join_on_exit()
      {
        b_.join_all();
        BOOST_THREAD_FJ_ASSERT(b_.arena_children_ == 0); // nothing of the block runs any more
        if (b_.own_slot_)
        {
          BOOST_THREAD_FJ_ASSERT(current_stop_hooks == &b_); // the blocks nested in it ended
          current_stop_hooks = b_.prev;
          BOOST_THREAD_FJ_ASSERT(!b_.records_ || !b_.claimers_); // each joined (settle_claimers())
        }
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
    // Owner-only: whether the state of the records below is made (start_records()); until
    // then none of it is read.
    bool records_ = false;
    // Owner-only: the records the owner's join has not taken, newest first, and the newest
    // record made (whose `newer` the next one is linked to), since the arena was last rewound.
    block_record* newest_;
    block_record* newest_made_;
    // The oldest record that may be unclaimed (a hint for claim_oldest(): every record not
    // claimed is reachable from it through `newer`). Stored by the owner with release, moved
    // on by claimers.
    std::atomic<block_record*> oldest_;
    // Owner-only: the claimers it queued and did not join yet, newest first. A joined one is
    // never destroyed: its destructors would do nothing (its exceptions were absorbed, and a
    // claimer's call never throws, so its task keeps none), and the arena's storage, rewound or
    // freed, ends its lifetime ([basic.life]).
    claimer* claimers_;
    // Owner-only: the number of the owner's pushes that every claimer it queues bears
    // (start_records(), queue_claimer()).
    std::uint64_t claimer_seq_;
    // Last, so that the fields above, the arena's pointers and its first children are adjacent
    // in the block's frame (block_arena.hpp).
    block_arena arena_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
