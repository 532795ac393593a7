// Copyright (C) 2026 The Boost.ForkJoin authors.
//
//  Distributed under the Boost Software License, Version 1.0. (See accompanying
//  file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// White-box: the exceptions of one fork/join scope (detail/fork_join/invoke/exception_collector.hpp).
// Its members are built by the first record only, and one state byte says what was recorded;
// this test attacks that shortcut: random sequences of records (null and non-null exceptions,
// interruptions, collectors absorbed in any state) must report exactly what a plain model
// reports, and records that find no memory must still be reported, as a std::bad_alloc. This
// program replaces the global operator new to make allocations of the testing thread fail on
// demand (replaced_operator_new.hpp); AddressSanitizer's build reports a member leaked or
// destroyed twice.

#define BOOST_TEST_MODULE detail_exception_collector
#include "../replaced_operator_new.hpp"
#include "../watchdog.hpp"

#include <boost/thread/executors/detail/fork_join/invoke/exception_collector.hpp>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// How many allocations of this thread succeed before the next one fails (negative: all do),
// and how many failed.
thread_local long allocations_left = -1;
thread_local long failed_allocations = 0;

} // namespace

void* test_operator_new_nothrow(std::size_t n, std::size_t alignment) noexcept
{
  if (allocations_left == 0)
  {
    ++failed_allocations;
    return nullptr;
  }
  if (allocations_left > 0)
    --allocations_left;
  return fj_test::malloc_block(n, alignment);
}

void* test_operator_new(std::size_t n, std::size_t alignment)
{
  if (void* p = test_operator_new_nothrow(n, alignment))
    return p;
  throw std::bad_alloc();
}

namespace {

namespace fj = boost::detail::fork_join;
using boost::experimental::parallel::exception_list;

struct numbered : std::runtime_error
{
  explicit numbered(int i) : std::runtime_error(std::to_string(i)), number(i) {}
  int number;
};

boost::exception_ptr make_error(int i)
{
  return boost::copy_exception(numbered(i));
}

// What a collector must report: an interruption, or the numbers of the exceptions in the
// order recorded (and whether one record found no memory).
struct model
{
  bool interrupted = false;
  std::vector<int> numbers;
  bool lost = false;
};

// The numbers in `list` (a std::bad_alloc as -1).
std::vector<int> numbers_of(const exception_list& list)
{
  std::vector<int> out;
  for (const boost::exception_ptr& e : list)
  {
    try
    {
      boost::rethrow_exception(e);
    }
    catch (const numbered& x)
    {
      out.push_back(x.number);
    }
    catch (const std::bad_alloc&)
    {
      out.push_back(-1);
    }
  }
  return out;
}

// Checks that rethrow() reports what m says.
void check_reports(fj::exception_collector& c, const model& m)
{
  std::vector<int> expected = m.numbers;
  if (m.lost)
    expected.push_back(-1);
  try
  {
    c.rethrow();
    BOOST_TEST(!m.interrupted);
    BOOST_TEST(expected.empty());
  }
  catch (const boost::thread_interrupted&)
  {
    BOOST_TEST(m.interrupted);
  }
  catch (const exception_list& list)
  {
    BOOST_TEST(!m.interrupted);
    const std::vector<int> got = numbers_of(list);
    BOOST_TEST(got == expected, "got " << got.size() << " exceptions, expected " << expected.size());
  }
}

// Records into c (and m) what a random step says; `next` numbers the exceptions.
void random_step(std::mt19937& rng, fj::exception_collector& c, model& m, int& next, int depth);

// Fills a collector with a few random steps, absorbs it into c, and checks that it is left
// empty.
void absorb_random(std::mt19937& rng, fj::exception_collector& c, model& m, int& next, int depth)
{
  fj::exception_collector other;
  model o;
  const int steps = static_cast<int>(rng() % 5);
  for (int i = 0; i < steps; ++i)
    random_step(rng, other, o, next, depth + 1);
  c.absorb(other);
  m.interrupted = m.interrupted || o.interrupted;
  m.numbers.insert(m.numbers.end(), o.numbers.begin(), o.numbers.end());
  check_reports(other, model());
}

void random_step(std::mt19937& rng, fj::exception_collector& c, model& m, int& next, int depth)
{
  switch (rng() % (depth < 2 ? 5 : 4))
  {
  case 0:
    c.add(boost::exception_ptr());
    break;
  case 1:
    c.interrupted();
    m.interrupted = true;
    break;
  case 2:
  case 3:
    c.add(make_error(next));
    m.numbers.push_back(next++);
    break;
  default:
    absorb_random(rng, c, m, next, depth);
  }
}

BOOST_AUTO_TEST_CASE(a_collector_that_recorded_nothing_throws_nothing)
{
  fj::exception_collector c;
  for (int i = 0; i < 3; ++i)
    c.add(boost::exception_ptr());
  BOOST_CHECK_NO_THROW(c.rethrow());
  fj::exception_collector empty;
  c.absorb(empty);
  BOOST_CHECK_NO_THROW(c.rethrow());
}

BOOST_AUTO_TEST_CASE(an_interruption_alone_and_with_exceptions_is_rethrown_as_itself)
{
  fj::exception_collector alone;
  alone.interrupted();
  BOOST_CHECK_THROW(alone.rethrow(), boost::thread_interrupted);
  fj::exception_collector both;
  both.add(make_error(1));
  both.interrupted();
  both.add(make_error(2));
  BOOST_CHECK_THROW(both.rethrow(), boost::thread_interrupted);
}

// The shortcut's assumption, attacked: whatever sequence of records, absorbed collectors
// included, the state byte and the members built agree with what was recorded.
BOOST_AUTO_TEST_CASE(random_records_report_what_a_plain_model_reports)
{
  std::mt19937 rng(20261129);
  for (int round = 0; round < 2000; ++round)
  {
    fj::exception_collector c;
    model m;
    int next = 0;
    const int steps = static_cast<int>(rng() % 12);
    for (int i = 0; i < steps; ++i)
      random_step(rng, c, m, next, 0);
    check_reports(c, m);
  }
}

// Makes the allocations of this thread fail after `n` more, until the guard ends.
class allocations_fail_after
{
public:
  explicit allocations_fail_after(long n) noexcept { allocations_left = n; }
  ~allocations_fail_after() { allocations_left = -1; }
  allocations_fail_after(const allocations_fail_after&) = delete;
  allocations_fail_after& operator=(const allocations_fail_after&) = delete;
};

// A record that finds no memory is reported as a std::bad_alloc, after the exceptions recorded
// before it, whichever allocation of the records fails (once one fails, every later one does).
BOOST_AUTO_TEST_CASE(a_record_without_memory_is_reported_as_bad_alloc)
{
  const boost::exception_ptr errors[] = {make_error(0), make_error(1), make_error(2), make_error(3)};
  for (long fail_at = 0; fail_at < 16; ++fail_at)
  {
    fj::exception_collector c;
    bool failed = false;
    {
      const allocations_fail_after guard(fail_at);
      failed_allocations = 0;
      for (const boost::exception_ptr& e : errors)
        c.add(e);
      failed = failed_allocations != 0;
    }
    std::vector<int> got;
    try
    {
      c.rethrow();
    }
    catch (const exception_list& list)
    {
      got = numbers_of(list);
    }
    // The records before the failure, in order, then the lost one; or all four.
    std::vector<int> expected;
    const int kept = failed ? static_cast<int>(got.size()) - 1 : 4;
    for (int i = 0; i < kept && i < 4; ++i)
      expected.push_back(i);
    if (failed)
      expected.push_back(-1);
    BOOST_TEST(got == expected, "fail_at " << fail_at << ": " << got.size() << " reported");
    if (fail_at == 0)
      BOOST_TEST(failed); // the first record's list already finds no memory
  }
}

// When even the report's list cannot be made, the std::bad_alloc is thrown alone.
BOOST_AUTO_TEST_CASE(a_report_without_memory_throws_bad_alloc_alone)
{
  fj::exception_collector c;
  const boost::exception_ptr error = make_error(7);
  bool bad_alloc = false;
  {
    const allocations_fail_after guard(0);
    c.add(error); // the list cannot be made: recorded as lost
    try
    {
      c.rethrow(); // makes the list for the lost one: fails too
    }
    catch (const std::bad_alloc&)
    {
      bad_alloc = true;
    }
    catch (...)
    {
    }
  }
  BOOST_TEST(bad_alloc);
}

} // namespace
