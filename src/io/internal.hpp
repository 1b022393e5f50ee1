// Helpers shared by strata's HDF5 sources (src/io/hdf5.cpp and the parallel
// src/io/mpi/parallel.cpp): HDF5's errors as strata's, element types, dataspaces of a transfer.
// Not installed; includes <hdf5.h>.
#pragma once

#include "strata/io/hdf5.hpp"

#include <hdf5.h>

#include <string>
#include <string_view>

namespace strata::io::internal {

/// Turns off HDF5's printing of its error stack (once).
void quiet();
/// What HDF5 said about its last failure; clears its error stack.
std::string hdf5_says();
/// Throws IOError for @p operation: @p what, and what HDF5 said.
[[noreturn]] void fail_io(std::string_view operation, const std::string& what);

/// @p id, or an IOError for @p operation when it is negative (HDF5's failure).
template <class I>
I checked(I id, std::string_view operation, const std::string& what) {
  if (id < 0) {
    fail_io(operation, what);
  }
  return id;
}

/// The HDF5 type of a DType in memory.
detail::Handle memory_type(DType type);
/// The DType of a dataset's stored elements.
DType stored_dtype(hid_t dataset);
/// Throws TypeError unless HDF5 converts @p stored to @p asked as strata documents.
void check_convertible(std::string_view operation, DType stored, DType asked,
                       const std::string& where, bool reading);

/// The file and memory dataspaces of a transfer (H5S_ALL for a whole dataset).
struct Spaces {
  detail::Handle file, memory;
  [[nodiscard]] hid_t file_id() const { return file.id() < 0 ? H5S_ALL : file.id(); }
  [[nodiscard]] hid_t memory_id() const { return memory.id() < 0 ? H5S_ALL : memory.id(); }
};
/// The dataspaces of @p t over @p dataset.
Spaces spaces(hid_t dataset, const detail::Transfer& t, std::string_view operation,
              const std::string& where);

/// Opens or creates @p filename with the file access list @p access and returns its root group.
detail::Handle open_root(const std::string& filename, Mode mode, std::int64_t access);

}  // namespace strata::io::internal
