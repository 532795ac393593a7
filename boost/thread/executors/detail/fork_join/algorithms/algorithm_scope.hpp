// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The exceptions and the cancellation flag of one call of a parallel algorithm.
//
// Threading contract
//  - One algorithm_scope lives in the frame of the algorithm's caller; every chunk of the
//    algorithm, on whatever thread, calls run() and cancelled() concurrently.
//  - errors_ is written under mtx_ by run() and read by rethrow() only after every chunk has
//    finished (the algorithm's last parallel_invoke has returned: its joins order every chunk
//    before that point).
//  - cancelled_ is a hint: set after the first exception, read before each chunk or split. A
//    chunk that misses it runs when it could have been skipped, which costs time, not
//    correctness: the exceptions themselves go through the mutex.
//  - The call is a cancellation region (cancel_region.hpp) whose flag is cancelled()'s and whose
//    parent is the region the algorithm was called in: chunks and splits are also skipped once
//    that region is canceled (an enclosing task block, a cancellation_source's fork, an
//    enclosing algorithm's call), and each chunk runs in the call's region, so that the blocks
//    and algorithms it starts stop as well. The region is current on the calling thread for the
//    scope's lifetime, where the chunks and splits that nobody took run inline; the child that
//    a split queues is an algorithm_child, which makes it current where it is taken. A call
//    that ends in a canceled enclosing region throws task_canceled_exception (rethrow()), since
//    it may have skipped work: it never returns a partial result as if it were whole. A region
//    is never uncanceled, so a chunk skipped or cut short always ends in a throw.
//
// Why one collector per call rather than parallel_invoke's own exception_list per split: the
// recursion of an algorithm nests parallel_invoke log2(chunks) deep, and letting each level
// throw would wrap the user's exceptions in lists of lists. Every callable the algorithms
// hand to parallel_invoke catches everything, so the user gets one flat exception_list.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHMS_ALGORITHM_SCOPE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHMS_ALGORITHM_SCOPE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/throw_exception.hpp>

#include <atomic>
#include <mutex>
#include <type_traits>

namespace boost {
namespace detail {
namespace fork_join {

  class algorithm_scope
  {
  public:
    // Effects: a scope whose region is nested in the calling code's, and current on the
    // calling stack until the scope ends.
    algorithm_scope() noexcept = default;
    algorithm_scope(const algorithm_scope&) = delete;
    algorithm_scope& operator=(const algorithm_scope&) = delete;

    // Requires: the scope's region is current (called in the code of the call, or of an
    // algorithm_child of it).
    // Effects: calls g(); if it throws, records the exception and cancels the scope. An
    // interruption (boost::thread_interrupted) is recorded apart, as parallel_invoke does, so
    // that rethrow() throws it as itself and a pool's interrupt() still stops the worker. A
    // task_canceled_exception thrown while the region is canceled (a block or algorithm in g
    // that the cancellation stopped) is its consequence, not recorded.
    // Returns: whether g() returned normally.
    // Throws: nothing; running out of memory while recording an exception records a
    // std::bad_alloc in its place (exception_collector.hpp).
    template <class G>
    bool run(G&& g) noexcept
    {
      // A consequence of the cancellation returns false unrecorded: rethrow() throws, as an
      // error was recorded or the enclosing region is canceled.
      return run_capturing_causes(
          region_, g, [this]() noexcept { fail(boost::exception_ptr(), true); },
          [this](boost::exception_ptr e) noexcept { fail(e, false); });
    }

    // Returns: whether some chunk has thrown or an enclosing region is canceled; chunks and
    // splits not yet started are skipped.
    bool cancelled() const noexcept
    {
      // A hint; a miss runs a chunk that could have been skipped (see above).
      return region_.canceled();
    }

    // Returns: the scope's region (algorithm_child).
    const cancel_region& region() const noexcept { return region_; }

    // Requires: every chunk has finished. Throws: boost::thread_interrupted if a chunk threw
    // it, else experimental::parallel::exception_list holding every exception recorded, if
    // there is one, else task_canceled_exception if an enclosing region is canceled.
    void rethrow()
    {
      errors_.rethrow();
      if (region_.outer_canceled())
        throw_canceled();
    }

    // Requires: called in a handler, after every chunk has finished.
    // Effects: records the exception being handled, as run() does.
    // Throws: as rethrow(), which now has something to throw.
    [[noreturn]] void rethrow_with_current()
    {
      run_capturing([] { throw; }, [this]() noexcept { fail(boost::exception_ptr(), true); },
                    [this](boost::exception_ptr e) noexcept { fail(e, false); });
      errors_.throw_recorded();
    }

  private:
    void fail(const boost::exception_ptr& e, bool interrupted) noexcept
    {
      {
        std::lock_guard<std::mutex> lk(mtx_);
        errors_.add(e);
        if (interrupted)
          errors_.interrupted();
      }
      // A hint (see cancelled()); the exception itself is published by mtx_. Through the
      // region, which the regions nested in the chunks' blocks and algorithms need to see it.
      region_.cancel();
    }

    nested_region region_; // current while the scope lives
    std::mutex mtx_;
    exception_collector errors_;
  };

  // The child that a split of an algorithm queues with parallel_invoke (the other half runs
  // inline): Derived, with algorithm() (its algorithm_scope) and call(), which runs in the
  // scope's region wherever it runs. On a fork_join_thread_pool, run inline (nobody took it)
  // it runs in the split's code, where the region is current already, and taken from a queue it
  // makes it current (run_in_own_region, stack_task.hpp); on other executors every run makes it
  // current. A struct of the split's arguments rather than a wrapper around a lambda: it costs
  // a split only the stores the lambda's captures did.
  template <class Derived, class Executor>
  class algorithm_child
  {
  public:
    void operator()()
    {
      if constexpr (std::is_same<Executor, executors::fork_join_thread_pool>::value)
        static_cast<Derived*>(this)->call();
      else
        run_in_own_region();
    }

    void run_in_own_region()
    {
      Derived& self = *static_cast<Derived*>(this);
      const region_proxy in(self.algorithm().region());
      self.call();
    }
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
