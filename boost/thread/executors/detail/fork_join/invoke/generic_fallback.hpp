// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_invoke and task blocks on any other executor than a fork_join_thread_pool: the
// children are closures submitted to the executor.
//
// Whoever claims a child first runs it: the thread of the executor that runs the closure, or
// the caller once it waits (parallel_invoke once f1 has returned, a block's owner when it
// joins). So the caller never waits for a child that is still queued, only for children that
// other threads are running, which finish without its help: its wait may block, and the help
// it gives meanwhile (running queued closures, which profits a thread pool) can be bounded
// (help_bounded). Unbounded help overflows the stack: each wait nested one more closure on the
// waiting thread, and fib(25) on a basic_thread_pool overflowed an 8 MiB stack.
// The claims live in a block shared with the closures, since a closure may run after the
// caller has left (it then finds its child claimed and does nothing); a closure touches the
// caller's frame only after it has won the claim.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_GENERIC_FALLBACK_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_GENERIC_FALLBACK_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/fibers/parking.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/condition_variable.hpp>
#include <boost/thread/lock_guard.hpp>
#include <boost/thread/mutex.hpp>
#include <boost/thread/thread_only.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace boost {
namespace detail {
namespace fork_join {

  template <class Ex, class = void>
  struct has_try_executing_one : std::false_type
  {
  };
  template <class Ex>
  struct has_try_executing_one<Ex, std::void_t<decltype(std::declval<Ex&>().try_executing_one())> >
      : std::true_type
  {
  };

  // How many bounded help loops (help_bounded) the calling thread is nested in; each runs at
  // most one more level of closures on its stack.
  inline unsigned& generic_help_depth() noexcept
  {
    static thread_local unsigned depth = 0;
    return depth;
  }
  const unsigned generic_help_depth_limit = 8;

  // Effects: calls try_one() (run one queued closure of an executor; false if there was none)
  // until done() or try_one() returns false; does nothing if the calling thread is already
  // nested generic_help_depth_limit deep in such loops, so a thread's stack holds at most that
  // many levels of helped closures.
  // Throws: what try_one throws.
  template <class TryOne, class Done>
  void help_bounded(TryOne try_one, Done done)
  {
    struct nesting
    {
      explicit nesting(unsigned& d) noexcept : depth(d) { ++depth; }
      ~nesting() { --depth; }
      unsigned& depth;
    };
    unsigned& depth = generic_help_depth();
    if (depth >= generic_help_depth_limit)
      return;
    nesting level(depth);
    while (!done() && try_one())
    {
    }
  }

  // parallel_invoke: children are closures that report to a latch in the caller's frame.
  class generic_latch
  {
  public:
    // `errors` is written under the latch's mutex until wait() has returned.
    generic_latch(std::size_t n, exception_collector& errors) : pending_(n), errors_(errors) {}

    void count_down(const boost::exception_ptr& e, bool interrupted)
    {
      lock_guard<mutex> lk(mtx_);
      BOOST_THREAD_FJ_ASSERT(pending_ != 0); // one count_down per child
      errors_.add(e);
      if (interrupted)
        errors_.interrupted();
      if (--pending_ == 0)
        cv_.notify_all();
    }

    bool try_wait()
    {
      lock_guard<mutex> lk(mtx_);
      return pending_ == 0;
    }

    void wait()
    {
      unique_lock<mutex> lk(mtx_);
      while (pending_ != 0)
        cv_.wait(lk);
    }

  private:
    mutex mtx_;
    condition_variable cv_;
    std::size_t pending_;
    exception_collector& errors_;
  };

  // The claims of a parallel_invoke's children, shared with their closures.
  template <std::size_t N>
  struct generic_claims
  {
    generic_claims() noexcept
    {
      for (std::atomic<bool>& c : claimed)
        c.store(false, std::memory_order_relaxed); // before the block is shared
    }

    // Returns: whether this claimant won child k. relaxed: exchanges on one flag are totally
    // ordered, so exactly one claimant wins; the child's inputs reach a closure through the
    // executor's queue, its results reach the caller through the latch's mutex.
    bool claim(std::size_t k) noexcept { return !claimed[k].exchange(true, std::memory_order_relaxed); }

    std::atomic<bool> claimed[N];
  };

  // Effects: runs f and counts the latch down with its outcome.
  template <class F>
  void run_and_count_down(F& f, generic_latch& latch) noexcept
  {
    boost::exception_ptr e;
    bool interrupted = false;
    run_capturing(
        [&f] { std::invoke(f); }, [&interrupted]() noexcept { interrupted = true; },
        [&e](boost::exception_ptr x) noexcept { e = std::move(x); });
    latch.count_down(e, interrupted);
  }

  template <class Executor, class F, std::size_t N>
  void submit_claimable(Executor& ex, const std::shared_ptr<generic_claims<N> >& claims, std::size_t k,
                        generic_latch& latch, F& f)
  {
    generic_latch* const l = &latch;
    F* const child = &f;
    try
    {
      ex.submit([claims, k, l, child] {
        if (claims->claim(k))
          run_and_count_down(*child, *l);
      });
    }
    catch (...)
    {
      // refused (closed, out of memory): the child stays unclaimed and the caller runs it
    }
  }

  template <class F, std::size_t N>
  void claim_and_run(generic_claims<N>& claims, std::size_t k, generic_latch& latch, F& f) noexcept
  {
    if (claims.claim(k))
      run_and_count_down(f, latch);
  }

  template <class Executor, class First, class... Children, std::size_t... K>
  void invoke_generic(Executor& ex, exception_collector& errors, std::index_sequence<K...>, First& first,
                      Children&... children)
  {
    constexpr std::size_t n = sizeof...(Children);
    generic_latch latch(n, errors);
    const std::shared_ptr<generic_claims<n> > claims = std::make_shared<generic_claims<n> >();
    (submit_claimable(ex, claims, K, latch, children), ...);
    exception_collector first_errors;
    invoke_collecting(first, first_errors);
    {
      this_thread::disable_interruption no_interruption; // claimed closures refer to this frame
      (claim_and_run(*claims, K, latch, children), ...);
      if constexpr (has_try_executing_one<Executor>::value)
      {
        try
        {
          help_bounded([&ex] { return ex.try_executing_one(); }, [&latch] { return latch.try_wait(); });
        }
        catch (...)
        {
          latch.wait(); // claimed closures refer to this frame
          throw;
        }
      }
      latch.wait();
    }
    errors.absorb(first_errors);
  }

  // Effects: parallel_invoke(ex, first, children...) on an executor other than our pool,
  // recording the exceptions in errors.
  template <class Executor, class First, class... Children>
  void invoke_generic(Executor& ex, exception_collector& errors, First& first, Children&... children)
  {
    invoke_generic(ex, errors, std::index_sequence_for<Children...>(), first, children...);
  }

  // A child of a task block on another executor. The closure submitted to the executor and the
  // block's list of children share it; a closure that runs after the block has ended finds its
  // child claimed and does nothing; only the claimant touches the block.
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

  // The children of a task block on another executor (block_state.hpp), and the mutex under
  // which they report to the block: the block's exception_collector and cancellation region
  // are the block's, passed in. `owner` is the block's owner stack (current_stack_id()).
  class generic_children
  {
  public:
    // Effects: submits a copy of g (of type Fn) to ex as a child of the block; runs it here if
    // ex refuses it. Throws: what copying g throws; std::bad_alloc.
    template <class Fn, class G>
    void run(G&& g, const generic_executor& ex, cancel_region& region, const void* owner, exception_collector& errors)
    {
      struct child final : generic_child
      {
        child(G&& h, generic_children& c, cancel_region& r, const void* o, exception_collector& e)
            : fn(std::in_place, std::forward<G>(h)), children(c), region(r), owner(o), errors(e)
        {
        }
        void execute() noexcept override
        {
          boost::exception_ptr error;
          bool interrupted = false;
          if (!region.canceled()) // a hint, see block_child_impl
          {
            const running_here mark(children, owner);
            // As in block_child_impl: a consequence of the cancellation is not collected.
            run_capturing_causes(
                region,
                [this] {
                  const region_proxy in(region);
                  std::invoke(*fn);
                },
                [&interrupted]() noexcept { interrupted = true; },
                [&error](boost::exception_ptr e) noexcept { error = std::move(e); });
          }
          fn.reset(); // the function object may refer to the block's frame: gone before it ends
          children.done(error, interrupted, region, errors);
        }
        std::optional<Fn> fn;
        generic_children& children;
        cancel_region& region;
        const void* const owner;
        exception_collector& errors;
      };
      const std::shared_ptr<child> c = std::make_shared<child>(std::forward<G>(g), *this, region, owner, errors);
      const bool on_owner = current_stack_id() == owner;
      {
        lock_guard<mutex> lk(mtx_);
        unclaimed_.push_back(c);
        ++pending_;
      }
      if (!on_owner)
        cv_.notify_all(); // an owner blocked in join() runs it if no thread of the executor does
      try
      {
        ex.submit(ex.ex, c);
      }
      catch (...)
      {
        // refused (closed, out of memory): run it here; nothing is lost
        if (c->claim())
          c->execute();
      }
    }

    // Requires: called on the owner's thread.
    // Effects: joins every child but those running on the owner's stack, running the
    // unclaimed ones here and helping ex (help_bounded) before it blocks.
    // Out of line: inlined, its registers cost the join of every block on our pool a push and
    // a pop (block_state::join_all).
    BOOST_NOINLINE void join(const generic_executor& ex) noexcept
    {
      this_thread::disable_interruption no_interruption; // children refer to this frame
      run_unclaimed();
      if (ex.try_executing_one)
        help_bounded([&ex] { return ex.try_executing_one(ex.ex); }, [this] { return idle(); });
      // Block only while every unfinished child is claimed; children that other threads run
      // may add children (run() from a non-owner notifies), which are claimed here.
      unique_lock<mutex> lk(mtx_);
      while (pending_ != here_)
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

    // Effects: records e, if not null, and an interruption, if interrupted, in errors, under
    // the mutex of the children's reports. Throws: lock_error.
    void record(exception_collector& errors, const boost::exception_ptr& e, bool interrupted)
    {
      lock_guard<mutex> lk(mtx_);
      errors.add(e);
      if (interrupted)
        errors.interrupted();
    }

  private:
    // Counts a child as running on the owner's stack while it runs there, so that a wait()
    // nested in it does not wait for it (nor for the children it runs in).
    class running_here
    {
    public:
      running_here(generic_children& c, const void* owner) noexcept
          : children_(current_stack_id() == owner ? &c : nullptr)
      {
        if (children_)
        {
          lock_guard<mutex> lk(children_->mtx_);
          ++children_->here_;
        }
      }
      ~running_here()
      {
        if (children_)
        {
          lock_guard<mutex> lk(children_->mtx_);
          BOOST_THREAD_FJ_ASSERT(children_->here_ != 0);
          --children_->here_;
        }
      }
      running_here(const running_here&) = delete;
      running_here& operator=(const running_here&) = delete;

    private:
      generic_children* const children_;
    };

    void done(const boost::exception_ptr& error, bool interrupted, cancel_region& region, exception_collector& errors)
    {
      lock_guard<mutex> lk(mtx_);
      BOOST_THREAD_FJ_ASSERT(pending_ > here_); // the reporting child is pending and not counted here
      if (interrupted)
        errors.interrupted();
      if (error)
      {
        region.cancel();
        errors.add(error);
      }
      if (--pending_ == here_) // 0, unless a wait() nested in a child of the owner waits
        cv_.notify_all();
    }

    // Effects: runs, on the calling thread, every child in unclaimed_ that nobody has claimed,
    // until the list stays empty.
    void run_unclaimed() noexcept
    {
      for (;;)
      {
        std::vector<std::shared_ptr<generic_child> > taken;
        {
          lock_guard<mutex> lk(mtx_);
          if (unclaimed_.empty())
            return;
          taken.swap(unclaimed_);
        }
        for (const std::shared_ptr<generic_child>& c : taken)
          if (c->claim())
            c->execute();
      }
    }

    bool idle()
    {
      lock_guard<mutex> lk(mtx_);
      return pending_ == here_;
    }

    mutex mtx_;                                 // the children and the block's errors from them
    condition_variable cv_;
    std::size_t pending_ = 0;                   // children not finished, under mtx_
    std::size_t here_ = 0;                      // of them, running on the owner's stack, under mtx_
    // Children that may still be unclaimed, under mtx_.
    std::vector<std::shared_ptr<generic_child> > unclaimed_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
