// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Capturing the current exception for a boost::promise without slicing it.
//
// boost::current_exception() tries `catch (std::runtime_error&)` and the other standard bases
// before it falls back to std::current_exception(), so up to Boost 1.81 an exception of a user
// type derived from std::runtime_error comes out of future::get() as a plain std::runtime_error
// copy (from 1.82 Boost.Exception keeps the type). fork() promises the caller its own
// exception back on every Boost, so it wraps std::current_exception() itself, and
// boost::rethrow_exception unwraps it with std::rethrow_exception: lossless.
//
// From Boost 1.78 boost::exception_ptr has a public constructor from std::exception_ptr that
// does exactly this wrapping; it is used there. Before 1.78 the same wrapping is done with the
// Boost.Exception internals that constructor uses (exception_detail::std_exception_ptr_wrapper,
// unchanged from 1.74 to 1.77, which are all the versions that take this branch).
//
// run_capturing: how every fork/join scope runs a callable whose exception it reports to a
// joiner (stack tasks, parallel_invoke, task blocks, the parallel algorithms).

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_EXCEPTION_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_BASE_EXCEPTION_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/exception_ptr.hpp>
#include <boost/thread/exceptions.hpp>
#include <boost/version.hpp>

#include <exception>

#ifdef BOOST_NO_CXX11_HDR_EXCEPTION
#error "Boost.Thread fork/join executor: a standard library with <exception> (std::exception_ptr) is required."
#endif

namespace boost {
namespace detail {
namespace fork_join {

  // Requires: called inside a catch block.
  // Returns: a boost::exception_ptr whose rethrow throws the very exception being handled.
  inline boost::exception_ptr current_exception_lossless() noexcept
  {
    try
    {
#if BOOST_VERSION >= 107800
      return boost::exception_ptr(std::current_exception());
#else
      const boost::exception_detail::clone_base& wrapped = boost::enable_current_exception(
          boost::exception_detail::std_exception_ptr_wrapper(std::current_exception()));
      return boost::exception_ptr(boost::shared_ptr<const boost::exception_detail::clone_base>(wrapped.clone()));
#endif
    }
    catch (...)
    {
      return boost::current_exception(); // out of memory: Boost's own, possibly sliced, copy
    }
  }

  // run_capturing's default is_consequence: no exception is a consequence.
  struct no_consequence
  {
    constexpr bool operator()() const noexcept { return false; }
  };

  // Effects: calls run(). If it throws boost::thread_interrupted, calls interrupted(); if it
  // throws anything else, calls failed(e) with that exception (current_exception_lossless()),
  // unless is_consequence(), called in the handler (where it may rethrow the exception to look
  // at it), says that it is the consequence of something reported elsewhere.
  // An interruption is kept apart so that the joiner rethrows it as itself: a pool's
  // interrupt() then still stops a worker inside a fork/join scope, instead of reaching it
  // wrapped in an exception_list (which would end the worker's closure with std::terminate).
  // Returns: whether run() returned normally.
  // Throws: what the callbacks throw; nothing if none may (then noexcept, so that the
  // handlers, inlined into a noexcept caller, need no cleanup of their own).
  // Inline: the path without an exception is the call of run() alone.
  template <class Run, class Interrupted, class Failed, class IsConsequence = no_consequence>
  BOOST_FORCEINLINE bool run_capturing(Run&& run, Interrupted&& interrupted, Failed&& failed,
                                       IsConsequence is_consequence = IsConsequence())
      noexcept(noexcept(interrupted()) && noexcept(failed(boost::exception_ptr())) && noexcept(is_consequence()))
  {
    try
    {
      run();
      return true;
    }
    catch (const thread_interrupted&)
    {
      interrupted();
    }
    catch (...)
    {
      if (!is_consequence())
        failed(current_exception_lossless());
    }
    return false;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
