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
// by helping (detail/fork_join/stack_task.hpp). On any other Boost executor the children are
// submitted as closures and the caller waits, running queued closures of the executor while
// there are any (try_executing_one), else blocking.

#ifndef BOOST_THREAD_EXECUTORS_PARALLEL_INVOKE_HPP
#define BOOST_THREAD_EXECUTORS_PARALLEL_INVOKE_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/exception.hpp>
#include <boost/thread/executors/detail/fork_join/stack_task.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>
#include <boost/thread/condition_variable.hpp>
#include <boost/thread/experimental/exception_list.hpp>
#include <boost/thread/mutex.hpp>

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
  class exception_collector
  {
  public:
    void interrupted() noexcept { interrupted_ = true; }

    void add(const boost::exception_ptr& e)
    {
      if (!e)
        return;
      if (!list_)
        list_.reset(new experimental::parallel::exception_list);
      list_->add(e);
    }

    // Effects: moves every exception of `other` into this collector.
    void absorb(exception_collector& other)
    {
      interrupted_ = interrupted_ || other.interrupted_;
      if (!other.list_)
        return;
      if (!list_)
      {
        list_ = std::move(other.list_);
        return;
      }
      for (const boost::exception_ptr& e : *other.list_)
        list_->add(e);
      other.list_.reset();
    }

    // Throws: the exception_list, if any exception was added.
    void rethrow()
    {
      if (interrupted_)
        throw thread_interrupted(); // not a std::exception: boost::throw_exception refuses it
      if (list_)
        boost::throw_exception(*list_);
    }

  private:
    std::unique_ptr<experimental::parallel::exception_list> list_;
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
    stack_task_impl<Child> t(child, core.parking());
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

  template <class Executor, class F>
  void submit_or_run(Executor& ex, generic_latch& latch, F& f)
  {
    auto body = [&latch, &f] {
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
    };
    try
    {
      ex.submit(body);
    }
    catch (...)
    {
      body(); // refused (closed, out of memory): run it here; nothing is lost
    }
  }

  template <class Executor, class First, class... Children>
  void invoke_generic(Executor& ex, exception_collector& errors, First& first, Children&... children)
  {
    generic_latch latch(sizeof...(Children), errors);
    (submit_or_run(ex, latch, children), ...);
    exception_collector first_errors;
    invoke_collecting(first, first_errors);
    {
      this_thread::disable_interruption no_interruption; // the closures refer to this frame
      if constexpr (has_try_executing_one<Executor>::value)
      {
        while (!latch.try_wait() && ex.try_executing_one())
        {
        }
      }
      latch.wait();
    }
    errors.absorb(first_errors);
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
  // is not a worker only helps while its stack has room (detail/fork_join/stack_bounds.hpp).
  // On a closed pool, or when a child cannot be queued, that child runs on the calling thread.
  // Synchronization: the completion of every fi happens before parallel_invoke returns.
  // Throws: experimental::parallel::exception_list holding every exception the fi threw, after
  // all of them have finished (the callables are never abandoned); boost::thread_interrupted
  // instead if one of them threw that.
  // Progress: on a fork_join_thread_pool, a thread waiting in parallel_invoke cannot be
  // interrupted (boost::thread interruption is deferred until it returns), since the children
  // refer to its frame.
  template <class Executor, class F1, class... Fs>
  void parallel_invoke(Executor& ex, F1&& f1, Fs&&... fs)
  {
    detail::fork_join::exception_collector errors;
    if constexpr (std::is_same<Executor, fork_join_thread_pool>::value)
      detail::fork_join::fork_all(*detail::fork_join::core_of(ex), errors, f1, fs...);
    else
      detail::fork_join::invoke_generic(ex, errors, f1, fs...);
    errors.rethrow();
  }

} // namespace executors

using executors::parallel_invoke;

} // namespace boost

#endif // header
