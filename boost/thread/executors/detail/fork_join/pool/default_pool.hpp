// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The thread count of the default pool (default_fork_join_pool(), fork_join_thread_pool.hpp):
// set_default_fork_join_pool_size()'s, until the pool is made; then fixed.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_DEFAULT_POOL_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_POOL_DEFAULT_POOL_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/lock_guard.hpp>
#include <boost/thread/mutex.hpp>
#include <boost/thread/thread.hpp>
#include <boost/throw_exception.hpp>

#include <stdexcept>

namespace boost {
namespace detail {
namespace fork_join {

  // The thread count the default pool gets when it is made, and whether it was made.
  struct default_pool_settings
  {
    mutex mtx;
    unsigned thread_count = 0; // 0: hardware_concurrency() (1 if unknown)
    bool made = false;

    static default_pool_settings& get()
    {
      static default_pool_settings s;
      return s;
    }

    // Returns: the default pool's thread count; from now on it is made (set_thread_count throws).
    static unsigned take_thread_count()
    {
      default_pool_settings& s = get();
      lock_guard<mutex> lk(s.mtx);
      s.made = true;
      if (s.thread_count)
        return s.thread_count;
      return thread::hardware_concurrency() ? thread::hardware_concurrency() : 1u;
    }

    // Effects, Throws: set_default_fork_join_pool_size(thread_count).
    static void set_thread_count(unsigned thread_count)
    {
      if (thread_count == 0)
        boost::throw_exception(std::invalid_argument("set_default_fork_join_pool_size: thread_count must be > 0"));
      default_pool_settings& s = get();
      lock_guard<mutex> lk(s.mtx);
      if (s.made)
        boost::throw_exception(std::logic_error("set_default_fork_join_pool_size: the default pool was already made"));
      s.thread_count = thread_count;
    }
  };

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
