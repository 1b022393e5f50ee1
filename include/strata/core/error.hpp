/// @file
/// The exception hierarchy: every error strata reports names the operation and the bad argument.
#pragma once

#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace strata {

/// Base of every exception strata throws; `what()` reads `operation: description`.
///
/// @code
/// try { d.transpose({0, 0, 2}); }
/// catch (const strata::Error& e) { e.operation(); /* "transpose" */ }
/// @endcode
class Error : public std::runtime_error {
 public:
  /// Builds an error raised by @p operation, described by @p description.
  /// @param operation the public operation that rejected its input, for example `"transpose"`
  /// @param description what was wrong and what would have been valid
  Error(std::string operation, const std::string& description)
      : std::runtime_error(operation + ": " + description), operation_(std::move(operation)) {}

  /// The name of the operation that raised the error.
  /// @return the operation name given at construction
  [[nodiscard]] const std::string& operation() const noexcept { return operation_; }

  /// What was wrong, without the operation's name: `what()` after `operation: `. An operation
  /// that calls another and reports its error under its own name passes this on.
  /// @return the description given at construction
  [[nodiscard]] std::string_view description() const noexcept {
    return std::string_view(what()).substr(operation_.size() + 2);
  }

 private:
  std::string operation_;
};

/// Bad extents, rank mismatch, size overflow, or an argument that is not a valid shape.
class ShapeError : public Error {
 public:
  using Error::Error;
};

/// An index, axis or selector outside the valid range.
class IndexError : public Error {
 public:
  using Error::Error;
};

/// Extents that cannot be broadcast against each other.
class BroadcastError : public Error {
 public:
  using Error::Error;
};

/// A view that cannot be expressed without copying, or a write that the layout forbids.
class LayoutError : public Error {
 public:
  using Error::Error;
};

/// An element type that an operation cannot take or convert to (a file's stored type that HDF5
/// cannot convert to the one asked for, a dtype strata does not have).
class TypeError : public Error {
 public:
  using Error::Error;
};

/// A file that cannot be opened, read or written: missing, not in the expected format,
/// truncated, opened read-only, or an object in it that is missing or exists already. The message
/// names the file, the object and what the file library said.
class IOError : public Error {
 public:
  using Error::Error;
};

namespace detail {

/// Throws @p E for @p operation with a description streamed from @p parts.
template <class E, class... Parts>
[[noreturn]] void fail(std::string_view operation, const Parts&... parts) {
  std::ostringstream description;
  (description << ... << parts);
  throw E(std::string(operation), description.str());
}

/// An exception caught on a cold path of element access, waiting for its caller to rethrow it.
///
/// Why: a call that may throw and then return into the user's loop gives the loop an
/// exception edge, and GCC then keeps the loop's floating-point accumulators in memory (x86-64
/// has no callee-saved vector registers, and GCC does not split their live ranges across such
/// edges): `total += t(i, j)` ran 5x slower than the pointer loop. The slow paths (a buffer
/// without an array, the general map) are therefore `noexcept`: they catch, park the exception
/// here and report failure, and the inline caller rethrows it through rethrow_pending(), a
/// call that never returns (and so adds no edge back into the loop).
inline thread_local std::exception_ptr pending_exception;  // NOLINT(*-non-const-global-variables)

/// Parks the exception being handled in pending_exception (call from a `catch (...)` block).
inline void park_exception() noexcept {
  pending_exception = std::current_exception();
}

/// Rethrows the exception parked by park_exception().
[[noreturn, gnu::noinline, gnu::cold]] inline void rethrow_pending() {
  std::rethrow_exception(std::exchange(pending_exception, nullptr));
}

}  // namespace detail
}  // namespace strata
