// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// A flat reduction: the sum, modulo 2^64, of work(x) over par_for's input, with par_for's sizes
// and the same chunks (see par_for.hpp). Each chunk folds its elements into a partial sum; the
// partial sums are then added up (this library and oneTBB: in a tree as the halves join;
// OpenMP: one partial sum per thread). Unsigned addition wraps, so every order of the
// additions gives the same answer.

#ifndef BOOST_FORK_JOIN_BENCH_PAR_REDUCE_PAR_REDUCE_HPP
#define BOOST_FORK_JOIN_BENCH_PAR_REDUCE_PAR_REDUCE_HPP

#include "../par_for/par_for.hpp"

namespace bench {
namespace par_reduce {

  using par_for::input;
  using par_for::problem;
  using par_for::size;
  using par_for::work;

} // namespace par_reduce
} // namespace bench

#endif // header
