// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// The parallel algorithms of the fork/join executor, in one include.
//
// Outline (namespace boost::executors, each lifted into boost)
//   parallel_invoke(ex, f1, f2, ...)                                      parallel_invoke.hpp
//   parallel_for(ex, first, last, f[, grain])                             parallel_for.hpp
//   parallel_reduce(ex, first, last, init, op[, grain])                   parallel_reduce.hpp
//   parallel_transform_reduce(ex, first, last, init, reduce_op, transform_op[, grain])
//   parallel_sort(ex, first, last[, comp])                                parallel_sort.hpp
//
// All of them are built on parallel_invoke: recursive binary splitting down to a grain, the
// children in the caller's frame. They run on a fork_join_thread_pool (the waiting thread helps)
// and on any Boost.Thread executor with submit() (the waiting thread runs queued closures or
// blocks). Every exception of the user's callables is collected into one
// experimental::parallel::exception_list, thrown after all started work has finished; the
// loops skip the chunks not yet started after the first exception. See doc/algorithms.md.

#ifndef BOOST_THREAD_EXECUTORS_ALGORITHM_HPP
#define BOOST_THREAD_EXECUTORS_ALGORITHM_HPP

#include <boost/thread/executors/detail/fork_join/base/config.hpp>
#include <boost/thread/executors/parallel_for.hpp>
#include <boost/thread/executors/parallel_invoke.hpp>
#include <boost/thread/executors/parallel_reduce.hpp>
#include <boost/thread/executors/parallel_sort.hpp>

#endif // header
