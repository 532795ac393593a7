// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The parallel quicksort behind parallel_sort.
//
// Each level chooses a pivot (median of three, or for more than 128 elements Tukey's ninther,
// the median of three medians of three), partitions the range in place around it, and sorts
// the two sides with parallel_invoke: the left side on this thread, the right side queued for a
// thief. A range of at most `grain` elements is sorted on one thread by the same quicksort
// without forking (serial_quicksort). So the parallel levels cost no comparison more than a
// serial sort: only a parallel_invoke per split, in the caller's frame (no allocation).
//
// The safeguards are those of pattern-defeating quicksort (Orson Peters, "Pattern-defeating
// Quicksort", 2021, arXiv:2106.05123), written anew here:
//  - Equal keys. Every range but the leftmost has a predecessor, the element just before it,
//    which is not greater than any element of the range. If the chosen pivot is equivalent to
//    it, the range holds no element less than the pivot: partition_left moves every element
//    equivalent to the pivot to the front, where it is in its final place, and only the
//    greater ones are left to sort. So k distinct keys cost O(n log k), and all-equal input
//    O(n). The predecessor is always a pivot an ancestor placed (or an element of such an
//    equal block), which no task moves again: reading it races with nothing.
//  - Sorted input. A partition that moved nothing hints at sorted data: both sides then check
//    std::is_sorted first (O(n) on sorted or reverse-sorted input, which the partition turns
//    into two sorted halves), which stops at the first inversion otherwise.
//  - Worst case. A partition whose smaller side holds less than an eighth of the range is bad:
//    a few elements of each side are swapped with elements a quarter of the way in, which
//    defeats the patterns (organ pipes, for instance) that fool a median of three; after
//    log2(n) bad partitions on a path, the range is heap sorted (O(n log n) worst case), as
//    introsort does.
//  - Partitioning is BlockQuicksort's branch-free block partition (partition_right).
// The recursion is O(log n) deep.
//
// Exceptions from comp or from moving an element go to the algorithm_scope; the range is then
// left in an unspecified order (as std::sort leaves it), the parts not yet started are skipped.

#ifndef BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHMS_QUICKSORT_HPP
#define BOOST_THREAD_EXECUTORS_DETAIL_FORK_JOIN_ALGORITHMS_QUICKSORT_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/algorithm_scope.hpp>
#include <boost/thread/executors/detail/fork_join/invoke/invoke_all.hpp>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  // Effects: orders *a, *b, *c so that !comp(*b, *a) and !comp(*c, *b).
  template <class It, class Comp>
  void sort3(It a, It b, It c, Comp& comp)
  {
    if (comp(*b, *a))
      std::iter_swap(a, b);
    if (comp(*c, *b))
    {
      std::iter_swap(b, c);
      if (comp(*b, *a))
        std::iter_swap(a, b);
    }
  }

  // Requires: last - first >= 8.
  // Effects: moves the pivot to *first, and leaves an element not less than it in
  // [last - 3, last) and one not greater than it in [first + 1, last).
  template <class It, class Comp>
  void choose_pivot(It first, It last, Comp& comp)
  {
    const auto n = last - first;
    const It mid = first + n / 2;
    if (n > 128)
    {
      // Three medians of three land at mid - 1, mid, mid + 1, their minima at first, first + 1,
      // first + 2, their maxima at last - 1, last - 2, last - 3. The pivot (the median of the
      // medians) is not greater than two medians, hence than their maxima, and not less than
      // two medians, hence than their minima (one of which the swap moves to mid).
      sort3(first, mid, last - 1, comp);
      sort3(first + 1, mid - 1, last - 2, comp);
      sort3(first + 2, mid + 1, last - 3, comp);
      sort3(mid - 1, mid, mid + 1, comp);
      std::iter_swap(first, mid);
    }
    else
      sort3(mid, first, last - 1, comp); // pivot at first, not greater at mid, not less at last - 1
  }

  // Requires: the pivot is *first, as choose_pivot leaves it; no element of [first, last) is
  // less than the pivot.
  // Effects: reorders [first, last) into [first, p] equivalent to the pivot and [p + 1, last)
  // greater than it. Returns: p.
  template <class It, class Comp>
  It partition_left(It first, It last, Comp& comp)
  {
    typename std::iterator_traits<It>::value_type pivot(std::move(*first));
    It i = first;
    It j = last;
    // Unguarded: choose_pivot left an element not greater than the pivot after first.
    do
      --j;
    while (comp(pivot, *j));
    // Unguarded if (j, last) is not empty: its elements are greater than the pivot.
    if (j + 1 == last)
    {
      while (i < j && !comp(pivot, *++i))
      {
      }
    }
    else
    {
      do
        ++i;
      while (!comp(pivot, *i));
    }
    while (i < j)
    {
      std::iter_swap(i, j);
      do // stops at the old i at the latest: it is not greater than the pivot now
        --j;
      while (comp(pivot, *j));
      do // stops at the old j at the latest: it is greater than the pivot now
        ++i;
      while (!comp(pivot, *i));
    }
    *first = std::move(*j);
    *j = std::move(pivot);
    return j;
  }

  // Effects: swaps a few elements of [first, last) from the ends with elements a quarter of the
  // way in, so that the next pivot choice does not meet the pattern that made a partition bad.
  template <class It>
  void break_patterns(It first, It last)
  {
    const auto n = last - first;
    if (n < 8)
      return;
    const auto q = n / 4;
    std::iter_swap(first, first + q);
    std::iter_swap(last - 1, last - q);
    if (n > 128) // the ninther looks at three elements at each end
    {
      std::iter_swap(first + 1, first + (q + 1));
      std::iter_swap(first + 2, first + (q + 2));
      std::iter_swap(last - 2, last - (q + 1));
      std::iter_swap(last - 3, last - (q + 2));
    }
  }

  // Requires: the range is small (the loop is quadratic).
  // Effects: sorts [first, last) by insertion.
  template <class It, class Comp>
  void insertion_sort(It first, It last, Comp& comp)
  {
    if (first == last)
      return;
    for (It i = first + 1; i != last; ++i)
    {
      if (!comp(*i, *(i - 1)))
        continue;
      typename std::iterator_traits<It>::value_type moving(std::move(*i));
      It j = i;
      do
      {
        *j = std::move(*(j - 1));
        --j;
      } while (j != first && comp(moving, *(j - 1)));
      *j = std::move(moving);
    }
  }

  // Requires: the pivot is *first, as choose_pivot leaves it.
  // Effects: reorders [first, last) into [first, p) less than the pivot, the pivot at p, and
  // [p + 1, last) not less than it.
  // Returns: p, and whether no element had to move (a hint that the range may be sorted).
  // The block partition of Edelkamp and Weiss ("BlockQuicksort: Avoiding Branch Mispredictions
  // in Quicksort", ESA 2016): the comparisons of a block of 64 elements at each end are
  // recorded as offsets without a branch (offsets[count] = k; count += comp(...)), then the
  // misplaced elements of the two blocks are swapped in pairs. It makes the same comparisons
  // as the classic Hoare loop without its branch mispredictions (one per two elements on
  // random data); measured faster for ints, small and 64-byte records and strings alike, and
  // no slower with a comparator that costs tens of instructions.
  // Aligned to a cache line (BOOST_THREAD_FJ_HOT_LOOP_ALIGN, config.hpp): three quarters of a
  // sort's instructions are this function's loops, whose time otherwise moved by 6 to 9% with
  // where the linker happened to place it (doc/benchmark/README.md, "The layered restructure,
  // against 3210c7e").
  template <class It, class Comp>
  BOOST_THREAD_FJ_HOT_LOOP_ALIGN std::pair<It, bool> partition_right(It first, It last, Comp& comp)
  {
    typedef typename std::iterator_traits<It>::difference_type difference_type;
    const difference_type block = 64;

    typename std::iterator_traits<It>::value_type pivot(std::move(*first));
    It i = first;
    It j = last;
    // Unguarded: choose_pivot left an element not less than the pivot near the end.
    do
      ++i;
    while (comp(*i, pivot));
    // Unguarded if [first + 1, i) is not empty: its elements are less than the pivot.
    if (i - 1 == first)
    {
      while (i < j && !comp(*--j, pivot))
      {
      }
    }
    else
    {
      do
        --j;
      while (!comp(*j, pivot));
    }
    const bool no_moves = !(i < j);
    if (!no_moves)
    {
      std::iter_swap(i, j);
      ++i;
      // Invariant: [first + 1, i) is less than the pivot, [j, last) is not; [i, j) is unknown.
      unsigned char left[block];  // offsets from i of the elements not less than the pivot
      unsigned char right[block]; // offsets back from j of the elements less than the pivot
      difference_type left_count = 0, right_count = 0, left_start = 0, right_start = 0;
      while (j - i > 2 * block) // the two blocks [i, i + block) and [j - block, j) are disjoint
      {
        if (left_count == 0)
        {
          left_start = 0;
          for (difference_type k = 0; k < block; ++k)
          {
            left[left_count] = static_cast<unsigned char>(k);
            left_count += !comp(i[k], pivot);
          }
        }
        if (right_count == 0)
        {
          right_start = 0;
          for (difference_type k = 1; k <= block; ++k)
          {
            right[right_count] = static_cast<unsigned char>(k);
            right_count += static_cast<bool>(comp(*(j - k), pivot)); // a comparator may return int
          }
        }
        const difference_type pairs = std::min(left_count, right_count);
        for (difference_type k = 0; k < pairs; ++k)
          std::iter_swap(i + left[left_start + k], j - right[right_start + k]);
        left_count -= pairs;
        right_count -= pairs;
        left_start += pairs;
        right_start += pairs;
        // A block whose misplaced elements are all swapped is done; the other keeps its
        // remaining offsets for the next round.
        if (left_count == 0)
          i += block;
        if (right_count == 0)
          j -= block;
      }
      // At most 2 * block elements are left, possibly in a block with offsets still pending:
      // the classic loop, guarded, finishes them.
      for (;;)
      {
        while (i < j && comp(*i, pivot))
          ++i;
        while (i < j && !comp(*(j - 1), pivot))
          --j;
        if (!(i < j))
          break;
        --j;
        std::iter_swap(i, j); // i < j here: *i is not less than the pivot, *j is
        ++i;
      }
    }
    const It p = i - 1;
    *first = std::move(*p);
    *p = std::move(pivot);
    return std::make_pair(p, no_moves);
  }

  // The outcome of one partitioning step.
  template <class It>
  struct partition_result
  {
    It pivot;         // the pivot's final position
    bool equal_block; // [first, pivot] are equivalent to the pivot, [pivot + 1, last) greater
    bool no_moves;    // else: [first, pivot) less, [pivot + 1, last) not less; nothing moved
  };

  // Requires: last - first >= 8; has_predecessor as for quicksort().
  // Effects: chooses a pivot and partitions [first, last) around it (see the top of the file).
  template <class It, class Comp>
  partition_result<It> partition_step(It first, It last, Comp& comp, bool has_predecessor)
  {
    choose_pivot(first, last, comp);
    if (has_predecessor && !comp(*(first - 1), *first))
      return {partition_left(first, last, comp), true, false};
    const std::pair<It, bool> r = partition_right(first, last, comp);
    return {r.first, false, r.second};
  }

  // Returns: whether the partition at p of [first, last) is bad: its smaller side holds less
  // than an eighth of the range. Effects: if so, breaks the patterns of both sides.
  template <class It>
  bool bad_partition(It first, It p, It last)
  {
    const auto n = last - first;
    if (p - first >= n / 8 && last - (p + 1) >= n / 8)
      return false;
    break_patterns(first, p);
    break_patterns(p + 1, last);
    return true;
  }

  // Requires: as quicksort().
  // Effects: sorts [first, last) on the calling thread: the same steps as quicksort() without
  // forking, recursing into the smaller side and looping on the larger (O(log n) stack);
  // insertion sort below 24 elements; heap sort once bad_left reaches 0.
  template <class It, class Comp>
  void serial_quicksort(It first, It last, Comp& comp, bool has_predecessor, bool check_sorted, int bad_left)
  {
    for (;;)
    {
      const auto n = last - first;
      if (n <= 24)
      {
        insertion_sort(first, last, comp);
        return;
      }
      if (check_sorted && std::is_sorted(first, last, comp))
        return;
      if (bad_left <= 0)
      {
        std::make_heap(first, last, comp);
        std::sort_heap(first, last, comp);
        return;
      }
      const partition_result<It> r = partition_step(first, last, comp, has_predecessor);
      const It p = r.pivot;
      check_sorted = r.no_moves;
      if (r.equal_block)
      {
        first = p + 1;
        has_predecessor = true;
        continue;
      }
      if (bad_partition(first, p, last))
      {
        --bad_left;
        check_sorted = false;
      }
      if (p - first < last - p)
      {
        serial_quicksort(first, p, comp, has_predecessor, check_sorted, bad_left);
        first = p + 1;
        has_predecessor = true;
      }
      else
      {
        serial_quicksort(p + 1, last, comp, true, check_sorted, bad_left);
        last = p;
      }
    }
  }

  template <class Executor, class It, class Comp>
  struct quicksort_context
  {
    typedef typename std::iterator_traits<It>::difference_type difference_type;
    typedef Executor executor_type;

    Executor& ex;
    algorithm_scope& scope;
    Comp& comp;
    difference_type grain; // at least 8 (choose_pivot); sort_grain() gives at least 2048
  };

  template <class Context, class It>
  void quicksort(Context& c, It first, It last, bool has_predecessor, bool check_sorted, int bad_left) noexcept;

  // The queued side of a split (algorithm_child): the greater elements, whose predecessor is the
  // pivot.
  template <class Context, class It>
  struct quicksort_half : algorithm_child<quicksort_half<Context, It>, typename Context::executor_type>
  {
    Context& c;
    It first, last;
    bool check_sorted;
    int bad_left;
    algorithm_scope& algorithm() const noexcept { return c.scope; }
    void call() { quicksort(c, first, last, true, check_sorted, bad_left); }
  };

  // Requires: [first, last) is part of the range being sorted; if has_predecessor, *(first - 1)
  // is not greater than any element of [first, last) and no task modifies it.
  // Effects: sorts [first, last) (see the top of this file): above the grain, partitions and
  // sorts the sides with parallel_invoke; at most `grain` elements, or once bad_left reaches
  // 0, with serial_quicksort.
  template <class Context, class It>
  void quicksort(Context& c, It first, It last, bool has_predecessor, bool check_sorted, int bad_left) noexcept
  {
    if (c.scope.cancelled())
      return;
    if (last - first <= c.grain || bad_left <= 0)
    {
      c.scope.run([&] { serial_quicksort(first, last, c.comp, has_predecessor, check_sorted, bad_left); });
      return;
    }
    bool done = false;
    partition_result<It> r{};
    const bool ok = c.scope.run([&] {
      if (check_sorted && std::is_sorted(first, last, c.comp))
      {
        done = true;
        return;
      }
      r = partition_step(first, last, c.comp, has_predecessor);
      while (r.equal_block) // [first, pivot] is in place; go on with the greater elements
      {
        first = r.pivot + 1;
        has_predecessor = true;
        if (last - first <= c.grain)
        {
          serial_quicksort(first, last, c.comp, true, false, bad_left);
          done = true;
          return;
        }
        r = partition_step(first, last, c.comp, true);
      }
      if (bad_partition(first, r.pivot, last))
      {
        --bad_left;
        r.no_moves = false;
      }
    });
    if (!ok || done)
      return;
    const It p = r.pivot;
    // The halves catch everything, so parallel_invoke throws only if it could not start.
    c.scope.run([&] {
      quicksort_half<Context, It> right{{}, c, p + 1, last, r.no_moves, bad_left};
      invoke_all(c.ex, [&] { quicksort(c, first, p, has_predecessor, r.no_moves, bad_left); }, right);
    });
  }

  // Returns: floor(log2(n)) for n >= 1.
  template <class Size>
  int log2_floor(Size n) noexcept
  {
    int k = 0;
    while (n > 1)
    {
      n /= 2;
      ++k;
    }
    return k;
  }

} // namespace fork_join
} // namespace detail
} // namespace boost

#endif // header
