// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Recursive binary splitting of a range down to a grain, for parallel_for and parallel_reduce.
//
// A range is [first, last) of integers or of random-access iterators, seen as the offsets
// [0, n) from first (positions<P>). split_for and split_reduce halve [lo, hi) while it holds
// more than `grain` offsets and hand the halves to parallel_invoke: the left half runs on the
// calling thread, the right half is queued where an idle worker steals it (the oldest, largest
// pieces are stolen first). Each split costs parallel_invoke's push, pop and call, in the
// caller's frame: no allocation per split on a fork_join_thread_pool. The recursion is
// log2(n / grain) deep.
//
// Every chunk runs under an algorithm_scope (algorithm_scope.hpp): an exception is recorded
// there and cancels the chunks and splits not yet started.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHMS_SPLIT_RANGE_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHMS_SPLIT_RANGE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/algorithm_scope.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/invoke_all.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_core.hpp>
#include <boost/thread/executors/detail/fork_join/scheduler/pool_fwd.hpp>
#include <boost/thread/thread_only.hpp>

#include <cstddef>
#include <iterator>
#include <optional>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // The offsets of a range [first, last) and the element at each. Defined for integral types
  // other than bool and for random-access iterators; empty otherwise (SFINAE in the public
  // signatures).
  template <class P, class = void>
  struct positions
  {
  };

  template <class I>
  struct positions<I, std::enable_if_t<std::is_integral<I>::value && !std::is_same<I, bool>::value> >
  {
    // Wide enough for any count of I values, and at least std::size_t (the grain's type).
    typedef std::common_type_t<std::size_t, std::make_unsigned_t<I> > size_type;

    // Returns: the number of values in [first, last); 0 if last <= first. Computed in the
    // unsigned type, so [INT_MIN, INT_MAX) does not overflow.
    static size_type distance(I first, I last) noexcept
    {
      typedef std::make_unsigned_t<I> u;
      return first < last ? size_type(u(u(last) - u(first))) : 0;
    }
    // Requires: k <= distance(first, last). Returns: the k-th value (representable, being at
    // most last).
    static I at(I first, size_type k) noexcept
    {
      typedef std::make_unsigned_t<I> u;
      return static_cast<I>(static_cast<u>(static_cast<u>(first) + static_cast<u>(k)));
    }
    static I element(I i) noexcept { return i; }
  };

  template <class It>
  struct positions<It, std::enable_if_t<std::is_base_of<std::random_access_iterator_tag,
                                                        typename std::iterator_traits<It>::iterator_category>::value> >
  {
    typedef typename std::iterator_traits<It>::difference_type difference_type;
    typedef std::common_type_t<std::size_t, std::make_unsigned_t<difference_type> > size_type;

    static size_type distance(It first, It last)
    {
      const difference_type n = last - first;
      return n > 0 ? size_type(n) : 0;
    }
    static It at(It first, size_type k) { return first + difference_type(k); }
    static decltype(auto) element(const It& it) { return *it; }
  };

  template <class P, class = void>
  struct is_position : std::false_type
  {
  };
  template <class P>
  struct is_position<P, std::void_t<typename positions<P>::size_type> > : std::true_type
  {
  };

  // Returns: the number of threads that run ex's work: the worker count of a
  // fork_join_thread_pool, else thread::hardware_concurrency() (1 if unknown).
  inline unsigned concurrency_of(executors::fork_join_thread_pool& ex) noexcept { return core_of(ex)->thread_count(); }
  template <class Executor>
  unsigned concurrency_of(Executor&) noexcept
  {
    const unsigned h = thread::hardware_concurrency();
    return h ? h : 1u;
  }

  // The automatic grain: about 8 chunks per thread, ceil(n / (8 * threads)), at least 1.
  // Eight rather than one chunk per thread, so that a thread delayed by a slow chunk (or by
  // the operating system) leaves work for the others to steal; not many more, so that the
  // per-chunk overhead stays negligible whatever the size of the range.
  template <class Size>
  Size automatic_grain(Size n, unsigned threads) noexcept
  {
    const Size chunks = Size(8) * Size(threads);
    const Size g = n / chunks + (n % chunks != 0 ? 1 : 0);
    return g ? g : 1;
  }

  template <class Executor, class Size, class Leaf>
  BOOST_THREAD_FJ_HOT_LOOP_ALIGN void split_for(Executor& ex, algorithm_scope& scope, Size lo, Size hi, Size grain,
                                                Leaf& leaf) noexcept;
  template <class T, class Executor, class Size, class Leaf, class Combine>
  BOOST_THREAD_FJ_HOT_LOOP_ALIGN void split_reduce(Executor& ex, algorithm_scope& scope, Size lo, Size hi, Size grain,
                                                   Leaf& leaf, Combine& combine, std::optional<T>& out) noexcept;

  // The queued halves of split_for and split_reduce (algorithm_child).
  template <class Executor, class Size, class Leaf>
  struct split_for_half : algorithm_child<split_for_half<Executor, Size, Leaf>, Executor>
  {
    Executor& ex;
    algorithm_scope& scope;
    Size lo, hi, grain;
    Leaf& leaf;
    algorithm_scope& algorithm() const noexcept { return scope; }
    void call() { split_for(ex, scope, lo, hi, grain, leaf); }
  };
  template <class T, class Executor, class Size, class Leaf, class Combine>
  struct split_reduce_half : algorithm_child<split_reduce_half<T, Executor, Size, Leaf, Combine>, Executor>
  {
    Executor& ex;
    algorithm_scope& scope;
    Size lo, hi, grain;
    Leaf& leaf;
    Combine& combine;
    std::optional<T>& out;
    algorithm_scope& algorithm() const noexcept { return scope; }
    void call() { split_reduce(ex, scope, lo, hi, grain, leaf, combine, out); }
  };

  // Effects: calls leaf(a, b) for consecutive chunks [a, b) covering [lo, hi), each of at
  // most max(grain, 1) offsets and, if hi - lo > grain, at least grain / 2; in parallel on ex.
  // Chunks not started after an exception are skipped.
  // Aligned to a cache line (BOOST_THREAD_FJ_HOT_LOOP_ALIGN, config.hpp): the leaf's loop,
  // inlined here, is nearly all of a parallel_for's time, and its speed moved by 20% with where
  // the linker put this function (the benchmark's par_for: 8.3 and 10.0 ms at one thread for the
  // same instructions, 16 and 48 bytes into a cache line).
  template <class Executor, class Size, class Leaf>
  BOOST_THREAD_FJ_HOT_LOOP_ALIGN void split_for(Executor& ex, algorithm_scope& scope, Size lo, Size hi, Size grain,
                                                Leaf& leaf) noexcept
  {
    if (scope.cancelled())
      return;
    if (hi - lo <= grain)
    {
      scope.run([&] { leaf(lo, hi); });
      return;
    }
    const Size mid = lo + (hi - lo) / 2;
    // The halves catch everything, so parallel_invoke throws only if it could not start
    // (the fallback's mutex): then nothing ran, and the scope records why.
    scope.run([&] {
      split_for_half<Executor, Size, Leaf> right{{}, ex, scope, mid, hi, grain, leaf};
      invoke_all(ex, [&] { split_for(ex, scope, lo, mid, grain, leaf); }, right);
    });
  }

  // Requires: hi - lo >= 2; leaf(a, b) returns a T for any chunk of at least 2 offsets.
  // Effects: out = combine(... combine(leaf(c0), leaf(c1)) ..., leaf(ck)) over consecutive
  // chunks in order (a balanced tree of combine calls, operands never swapped), the chunks
  // having at most max(grain, 3) offsets and at least 2; in parallel on ex. After an
  // exception, out stays empty and chunks not started are skipped.
  // Aligned as split_for, for the same reason.
  template <class T, class Executor, class Size, class Leaf, class Combine>
  BOOST_THREAD_FJ_HOT_LOOP_ALIGN void split_reduce(Executor& ex, algorithm_scope& scope, Size lo, Size hi, Size grain,
                                                   Leaf& leaf, Combine& combine, std::optional<T>& out) noexcept
  {
    if (scope.cancelled())
      return;
    if (hi - lo <= grain || hi - lo < 4) // halves of at least 2
    {
      scope.run([&] { out.emplace(leaf(lo, hi)); });
      return;
    }
    const Size mid = lo + (hi - lo) / 2;
    std::optional<T> left, right;
    scope.run([&] {
      split_reduce_half<T, Executor, Size, Leaf, Combine> right_half{
          {}, ex, scope, mid, hi, grain, leaf, combine, right};
      invoke_all(ex, [&] { split_reduce(ex, scope, lo, mid, grain, leaf, combine, left); }, right_half);
    });
    if (left && right) // else a chunk threw: the scope will
      scope.run([&] { out.emplace(combine(std::move(*left), std::move(*right))); });
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
