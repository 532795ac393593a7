// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_invoke(ex, f1, f2, ...): the lightest fork/join path of this library.
//
//   #include <boost/thread/executors/parallel_invoke.hpp>
//   boost::executors::parallel_invoke(pool, [&] { a = fib(n - 1); }, [&] { b = fib(n - 2); });
//
// On a fork_join_thread_pool the children live in the caller's stack frame (no allocation, no
// future, no shared state): f2..fn are pushed to the calling worker's deque, f1 runs inline,
// and each child nobody stole is popped back and run inline too; a stolen one is waited for
// by helping (detail/fork_join/invoke/stack_task.hpp). On any other Boost executor the children are
// submitted as closures; once f1 has returned the caller runs each child no thread of the
// executor has started, then waits for the others, running queued closures of the executor
// meanwhile (try_executing_one, nested at most 8 deep on one thread), else blocking.

#ifndef BOOST_THREAD_EXECUTORS_PARALLEL_INVOKE_HPP
#define BOOST_THREAD_EXECUTORS_PARALLEL_INVOKE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/base/executor_traits.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/stack_task.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/condition_variable.hpp>
#include <boost/thread/experimental/exception_list.hpp>
#include <boost/thread/mutex.hpp>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // The exceptions of one fork/join scope; allocates only when there is one. An interruption
  // (boost::thread_interrupted) is not listed: it is rethrown as itself, so that a pool's
  // interrupt() still stops a worker inside a fork/join scope instead of reaching it as an
  // exception_list (which would end the worker's closure with std::terminate).
  //
  // Recording never fails, so a join never needs memory to make progress: when the list cannot
  // grow, the collector keeps, in a member that needs no memory, a std::bad_alloc in place of
  // what it could not record (a boost::exception_ptr; boost::current_exception() falls back to
  // a preallocated one). rethrow() then reports that std::bad_alloc as one more element of the
  // exception_list, or, when even the list cannot be made, throws it alone: the fact that
  // something failed is never lost.
  class exception_collector
  {
  public:
    void interrupted() noexcept { interrupted_ = true; }

    // Effects: records e, if not null; out of memory, records a std::bad_alloc instead.
    void add(const boost::exception_ptr& e) noexcept
    {
      if (!e)
        return;
      try
      {
        if (!list_)
          list_.reset(new experimental::parallel::exception_list);
        list_->add(e);
      }
      catch (...)
      {
        if (!lost_)
          lost_ = boost::current_exception(); // the std::bad_alloc; never throws
      }
    }

    // Effects: moves every exception of `other` into this collector.
    void absorb(exception_collector& other) noexcept
    {
      interrupted_ = interrupted_ || other.interrupted_;
      if (other.lost_ && !lost_)
        lost_ = other.lost_;
      if (!other.list_)
        return;
      if (!list_)
      {
        list_ = std::move(other.list_);
        return;
      }
      for (const boost::exception_ptr& e : *other.list_)
        add(e);
      other.list_.reset();
    }

    // Throws: as throw_recorded(), if anything was recorded.
    void rethrow()
    {
      if (interrupted_ || lost_ || list_)
        throw_recorded();
    }

    // Requires: something was recorded.
    // Throws: boost::thread_interrupted if an interruption was recorded; else the
    // exception_list of every exception recorded, with a std::bad_alloc for those that could
    // not be; std::bad_alloc alone if memory runs out while making that list.
    [[noreturn]] void throw_recorded()
    {
      if (interrupted_)
        throw thread_interrupted(); // not a std::exception: boost::throw_exception refuses it
      if (lost_)
      {
        try
        {
          if (!list_)
            list_.reset(new experimental::parallel::exception_list);
          list_->add(lost_);
        }
        catch (...)
        {
          boost::rethrow_exception(lost_);
        }
        lost_ = boost::exception_ptr();
      }
      boost::throw_exception(*list_); // copies the list: may throw std::bad_alloc instead
    }

  private:
    std::unique_ptr<experimental::parallel::exception_list> list_;
    boost::exception_ptr lost_; // a std::bad_alloc, if an exception could not be recorded
    bool interrupted_ = false;
  };

  template <class F>
  void invoke_collecting(F& f, exception_collector& errors) noexcept
  {
    try
    {
      std::invoke(f);
    }
    catch (const thread_interrupted&)
    {
      errors.interrupted();
    }
    catch (...)
    {
      errors.add(current_exception_lossless());
    }
  }

  // On our pool: queues `child` as a stack task, recurses into the rest (the last level runs
  // `first` inline), then joins `child`. Every child is joined before this frame ends.
  template <class First>
  void fork_all(pool_core&, exception_collector& errors, First& first) noexcept
  {
    invoke_collecting(first, errors);
  }

  template <class First, class Child, class... Rest>
  void fork_all(pool_core& core, exception_collector& errors, First& first, Child& child, Rest&... rest) noexcept
  {
    stack_task_impl<Child> t(child);
    bool queued = false;
    try
    {
      queued = spawn(core, t);
    }
    catch (...)
    {
      // Out of memory growing a queue: nothing was queued, the child runs inline below.
    }
    fork_all(core, errors, first, rest...);
    if (queued)
      join(core, t);
    else
      t.invoke();
    errors.add(t.error());
    if (t.interrupted())
      errors.interrupted();
  }

  template <class Ex, class = void>
  struct has_try_executing_one : std::false_type
  {
  };
  template <class Ex>
  struct has_try_executing_one<Ex, std::void_t<decltype(std::declval<Ex&>().try_executing_one())> >
      : std::true_type
  {
  };

  // On any other executor: children are closures that report to a latch in this frame.
  class generic_latch
  {
  public:
    // `errors` is written under the latch's mutex until wait() has returned.
    generic_latch(std::size_t n, exception_collector& errors) : pending_(n), errors_(errors) {}

    void count_down(const boost::exception_ptr& e, bool interrupted)
    {
      lock_guard<mutex> lk(mtx_);
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

  // On any other executor each child is submitted as a closure, and whoever claims it first
  // runs it: the thread of the executor that runs the closure, or the caller once f1 has
  // returned. So the caller never waits for a child that is still queued, only for children
  // that other threads are running, which finish without its help: its wait may block, and the
  // help it gives meanwhile (running queued closures, which profits a thread pool) can be
  // bounded. Unbounded help overflows the stack: each wait nested one more closure on the
  // waiting thread, and fib(25) on a basic_thread_pool overflowed an 8 MiB stack.
  // The claims live in a block shared with the closures, since a closure may run after the
  // caller has left (it then finds its child claimed and does nothing); a closure touches the
  // caller's frame (the child, the latch) only after it has won the claim.
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
    try
    {
      std::invoke(f);
    }
    catch (const thread_interrupted&)
    {
      interrupted = true;
    }
    catch (...)
    {
      e = current_exception_lossless();
    }
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

  template <class Executor, class First, class... Children>
  void invoke_generic(Executor& ex, exception_collector& errors, First& first, Children&... children)
  {
    invoke_generic(ex, errors, std::index_sequence_for<Children...>(), first, children...);
  }

} // namespace fork_join
} // namespace detail

namespace executors {

  // Requires: each fi is callable with no arguments; ex is a fork_join_thread_pool or any
  // executor with submit(Closure) (basic_thread_pool, loop_executor, executor&, ...).
  // Effects: calls f1(), ..., fn() and returns when all of them have returned. f1 runs on the
  // calling thread; f2..fn may run on the executor's threads, in any order and in parallel.
  // On a fork_join_thread_pool: the children need no allocation; a child nobody took runs on
  // the calling thread; a worker (or any thread) waiting for a stolen child runs queued tasks
  // meanwhile (helps), so nesting parallel_invoke in children never deadlocks; a thread that
  // is not a worker only helps while its stack has room (detail/fork_join/primitives/stack_bounds.hpp).
  // On a closed pool, or when a child cannot be queued, that child runs on the calling thread.
  // Synchronization: the completion of every fi happens before parallel_invoke returns.
  // Throws: experimental::parallel::exception_list holding every exception the fi threw, after
  // all of them have finished (the callables are never abandoned); boost::thread_interrupted
  // instead if one of them threw that. Waiting needs no memory: if memory runs out while an
  // exception is recorded, the list holds a std::bad_alloc in its place, and if it runs out
  // while the list itself is made, std::bad_alloc is thrown instead of the list.
  // Progress: on a fork_join_thread_pool, a thread waiting in parallel_invoke cannot be
  // interrupted (boost::thread interruption is deferred until it returns), since the children
  // refer to its frame.
  template <class Executor, class F1, class... Fs>
  typename std::enable_if<detail::fork_join::is_executor<Executor>::value>::type
  parallel_invoke(Executor& ex, F1&& f1, Fs&&... fs)
  {
    detail::fork_join::exception_collector errors;
    if constexpr (std::is_same<Executor, fork_join_thread_pool>::value)
      detail::fork_join::fork_all(*detail::fork_join::core_of(ex), errors, f1, fs...);
    else
      detail::fork_join::invoke_generic(ex, errors, f1, fs...);
    errors.rethrow();
  }

  // Requires: each fi is callable with no arguments; F1 is not an executor.
  // Effects: parallel_invoke(current_fork_join_pool(), f1, fs...): on the pool whose task the
  // calling thread runs, or on the default pool outside every pool.
  // Synchronization, Throws, Progress: as above; also what default_fork_join_pool() throws.
  template <class F1, class... Fs>
  typename std::enable_if<!detail::fork_join::is_executor<typename std::remove_reference<F1>::type>::value>::type
  parallel_invoke(F1&& f1, Fs&&... fs)
  {
    parallel_invoke(current_fork_join_pool(), std::forward<F1>(f1), std::forward<Fs>(fs)...);
  }

} // namespace executors

using executors::parallel_invoke;

} // namespace boost

#endif // header
