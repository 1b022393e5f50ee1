/// @file
/// Parallel HDF5: distributed tensors written to and read from one dataset collectively.
///
/// A file opened with open_collective() is one file for every rank of a communicator (HDF5's
/// MPI-IO driver). `f.write(name, a)` of a DistTensor creates one dataset of its shape and every
/// rank writes its own tiles as hyperslabs; `dataset.read_into(a)` reads any dataset (or view
/// of one) into a DistTensor of any tiling and distribution, every rank reading its own tiles.
/// The transfers are collective MPI-IO: in each round every rank transfers one of its tiles
/// (ranks with fewer tiles take part with empty selections), so MPI-IO can merge the ranks'
/// pieces into large contiguous requests.
///
/// @code
/// auto f = strata::io::open_collective(MPI_COMM_WORLD, "field.h5", strata::io::Mode::truncate);
/// f.write("u", a);                                    // a DistTensor<double>, any tiling
/// f.dataset("u").read_into(b);                        // another tiling, other owners
/// @endcode
///
/// Every call is collective: every rank of the communicator makes it, with the same arguments
/// (names, options, shapes). Link the target `strata::hdf5_mpi` (strata's io built on Debian's
/// parallel HDF5, libhdf5-openmpi-dev) instead of strata::hdf5, not both.
#pragma once

#include "strata/dist/tensor.hpp"
#include "strata/io/hdf5.hpp"

#include <mpi.h>

#include <string>
#include <vector>

namespace strata::io {

/// Opens or creates a file on every rank of @p comm together (collective; HDF5's MPI-IO
/// driver). Groups, attributes and datasets of it are created by every rank with the same
/// arguments; DistTensors are written and read collectively.
/// @param comm the communicator (every rank calls)
/// @param filename the path, the same on every rank
/// @param mode how (as for File)
/// @return the file's root group
/// @throws IOError as File's constructor, on every rank
File open_collective(MPI_Comm comm, const std::string& filename, Mode mode = Mode::read);

namespace detail {

/// One tile's transfer: the plan of its view of the dataset and its block in memory.
struct TilePart {
  Transfer transfer;  ///< the selection and the block's layout
  void* block;        ///< the block (transfer.block's shape); null for a tile without elements
};

/// The selectors of tile @p t's box `[lo, hi)` of a distributed tensor.
template <class T>
std::vector<Selector> tile_box(const dist::DistTensor<T>& a, index_t t) {
  const Index lo = a.tiling().tile_lo(t);
  const Index hi = a.tiling().tile_hi(t);
  std::vector<Selector> box;
  for (std::size_t k = 0; k < lo.size(); ++k) {
    box.emplace_back(Range{lo[k], hi[k]});
  }
  return box;
}

/// Reads (or writes, @p write) every part of every rank in collective rounds.
void transfer_collective(const Handle& dataset, const std::string& where,
                         std::vector<TilePart>& parts, DType type, bool write, MPI_Comm comm);

}  // namespace detail

template <class T>
Dataset Group::write(const std::string& name, const dist::DistTensor<T>& a,
                     const WriteOptions& options) const {
  return publish(name, options, [&](const Group& parent, const std::string& leaf) {
    Dataset d = parent.create_dataset(leaf, a.shape(), dtype_of<T>(), unlinked(options));
    std::vector<Tensor<T>> blocks;
    std::vector<detail::TilePart> parts;
    const Dimensions whole(a.shape());
    for (const index_t t : a.local_tiles()) {
      const auto transfer = detail::plan_transfer(a.shape(), whole.select(detail::tile_box(a, t)));
      const Tensor<const T> tile = a.tile(t);
      if (tile.size() == 0) {
        parts.push_back({transfer, nullptr});
        continue;
      }
      // A crop of the dataset is one row-major block: a tile without ghosts is written as it
      // lies (HDF5 only reads it), one with ghosts is copied out first.
      blocks.push_back(tile.is_contiguous() ? Tensor<T>(tile.buffer(), tile.dims()) : tile.copy());
      parts.push_back({transfer, blocks.back().data()});
    }
    detail::transfer_collective(d.handle_, d.where(), parts, dtype_of<T>(), true, a.comm());
    return d;
  });
}

template <class T>
void Dataset::read_into(dist::DistTensor<T>& a) const {
  check_destination(a.shape(), true);
  std::vector<Tensor<T>> blocks;
  std::vector<detail::TilePart> parts;
  std::vector<Tensor<T>> tiles;
  for (const index_t t : a.local_tiles()) {
    auto transfer = detail::plan_transfer(file_shape_, view_.select(detail::tile_box(a, t)));
    tiles.push_back(a.tile(t));
    if (tiles.back().size() == 0) {
      blocks.emplace_back();
      parts.push_back({std::move(transfer), nullptr});
      continue;
    }
    // Straight into the tile when HDF5's block is the tile's row-major order.
    const bool direct = transfer.direct && tiles.back().is_contiguous();
    blocks.push_back(direct ? tiles.back() : Tensor<T>::for_overwrite(transfer.block));
    parts.push_back({std::move(transfer), blocks.back().data()});
  }
  detail::transfer_collective(handle_, where(), parts, dtype_of<T>(), false, a.comm());
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const detail::Transfer& transfer = parts[p].transfer;
    Tensor<T> tile = tiles[p].with_origin(Index(static_cast<std::size_t>(tiles[p].rank()), 0));
    if (tile.size() == 0 || (transfer.direct && tiles[p].is_contiguous())) {
      continue;
    }
    if (transfer.hyperslab) {
      tile.assign(Tensor<const T>(blocks[p].buffer(), transfer.memory));
    } else {
      auto gathered = Tensor<T>::for_overwrite(tile.shape());
      T* g = gathered.data();
      const T* b = blocks[p].data();
      for (std::size_t i = 0; i < transfer.gather.size(); ++i) {
        g[i] = b[transfer.gather[i]];
      }
      tile.assign(gathered);
    }
  }
}

}  // namespace strata::io
