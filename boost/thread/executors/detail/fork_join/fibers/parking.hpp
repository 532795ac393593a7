// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Parking: how a pool thread waits for a task it may not help with, without blocking.
//
// A join on a pool thread that finds nothing it may run (help.hpp) parks its frame: it
// registers a parked_frame (a waker, waker.hpp) with what it waits for, and the thread switches
// to a fresh stack (a Boost.Context fiber, on a stack from fiber_stack.hpp) on which it goes on
// running the pool's tasks. Nothing sits below that stack's scheduler loop, so running *any*
// task there is safe: no frame can be buried under a task that waits for it. When what the
// frame waits for is done, the completer posts the frame to its home (this thread's
// fiber_home) and wakes the thread; the thread's scheduler loop, between two tasks, switches
// back to it. The picture, for a thread T with one parked frame:
//
//     T's own stack                      fiber stack (from T's cache)
//     +-------------------------+        +-------------------------+
//     | worker loop             |        | scheduler loop          |  <- T runs here
//     | task A                  |        | task C (any task)       |
//     | join(b)  [parked]  <----+--------+-- resumed by T's loop   |
//     +-------------------------+  post  |   once b's runner posts |
//                                        +-------------------------+
//
// Invariants (each pool thread, owner-only state unless said otherwise):
//  - Exactly one scheduler loop of the thread runs or is suspended at its top level at a time:
//    the thread's own stack's (worker_loop) or a fiber's. A fiber is started only by a park;
//    when a fiber's loop resumes a frame, the fiber ends (its stack goes back to the cache); when
//    the own stack's loop resumes one, the own stack is suspended as `idle_main`, and the next
//    fiber loop that reaches its top level ends and resumes it.
//  - A parked frame resumes on the thread that parked it, never on another: user code may hold a
//    lock, read thread_local data or this_thread::get_id() across a join. What runs on the
//    thread meanwhile is any task of its pool (as while a join helps, but not only awaited
//    ones): a frame must not hold a lock across a join that another task of the pool takes.
//  - No wake-up is lost: a frame is posted exactly once, after it was registered and what it
//    waits for is done (waker.hpp); post() pushes it onto `posted_` and then wakes the pool's
//    sleepers (event_count.hpp), and the home thread checks `posted_` after its prepare_wait()
//    and before it sleeps, so either it sees the frame or the notify's epoch ends its sleep
//    (test/model/parking.pml). A frame that waits for a future without a run record (not made
//    by fork() or our boost::async) is hooked to it instead (future_hook.hpp): a continuation of
//    ours in the future's shared state posts the frame when the future becomes ready, unless an
//    interruption cancelled the hook first. Where no hook can be had (the public-API-only
//    build, or no memory for it) the frame is polled: its thread checks one polled frame per
//    look between tasks, all of them when it wakes, and sleeps for a bounded time only.
//  - Timed frames (joinable_future::join_until): a hooked or polled frame may carry a deadline.
//    Its thread keeps its timed frames in a binary min-heap by deadline (O(log n) to add, to
//    take out when the frame resumes, and to expire), looks at the heap's top between tasks
//    (a clock read, only while the heap is not empty) and before it sleeps, and sleeps no
//    longer than until the earliest deadline. At the deadline it cancels the frame's hook (or
//    takes a polled frame off its list) and resumes the frame, timed_out(); if the cancel
//    loses, the hook has posted the frame or is posting it, and the frame resumes with that
//    post (its wait then finds the future ready). A registered frame is never timed: it cannot
//    be taken back from its task's list of wakers.
//  - A spare stack: while a pool thread runs a task, it holds a free stack for its next
//    parking (reserved_), or knows it has none (has_spare()). A park takes the spare, and the
//    fresh fiber takes the next one before it runs anything; a fiber that ends refills the
//    spare with its own stack. So whenever a frame resumes, a stack has just come free, and a
//    wait whose children live in its frame (a stack task, which cannot give up and throw)
//    always finds a stack to park on if the thread had a spare when it queued the child
//    (pool_core::push_stack_task queues none without one; the child then runs inline).
//  - Per-stack thread state: each stack (the own stack, each fiber) has its own task frames
//    (task_frame.hpp), running pool, stack floor (stack_bounds.hpp), boost::this_thread
//    interruption state and C++ exception-handling globals (the caught-exception chain and the
//    uncaught count of the Itanium C++ ABI, which the runtime keeps per thread). A frame saves
//    them when it parks and restores them when it resumes; a fresh fiber starts as a worker's
//    loop does (no frame, interruption enabled, no exception in flight). The current
//    cancellation region (cancel_region.hpp) is such state too; a fresh fiber starts in none.
//  - Sanitizers: every switch is announced to AddressSanitizer
//    (__sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber) and ThreadSanitizer
//    (__tsan_create_fiber / __tsan_switch_to_fiber / __tsan_destroy_fiber).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FIBERS_PARKING_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_FIBERS_PARKING_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/fiber_stack.hpp>
#include <boost/thread/executors/detail/fork_join/primitives/stack_bounds.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/task_frame.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/waker.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/worker_context.hpp>
#include <boost/context/fiber.hpp>
#include <boost/thread/thread_only.hpp>

#include <boost/shared_ptr.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include <cxxabi.h>
#include <pthread.h>
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
#include <thread>
#endif

#ifdef BOOST_THREAD_FJ_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#ifdef BOOST_THREAD_FJ_TSAN
#include <sanitizer/tsan_interface.h>
#endif

#ifndef __GXX_ABI_VERSION
#error "Boost.Thread fork/join executor: parking (parking.hpp) saves the exception-handling globals of the Itanium C++ ABI per stack; this compiler does not follow that ABI"
#endif

namespace boost {
namespace detail {
namespace fork_join {

  class pool_core;

  // The exception-handling globals of the Itanium C++ ABI (2.4.3, __cxa_eh_globals), which
  // __cxa_get_globals() returns for the calling thread; saved per stack (see above).
  struct eh_globals
  {
    void* caught_exceptions;
    unsigned int uncaught_exceptions;
#if defined __arm__ && !defined __APPLE__
    void* propagating_exceptions; // ARM EHABI
#endif
  };

  inline eh_globals& eh_globals_of_this_thread() noexcept
  {
    return *reinterpret_cast<eh_globals*>(abi::__cxa_get_globals());
  }

  // One stack of a pool thread (its own, or a fiber's), as the sanitizers need it.
  struct stack_descriptor
  {
    const void* bottom = nullptr; // AddressSanitizer: lowest usable address and size
    std::size_t size = 0;
    void* fake_stack = nullptr; // AddressSanitizer: this stack's fake stack while switched out
    void* tsan_fiber = nullptr; // ThreadSanitizer: this stack's fiber
  };

  // The per-stack thread state that a parked frame saves (see above).
  struct stack_state
  {
    // The innermost task frame, and the current cancellation region (cancel_region.hpp).
    task_context context = {nullptr, nullptr};
    stop_hook* stop_hooks = nullptr; // current_stop_hooks (task_frame.hpp)
    pool_core* running = nullptr;
    std::uintptr_t floor = 0;
    bool interruption_enabled = true;
    eh_globals eh = {};
  };

  class fiber_home;

  // The fiber the calling thread runs on (its stack's descriptor), or nullptr on the thread's
  // own stack; set at every switch (fiber_home::arrived).
  inline thread_local const stack_descriptor* running_fiber = nullptr;

  // Returns: an identity of the stack the calling thread runs on, unique among the stacks alive:
  // the thread's own stack, or the fiber it runs on while frames of it are parked. What was
  // "this thread" for code that nests frames (task_block.hpp's owner) is this stack: another
  // stack of the same thread may run while a frame of it is parked, and is not nested in it.
  inline const void* current_stack_id() noexcept
  {
    thread_local const char own_stack = 0;
    const stack_descriptor* const f = running_fiber;
    return f ? static_cast<const void*>(f) : static_cast<const void*>(&own_stack);
  }

  // What arm(w) of help_until (help.hpp) did with the waker of a frame about to park.
  enum class arm_result
  {
    done,       // nothing to wait for any more: w was not registered
    registered, // w will be posted once, when what the frame waits for is done
    hooked,     // w will be posted once by a hook (future_hook.hpp), unless an interruption
                // cancels the hook first
    polled      // nothing will post w: the frame's thread polls ready()
  };

  // A registration with something outside this library that will post a parked frame once
  // (future_hook.hpp), unless cancelled first.
  class cancellable
  {
  public:
    // Returns: true if the registration will never post its frame; false if it did or will.
    virtual bool cancel() noexcept = 0;

  protected:
    ~cancellable() = default;
  };

  // A frame of a pool thread parked in a wait (help.hpp); lives in that frame.
  class parked_frame final : public waker
  {
  public:
    // interruptible: whether the wait is an interruption point (a polled frame then resumes
    // when its thread is interrupted, and interrupted() says so).
    parked_frame(fiber_home& home, bool interruptible) noexcept
        : waker(&parked_frame::do_post), home_(home), interruptible_(interruptible)
    {
    }

    // Effects: makes this a polled frame: its thread resumes it once ready(context) is true
    // (or throws), instead of waiting for a post. Requires: not registered with anything.
    void poll_with(bool (*ready)(const void*), const void* context) noexcept
    {
      poll_ = ready;
      poll_context_ = context;
    }

    // Effects: makes this a hooked frame: `hook` posts it once, unless cancel() wins first
    // (an interruption of its thread, interruptible frames only). keep: holds the hook alive
    // while the frame may cancel it. Requires: hook registered with what the frame waits for.
    void hook_with(cancellable& hook, boost::shared_ptr<void> keep) noexcept
    {
      hook_ = &hook;
      hook_keep_ = static_cast<boost::shared_ptr<void>&&>(keep);
    }

    // Returns: whether the frame was resumed because its thread was interrupted (polled or
    // hooked, interruptible frames only).
    bool interrupted() const noexcept { return interrupted_; }

    // Requires: the frame is about to be hooked or made polled, and parked at once.
    // Effects: makes this a timed frame: its thread resumes it at the latest at `deadline`
    // (steady_now_ns()'s clock), cancelling its hook first (see above).
    // Throws: std::bad_alloc if the home's heap of timed frames cannot grow (nothing changed).
    void time_out_at(std::int64_t deadline);

    // Returns: whether the frame was resumed by its deadline (time_out_at), not by a post.
    bool timed_out() const noexcept { return timed_out_; }

  private:
    friend class fiber_home;
    static void do_post(waker* w) noexcept;

    fiber_home& home_;
    boost::context::fiber cont_;
    stack_descriptor* stack_ = nullptr; // the stack it parked on
    stack_state saved_;
    bool (*poll_)(const void*) = nullptr;
    const void* poll_context_ = nullptr;
    cancellable* hook_ = nullptr;
    boost::shared_ptr<void> hook_keep_;
    parked_frame* link_ = nullptr; // in the home's posted stack, ready queue or polled list
    parked_frame* hooked_prev_ = nullptr; // in the home's list of hooked frames, while there
    parked_frame* hooked_next_ = nullptr;
    bool in_hooked_ = false;
    parked_frame* polled_prev_ = nullptr; // in the home's polled list, while there
    bool in_polled_ = false;
    const bool interruptible_;
    bool interrupted_ = false;
    bool timed_ = false;     // time_out_at() was called
    bool timed_out_ = false; // resumed by its deadline
    std::int64_t deadline_ = 0;
    std::size_t timed_at_ = static_cast<std::size_t>(-1); // index in the home's heap, while there
  };

  // Returns: now, in nanoseconds of the steady clock, the clock of timed frames' deadlines.
  inline std::int64_t steady_now_ns() noexcept
  {
    return static_cast<std::int64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
  }

  // What parking needs of one pool thread: its parked frames, the stacks it switches to, and the
  // state of the stack it runs on. Owned by the thread's slot (worker_slot.hpp); every member but
  // posted_ is the owner's alone.
  class fiber_home
  {
  public:
    // Posts a parked frame of `home` (push_posted()) and wakes the home's thread; given by the
    // pool, which keeps itself alive meanwhile for a poster that is not one of its threads.
    typedef void (*post_fn)(void* context, fiber_home& home, parked_frame& pf) noexcept;

    // gauges: where the thread's fiber stacks are counted (fiber_stack.hpp; may be null).
    fiber_home(std::size_t stack_size, stack_gauges* gauges, post_fn post, void* post_context) noexcept
        : stacks_(stack_size, gauges), post_(post), post_context_(post_context)
    {
    }
    fiber_home(const fiber_home&) = delete;
    fiber_home& operator=(const fiber_home&) = delete;
    ~fiber_home()
    {
      if (reserved_.sp)
        stacks_.give_back(reserved_);
    }

    // Requires: called by the thread that will own the home, on its own stack, before it parks.
    // Effects: notes that stack for the sanitizers and the interruption state of the thread's
    // loop, which fresh fibers start with; takes the thread's first spare stack (see above), if
    // the system allows.
    void enter() noexcept
    {
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
      owner_ = std::this_thread::get_id();
#endif
      current_ = &own_;
      ensure_stack_floor();
      reserve_stack();
#ifdef BOOST_THREAD_FJ_ASAN
      pthread_attr_t attr;
      if (pthread_getattr_np(pthread_self(), &attr) == 0)
      {
        void* low = nullptr;
        std::size_t size = 0;
        if (pthread_attr_getstack(&attr, &low, &size) == 0)
        {
          own_.bottom = low;
          own_.size = size;
        }
        pthread_attr_destroy(&attr);
      }
#endif
#ifdef BOOST_THREAD_FJ_TSAN
      own_.tsan_fiber = __tsan_get_current_fiber();
#endif
      loop_interruptible_ = this_thread::interruption_enabled();
      if (loop_interruptible_ && !enabler_)
      {
        // A disable_interruption made while interruption is enabled: restore_interruption
        // from it enables interruption again (set_interruption_enabled). Never destroyed: its
        // destructor would only set the flag back, and the flag is set at every switch.
        enabler_ = ::new (static_cast<void*>(&enabler_storage_)) this_thread::disable_interruption;
        set_interruption_enabled(true);
      }
    }

    // Requires: the owner, on its own stack, with no parked frame. Effects: gives the cached
    // stacks back to the system (the thread leaves).
    void leave() noexcept
    {
      BOOST_THREAD_FJ_ASSERT(parked_ == 0 && !idle_main_);
      if (reserved_.sp)
        stacks_.give_back(reserved_);
      reserved_ = boost::context::stack_context();
      stacks_.trim();
    }

    // Effects: makes sure a stack is at hand for the next park(). Returns: whether one is (the
    // system may refuse a new mapping: stack_error() says why).
    bool reserve_stack() noexcept
    {
      if (!reserved_.sp)
        reserved_ = stacks_.take();
      return reserved_.sp != nullptr;
    }

    // Returns: whether the thread holds a spare stack (see above). The owner only.
    bool has_spare() const noexcept { return reserved_.sp != nullptr; }

    // Returns: the errno of the last stack mapping the system refused, and the size of a stack.
    int stack_error() const noexcept { return stacks_.error(); }
    std::size_t stack_size() const noexcept { return stacks_.stack_size(); }

    // Requires: the owner; reserve_stack() returned true since the last park(); pf was
    // registered with what it waits for, or made polled.
    // Effects: suspends the calling frame as pf and runs schedule() (which returns the frame to
    // resume next, or nullptr to resume the idle own stack) on a fresh fiber; returns when pf is
    // resumed, on this thread, with this stack's state restored.
    template <class Schedule>
    void park(parked_frame& pf, Schedule schedule)
    {
      BOOST_THREAD_FJ_ASSERT(called_by_owner());
      BOOST_THREAD_FJ_ASSERT(&pf.home_ == this); // a frame parks, and resumes, on its own thread
      BOOST_THREAD_FJ_ASSERT(reserved_.sp);
      pf.saved_ = save_state();
      pf.stack_ = current_;
      ++parked_;
      const boost::context::stack_context sctx = reserved_;
      reserved_ = boost::context::stack_context();
      void* tsan = nullptr;
#ifdef BOOST_THREAD_FJ_TSAN
      tsan = __tsan_create_fiber(0);
#endif
      boost::context::fiber f(std::allocator_arg, given_stack{sctx, this},
                              // schedule by value: the fiber may outlive the frame that
                              // parked it (that frame resumes once a later fiber ends).
                              [this, &pf, schedule, sctx, tsan](boost::context::fiber&& parked) mutable -> boost::context::fiber {
                                stack_descriptor self;
                                self.bottom = fiber_stack_cache::bottom(sctx);
                                self.size = fiber_stack_cache::usable(sctx);
                                self.tsan_fiber = tsan;
                                pf.cont_ = std::move(parked);
                                arrived(self);
                                stack_state fresh;
                                fresh.floor = reinterpret_cast<std::uintptr_t>(self.bottom) + fiber_reserve(self.size);
                                fresh.interruption_enabled = loop_interruptible_;
                                restore_state(fresh);
                                reserve_stack(); // the next spare, before anything runs here
                                parked_frame* const next = schedule();
                                return depart(next, self);
                              });
      before_switch(current_, fiber_stack_cache::bottom(sctx), fiber_stack_cache::usable(sctx), tsan);
      boost::context::fiber from = std::move(f).resume();
      arrived(*pf.stack_);
      if (from)
        idle_main_ = std::move(from); // the own stack's loop resumed us and waits to go on
      restore_state(pf.saved_);
    }

    // Requires: the owner; reserve_stack() returned true since the last park().
    // Effects: calls f(context) on a fresh fiber, with the calling stack's task frames, running pool
    //   and interruption state, and returns when it returns: a call on another stack, for a
    //   wait that must go on helping where its own stack has no room left and may not park
    //   (an isolated frame, help.hpp). Nothing else runs on the thread meanwhile; f's frames
    //   continue the calling stack's (they run above it), so its switches need no
    //   note_switch() (worker_slot.hpp). The fiber's stack becomes the spare again when it ends.
    void call_on_fresh_stack(void (*f)(void*) noexcept, void* context) noexcept
    {
      parked_frame pf(*this, false);
      const stack_state caller = save_state();
      // One instantiation of park() for every caller: a function pointer, not a template.
      park(pf, [this, &pf, f, context, &caller] {
        stack_state continued = caller; // every field of the caller's state but its stack's floor
        continued.floor = stack_reserve_floor();
        continued.eh = eh_globals_of_this_thread(); // no exception in flight on the fresh stack
        restore_state(continued);
        f(context);
        BOOST_THREAD_FJ_ASSERT(parked_ != 0);
        --parked_; // resumed by this fiber's end, not by take_ready()
        return &pf;
      });
    }

    // Requires: the owner, on its own stack's loop, at its top level; pf came from take_ready().
    // Effects: suspends the own stack (idle_main) and resumes pf; returns when a fiber's loop
    // ends and resumes the own stack, with its state restored.
    void resume_from_own_stack(parked_frame& pf) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(called_by_owner() && &pf.home_ == this); // resumed on its own thread
      BOOST_THREAD_FJ_ASSERT(current_ == &own_);
      const stack_state mine = save_state();
      stack_descriptor* const target = pf.stack_;
      before_switch(&own_, target->bottom, target->size, target->tsan_fiber);
      boost::context::fiber from = std::move(pf.cont_).resume();
      BOOST_THREAD_FJ_ASSERT(!from); // the fiber that resumed us ended
      arrived(own_);
      restore_state(mine);
    }

    // Returns: whether the own stack waits for a fiber's loop to end (see above).
    bool idle_main() const noexcept { return static_cast<bool>(idle_main_); }

    // Returns: a parked frame that may resume (posted, or polled and ready), in post order, or
    // nullptr. The caller resumes it at once.
    // Fast path, "Polled frames" (doc/design.md, "Fast paths and their assumptions"): a frame waiting for a future that
    // nothing posts is checked between tasks, one per look, instead of being registered.
    parked_frame* take_ready() noexcept
    {
      if (!ready_head_)
        take_posted();
      if (!ready_head_ && !timed_.empty())
        expire_timed(steady_now_ns());
      if (!ready_head_ && polled_head_)
        take_polled(1);
      parked_frame* const pf = ready_head_;
      if (!pf)
        return nullptr;
      ready_head_ = pf->link_;
      if (!ready_head_)
        ready_tail_ = nullptr;
      if (pf->in_hooked_)
        unlink_hooked(*pf);
      if (pf->timed_at_ != not_timed)
        remove_timed(*pf);
      BOOST_THREAD_FJ_ASSERT(called_by_owner() && &pf->home_ == this); // resumed on its own thread
      BOOST_THREAD_FJ_ASSERT(parked_ != 0); // Invariant: parked_ counts the frames not yet taken
      --parked_;
      return pf;
    }

    // Returns: whether take_ready() would return a frame. acquire: pairs with post()'s release.
    bool has_ready() noexcept
    {
      if (ready_head_ || posted_.load(std::memory_order_acquire))
        return true;
      if (!timed_.empty())
      {
        expire_timed(steady_now_ns());
        if (ready_head_)
          return true;
      }
      if (polled_head_)
        take_polled(1);
      return ready_head_ != nullptr;
    }

    // Effects: checks every polled frame (after a bounded sleep: O(polled frames) per sleep,
    // never per look between tasks).
    void poll_all() noexcept { take_polled(static_cast<std::size_t>(-1)); }

    // Effects: for an interruption of the thread: every interruptible polled frame, and every
    // interruptible hooked frame whose hook it cancels, is marked interrupted and made ready
    // (a frame registered with a task of this library resumes when its task is done).
    // Fast path, "Registered frames are not deregistered" (doc/design.md, "Fast paths and their assumptions"): a registered
    // frame stays in its task's list of wakers until posted, so no list ever removes one.
    void interrupt_polled() noexcept
    {
      for (parked_frame* pf = polled_head_; pf;)
      {
        parked_frame* const next = pf->link_;
        if (pf->interruptible_)
        {
          unlink_polled(*pf);
          pf->interrupted_ = true;
          push_ready(pf);
        }
        pf = next;
      }
      for (parked_frame* pf = hooked_; pf;)
      {
        parked_frame* const next = pf->hooked_next_;
        // A hook that cannot be cancelled has posted the frame, or is posting it.
        if (pf->interruptible_ && pf->hook_->cancel())
        {
          unlink_hooked(*pf);
          pf->interrupted_ = true;
          push_ready(pf);
        }
        pf = next;
      }
    }

    // Effects: files pf, which park() will suspend, as polled (poll_with was called).
    void add_polled(parked_frame& pf) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(pf.poll_ != nullptr && pf.hook_ == nullptr);
      append_polled(pf);
      if (pf.timed_)
        add_timed(pf);
    }

    // Effects: files pf, which park() will suspend, as hooked (hook_with was called).
    void add_hooked(parked_frame& pf) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(pf.hook_ != nullptr && pf.poll_ == nullptr);
      pf.hooked_prev_ = nullptr;
      pf.hooked_next_ = hooked_;
      if (hooked_)
        hooked_->hooked_prev_ = &pf;
      hooked_ = &pf;
      pf.in_hooked_ = true;
      if (pf.timed_)
        add_timed(pf);
    }

    // Returns: whether a timed frame is parked (the thread then sleeps until its deadline at most).
    bool timed() const noexcept { return !timed_.empty(); }

    // Returns: at_most, or less: the microseconds until the earliest deadline of a timed frame,
    // rounded up (a sleep that ends early only loops once more), at least 1.
    unsigned sleep_us(unsigned at_most) const noexcept
    {
      if (timed_.empty())
        return at_most;
      const std::int64_t left = (timed_[0]->deadline_ - steady_now_ns() + 999) / 1000;
      if (left <= 1)
        return 1;
      return left < static_cast<std::int64_t>(at_most) ? static_cast<unsigned>(left) : at_most;
    }

    // Effects: makes sure that add_timed() will not allocate. Throws: std::bad_alloc.
    void reserve_timed()
    {
      if (timed_.size() == timed_.capacity())
        timed_.reserve(timed_.capacity() < 16 ? 16 : 2 * timed_.capacity());
    }

    // Returns: whether a polled frame is parked (the thread then sleeps for a bounded time).
    bool polling() const noexcept { return polled_head_ != nullptr; }

    // Returns: how many times the thread checked a polled frame (any thread may read it).
    std::uint64_t polls() const noexcept { return polls_.load(std::memory_order_relaxed); } // relaxed: a statistic

    // Returns: how many frames of the thread are parked (not yet taken by take_ready()).
    unsigned parked() const noexcept { return parked_; }

    // For a fiber's loop that ends: the context to resume and the switch to it (see park()).
    // Requires: next is a frame from take_ready(), or nullptr and idle_main().
    boost::context::fiber depart(parked_frame* next, stack_descriptor& self) noexcept
    {
      stack_descriptor* const target = next ? next->stack_ : &own_;
      boost::context::fiber to = next ? std::move(next->cont_) : std::move(idle_main_);
      dead_tsan_fiber_ = self.tsan_fiber;
      before_switch(nullptr, target->bottom, target->size, target->tsan_fiber);
      return to;
    }

    // Effects: files pf as posted (any thread). After this, pf may be resumed and gone.
    void push_posted(parked_frame& pf) noexcept
    {
      parked_frame* head = posted_.load(std::memory_order_relaxed);
      do
        pf.link_ = head;
      // release: the home's acquire exchange (take_posted) sees the link and what the poster
      // did before.
      while (!posted_.compare_exchange_weak(head, &pf, std::memory_order_release, std::memory_order_relaxed));
    }

  private:
    friend class parked_frame;

    // The reserve a fiber keeps free below its helping (stack_bounds.hpp): the helper reserve,
    // but at most small_stack_reserve() of a small fiber stack (a quarter; a half under
    // AddressSanitizer), so that a small stack still helps.
    static std::size_t fiber_reserve(std::size_t size) noexcept
    {
      const std::size_t small = small_stack_reserve(size);
      return small < BOOST_THREAD_FJ_HELPER_STACK_RESERVE ? small : BOOST_THREAD_FJ_HELPER_STACK_RESERVE;
    }

    // The stack allocator of a fiber: the stack taken beforehand, given back to the cache
    // when the fiber ends (on this thread, from the stack it resumes).
    struct given_stack
    {
      boost::context::stack_context stack;
      fiber_home* home;
      boost::context::stack_context allocate() noexcept { return stack; }
      void deallocate(boost::context::stack_context& s) noexcept { home->recycle(s); }
    };

    stack_state save_state() noexcept
    {
      stack_state s;
      s.context = current_context;
      s.stop_hooks = current_stop_hooks;
      s.running = running_core;
      s.floor = stack_reserve_floor();
      s.interruption_enabled = this_thread::interruption_enabled();
      s.eh = eh_globals_of_this_thread();
      return s;
    }

    void restore_state(const stack_state& s) noexcept
    {
      current_context = s.context;
      current_stop_hooks = s.stop_hooks;
      running_core = s.running;
      stack_reserve_floor() = s.floor;
      set_interruption_enabled(s.interruption_enabled);
      eh_globals_of_this_thread() = s.eh;
    }

    // Sets the calling thread's boost::this_thread::interruption_enabled() with Boost's public
    // types: a disable_interruption disables, a restore_interruption from enabler_ enables.
    // Neither is ever destroyed (their destructors only set the flag, which the next switch
    // sets again).
    void set_interruption_enabled(bool on) noexcept
    {
      if (this_thread::interruption_enabled() == on)
        return;
      if (!on)
        ::new (static_cast<void*>(&disabler_storage_)) this_thread::disable_interruption;
      else if (enabler_)
        ::new (static_cast<void*>(&restorer_storage_)) this_thread::restore_interruption(*enabler_);
    }

    // Announces a switch from `from` (nullptr: a stack that ends) to the stack at
    // [bottom, bottom + size) whose ThreadSanitizer fiber is tsan.
    void before_switch(stack_descriptor* from, const void* bottom, std::size_t size, void* tsan) noexcept
    {
#ifdef BOOST_THREAD_FJ_ASAN
      __sanitizer_start_switch_fiber(from ? &from->fake_stack : nullptr, bottom, size);
#else
      (void)from;
      (void)bottom;
      (void)size;
#endif
#ifdef BOOST_THREAD_FJ_TSAN
      __tsan_switch_to_fiber(tsan, 0);
#else
      (void)tsan;
#endif
    }

    // Announces that the stack `self` runs again (or for the first time).
    void arrived(stack_descriptor& self) noexcept
    {
      current_ = &self;
      running_fiber = &self == &own_ ? nullptr : &self;
#ifdef BOOST_THREAD_FJ_ASAN
      const void* old_bottom = nullptr;
      std::size_t old_size = 0;
      __sanitizer_finish_switch_fiber(self.fake_stack, &old_bottom, &old_size);
#endif
#ifdef BOOST_THREAD_FJ_TSAN
      if (dead_tsan_fiber_)
        __tsan_destroy_fiber(dead_tsan_fiber_);
#endif
      dead_tsan_fiber_ = nullptr;
    }

    // A stack a fiber ended on: the thread's spare if it has none (see above), else free.
    void recycle(boost::context::stack_context& s) noexcept
    {
      if (!reserved_.sp)
        reserved_ = s;
      else
        stacks_.give_back(s);
    }

    static constexpr std::size_t not_timed = static_cast<std::size_t>(-1);

    void append_polled(parked_frame& pf) noexcept
    {
      pf.link_ = nullptr;
      pf.polled_prev_ = polled_tail_;
      (polled_tail_ ? polled_tail_->link_ : polled_head_) = &pf;
      polled_tail_ = &pf;
      pf.in_polled_ = true;
    }

    // O(1): the polled list is doubly linked, so that a deadline takes a frame out of it.
    void unlink_polled(parked_frame& pf) noexcept
    {
      parked_frame* const next = pf.link_;
      (pf.polled_prev_ ? pf.polled_prev_->link_ : polled_head_) = next;
      (next ? next->polled_prev_ : polled_tail_) = pf.polled_prev_;
      pf.in_polled_ = false;
    }

    // The heap of timed frames (see above): timed_[0] has the earliest deadline; each frame
    // knows its index (timed_at_), so that it is taken out in O(log n) when it resumes.
    void place_timed(std::size_t i, parked_frame* pf) noexcept
    {
      timed_[i] = pf;
      pf->timed_at_ = i;
    }

    void sift_up_timed(std::size_t i) noexcept
    {
      parked_frame* const pf = timed_[i];
      while (i > 0)
      {
        const std::size_t parent = (i - 1) / 2;
        if (timed_[parent]->deadline_ <= pf->deadline_)
          break;
        place_timed(i, timed_[parent]);
        i = parent;
      }
      place_timed(i, pf);
    }

    void sift_down_timed(std::size_t i) noexcept
    {
      parked_frame* const pf = timed_[i];
      const std::size_t n = timed_.size();
      for (;;)
      {
        std::size_t child = 2 * i + 1;
        if (child >= n)
          break;
        if (child + 1 < n && timed_[child + 1]->deadline_ < timed_[child]->deadline_)
          ++child;
        if (pf->deadline_ <= timed_[child]->deadline_)
          break;
        place_timed(i, timed_[child]);
        i = child;
      }
      place_timed(i, pf);
    }

    // Requires: reserve_timed() since the last add (no allocation here).
    void add_timed(parked_frame& pf) noexcept
    {
      BOOST_THREAD_FJ_ASSERT(timed_.size() < timed_.capacity());
      timed_.push_back(&pf);
      sift_up_timed(timed_.size() - 1);
    }

    void remove_timed(parked_frame& pf) noexcept
    {
      const std::size_t i = pf.timed_at_;
      parked_frame* const last = timed_.back();
      timed_.pop_back();
      pf.timed_at_ = not_timed;
      if (i < timed_.size())
      {
        place_timed(i, last);
        sift_down_timed(i);
        sift_up_timed(last->timed_at_);
      }
    }

    // Resumes, timed_out(), every timed frame whose deadline is at or before now and that is
    // still waiting: a polled one leaves its list; a hooked one whose hook it cancels. A frame
    // already made ready (posted, polled ready, interrupted) only leaves the heap, as does a
    // hooked one whose cancel loses (its post is coming).
    void expire_timed(std::int64_t now) noexcept
    {
      while (!timed_.empty() && timed_[0]->deadline_ <= now)
      {
        parked_frame* const pf = timed_[0];
        remove_timed(*pf);
        if (pf->in_polled_)
          unlink_polled(*pf);
        else if (pf->in_hooked_ && pf->hook_->cancel())
          unlink_hooked(*pf);
        else
          continue;
        pf->timed_out_ = true;
        push_ready(pf);
      }
    }

    void unlink_hooked(parked_frame& pf) noexcept
    {
      if (pf.hooked_prev_)
        pf.hooked_prev_->hooked_next_ = pf.hooked_next_;
      else
        hooked_ = pf.hooked_next_;
      if (pf.hooked_next_)
        pf.hooked_next_->hooked_prev_ = pf.hooked_prev_;
      pf.in_hooked_ = false;
    }

    void push_ready(parked_frame* pf) noexcept
    {
      pf->link_ = nullptr;
      if (ready_tail_)
        ready_tail_->link_ = pf;
      else
        ready_head_ = pf;
      ready_tail_ = pf;
    }

    // Moves the posted frames, in post order, to the ready queue.
    void take_posted() noexcept
    {
      // A load first: this runs between every two tasks of the loop, and an exchange would
      // write the line each time. relaxed: a null seen here only delays a post to the next
      // check (has_ready() after prepare_wait() acquires before the thread sleeps).
      if (!posted_.load(std::memory_order_relaxed))
        return;
      // acquire: pairs with the release push in post(), for what the frame's task did.
      parked_frame* p = posted_.exchange(nullptr, std::memory_order_acquire);
      parked_frame* reversed = nullptr;
      while (p)
      {
        parked_frame* const next = p->link_;
        p->link_ = reversed;
        reversed = p;
        p = next;
      }
      while (reversed)
      {
        parked_frame* const next = reversed->link_;
        push_ready(reversed);
        reversed = next;
      }
    }

    // Checks up to n polled frames, oldest first: moves those whose condition holds to the
    // ready queue and the others to the back of the polled list.
    void take_polled(std::size_t n) noexcept
    {
      parked_frame* pending_head = nullptr;
      parked_frame* pending_tail = nullptr;
      for (; n != 0 && polled_head_; --n)
      {
        parked_frame* const pf = polled_head_;
        unlink_polled(*pf);
        // relaxed: a statistic with one writer (a load and a store, no read-modify-write).
        polls_.store(polls_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        bool ready;
        try
        {
          ready = pf->poll_(pf->poll_context_);
        }
        catch (...)
        {
          ready = true; // the frame re-checks, and throws, when it resumes
        }
        if (ready)
          push_ready(pf);
        else
        {
          pf->link_ = nullptr;
          (pending_tail ? pending_tail->link_ : pending_head) = pf;
          pending_tail = pf;
        }
      }
      while (pending_head)
      {
        parked_frame* const next = pending_head->link_;
        append_polled(*pending_head);
        pending_head = next;
      }
    }

    fiber_stack_cache stacks_;
    boost::context::stack_context reserved_; // sp == nullptr: none
    // Frames posted by other threads, newest first (a Treiber stack); the only shared member.
    std::atomic<parked_frame*> posted_{nullptr};
    parked_frame* ready_head_ = nullptr; // frames to resume, oldest first
    parked_frame* ready_tail_ = nullptr;
    parked_frame* polled_head_ = nullptr; // polled frames, oldest looked at first
    parked_frame* polled_tail_ = nullptr;
    parked_frame* hooked_ = nullptr;      // hooked frames not yet taken as ready
    std::vector<parked_frame*> timed_;    // timed frames, a min-heap by deadline (see above)
    std::atomic<std::uint64_t> polls_{0}; // written by the owner only
    unsigned parked_ = 0;
    boost::context::fiber idle_main_;
    stack_descriptor own_;
    stack_descriptor* current_ = &own_;
    void* dead_tsan_fiber_ = nullptr; // of the fiber that ended to resume the current stack
    const post_fn post_;
    void* const post_context_;
    bool loop_interruptible_ = true;
    this_thread::disable_interruption* enabler_ = nullptr;
    typename std::aligned_storage<sizeof(this_thread::disable_interruption), alignof(this_thread::disable_interruption)>::type
        enabler_storage_, disabler_storage_;
    typename std::aligned_storage<sizeof(this_thread::restore_interruption), alignof(this_thread::restore_interruption)>::type
        restorer_storage_;
#ifdef BOOST_THREAD_FJ_ENABLE_ASSERT
    // Assertion builds only (a user's home has no such member): the thread that entered the
    // home (enter()), the only one that may park, take or resume its frames.
    std::thread::id owner_;
    bool called_by_owner() const noexcept { return owner_ == std::this_thread::get_id(); }
#endif
  };

  inline void parked_frame::time_out_at(std::int64_t deadline)
  {
    home_.reserve_timed();
    deadline_ = deadline;
    timed_ = true;
  }

  inline void parked_frame::do_post(waker* w) noexcept
  {
    parked_frame* const pf = static_cast<parked_frame*>(w);
    fiber_home& home = pf->home_;
    home.post_(home.post_context_, home, *pf);
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
