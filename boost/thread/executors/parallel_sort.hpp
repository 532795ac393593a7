// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_sort: std::sort on an executor.
//
// Outline (namespace boost::executors, lifted into boost)
//   void parallel_sort(Executor& ex, RandomIt first, RandomIt last);                // operator<
//   void parallel_sort(Executor& ex, RandomIt first, RandomIt last, Compare comp);
//
//   boost::parallel_sort(pool, v.begin(), v.end(), std::greater<>());
//
// An in-place parallel quicksort with pattern-defeating safeguards
// (detail/fork_join/algorithms/quicksort.hpp): pivot by median of three or ninther, an O(n) pass for
// runs of equal keys and for sorted input, BlockQuicksort's branch-free block partition, a
// serial quicksort below a grain and heap sort as the worst-case fallback. Not stable; needs
// no buffer.

#ifndef BOOST_THREAD_EXECUTORS_PARALLEL_SORT_HPP
#define BOOST_THREAD_EXECUTORS_PARALLEL_SORT_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/algorithm_scope.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/quicksort.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/split_range.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>

#include <functional>
#include <iterator>
#include <type_traits>

namespace boost {
namespace detail {
namespace fork_join {

  // The sort grain: ranges of at most max(2048, n / (32 * P)) elements are sorted on one
  // thread. Splitting costs no comparison (the parallel levels replace the serial sort's own),
  // so the grain only has to amortize a parallel_invoke (well under a microsecond, against tens
  // of microseconds to sort 2048 ints) and leave enough pieces (32 per thread) to balance
  // quicksort's uneven halves.
  template <class Difference>
  Difference sort_grain(Difference n, unsigned threads) noexcept
  {
    const Difference share = n / (Difference(32) * Difference(threads));
    return share > 2048 ? share : Difference(2048);
  }

} // namespace fork_join
} // namespace detail

namespace executors {

  // Requires: RandomIt is a random-access iterator whose value type is MoveConstructible and
  // MoveAssignable, its iterators swappable; comp is a strict weak ordering on it, may be
  // called concurrently from several threads, and is CopyConstructible (as for std::sort).
  // ex is a fork_join_thread_pool or any executor with submit(Closure).
  // Effects: sorts [first, last) by comp, in parallel on ex. Not stable.
  // Synchronization: every access to the range and every call of comp happen before
  // parallel_sort returns.
  // Throws: experimental::parallel::exception_list holding every exception comp or a move of an
  // element threw, after every piece that started has finished; the pieces not started are
  // skipped, and the range is left in an unspecified order (as std::sort leaves it).
  // boost::thread_interrupted instead, if comp threw that (as parallel_invoke).
  // Complexity: O(n log n) comparisons, n = last - first (O(n) for sorted, reverse-sorted or
  // all-equal input; O(n log k) for k distinct keys); at most O(n / grain) splits.
  // Progress: as parallel_for.
  template <class Executor, class RandomIt, class Compare>
  void parallel_sort(Executor& ex, RandomIt first, RandomIt last, Compare comp)
  {
    static_assert(std::is_base_of<std::random_access_iterator_tag,
                                  typename std::iterator_traits<RandomIt>::iterator_category>::value,
                  "parallel_sort: RandomIt must be a random-access iterator");
    const auto n = last - first;
    if (n < 2)
      return;
    detail::fork_join::algorithm_scope scope;
    detail::fork_join::quicksort_context<Executor, RandomIt, Compare> context{
        ex, scope, comp, detail::fork_join::sort_grain(n, detail::fork_join::concurrency_of(ex))};
    detail::fork_join::quicksort(context, first, last, false, false, detail::fork_join::log2_floor(n));
    scope.rethrow();
  }

  // Effects: parallel_sort(ex, first, last, std::less<>()).
  template <class Executor, class RandomIt>
  void parallel_sort(Executor& ex, RandomIt first, RandomIt last)
  {
    executors::parallel_sort(ex, first, last, std::less<>());
  }

} // namespace executors

using executors::parallel_sort;

} // namespace boost

#endif // header
