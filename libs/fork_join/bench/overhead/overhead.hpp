// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// fork_join_overhead_bench (main.cpp): what each file measures. Each path is in a file of its
// own, so that the compiler's inlining decisions in one (which depend on everything in the
// file) do not change when another path's code changes.

#ifndef BOOST_FORK_JOIN_BENCH_OVERHEAD_HPP
#define BOOST_FORK_JOIN_BENCH_OVERHEAD_HPP

#include <boost/thread/executors/fork_join_thread_pool.hpp>

#include <cstdint>
#include <vector>

namespace overhead {

// The pool every path runs on (one thread), and the elements of the for path.
extern boost::executors::fork_join_thread_pool* pool;
extern std::vector<std::uint64_t> elements;

} // namespace overhead

// What callgrind counts (--toggle-collect='measured_*'): each calls its path once, on the
// pool's thread, and is not recursive, so that the toggle is on for the whole call. extern "C":
// names to give callgrind, whatever the compiler's mangling.
extern "C" {
std::uint64_t measured_fork(unsigned n);   // fib(n), a fork of each child and a join of both per call
std::uint64_t measured_async(unsigned n);  // fib(n), boost::async of one child, the other inline, a join
std::uint64_t measured_invoke(unsigned n); // fib(n), parallel_invoke of the two children per call
std::uint64_t measured_block(unsigned n);  // fib(n), a task block per call: one child run, one inline
std::uint64_t measured_for(unsigned n);    // parallel_for over n elements, grain 16: +1 to each
}

#endif // header
