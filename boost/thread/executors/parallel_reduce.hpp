// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// parallel_reduce and parallel_transform_reduce: std::reduce and std::transform_reduce on an
// executor.
//
// Outline (namespace boost::executors, lifted into boost)
//   T parallel_reduce(Executor& ex, Position first, Position last, T init, Op&& op, std::size_t grain);
//   T parallel_reduce(Executor& ex, Position first, Position last, T init, Op&& op);
//   T parallel_transform_reduce(Executor& ex, Position first, Position last, T init,
//                               ReduceOp&& reduce_op, TransformOp&& transform_op, std::size_t grain);
//   T parallel_transform_reduce(Executor& ex, Position first, Position last, T init,
//                               ReduceOp&& reduce_op, TransformOp&& transform_op);
//
//   Position is a random-access iterator (the elements *it) or an integral type (the values
//   i of [first, last) themselves, handy for transform_op(i)).
//
//   double dot = boost::parallel_transform_reduce(pool, std::size_t(0), n, 0.0, std::plus<>(),
//                                                 [&](std::size_t i) { return x[i] * y[i]; });
//
// Each chunk folds its elements left to right; the chunks' partial results are combined in a
// balanced tree that keeps their order (detail/fork_join/algorithms/split_range.hpp), and init comes first.
// So op need only be associative, not commutative: string concatenation works.

#ifndef BOOST_THREAD_EXECUTORS_PARALLEL_REDUCE_HPP
#define BOOST_THREAD_EXECUTORS_PARALLEL_REDUCE_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/algorithm_scope.hpp>
#include <boost/thread/executors/detail/fork_join/algorithms/split_range.hpp>
#include <boost/thread/executors/fork_join_thread_pool.hpp>

#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

namespace boost {
namespace detail {
namespace fork_join {

  struct identity_transform
  {
    template <class X>
    X&& operator()(X&& x) const noexcept
    {
      return std::forward<X>(x);
    }
  };

  // Returns: std::move(value), a move of T like those of the chunks: what it throws goes
  // into the scope's exception_list with every other failure of the call.
  // Requires: every chunk has finished.
  template <class T>
  T move_out(algorithm_scope& scope, T& value)
  {
    try
    {
      return std::move(value); // initializes the caller's result object: caught here
    }
    catch (...)
    {
      scope.rethrow_with_current();
    }
  }

  // grain == 0: the automatic grain.
  template <class Executor, class Position, class T, class ReduceOp, class TransformOp>
  T transform_reduce_positions(Executor& ex, Position first, Position last, T& init, ReduceOp& reduce_op,
                               TransformOp& transform_op, std::size_t grain)
  {
    typedef positions<Position> pos;
    typedef typename pos::size_type size_type;
    algorithm_scope scope;
    const size_type n = pos::distance(first, last);
    if (n == 0)
      return move_out(scope, init);
    const size_type g = grain ? size_type(grain) : automatic_grain(n, concurrency_of(ex));

    // A chunk has at least two elements (split_reduce), so that its fold needs only the
    // expressions std::transform_reduce requires: reduce_op(U, U) and reduce_op(T, U) with
    // U the result of transform_op, each convertible to T.
    auto leaf = [&](size_type lo, size_type hi) -> T {
      Position p = pos::at(first, lo);
      const Position end = pos::at(first, hi);
      Position q = p;
      ++q;
      T acc = reduce_op(transform_op(pos::element(p)), transform_op(pos::element(q)));
      for (++q; q != end; ++q)
        acc = reduce_op(std::move(acc), transform_op(pos::element(q)));
      return acc;
    };
    auto combine = [&reduce_op](T&& a, T&& b) -> T { return reduce_op(std::move(a), std::move(b)); };

    std::optional<T> result;
    if (n == 1)
      scope.run([&] { result.emplace(reduce_op(std::move(init), transform_op(pos::element(first)))); });
    else
    {
      std::optional<T> partial;
      split_reduce<T>(ex, scope, size_type(0), n, g, leaf, combine, partial);
      if (partial)
        scope.run([&] { result.emplace(reduce_op(std::move(init), std::move(*partial))); });
    }
    scope.rethrow();
    return move_out(scope, *result);
  }

} // namespace fork_join
} // namespace detail

namespace executors {

  // Requires: Position is a random-access iterator type or an integral type other than bool
  // (both bounds of the same type). T is MoveConstructible and MoveAssignable. With u the
  // result of transform_op(e) for an element e (*it for an iterator, the value i for an
  // integral position), reduce_op(init, init), reduce_op(init, u), reduce_op(u, init) and
  // reduce_op(u, u) are convertible to T. reduce_op is associative (it need not be
  // commutative); reduce_op and transform_op may be called concurrently from several threads
  // and modify no element of the range. ex is a fork_join_thread_pool or any executor with
  // submit(Closure).
  // Effects: splits [first, last) into chunks of consecutive elements, of at most
  // max(grain, 3) and at least 2 elements (one chunk of 1 if the range has 1 element), folds
  // each chunk left to right, combines the chunks' results in their order and puts init in
  // front: reduce_op(init, (u0 . u1 . ... . u(n-1))), parenthesized by the split. The
  // callables are invoked as lvalues and never copied.
  // Returns: that value; init if last <= first.
  // Synchronization: every call of reduce_op and transform_op happens before the return.
  // Throws: experimental::parallel::exception_list holding every exception reduce_op,
  // transform_op or a move of T threw (the final move of the result, or of init for an empty
  // range, included), after every chunk that started has finished. After the
  // first exception, chunks not yet started are skipped. boost::thread_interrupted instead,
  // if one of them threw that (as parallel_invoke).
  // Complexity: n calls of transform_op and n calls of reduce_op, for n = distance(first, last).
  // Progress: as parallel_for.
  template <class Executor, class Position, class T, class ReduceOp, class TransformOp,
            class = std::enable_if_t<detail::fork_join::is_position<Position>::value> >
  T parallel_transform_reduce(Executor& ex, Position first, Position last, T init, ReduceOp&& reduce_op,
                              TransformOp&& transform_op, std::size_t grain)
  {
    return detail::fork_join::transform_reduce_positions(ex, first, last, init, reduce_op, transform_op,
                                                         grain ? grain : 1);
  }

  // Effects: as above, with the automatic grain of parallel_for (about 8 chunks per thread).
  template <class Executor, class Position, class T, class ReduceOp, class TransformOp,
            class = std::enable_if_t<detail::fork_join::is_position<Position>::value> >
  T parallel_transform_reduce(Executor& ex, Position first, Position last, T init, ReduceOp&& reduce_op,
                              TransformOp&& transform_op)
  {
    return detail::fork_join::transform_reduce_positions(ex, first, last, init, reduce_op, transform_op, 0);
  }

  // Effects, Returns, Throws, ...: parallel_transform_reduce(ex, first, last, init, op, id, grain)
  // where id returns its argument: std::reduce with the elements themselves.
  template <class Executor, class Position, class T, class Op,
            class = std::enable_if_t<detail::fork_join::is_position<Position>::value> >
  T parallel_reduce(Executor& ex, Position first, Position last, T init, Op&& op, std::size_t grain)
  {
    detail::fork_join::identity_transform id;
    return detail::fork_join::transform_reduce_positions(ex, first, last, init, op, id, grain ? grain : 1);
  }

  // Effects: as above, with the automatic grain.
  template <class Executor, class Position, class T, class Op,
            class = std::enable_if_t<detail::fork_join::is_position<Position>::value> >
  T parallel_reduce(Executor& ex, Position first, Position last, T init, Op&& op)
  {
    detail::fork_join::identity_transform id;
    return detail::fork_join::transform_reduce_positions(ex, first, last, init, op, id, 0);
  }

} // namespace executors

using executors::parallel_reduce;
using executors::parallel_transform_reduce;

} // namespace boost

#endif // header
