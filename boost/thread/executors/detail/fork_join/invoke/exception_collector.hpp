// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The exceptions of one fork/join scope (a parallel_invoke, a task block, a parallel
// algorithm's call), and how a callable of such a scope is run into them.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_EXCEPTION_COLLECTOR_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_INVOKE_EXCEPTION_COLLECTOR_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/base/exception.hpp>
#include <boost/thread/executors/detail/fork_join/tasks/cancel_region.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/thread/experimental/exception_list.hpp>
#include <boost/throw_exception.hpp>

#include <functional>
#include <memory>
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
    // Inlined: every child of a fork/join scope passes its exception here, nearly always null.
    BOOST_FORCEINLINE void add(const boost::exception_ptr& e) noexcept
    {
      if (BOOST_UNLIKELY(static_cast<bool>(e)))
        record(e);
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
    // Effects: add(e) for a non-null e.
    BOOST_NOINLINE void record(const boost::exception_ptr& e) noexcept
    {
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

    std::unique_ptr<experimental::parallel::exception_list> list_;
    boost::exception_ptr lost_; // a std::bad_alloc, if an exception could not be recorded
    bool interrupted_ = false;
  };

  // Effects: calls f(), recording its exception, if any, in errors.
  template <class F>
  void invoke_collecting(F& f, exception_collector& errors) noexcept
  {
    run_capturing(
        [&f] { std::invoke(f); }, [&errors]() noexcept { errors.interrupted(); },
        [&errors](const boost::exception_ptr& e) noexcept { errors.add(e); });
  }

  // Requires: called inside a catch block.
  // Returns: whether the exception being handled is a task_canceled_exception and `region` is
  // canceled. Rethrows it to tell, only if the region is canceled.
  inline bool is_consequence_of(const cancel_region& region) noexcept
  {
    if (!region.canceled())
      return false;
    try
    {
      throw;
    }
    catch (const executors::task_canceled_exception&)
    {
      return true;
    }
    catch (...)
    {
      return false;
    }
  }

  // Effects: as run_capturing(run, interrupted, failed) (exception.hpp), but for a
  // task_canceled_exception that run() throws while `region` is canceled: that one is a
  // consequence of the cancellation (a block or algorithm in run() that the cancellation
  // stopped), whose cause is reported already or is a cancel(); it is reported to neither
  // callback. One thrown while the region is not canceled is a failure like any other.
  // Returns: whether run() returned normally. Throws: as run_capturing.
  template <class Run, class Interrupted, class Failed>
  BOOST_FORCEINLINE bool run_capturing_causes(const cancel_region& region, Run&& run, Interrupted&& interrupted,
                                              Failed&& failed)
      noexcept(noexcept(interrupted()) && noexcept(failed(boost::exception_ptr())))
  {
    // Told apart in the handler of any other exception, where it costs no code on the path
    // without an exception (a catch clause of its own changed the caller's code).
    return run_capturing(run, interrupted, failed, [&region]() noexcept { return is_consequence_of(region); });
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
