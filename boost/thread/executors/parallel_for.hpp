// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_for: a loop whose iterations run in parallel chunks.
//
// Outline (namespace boost::executors, lifted into boost)
//   void parallel_for(Executor& ex, Position first, Position last, F&& f, std::size_t grain);
//   void parallel_for(Executor& ex, Position first, Position last, F&& f);   // automatic grain
//
//   Position is an integral type (f(i) for each i in [first, last)) or a random-access
//   iterator (f(*it) for each it, as std::for_each).
//
//   boost::parallel_for(pool, 0, n, [&](int i) { y[i] += a * x[i]; }, 4096);
//   boost::parallel_for(pool, v.begin(), v.end(), [](double& x) { x = std::sqrt(x); });
//
// The range is halved with parallel_invoke until a piece has at most `grain` iterations
// (detail/fork_join/algorithms/split_range.hpp); the automatic grain makes about 8 chunks per thread.
// doc/algorithms.md explains how to choose a grain.

#ifndef BOOST_THREAD_EXECUTORS_PARALLEL_FOR_HPP
#define BOOST_THREAD_EXECUTORS_PARALLEL_FOR_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/algorithm_scope.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/split_range.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>

#include <cstddef>
#include <type_traits>

namespace boost {
namespace detail {
namespace fork_join {

  template <class Executor, class Position, class F>
  void for_each_position(Executor& ex, Position first, typename positions<Position>::size_type n, F& f,
                         typename positions<Position>::size_type grain)
  {
    typedef positions<Position> pos;
    typedef typename pos::size_type size_type;
    auto leaf = [&f, &first](size_type lo, size_type hi) {
      for (Position p = pos::at(first, lo), end = pos::at(first, hi); p != end; ++p)
        f(pos::element(p));
    };
    algorithm_scope scope;
    split_for(ex, scope, size_type(0), n, grain, leaf);
    scope.rethrow();
  }

} // namespace fork_join
} // namespace detail

namespace executors {

  // Requires: Position is an integral type other than bool, or a random-access iterator type
  // (both bounds of the same type; write std::size_t(0), not 0, against a std::size_t bound).
  // f(i) (integral) or f(*it) (iterator) is well-formed for every position of [first, last),
  // and f may be called concurrently from several threads. ex is a fork_join_thread_pool or any
  // executor with submit(Closure).
  // Effects: calls f once for each position of [first, last), in chunks of consecutive
  // positions of at most max(grain, 1) (and at least grain / 2 when the range is larger than
  // grain), each chunk in order on one thread, the chunks in any order and in parallel. Does
  // nothing if last <= first. f is invoked as an lvalue and never copied; its result is
  // discarded.
  // Synchronization: every call of f happens before parallel_for returns.
  // Throws: experimental::parallel::exception_list holding every exception f threw, after every
  // chunk that started has finished. After the first exception, chunks not yet started are
  // skipped (cancellation): some positions are then never visited. boost::thread_interrupted
  // instead, if f threw that (as parallel_invoke).
  // Complexity: exactly distance(first, last) calls of f (without exceptions); fewer than
  // 2 * distance / grain splits.
  // Progress: as parallel_invoke: on a fork_join_thread_pool the calling thread runs other
  // tasks while it waits for a stolen chunk; on other executors it runs their queued closures
  // or blocks.
  template <class Executor, class Position, class F,
            class = std::enable_if_t<detail::fork_join::is_position<Position>::value> >
  void parallel_for(Executor& ex, Position first, Position last, F&& f, std::size_t grain)
  {
    typedef detail::fork_join::positions<Position> pos;
    const typename pos::size_type n = pos::distance(first, last);
    if (n != 0)
      detail::fork_join::for_each_position(ex, first, n, f, grain ? grain : 1);
  }

  // Effects: parallel_for(ex, first, last, f, g) with the automatic grain
  // g = ceil(distance(first, last) / (8 * P)), where P is the pool's worker count for a
  // fork_join_thread_pool, else thread::hardware_concurrency() (1 if unknown).
  // Requires, Synchronization, Throws, Complexity, Progress: as above.
  template <class Executor, class Position, class F,
            class = std::enable_if_t<detail::fork_join::is_position<Position>::value> >
  void parallel_for(Executor& ex, Position first, Position last, F&& f)
  {
    typedef detail::fork_join::positions<Position> pos;
    const typename pos::size_type n = pos::distance(first, last);
    if (n != 0)
      detail::fork_join::for_each_position(
          ex, first, n, f, detail::fork_join::automatic_grain(n, detail::fork_join::concurrency_of(ex)));
  }

} // namespace executors

using executors::parallel_for;

} // namespace boost

#endif // header
