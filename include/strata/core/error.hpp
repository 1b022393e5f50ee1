/// @file
/// The exception hierarchy: every error strata reports names the operation and the bad argument.
#pragma once

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

namespace detail {

/// Throws @p E for @p operation with a description streamed from @p parts.
template <class E, class... Parts>
[[noreturn]] void fail(std::string_view operation, const Parts&... parts) {
  std::ostringstream description;
  (description << ... << parts);
  throw E(std::string(operation), description.str());
}

}  // namespace detail
}  // namespace strata
