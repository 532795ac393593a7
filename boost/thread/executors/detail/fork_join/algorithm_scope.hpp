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
//
// Why one collector per call rather than parallel_invoke's own exception_list per split: the
// recursion of an algorithm nests parallel_invoke log2(chunks) deep, and letting each level
// throw would wrap the user's exceptions in lists of lists. Every callable the algorithms
// hand to parallel_invoke catches everything, so the user gets one flat exception_list.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHM_SCOPE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHM_SCOPE_HPP

#include <boost/thread/executors/detail/fork_join/config.hpp>
#include <boost/thread/executors/detail/fork_join/exception.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/exceptions.hpp>

#include <atomic>
#include <mutex>

namespace boost {
namespace detail {
namespace fork_join {

  class algorithm_scope
  {
  public:
    algorithm_scope() = default;
    algorithm_scope(const algorithm_scope&) = delete;
    algorithm_scope& operator=(const algorithm_scope&) = delete;

    // Effects: calls g(); if it throws, records the exception and cancels the scope. An
    // interruption (boost::thread_interrupted) is recorded apart, as parallel_invoke does, so
    // that rethrow() throws it as itself and a pool's interrupt() still stops the worker.
    // Returns: whether g() returned normally.
    // Throws: nothing; running out of memory while recording an exception records a
    // std::bad_alloc in its place (exception_collector in parallel_invoke.hpp).
    template <class G>
    bool run(G&& g) noexcept
    {
      try
      {
        g();
        return true;
      }
      catch (const thread_interrupted&)
      {
        fail(boost::exception_ptr(), true);
        return false;
      }
      catch (...)
      {
        fail(current_exception_lossless(), false);
        return false;
      }
    }

    // Returns: whether some chunk has thrown; chunks and splits not yet started are skipped.
    bool cancelled() const noexcept
    {
      // relaxed: a hint; a miss runs a chunk that could have been skipped (see above).
      return cancelled_.load(std::memory_order_relaxed);
    }

    // Requires: every chunk has finished. Throws: boost::thread_interrupted if a chunk threw
    // it, else experimental::parallel::exception_list holding every exception recorded, if
    // there is one.
    void rethrow() { errors_.rethrow(); }

    // Requires: called in a handler, after every chunk has finished.
    // Effects: records the exception being handled, as run() does.
    // Throws: as rethrow(), which now has something to throw.
    [[noreturn]] void rethrow_with_current()
    {
      try
      {
        throw;
      }
      catch (const thread_interrupted&)
      {
        fail(boost::exception_ptr(), true);
      }
      catch (...)
      {
        fail(current_exception_lossless(), false);
      }
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
      // relaxed: a hint (see cancelled()); the exception itself is published by mtx_.
      cancelled_.store(true, std::memory_order_relaxed);
    }

    std::atomic<bool> cancelled_{false};
    std::mutex mtx_;
    exception_collector errors_;
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
