// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Matrix multiplication, the matmul kernel of libfork's benchmark suite
// (https://github.com/ConorWilliams/libfork, bench/): C += A B for n x n matrices by recursive
// divide and conquer, written here from that description. Each matrix is split into quadrants;
// C11 += A11 B11, C12 += A11 B12, C21 += A21 B11 and C22 += A21 B12 run as four parallel
// sub-multiplies and are joined, then C11 += A12 B21, C12 += A12 B22, C21 += A22 B21 and
// C22 += A22 B22 as four more: two phases, so that no two sub-multiplies that may run at once
// write the same quadrant. Below a cutoff a serial i-k-j triple loop does the work, so a task
// carries tens of microseconds of arithmetic and the time is mostly that arithmetic and the
// memory traffic: the one kernel of the suite where a fork is cheap beside its task.
//
// Every element of C receives its additions in increasing k, phase 1's half of k before phase
// 2's, whatever runs in parallel, which is also the order of a plain i-k-j loop over the whole
// matrices: every peer's C, and that loop's, are equal bit for bit, and the answer is a digest
// of C's bits.
//
// double, not libfork's float: values in [0, 1) make every addition round, so the bit-for-bit
// check also tests the order of the additions, and double is what dense linear algebra mostly
// multiplies. Matrices are row-major with one leading dimension (the full row length), so a
// quadrant is a pointer into its matrix, not a copy.

#ifndef BOOST_FORK_JOIN_BENCH_MATMUL_MATMUL_HPP
#define BOOST_FORK_JOIN_BENCH_MATMUL_MATMUL_HPP

#include "../bench.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

namespace bench {
namespace matmul {

  // n = 1024: the serial peer takes about 0.12 s per run on the 2-core VM (2 GFLOP), well under
  // the 1.5 s that would call for a smaller n; 4096 leaf multiplies, 3510 forks. --quick:
  // n = 256, the smallest that still splits twice above the cutoff (64 leaves, 54 forks).
  inline std::size_t size(scale s) { return s == scale::quick ? 256 : 1024; }

  // Sub-multiplies of n <= cutoff run the serial loop. Measured serially at n = 1024 (-O3, SSE2):
  // cutoff 16 took 186 ms, 32 took 148 ms, 64 took 122 ms and 128 took 123 ms: below 64 the
  // short inner rows and the recursion cost time, above it nothing more is gained, and 64
  // leaves 4096 tasks of about 30 us, slack enough for any thread count this machine has. The
  // digest was the same at every cutoff, as the order of the additions says it must be.
  inline constexpr std::size_t cutoff = 64;

  // Returns: the matrix x[i], i < n * n, pseudo-random values in [0, 1) (53 random bits each),
  // the same for every call; `seed` tells A from B.
  inline std::vector<double> random_matrix(std::size_t n, std::uint64_t seed)
  {
    std::vector<double> m(n * n);
    for (std::size_t i = 0; i < m.size(); ++i)
      m[i] = static_cast<double>(splitmix64(seed * n * n + i) >> 11) * 0x1p-53;
    return m;
  }

  // Returns: an order-dependent checksum of c's bits: equal for two matrices only if (barring a
  // collision) they hold the same doubles, bit for bit, in the same places.
  inline std::uint64_t digest(const std::vector<double>& c)
  {
    std::uint64_t h = 0;
    for (double x : c)
    {
      std::uint64_t b;
      std::memcpy(&b, &x, sizeof b);
      h = splitmix64(h ^ b);
    }
    return h;
  }

  // What a peer multiplies: A and B made once, C cleared before every run (outside the timing).
  struct matrices
  {
    explicit matrices(std::size_t n) : n(n), a(random_matrix(n, 0)), b(random_matrix(n, 1)), c(n * n) {}

    void reset() { std::fill(c.begin(), c.end(), 0.0); }

    std::uint64_t digest() const { return matmul::digest(c); }

    std::size_t n;
    std::vector<double> a, b, c;
  };

  // Effects: c += a b for the n x n matrices at a, b, c, whose rows are ld elements apart; the
  // i-k-j loop: the innermost loop runs along a row of b and of c, contiguous, and vectorizes.
  // noinline: every peer runs the same machine code for it (one out-of-line copy), so a peer's
  // time does not depend on how the compiler lays the loop out beside that peer's scheduling
  // code (as sort.hpp's leaf; doc/benchmark/README.md, "Traces off and on"). aligned(64): it
  // starts on a cache line, so that its loops' speed does not depend on where the linker puts
  // it (the serial time went from 120-129 ms to 143-159 ms between two builds of the same code).
  __attribute__((noinline, aligned(64))) inline void multiply_leaf(const double* __restrict a, const double* __restrict b,
                                                      double* __restrict c, std::size_t n, std::size_t ld)
  {
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t k = 0; k < n; ++k)
      {
        const double aik = a[i * ld + k];
        for (std::size_t j = 0; j < n; ++j)
          c[i * ld + j] += aik * b[k * ld + j];
      }
  }

  // One sub-multiply: c += a b for the (n / 2) x (n / 2) quadrants at a, b, c.
  struct product
  {
    const double* a;
    const double* b;
    double* c;
  };

  // Returns: phase p's four sub-multiplies of c += a b for the n x n matrices at a, b, c (rows
  // ld apart): with quadrants counted from 0, C(i, j) += A(i, p) B(p, j) for (i, j) = (0, 0),
  // (0, 1), (1, 0), (1, 1), that is C11, C12, C21, C22 in that order; each writes a quadrant of
  // c of its own. Phase 0 takes A's left quadrants and B's top ones, phase 1 the others.
  inline std::array<product, 4> phase(const double* a, const double* b, double* c, std::size_t n, std::size_t ld,
                                      std::size_t p)
  {
    const std::size_t h = n / 2;
    auto at = [h, ld](auto* m, std::size_t row, std::size_t col) { return m + row * h * ld + col * h; };
    return {product{at(a, 0, p), at(b, p, 0), at(c, 0, 0)}, product{at(a, 0, p), at(b, p, 1), at(c, 0, 1)},
            product{at(a, 1, p), at(b, p, 0), at(c, 1, 0)}, product{at(a, 1, p), at(b, p, 1), at(c, 1, 1)}};
  }

  // Effects: c += a b for n a power of two (n x n matrices, rows ld apart), with
  // join4(f1, f2, f3, f4): runs the four callables, possibly in parallel (f1 .. f3 are offered
  // to other threads, f4 runs inline), and returns when all have finished; the one thing a peer
  // on a fork/join primitive supplies. A phase's sub-multiplies go to join4 last first, so that
  // on one thread a peer that runs f4 inline and then the offered ones newest first (every
  // peer's deque) runs them in the serial peer's order, as libfork, which runs a forked child
  // at once, does: in the reverse order the same work took 2.5% longer at one thread
  // (doc/benchmark/README.md, "libfork in the same run").
  template <class Join4>
  void multiply(const double* a, const double* b, double* c, std::size_t n, std::size_t ld, Join4& join4)
  {
    if (n <= cutoff)
      return multiply_leaf(a, b, c, n, ld);
    for (std::size_t p = 0; p < 2; ++p)
    {
      const std::array<product, 4> q = phase(a, b, c, n, ld, p);
      auto sub = [&](const product& x) { return [&x, n, ld, &join4] { multiply(x.a, x.b, x.c, n / 2, ld, join4); }; };
      join4(sub(q[3]), sub(q[2]), sub(q[1]), sub(q[0]));
    }
  }

  // Effects: multiply(...) over the whole of m.
  template <class Join4>
  void multiply(matrices& m, Join4& join4)
  {
    multiply(m.a.data(), m.b.data(), m.c.data(), m.n, m.n, join4);
  }

  // Effects: what every peer's run(cfg) does once it has set up its threads: cfg.runs runs of
  // body(m), timed, on matrices m made once, C cleared before each run outside the timing; each
  // run is reported with C's digest. The untimed steps (making m, clearing C, the digest) run as
  // on_root_thread(f) runs f(): where the peer's root runs, so that the thread that multiplies
  // finds the matrices in its own core's caches, as serial, oneTBB and OpenMP find them on
  // the main thread. With C cleared by another core, the serial multiply alone, no pool, takes
  // 1.05-1.06 times as long on a thread the main thread wakes, and 1.00 times when that
  // thread clears C itself (fork_join_data_placement_bench, data_placement.cpp;
  // doc/benchmark/README.md, "Where matmul's matrices are written").
  template <class Body, class OnRootThread>
  void measure(const config& cfg, Body body, OnRootThread on_root_thread)
  {
    std::unique_ptr<matrices> m;
    on_root_thread([&] { m.reset(new matrices(size(cfg.scale))); });
    std::uint64_t answer = 0;
    bench::measure(
        cfg, [&] { on_root_thread([&] { m->reset(); }); }, [&] { body(*m); },
        [&] {
          on_root_thread([&] { answer = m->digest(); });
          return answer;
        });
  }

  // Effects: measure(cfg, body, on_root_thread) for a peer whose root runs on the calling
  // (main) thread.
  template <class Body>
  void measure(const config& cfg, Body body)
  {
    measure(cfg, body, [](auto&& f) { f(); });
  }

} // namespace matmul
} // namespace bench

#endif // header
