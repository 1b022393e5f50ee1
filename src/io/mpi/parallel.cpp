// Parallel HDF5 (strata/io/parallel.hpp): files opened through MPI-IO, DistTensors transferred
// in collective rounds. Compiled, with src/io/hdf5.cpp, against Debian's parallel HDF5 into
// strata::hdf5_mpi.
#include "strata/io/parallel.hpp"

#include "../internal.hpp"

#include <hdf5.h>

#include <algorithm>
#include <string>
#include <vector>

namespace strata::io {

using internal::checked;

File open_collective(MPI_Comm comm, const std::string& filename, Mode mode) {
  internal::quiet();
  const detail::Handle access(H5Pcreate(H5P_FILE_ACCESS));
  checked(H5Pset_fapl_mpio(access.id(), comm, MPI_INFO_NULL), "open_collective",
          "cannot use MPI-IO for '" + filename + "'");
  // Metadata written collectively (every change is collective anyway), read independently: a
  // dataset may be opened and read by some ranks only (collective metadata reads would make
  // every rank wait for the others' reads).
  // The file closes with its last object, as serial files do (MPI-IO's default is "semi":
  // closing the file's own identifier while groups are open would fail and lose what they
  // wrote since the last flush).
  checked(H5Pset_fclose_degree(access.id(), H5F_CLOSE_WEAK), "open_collective",
          "cannot ask for a weak close of '" + filename + "'");
  H5Pset_coll_metadata_write(access.id(), true);
  return detail::file_from_handle(filename, mode, internal::open_root(filename, mode, access.id()));
}

void detail::transfer_collective(const Handle& dataset, const std::string& where,
                                 std::vector<TilePart>& parts, DType type, bool write,
                                 MPI_Comm comm) {
  const std::string_view op = write ? "Dataset::write" : "Dataset::read_into";
  internal::check_convertible(op, internal::stored_dtype(dataset.id()), type, where, !write);
  long long mine = static_cast<long long>(parts.size());
  long long rounds = 0;
  MPI_Allreduce(&mine, &rounds, 1, MPI_LONG_LONG, MPI_MAX, comm);
  const Handle transfer(H5Pcreate(H5P_DATASET_XFER));
  checked(H5Pset_dxpl_mpio(transfer.id(), H5FD_MPIO_COLLECTIVE), op,
          "cannot ask for collective transfers of " + where);
  const Handle mtype = internal::memory_type(type);
  const hsize_t one = 1;
  double dummy = 0;
  for (long long r = 0; r < rounds; ++r) {
    const auto p = static_cast<std::size_t>(r);
    const bool has = p < parts.size() && parts[p].block != nullptr;
    internal::Spaces s;
    void* block = &dummy;
    if (has) {
      s = internal::spaces(dataset.id(), parts[p].transfer, op, where);
      block = parts[p].block;
    } else {
      // This rank has no tile this round: it takes part with nothing selected.
      s.file = Handle(H5Dget_space(dataset.id()));
      H5Sselect_none(s.file.id());
      s.memory = Handle(H5Screate_simple(1, &one, nullptr));
      H5Sselect_none(s.memory.id());
    }
    const herr_t status =
        write ? H5Dwrite(dataset.id(), mtype.id(), s.memory_id(), s.file_id(), transfer.id(), block)
              : H5Dread(dataset.id(), mtype.id(), s.memory_id(), s.file_id(), transfer.id(), block);
    checked(status, op, std::string(write ? "cannot write " : "cannot read ") + where);
  }
}

}  // namespace strata::io
