// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// What the libfork peers share: the library's header, its version, and its two schedulers.
//
// libfork (C. Williams, https://github.com/ConorWilliams/libfork; "Libfork: portable
// continuation-stealing with stackless coroutines", arXiv:2402.18480) is a C++20 coroutine
// library that Debian does not package. CMakeLists.txt builds these peers, as C++20, only when it
// finds libfork: its CMake package, or its single header (libfork.hpp) in LIBFORK_INCLUDE_DIR.
// Each kernel is written as libfork's own benchmarks (its bench/source/<kernel>/libfork.cpp)
// write it, in the shape of the oneTBB task_group peers: `lf::fork` for every child but the last,
// `lf::call` for the last, then `lf::join`; on nqueens `lf::fork` for every child.
// Two peers per kernel, one per scheduler of libfork's: libfork_busy (lf::busy_pool, whose
// workers spin while they find no task) and libfork_lazy (lf::lazy_pool, whose workers sleep).

#ifndef BOOST_FORK_JOIN_BENCH_LIBFORK_PEER_HPP
#define BOOST_FORK_JOIN_BENCH_LIBFORK_PEER_HPP

#include "bench.hpp"

#if __has_include(<libfork.hpp>)
#include <libfork.hpp>
#else
#include <libfork/core.hpp>
#include <libfork/schedule.hpp>
#endif

namespace bench {
namespace libfork_peer {

  // Returns: how = lf::fork or lf::call bound to a return address and an async function
  // (`co_await bind(lf::fork, &r, f)(args...)`): libfork's operator[] where the compiler has
  // C++23's multidimensional subscript (GCC 13 and later), its operator() before.
  template <class How, class... Bound>
  auto bind(const How& how, Bound... bound)
  {
#if defined(__cpp_multidimensional_subscript) && __cpp_multidimensional_subscript >= 202211L
    return how[bound...];
#else
    return how(bound...);
#endif
  }

  // Registers run<lf::busy_pool> and run<lf::lazy_pool> as the peers libfork_busy and
  // libfork_lazy of one workload; run<Pool>(cfg) makes a Pool of cfg.threads workers.
  struct registrations
  {
    registrations(const char* workload, void (*busy)(const config&), void (*lazy)(const config&))
        : busy_{workload, "libfork_busy", busy}, lazy_{workload, "libfork_lazy", lazy}
    {
    }

  private:
    peer_registration busy_, lazy_;
  };

} // namespace libfork_peer
} // namespace bench

#endif // header
