/// @file
/// The member functions of strata::dist::DistTensor (included by strata/dist/tensor.hpp).
#pragma once

#include "strata/dist/tensor.hpp"
#include "strata/shape/smooth.hpp"
#include "strata/tensor/algorithms.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <thread>

namespace strata::dist {

/// @cond INTERNAL
namespace detail {

template <class F>
void collectively(MPI_Comm comm, std::string_view operation, F&& f) {
  std::exception_ptr error;
  try {
    f();
  } catch (...) {
    error = std::current_exception();
  }
  int failed = error ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
  if (error) {
    std::rethrow_exception(error);
  }
  if (any != 0) {
    strata::detail::fail<CollectiveError>(operation,
                                          "failed on another rank (its exception says why)");
  }
}

/// The lowest and one past the highest address a strided map reaches from @p base.
template <class T>
std::pair<std::uintptr_t, std::uintptr_t> address_range(const T* base, IndexSpan strides,
                                                        IndexSpan sizes) {
  index_t low = 0;
  index_t high = 0;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const index_t reach = strides[k] * (sizes[k] - 1);
    (reach < 0 ? low : high) += reach;
  }
  const auto at = reinterpret_cast<std::uintptr_t>(base);
  const auto bytes = static_cast<index_t>(sizeof(T));
  return {at + static_cast<std::uintptr_t>(low * bytes),
          at + static_cast<std::uintptr_t>((high + 1) * bytes)};
}

/// Calls `row(to, to_step, from, from_step, count)` for the rows of two strided sides of one
/// shape (each size >= 1): a plain odometer over the outer axes, axes of extent 1 dropped
/// first, so that a column (n x 1) is one strided run, not n runs of one. For the usual small
/// patch this costs less than planning a kernel's path.
template <class T, class U, class Row>
void walk_row_pairs(T* dst, IndexSpan dst_strides, U* src, IndexSpan src_strides, IndexSpan sizes,
                    Row&& row) {
  Index extent;
  Index to_stride;
  Index from_stride;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    if (sizes[k] != 1) {
      extent.push_back(sizes[k]);
      to_stride.push_back(dst_strides[k]);
      from_stride.push_back(src_strides[k]);
    }
  }
  const std::size_t rank = extent.size();
  if (rank == 0) {
    row(dst, index_t{1}, src, index_t{1}, index_t{1});
    return;
  }
  const index_t inner = extent[rank - 1];
  const index_t dst_step = to_stride[rank - 1];
  const index_t src_step = from_stride[rank - 1];
  Index at(rank - 1, 0);  // the position along the outer axes
  index_t to = 0;
  index_t from = 0;
  for (;;) {
    row(dst + to, dst_step, src + from, src_step, inner);
    std::size_t k = rank - 1;
    for (; k-- > 0;) {
      to += to_stride[k];
      from += from_stride[k];
      if (++at[k] < extent[k]) {
        break;
      }
      to -= to_stride[k] * extent[k];
      from -= from_stride[k] * extent[k];
      at[k] = 0;
    }
    if (k == static_cast<std::size_t>(-1)) {  // every outer axis wrapped: done
      return;
    }
  }
}

/// dst[sum(i[k] * dst_strides[k])] = src[sum(i[k] * src_strides[k])] for every i < sizes (each
/// size >= 1, the two sides apart). Parts of at least @p policy's grain go to the copy kernel
/// (its threads, blocked transposes); smaller ones, the usual patch, are rows walked by
/// walk_row_pairs().
template <class T>
void copy_between(const Parallel& policy, T* dst, IndexSpan dst_strides, const T* src,
                  IndexSpan src_strides, IndexSpan sizes) {
  const index_t n = std::accumulate(sizes.begin(), sizes.end(), index_t{1}, std::multiplies<>());
  if (n >= policy.grain) {
    copy_arrays(policy, dst, Dimensions(sizes, dst_strides), src, Dimensions(sizes, src_strides));
    return;
  }
  walk_row_pairs(dst, dst_strides, src, src_strides, sizes,
                 [](T* to, index_t to_step, const T* from, index_t from_step, index_t count) {
                   if (to_step == 1 && from_step == 1) {
                     std::copy_n(from, count, to);
                   } else {
                     for (index_t i = 0; i < count; ++i) {
                       to[i * to_step] = from[i * from_step];
                     }
                   }
                 });
}

/// dst[i] = combine(dst[i], src[i]) over two strided sides as copy_between() (the two sides
/// apart): an accumulate into a shared-memory window, under the tile's lock. Parts of at least
/// the grain, when @p policy allows several threads, are split by elements over them (the loop
/// is bound by memory: two threads of SSE2 move a 64 MiB patch as fast as one of AVX-512).
/// Otherwise contiguous rows of at least 64 elements go to `MPI_Reduce_local` with @p op, MPI's
/// own vectorised loops (Open MPI picks AVX-512 or AVX2 ones at run time, which a portable
/// build cannot: 1.8x faster on a 64 MiB patch); shorter or strided rows, and Op::replace,
/// which `MPI_Reduce_local` does not take, are combined here. MPI is called from the calling
/// thread only.
template <class T, class F>
void combine_between(const Parallel& policy, T* dst, IndexSpan dst_strides, const T* src,
                     IndexSpan src_strides, IndexSpan sizes, Op op, F combine) {
  const auto rows = [&combine](T* to, index_t to_step, const T* from, index_t from_step,
                               index_t count) {
    if (to_step == 1 && from_step == 1) {
      for (index_t i = 0; i < count; ++i) {  // vectorised
        to[i] = combine(to[i], from[i]);
      }
    } else {
      for (index_t i = 0; i < count; ++i) {
        to[i * to_step] = combine(to[i * to_step], from[i * from_step]);
      }
    }
  };
  const index_t n = std::accumulate(sizes.begin(), sizes.end(), index_t{1}, std::multiplies<>());
  if (n >= policy.grain && policy.threads > 1) {
    const auto joint =
        reduce_jointly(Dimensions(sizes, dst_strides), Dimensions(sizes, src_strides));
    const Dimensions& d = joint.first;
    const Dimensions& s = joint.second;
    parallel::for_each_part(policy, n, [&](index_t begin, index_t end) {
      strata::detail::walk_rows<2>(
          {&d, &s}, begin, end,
          [&](const std::array<index_t, 2>& at, const std::array<index_t, 2>& step, index_t count) {
            rows(dst + at[0], step[0], src + at[1], step[1], count);
          });
    });
    return;
  }
  constexpr index_t kReduceLocalRow = 64;
  walk_row_pairs(
      dst, dst_strides, src, src_strides, sizes,
      [&](T* to, index_t to_step, const T* from, index_t from_step, index_t count) {
        if (to_step == 1 && from_step == 1 && count >= kReduceLocalRow && op != Op::replace) {
          MPI_Reduce_local(from, to, static_cast<int>(count), mpi_type<T>(), mpi_op(op));
        } else {
          rows(to, to_step, from, from_step, count);
        }
      });
}

/// Calls `apply(combine)` with the element-wise function of @p op (x the stored value, v the
/// incoming one), as MPI's predefined operations compute it (Open MPI's MPI_MIN keeps x when
/// x < v: a NaN in v wins, a NaN in x gives way), so that every path and both routes agree.
template <class T, class Apply>
void with_combine(Op op, Apply&& apply) {
  switch (op) {
    case Op::sum:
      apply([](const T& x, const T& v) { return static_cast<T>(x + v); });
      return;
    case Op::product:
      apply([](const T& x, const T& v) { return static_cast<T>(x * v); });
      return;
    case Op::replace:
      apply([](const T& /*x*/, const T& v) { return v; });
      return;
    case Op::min:
    case Op::max:
      if constexpr (std::totally_ordered<T>) {
        if (op == Op::min) {
          apply([](const T& x, const T& v) { return x < v ? x : v; });
        } else {
          apply([](const T& x, const T& v) { return x > v ? x : v; });
        }
      }
      return;
  }
}

/// Checks that accumulate() can combine elements of type T with @p op: TypeError naming
/// @p operation for Op::min and Op::max on complex elements (they have no order; MPI's
/// MPI_MIN and MPI_MAX do not take them either), and for a value that is no Op.
template <class T>
void check_op(std::string_view operation, Op op) {
  switch (op) {
    case Op::sum:
    case Op::product:
    case Op::replace:
      return;
    case Op::min:
    case Op::max:
      if constexpr (!std::totally_ordered<T>) {
        strata::detail::fail<TypeError>(
            operation, "Op::", op == Op::min ? "min" : "max",
            " needs ordered elements; complex numbers have no order (sum, product and "
            "replace combine them)");
      }
      return;
  }
  strata::detail::fail<TypeError>(operation, "op ", static_cast<int>(op),
                                  " is not a strata::dist::Op");
}

/// A process-shared spin lock: a 32-bit word in a shared-memory window (0 free, 1 held),
/// taken with an atomic exchange. A waiter spins briefly, then yields its core: ranks are
/// often more than cores.
class SharedLock {
 public:
  explicit SharedLock(std::uint32_t* word) : word_(*word) {
    for (int tries = 0; word_.exchange(1, std::memory_order_acquire) != 0; ++tries) {
      while (word_.load(std::memory_order_relaxed) != 0) {
        if (++tries > 64) {
          std::this_thread::yield();
        }
      }
    }
  }
  ~SharedLock() { word_.store(0, std::memory_order_release); }
  SharedLock(const SharedLock&) = delete;
  SharedLock& operator=(const SharedLock&) = delete;

 private:
  std::atomic_ref<std::uint32_t> word_;
};

/// The row-major strides of dense extents.
inline Index dense_strides(IndexSpan extents) {
  Index s(extents.size(), 1);
  for (std::size_t k = extents.size(); k-- > 1;) {
    s[k - 1] = s[k] * extents[k];
  }
  return s;
}

}  // namespace detail
/// @endcond

template <class T>
DistTensor<T>::DistTensor(MPI_Comm comm, Tiling tiling, Distribution distribution)
    : DistTensor(comm, std::move(tiling), std::move(distribution), Ghosts{}) {}

template <class T>
DistTensor<T>::DistTensor(MPI_Comm comm, Tiling tiling, Distribution distribution, Ghosts ghosts)
    : tiling_(std::move(tiling)), distribution_(std::move(distribution)) {
  checks_ = detail::checks_comm(comm);
  identity_ = detail::agree_on_identity(*checks_);
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &n_ranks_);
  try {
    detail::agree(comm_, "DistTensor", detail::mix(tiling_.digest(), distribution_.digest()));
    detail::collectively(comm_, "DistTensor",
                         [&] { owners_ = distribution_.owners(tiling_, n_ranks_); });
    // The owner tables must agree too (a user function may depend on the rank).
    std::uint64_t table = 0;
    for (const int o : owners_) {
      table = detail::mix(table, static_cast<std::uint64_t>(o));
    }
    detail::agree(comm_, "DistTensor", table);
    if (!ghosts.lower.empty() || !ghosts.upper.empty()) {
      check_ghosts("DistTensor", ghosts);
      ghosts_ = std::move(ghosts);
    }
  } catch (...) {
    MPI_Comm_free(&comm_);
    throw;
  }
  for (index_t t = 0; t < tiling_.n_tiles(); ++t) {
    if (owners_[static_cast<std::size_t>(t)] == rank_) {
      local_.push_back(t);
    }
  }
  allocate();
  if (!ghosts_.lower.empty()) {
    plan_ghosts();
  }
}

template <class T>
Index DistTensor<T>::block_extents(index_t t) const {
  Index e = tiling_.tile_extents(t);
  for (std::size_t k = 0; k < ghosts_.lower.size(); ++k) {
    e[k] += ghosts_.lower[k] + ghosts_.upper[k];
  }
  return e;
}

template <class T>
index_t DistTensor<T>::interior(index_t t) const {
  index_t at = displacement_[static_cast<std::size_t>(t)];
  const Index strides = detail::dense_strides(block_extents(t));
  for (std::size_t k = 0; k < ghosts_.lower.size(); ++k) {
    at += ghosts_.lower[k] * strides[k];
  }
  return at;
}

template <class T>
void DistTensor<T>::allocate() {
  const index_t n = tiling_.n_tiles();
  displacement_.assign(static_cast<std::size_t>(n), 0);
  lock_slot_.assign(static_cast<std::size_t>(n), 0);
  std::vector<index_t> used(static_cast<std::size_t>(n_ranks_), 0);
  std::vector<index_t> owned(static_cast<std::size_t>(n_ranks_), 0);
  for (index_t t = 0; t < n; ++t) {
    const auto o = static_cast<std::size_t>(owners_[static_cast<std::size_t>(t)]);
    displacement_[static_cast<std::size_t>(t)] = used[o];
    lock_slot_[static_cast<std::size_t>(t)] = owned[o]++;
    index_t size = 1;
    for (const index_t e : block_extents(t)) {
      size *= e;
    }
    used[o] += size;
  }
  local_size_ = used[static_cast<std::size_t>(rank_)];
  copies_ = Parallel{par.grain, std::min(detail::cores_per_rank(comm_), parallel::max_threads())};
  // Each rank's part: its blocks, then (from the next multiple of kLockBytes) one lock word
  // per tile it owns, each on its own cache line (accumulates on a shared-memory window).
  const auto locks_at = [](index_t elements) {
    const index_t bytes = elements * static_cast<index_t>(sizeof(T));
    return (bytes + kLockBytes - 1) / kLockBytes * kLockBytes;
  };
  window_bytes_.clear();
  for (std::size_t r = 0; r < used.size(); ++r) {
    window_bytes_.push_back(static_cast<MPI_Aint>(locks_at(used[r]) + owned[r] * kLockBytes +
                                                  (owned[r] == 0 ? kLockBytes : 0)));
  }
  // A window left by a tensor of the same sizes, or a new one (MPI allocates the memory: Open
  // MPI's one-process windows exist only for MPI_Win_allocate).
  storage_ = static_cast<T*>(
      detail::acquire_window(comm_, window_bytes_, static_cast<int>(sizeof(T)), window_));
  peers_.clear();
  locks_.clear();
  for (void* const base : detail::shared_bases(window_, n_ranks_)) {
    peers_.push_back(static_cast<T*>(base));
    locks_.push_back(static_cast<std::byte*>(base) + locks_at(used[peers_.size() - 1]));
  }
  std::fill(storage_, storage_ + local_size_, T{});
  std::byte* const my_locks = reinterpret_cast<std::byte*>(storage_) + locks_at(local_size_);
  std::fill(my_locks, my_locks + owned[static_cast<std::size_t>(rank_)] * kLockBytes, std::byte{0});
  // No rank reaches another's memory before that memory is zero.
  MPI_Win_sync(window_);
  MPI_Barrier(comm_);
}

template <class T>
void DistTensor<T>::release() noexcept {
  if (window_ != MPI_WIN_NULL) {
    detail::release_window(comm_, window_bytes_, static_cast<int>(sizeof(T)), window_);
    storage_ = nullptr;
    peers_.clear();
    locks_.clear();
  }
  if (comm_ != MPI_COMM_NULL) {
    MPI_Comm_free(&comm_);
  }
}

template <class T>
DistTensor<T>::~DistTensor() {
  release();
}

template <class T>
DistTensor<T>::DistTensor(DistTensor&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)),
      checks_(std::move(other.checks_)),
      identity_(other.identity_),
      rank_(other.rank_),
      n_ranks_(other.n_ranks_),
      tiling_(std::move(other.tiling_)),
      distribution_(std::move(other.distribution_)),
      owners_(std::move(other.owners_)),
      displacement_(std::move(other.displacement_)),
      local_(std::move(other.local_)),
      storage_(std::exchange(other.storage_, nullptr)),
      local_size_(std::exchange(other.local_size_, 0)),
      window_bytes_(std::move(other.window_bytes_)),
      window_(std::exchange(other.window_, MPI_WIN_NULL)),
      peers_(std::move(other.peers_)),
      locks_(std::move(other.locks_)),
      lock_slot_(std::move(other.lock_slot_)),
      copies_(other.copies_),
      ghosts_(std::move(other.ghosts_)),
      ghost_receives_(std::move(other.ghost_receives_)),
      ghost_sends_(std::move(other.ghost_sends_)),
      ghost_copies_(std::move(other.ghost_copies_)) {}

template <class T>
DistTensor<T>& DistTensor<T>::operator=(DistTensor&& other) noexcept {
  if (this != &other) {
    release();
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    checks_ = std::move(other.checks_);
    identity_ = other.identity_;
    rank_ = other.rank_;
    n_ranks_ = other.n_ranks_;
    tiling_ = std::move(other.tiling_);
    distribution_ = std::move(other.distribution_);
    owners_ = std::move(other.owners_);
    displacement_ = std::move(other.displacement_);
    local_ = std::move(other.local_);
    storage_ = std::exchange(other.storage_, nullptr);
    local_size_ = std::exchange(other.local_size_, 0);
    window_bytes_ = std::move(other.window_bytes_);
    window_ = std::exchange(other.window_, MPI_WIN_NULL);
    peers_ = std::move(other.peers_);
    locks_ = std::move(other.locks_);
    lock_slot_ = std::move(other.lock_slot_);
    copies_ = other.copies_;
    ghosts_ = std::move(other.ghosts_);
    ghost_receives_ = std::move(other.ghost_receives_);
    ghost_sends_ = std::move(other.ghost_sends_);
    ghost_copies_ = std::move(other.ghost_copies_);
  }
  return *this;
}

template <class T>
int DistTensor<T>::owner(index_t t) const {
  if (t < 0 || t >= tiling_.n_tiles()) {
    strata::detail::fail<IndexError>("DistTensor::owner", "tile ", t, " of ", tiling_.n_tiles(),
                                     " tiles");
  }
  return owners_[static_cast<std::size_t>(t)];
}

template <class T>
Tensor<T> DistTensor<T>::tile(index_t t) {
  if (owner(t) != rank_) {
    strata::detail::fail<IndexError>("DistTensor::tile", "tile ", t, " is owned by rank ", owner(t),
                                     ", not by rank ", rank_);
  }
  // The tile inside its block (the block holds the ghosts around it, if any).
  const index_t first = displacement_[static_cast<std::size_t>(t)];
  const Index block = block_extents(t);
  const index_t size = block.empty() ? 1 : detail::dense_strides(block)[0] * block[0];
  return Tensor<T>(
             AnyBuffer<T>(DenseBuffer<T>::wrap(storage_ + first, size)),
             Dimensions(tiling_.tile_extents(t), detail::dense_strides(block), interior(t) - first))
      .with_origin(tiling_.tile_lo(t));
}

template <class T>
T& DistTensor<T>::at_global(IndexSpan index) {
  if (std::cmp_not_equal(index.size(), tiling_.rank())) {
    strata::detail::fail<IndexError>("DistTensor::at_global", "index ", to_string(index),
                                     " for a tensor of shape ", to_string(shape()));
  }
  const index_t t = [&] {
    try {
      return tiling_.tile_at(index);
    } catch (const IndexError&) {
      strata::detail::fail<IndexError>("DistTensor::at_global", "index ", to_string(index),
                                       " is outside the shape ", to_string(shape()));
    }
  }();
  if (owners_[static_cast<std::size_t>(t)] != rank_) {
    strata::detail::fail<IndexError>(
        "DistTensor::at_global", "index ", to_string(index), " is in tile ", t, ", owned by rank ",
        owners_[static_cast<std::size_t>(t)], ", not by rank ", rank_, " (get() reads it)");
  }
  const Index lo = tiling_.tile_lo(t);
  const Index strides = detail::dense_strides(block_extents(t));
  index_t at = interior(t);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    at += (index[k] - lo[k]) * strides[k];
  }
  return storage_[at];
}

template <class T>
const T& DistTensor<T>::at_global(IndexSpan index) const {
  return const_cast<DistTensor*>(this)->at_global(index);  // a read of the same element
}

template <class T>
Tensor<T> DistTensor<T>::block(index_t t) {
  const index_t first = displacement_[static_cast<std::size_t>(t)];
  Index origin = tiling_.tile_lo(t);
  for (std::size_t k = 0; k < ghosts_.lower.size(); ++k) {
    origin[k] -= ghosts_.lower[k];
  }
  return Tensor<T>::wrap(storage_ + first, block_extents(t)).with_origin(origin);
}

template <class T>
Tensor<const T> DistTensor<T>::tile(index_t t) const {
  return const_cast<DistTensor*>(this)->tile(t);  // a read-only view of the same tile
}

template <class T>
void DistTensor<T>::transfer(Kind kind, IndexSpan lo, IndexSpan step, IndexSpan count,
                             const Tensor<const T>* in, Tensor<T>* out, Op op) const {
  // The global indices lo[k] + step[k] * i (step >= 1, i < count[k], count[k] >= 1) of every
  // axis, moved tile by tile: one MPI call per tile that holds some of them.
  const std::size_t rank = lo.size();
  // A side in this rank's own window (a tile put into the tensor, or gotten into one): staged
  // through a copy, as MPI and the copy kernel need the two sides apart.
  // (Named pairs, not structured bindings: clang 14 cannot capture bindings in lambdas.)
  const auto mine =
      detail::address_range(storage_, Index{1}, Index{std::max<index_t>(local_size_, 1)});
  const auto in_window = [&](const auto& side) {
    const auto theirs = detail::address_range(side.data(), side.strides(), side.shape());
    return theirs.first < mine.second && mine.first < theirs.second;
  };
  if (in != nullptr && in_window(*in)) {
    const Tensor<const T> staged(in->copy());
    transfer(kind, lo, step, count, &staged, out, op);
    return;
  }
  if (out != nullptr && in_window(*out)) {
    Tensor<T> staged(out->shape());
    transfer(kind, lo, step, count, in, &staged, op);
    out->assign(staged);
    return;
  }
  // The user's side: its first element and its strides (element units).
  const T* in_data = nullptr;
  T* out_data = nullptr;
  Index side_strides;
  if (in != nullptr) {
    in_data = in->data();
    side_strides = in->strides();
  } else {
    out_data = out->data();
    side_strides = out->strides();
  }
  Index hi(rank, 0);  // one past the last index, per axis
  for (std::size_t k = 0; k < rank; ++k) {
    hi[k] = lo[k] + step[k] * (count[k] - 1) + 1;
  }
  std::vector<index_t> owners_touched;
  for (const index_t t : tiling_.tiles_in(lo, hi)) {
    const Index tlo = tiling_.tile_lo(t);
    const Index thi = tiling_.tile_hi(t);
    const Index tile_strides = detail::dense_strides(block_extents(t));
    Index sizes(rank, 0);
    Index remote_strides(rank, 0);
    index_t side_offset = 0;
    MPI_Aint target = interior(t);
    bool any = true;
    for (std::size_t k = 0; k < rank; ++k) {
      // The positions i with tlo <= lo + step * i < thi.
      const index_t first = std::max<index_t>(0, (tlo[k] - lo[k] + step[k] - 1) / step[k]);
      const index_t last = std::min(count[k], (thi[k] - lo[k] + step[k] - 1) / step[k]);
      any = any && first < last;
      sizes[k] = last - first;
      remote_strides[k] = tile_strides[k] * step[k];
      side_offset += first * side_strides[k];
      target += static_cast<MPI_Aint>((lo[k] + step[k] * first - tlo[k]) * tile_strides[k]);
    }
    if (!any) {  // the steps jump over this tile
      continue;
    }
    const int owner_rank = owners_[static_cast<std::size_t>(t)];
    if (!peers_.empty()) {
      // A shared-memory window: the owner's tile is in this process's address space, and the
      // copy kernel moves the part. An accumulate combines under the tile's lock (atomic with
      // every other accumulate into the tile, as MPI's are per element).
      T* const remote = peers_[static_cast<std::size_t>(owner_rank)] + target;
      if (kind == Kind::get) {
        detail::copy_between(copies_, out_data + side_offset, side_strides, remote, remote_strides,
                             sizes);
      } else if (kind == Kind::put) {
        detail::copy_between(copies_, remote, remote_strides, in_data + side_offset, side_strides,
                             sizes);
      } else {
        std::byte* const word = locks_[static_cast<std::size_t>(owner_rank)] +
                                lock_slot_[static_cast<std::size_t>(t)] * kLockBytes;
        const detail::SharedLock held(reinterpret_cast<std::uint32_t*>(word));
        detail::with_combine<T>(op, [&](auto combine) {
          detail::combine_between(copies_, remote, remote_strides, in_data + side_offset,
                                  side_strides, sizes, op, combine);
        });
      }
      continue;
    }
    const detail::Datatype side(sizes, side_strides, detail::mpi_type<T>());
    const detail::Datatype remote(sizes, remote_strides, detail::mpi_type<T>());
    if (kind == Kind::get) {
      MPI_Get(out_data + side_offset, 1, side.get(), owner_rank, target, 1, remote.get(), window_);
    } else if (kind == Kind::put) {
      MPI_Put(in_data + side_offset, 1, side.get(), owner_rank, target, 1, remote.get(), window_);
    } else {
      MPI_Accumulate(in_data + side_offset, 1, side.get(), owner_rank, target, 1, remote.get(),
                     detail::mpi_op(op), window_);
    }
    owners_touched.push_back(owner_rank);
  }
  // Complete every transfer at its target before returning (the datatypes may be freed as
  // soon as the calls return: MPI keeps what it needs).
  std::sort(owners_touched.begin(), owners_touched.end());
  owners_touched.erase(std::unique(owners_touched.begin(), owners_touched.end()),
                       owners_touched.end());
  for (const index_t o : owners_touched) {
    MPI_Win_flush(static_cast<int>(o), window_);
  }
}

template <class T>
void DistTensor<T>::transfer(Kind kind, IndexSpan lo, IndexSpan hi, const Tensor<const T>* in,
                             Tensor<T>* out, Op op) const {
  const Index ones(lo.size(), 1);
  Index count(lo.size(), 0);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    count[k] = hi[k] - lo[k];
  }
  transfer(kind, lo, ones, count, in, out, op);
}

template <class T>
void DistTensor<T>::get_into(IndexSpan lo, IndexSpan hi, Tensor<T>& out) const {
  if (out.size() > 0) {
    transfer(Kind::get, lo, hi, nullptr, &out, Op::replace);
  }
}

template <class T>
Tensor<T> DistTensor<T>::get(IndexSpan lo, IndexSpan hi) const {
  detail::check_box("DistTensor::get", lo, hi, shape());
  Index extents(lo.size(), 0);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    extents[k] = hi[k] - lo[k];
  }
  Tensor<T> out(extents);
  get_into(lo, hi, out);
  return out.with_origin(lo);
}

template <class T>
void DistTensor<T>::get(IndexSpan lo, IndexSpan hi, Tensor<T> into) const {
  detail::check_box("DistTensor::get", lo, hi, shape());
  Index extents(lo.size(), 0);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    extents[k] = hi[k] - lo[k];
  }
  if (into.shape() != extents) {
    strata::detail::fail<ShapeError>("DistTensor::get", "a tensor of shape ",
                                     to_string(into.shape()), " for the box [", to_string(lo), ", ",
                                     to_string(hi), ") of shape ", to_string(extents));
  }
  if (into.dims().aliases()) {
    strata::detail::fail<LayoutError>(
        "DistTensor::get",
        "a view whose indices share addresses (a broadcast view, repeated "
        "index-array entries or overlapping strides) cannot receive the box");
  }
  if (into.size() > 0 && into.data() == nullptr) {  // not strided over one array: via a copy
    into.assign(get(lo, hi));
    return;
  }
  get_into(lo, hi, into);
}

template <class T>
template <class V, class F>
void DistTensor<T>::for_each_piece(const Region& region, V side, F&& move) const {
  // Each product of runs (one run per view axis) is a strided box of the global space: the
  // side's part for it, reordered to the global axes (transposed, the dropped axes back as
  // axes of extent 1, flipped where a run goes down), moves as one transfer.
  const auto& axes = region.axes();
  const std::size_t view_rank = axes.size();
  const std::size_t rank = region.space().size();
  Index order(view_rank);  // the view axes by increasing global axis
  std::iota(order.begin(), order.end(), index_t{0});
  std::sort(order.begin(), order.end(), [&](index_t a, index_t b) {
    return axes[static_cast<std::size_t>(a)].global < axes[static_cast<std::size_t>(b)].global;
  });
  Index n_runs(view_rank, 0);
  std::vector<Index> first(view_rank);  // per axis: each run's first view position
  for (std::size_t k = 0; k < view_rank; ++k) {
    n_runs[k] = static_cast<index_t>(axes[k].runs.size());
    if (n_runs[k] == 0) {
      return;  // an empty region
    }
    index_t p = 0;
    for (const Run& r : axes[k].runs) {
      first[k].push_back(p);
      p += r.count;
    }
  }
  Index pick(view_rank, 0);
  do {
    std::vector<Selector> where;
    for (std::size_t k = 0; k < view_rank; ++k) {
      const index_t p = first[k][static_cast<std::size_t>(pick[k])];
      where.emplace_back(Range{p, p + axes[k].runs[static_cast<std::size_t>(pick[k])].count});
    }
    V piece = side.select(std::span<const Selector>(where)).transpose(order);
    Index start(rank, 0);
    Index step(rank, 1);
    Index count(rank, 1);
    for (std::size_t g = 0; g < rank; ++g) {
      if (region.fixed()[g] >= 0) {
        piece.rebind(piece.unsqueeze(static_cast<index_t>(g)));
        start[g] = region.fixed()[g];
      }
    }
    for (const index_t k : order) {
      const auto& axis = axes[static_cast<std::size_t>(k)];
      const Run& run = axis.runs[static_cast<std::size_t>(pick[static_cast<std::size_t>(k)])];
      const auto g = static_cast<std::size_t>(axis.global);
      start[g] = run.start;
      count[g] = run.count;
      step[g] = run.count == 1 ? 1 : run.step;
      if (step[g] < 0) {  // walk it upwards, the side's part flipped to match
        start[g] += step[g] * (count[g] - 1);
        step[g] = -step[g];
        const Index flip{static_cast<index_t>(g)};
        piece.rebind(piece.reverse(flip));
      }
    }
    move(start, step, count, piece);
  } while (strata::detail::smooth_advance(n_runs, pick));
}

template <class T>
void DistTensor<T>::check_region(const char* operation, const Region& region,
                                 const Index& side) const {
  if (region.space() != shape()) {
    strata::detail::fail<ShapeError>(operation, "a region of the space ", to_string(region.space()),
                                     " for a tensor of shape ", to_string(shape()));
  }
  if (side != region.shape()) {
    strata::detail::fail<ShapeError>(operation, "a tensor of shape ", to_string(side),
                                     " for a region of shape ", to_string(region.shape()));
  }
}

template <class T>
Tensor<T> DistTensor<T>::get(const Region& region) const {
  Tensor<T> out(region.shape());
  get(region, out);
  return out;
}

template <class T>
void DistTensor<T>::get(const Region& region, Tensor<T> into) const {
  check_region("DistTensor::get", region, into.shape());
  if (into.dims().aliases()) {
    strata::detail::fail<LayoutError>(
        "DistTensor::get",
        "a view whose indices share addresses (a broadcast view, repeated "
        "index-array entries or overlapping strides) cannot receive the region");
  }
  if (into.size() > 0 && into.data() == nullptr) {  // not strided over one array: via a copy
    into.assign(get(region));
    return;
  }
  for_each_piece(region, into,
                 [&](IndexSpan start, IndexSpan step, IndexSpan count, Tensor<T>& piece) {
                   transfer(Kind::get, start, step, count, nullptr, &piece, Op::replace);
                 });
}

template <class T>
void DistTensor<T>::put(const Region& region, const Tensor<const T>& values) {
  check_region("DistTensor::put", region, values.shape());
  const Tensor<const T> send =
      values.size() == 0 || values.data() != nullptr ? values : Tensor<const T>(values.copy());
  for_each_piece(
      region, send,
      [&](IndexSpan start, IndexSpan step, IndexSpan count, const Tensor<const T>& piece) {
        transfer(Kind::put, start, step, count, &piece, nullptr, Op::replace);
      });
}

template <class T>
void DistTensor<T>::accumulate(const Region& region, const Tensor<const T>& values, Op op) {
  detail::check_op<T>("DistTensor::accumulate", op);
  check_region("DistTensor::accumulate", region, values.shape());
  const Tensor<const T> send =
      values.size() == 0 || values.data() != nullptr ? values : Tensor<const T>(values.copy());
  for_each_piece(
      region, send,
      [&](IndexSpan start, IndexSpan step, IndexSpan count, const Tensor<const T>& piece) {
        transfer(Kind::accumulate, start, step, count, &piece, nullptr, op);
      });
}

template <class T>
std::size_t DistTensor<T>::local_position(std::string_view operation, index_t t) const {
  const auto it = std::lower_bound(local_.begin(), local_.end(), t);
  if (it == local_.end() || *it != t) {
    strata::detail::fail<IndexError>(operation, "tile ", t, " is owned by rank ", owner(t),
                                     ", not by rank ", rank_);
  }
  return static_cast<std::size_t>(it - local_.begin());
}

template <class T>
void DistTensor<T>::check_ghosts(std::string_view operation, const Ghosts& ghosts) const {
  std::uint64_t digest = ghosts.periodic ? 1U : 0U;
  for (const index_t w : ghosts.lower) {
    digest = detail::mix(digest, static_cast<std::uint64_t>(w));
  }
  for (const index_t w : ghosts.upper) {
    digest = detail::mix(digest, static_cast<std::uint64_t>(w) + 7U);
  }
  check_call(operation, digest);
  const auto rank = static_cast<std::size_t>(tiling_.rank());
  bool valid = ghosts.lower.size() == rank && ghosts.upper.size() == rank;
  for (std::size_t k = 0; valid && k < rank; ++k) {
    const auto& b = tiling_.boundaries(static_cast<int>(k));
    index_t smallest = b.size() > 1 ? b[1] - b[0] : 0;
    for (std::size_t i = 1; i < b.size(); ++i) {
      smallest = std::min(smallest, b[i] - b[i - 1]);
    }
    valid = ghosts.lower[k] >= 0 && ghosts.upper[k] >= 0 &&
            (b.size() < 2 || (ghosts.lower[k] <= smallest && ghosts.upper[k] <= smallest));
  }
  if (!valid) {
    strata::detail::fail<ShapeError>(
        operation, "ghost widths ", to_string(ghosts.lower), " below and ", to_string(ghosts.upper),
        " above for ", tiling_.to_string(),
        ": one width >= 0 per axis, at most the smallest tile along it");
  }
}

template <class T>
void DistTensor<T>::set_ghosts(Ghosts ghosts) {
  check_ghosts("DistTensor::set_ghosts", ghosts);
  // A new window whose blocks hold each tile with its ghosts around it (as Global Arrays
  // stores them): remote accesses address the tile inside its block, and update_ghosts()
  // moves ghost cells only. The tiles' values move over; the ghosts start at zero.
  sync();  // every transfer into the old window is complete
  const std::vector<index_t> old_displacement = displacement_;
  const Ghosts old_ghosts = std::exchange(ghosts_, std::move(ghosts));
  T* const old_storage = storage_;
  MPI_Win old_window = window_;
  const std::vector<MPI_Aint> old_bytes = window_bytes_;
  // The old window goes with the communicator it was made over; the new one gets its own.
  MPI_Comm old_comm = comm_;
  MPI_Comm_dup(old_comm, &comm_);
  allocate();
  for (const index_t t : local_) {
    // The tile in its old block: the old widths around it.
    const Index extents = tiling_.tile_extents(t);
    Index old_block = extents;
    for (std::size_t k = 0; k < old_ghosts.lower.size(); ++k) {
      old_block[k] += old_ghosts.lower[k] + old_ghosts.upper[k];
    }
    const Index old_strides = detail::dense_strides(old_block);
    index_t at = 0;
    for (std::size_t k = 0; k < old_ghosts.lower.size(); ++k) {
      at += old_ghosts.lower[k] * old_strides[k];
    }
    const index_t size = old_block.empty() ? 1 : old_strides[0] * old_block[0];
    const Tensor<T> old_tile(
        AnyBuffer<T>(DenseBuffer<T>::wrap(
            old_storage + old_displacement[static_cast<std::size_t>(t)], size)),
        Dimensions(extents, old_strides, at));
    tile(t).assign(old_tile);
  }
  // Collective (every rank has copied its tiles): cached or freed.
  detail::release_window(old_comm, old_bytes, static_cast<int>(sizeof(T)), old_window);
  plan_ghosts();
}

template <class T>
void DistTensor<T>::plan_ghosts() {
  ghost_receives_.clear();
  ghost_sends_.clear();
  ghost_copies_.clear();
  const Index extent = shape();
  const std::size_t rank = extent.size();
  for (index_t t = 0; t < tiling_.n_tiles(); ++t) {
    const int receiver = owners_[static_cast<std::size_t>(t)];
    const Index lo = tiling_.tile_lo(t);
    const Index hi = tiling_.tile_hi(t);
    // Each of the 3^rank parts around the tile (below, inside, above along every axis); the
    // inside part is the tile itself. A part lies in one tile (widths <= tile extents).
    const Index three(rank, 3);
    Index part(rank, 0);
    do {
      bool inside = true;
      bool empty = false;
      bool outside = false;  // beyond the shape on a non-periodic axis: stays zero
      Index from(rank, 0);   // the part's first global index (wrapped when periodic)
      Index sizes(rank, 0);
      Index at(rank, 0);  // the part's first index in the tile's block
      for (std::size_t k = 0; k < rank; ++k) {
        index_t a = lo[k];
        index_t b = hi[k];
        if (part[k] == 0) {
          a = lo[k] - ghosts_.lower[k];
          b = lo[k];
        } else if (part[k] == 2) {
          a = hi[k];
          b = hi[k] + ghosts_.upper[k];
        }
        inside = inside && part[k] == 1;
        empty = empty || a == b;
        index_t shift = 0;
        if (a < 0 || b > extent[k]) {  // the whole part is beyond
          outside = outside || !ghosts_.periodic;
          shift = a < 0 ? extent[k] : -extent[k];
        }
        from[k] = a + shift;
        sizes[k] = b - a;
        at[k] = a - (lo[k] - ghosts_.lower[k]);
      }
      if (inside || empty || outside) {
        continue;
      }
      const index_t s = tiling_.tile_at(from);
      const int sender = owners_[static_cast<std::size_t>(s)];
      if (receiver != rank_ && sender != rank_) {
        continue;
      }
      // The part's first element in its source tile's block (in the sender's array), and in
      // the receiving block (in the receiver's array).
      const Index slo = tiling_.tile_lo(s);
      const Index source_strides = detail::dense_strides(block_extents(s));
      const Index block_strides = detail::dense_strides(block_extents(t));
      index_t source_offset = interior(s);
      index_t block_offset = displacement_[static_cast<std::size_t>(t)];
      for (std::size_t k = 0; k < rank; ++k) {
        source_offset += (from[k] - slo[k]) * source_strides[k];
        block_offset += at[k] * block_strides[k];
      }
      if (receiver == rank_ && sender == rank_) {
        ghost_copies_.push_back(detail::GhostCopy<T>{storage_ + source_offset, source_strides,
                                                     storage_ + block_offset, block_strides,
                                                     sizes});
      } else if (receiver == rank_) {
        ghost_receives_.push_back(
            {sender, block_offset, detail::Datatype(sizes, block_strides, detail::mpi_type<T>())});
      } else {
        ghost_sends_.push_back({receiver, source_offset,
                                detail::Datatype(sizes, source_strides, detail::mpi_type<T>())});
      }
    } while (strata::detail::smooth_advance(three, part));
  }
}

template <class T>
void DistTensor<T>::update_ghosts() {
  check_call("DistTensor::update_ghosts", 0);
  if (ghosts_.lower.empty()) {
    strata::detail::fail<LayoutError>("DistTensor::update_ghosts",
                                      "no ghosts: call set_ghosts() first");
  }
  constexpr int tag = 0x6A05;  // one tag: both sides list the parts in the same order
  std::vector<MPI_Request> requests;
  requests.reserve(ghost_receives_.size() + ghost_sends_.size());
  for (const detail::GhostMessage& m : ghost_receives_) {
    requests.push_back(MPI_REQUEST_NULL);
    MPI_Irecv(storage_ + m.offset, 1, m.type.get(), m.peer, tag, comm_, &requests.back());
  }
  for (const detail::GhostMessage& m : ghost_sends_) {
    requests.push_back(MPI_REQUEST_NULL);
    MPI_Isend(storage_ + m.offset, 1, m.type.get(), m.peer, tag, comm_, &requests.back());
  }
  for (const detail::GhostCopy<T>& c : ghost_copies_) {
    detail::copy_between(copies_, c.to, c.to_strides, c.from, c.from_strides, c.sizes);
  }
  // Done when every ghost has arrived and every part sent has left: a rank may then write
  // its tiles again.
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

template <class T>
Tensor<const T> DistTensor<T>::ghosted(index_t t) const {
  const std::size_t n = local_position("DistTensor::ghosted", t);
  if (ghosts_.lower.empty()) {
    strata::detail::fail<LayoutError>("DistTensor::ghosted", "no ghosts: call set_ghosts() first");
  }
  (void)n;
  return const_cast<DistTensor*>(this)->block(t);  // a read-only view of the block
}

namespace detail {
/// The values a put or accumulate sends: the tensor itself when strided over one array, else a
/// dense copy; checked against the box's extents.
template <class T>
Tensor<const T> sendable(std::string_view operation, IndexSpan lo, IndexSpan hi,
                         const Tensor<const T>& values) {
  Index extents(lo.size(), 0);
  for (std::size_t k = 0; k < lo.size(); ++k) {
    extents[k] = hi[k] - lo[k];
  }
  if (values.shape() != extents) {
    strata::detail::fail<ShapeError>(operation, "values of shape ", to_string(values.shape()),
                                     " for the box [", to_string(lo), ", ", to_string(hi),
                                     ") of shape ", to_string(extents));
  }
  if (values.size() == 0 || values.data() != nullptr) {
    return values;
  }
  return Tensor<const T>(values.copy());
}
}  // namespace detail

template <class T>
void DistTensor<T>::put(IndexSpan lo, IndexSpan hi, const Tensor<const T>& values) {
  detail::check_box("DistTensor::put", lo, hi, shape());
  const Tensor<const T> send = detail::sendable("DistTensor::put", lo, hi, values);
  if (send.size() > 0) {
    transfer(Kind::put, lo, hi, &send, nullptr, Op::replace);
  }
}

template <class T>
void DistTensor<T>::accumulate(IndexSpan lo, IndexSpan hi, const Tensor<const T>& values, Op op) {
  detail::check_op<T>("DistTensor::accumulate", op);
  detail::check_box("DistTensor::accumulate", lo, hi, shape());
  const Tensor<const T> send = detail::sendable("DistTensor::accumulate", lo, hi, values);
  if (send.size() > 0) {
    transfer(Kind::accumulate, lo, hi, &send, nullptr, op);
  }
}

template <class T>
void DistTensor<T>::check_call(std::string_view operation, std::uint64_t digest) const {
  detail::agree(*checks_, operation, detail::mix(digest, identity_));
}

template <class T>
void DistTensor<T>::sync() {
  sync("DistTensor::sync");
}

template <class T>
void DistTensor<T>::sync(std::string_view operation) {
  MPI_Win_flush_all(window_);
  MPI_Win_sync(window_);
  check_call(operation, 0);  // the barrier: no rank leaves before every rank has come
  MPI_Win_sync(window_);
}

template <class T>
void DistTensor<T>::fill_local(const T& value) {
  for (const index_t t : local_) {
    tile(t).fill(value);
  }
}

template <class T>
std::optional<Tensor<T>> DistTensor<T>::gather(int root) const {
  check_call("DistTensor::gather", static_cast<std::uint64_t>(root));
  if (root < 0 || root >= n_ranks_) {
    strata::detail::fail<IndexError>("DistTensor::gather", "root ", root, " of ", n_ranks_,
                                     " ranks");
  }
  auto& self = const_cast<DistTensor&>(*this);  // sync changes no element
  self.sync();
  std::optional<Tensor<T>> out;
  if (rank_ == root) {
    out.emplace(get(Index(static_cast<std::size_t>(tiling_.rank()), 0), shape()));
  }
  MPI_Barrier(comm_);  // no rank changes its tiles before the root has read them
  return out;
}

template <class T>
void DistTensor<T>::scatter(int root, const Tensor<const T>& whole) {
  check_call("DistTensor::scatter", static_cast<std::uint64_t>(root));
  if (root < 0 || root >= n_ranks_) {
    strata::detail::fail<IndexError>("DistTensor::scatter", "root ", root, " of ", n_ranks_,
                                     " ranks");
  }
  detail::collectively(comm_, "DistTensor::scatter", [&] {
    if (rank_ == root && whole.shape() != shape()) {
      strata::detail::fail<ShapeError>("DistTensor::scatter", "a tensor of shape ",
                                       to_string(whole.shape()),
                                       " for a distributed tensor of shape ", to_string(shape()));
    }
  });
  sync();  // nobody still reads the old values
  if (rank_ == root) {
    put(Index(static_cast<std::size_t>(tiling_.rank()), 0), shape(), whole);
  }
  sync();
}

template <class T>
DistTensor<T> DistTensor<T>::redistribute(Tiling tiling, Distribution distribution) const {
  check_call("DistTensor::redistribute", detail::mix(tiling.digest(), distribution.digest()));
  if (tiling.shape() != shape()) {
    strata::detail::fail<ShapeError>("DistTensor::redistribute", "a tiling of shape ",
                                     to_string(tiling.shape()), " for a tensor of shape ",
                                     to_string(shape()));
  }
  DistTensor out(comm_, std::move(tiling), std::move(distribution));
  out.assign(*this);
  return out;
}

template <class T>
void DistTensor<T>::assign(const DistTensor& source) {
  int relation = MPI_UNEQUAL;
  MPI_Comm_compare(comm_, source.comm_, &relation);
  if (relation != MPI_CONGRUENT && relation != MPI_IDENT) {
    strata::detail::fail<CollectiveError>("DistTensor::assign",
                                          "the source lives on another group of ranks");
  }
  check_call("DistTensor::assign",  // the source too: ranks may name different tensors
             detail::mix(detail::mix(source.tiling_.digest(), source.distribution_.digest()),
                         source.identity_));
  if (source.shape() != shape()) {
    strata::detail::fail<ShapeError>("DistTensor::assign", "a source of shape ",
                                     to_string(source.shape()), " for a tensor of shape ",
                                     to_string(shape()));
  }
  if (&source == this) {
    return;
  }
  auto& from = const_cast<DistTensor&>(source);  // sync changes no element
  from.sync();
  sync();                           // nobody still reads this tensor's old values
  for (const index_t t : local_) {  // straight into this rank's tiles
    Tensor<T> into = tile(t);
    source.get_into(tiling_.tile_lo(t), tiling_.tile_hi(t), into);
  }
  sync();
  from.sync();  // no rank changes the source before every rank has read it
}

template <class T>
T DistTensor<T>::sum() const {
  const_cast<DistTensor&>(*this).sync(
      "DistTensor::sum");  // sees every completed put; changes no element
  const auto n = static_cast<std::size_t>(tiling_.n_tiles());
  // This rank's tiles' sums, in its tile order.
  std::vector<T> mine;
  for (const index_t t : local_) {
    T partial{};
    const Tensor<const T> v = tile(t);
    const Index e = v.shape();
    if (v.size() > 0) {  // row-major, one contiguous row at a time
      const index_t row = e.empty() ? 1 : e.back();
      const Index strides = v.strides();
      Index at(e.size(), 0);
      do {
        const T* p = v.data();
        for (std::size_t k = 0; k + 1 < e.size(); ++k) {
          p += at[k] * strides[k];
        }
        for (index_t i = 0; i < row; ++i) {
          partial += p[i];
        }
        if (!e.empty()) {
          at.back() = row - 1;  // the odometer moves on to the next row
        }
      } while (strata::detail::smooth_advance(e, at));
    }
    mine.push_back(partial);
  }
  std::vector<int> counts(static_cast<std::size_t>(n_ranks_), 0);
  for (const int o : owners_) {
    ++counts[static_cast<std::size_t>(o)];
  }
  std::vector<int> starts(static_cast<std::size_t>(n_ranks_), 0);
  for (std::size_t r = 1; r < starts.size(); ++r) {
    starts[r] = starts[r - 1] + counts[r - 1];
  }
  std::vector<T> by_rank(n);
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), detail::mpi_type<T>(), by_rank.data(),
                 counts.data(), starts.data(), detail::mpi_type<T>(), comm_);
  // Back to tile order, then one fixed order of additions.
  std::vector<int> next = starts;
  T total{};
  std::vector<T> by_tile(n);
  for (std::size_t t = 0; t < n; ++t) {
    const auto o = static_cast<std::size_t>(owners_[t]);
    by_tile[t] = by_rank[static_cast<std::size_t>(next[o]++)];
  }
  for (const T& x : by_tile) {
    total += x;
  }
  return total;
}

template <class T>
template <class F>
Tensor<T> DistTensor<T>::reduce_axes(const char* operation, Op op, IndexSpan axes, bool keepdims,
                                     T init, F combine) const {
  std::uint64_t digest = detail::mix(static_cast<std::uint64_t>(op) + 1U, keepdims ? 1U : 0U);
  for (const index_t a : axes) {
    digest = detail::mix(digest, static_cast<std::uint64_t>(a));
  }
  check_call(operation, digest);
  const Index global = shape();
  // The same shape everywhere, so every rank throws the same error or none does.
  const std::vector<bool> reduced = strata::detail::reduced_axes(global, axes, operation);
  auto& self = const_cast<DistTensor&>(*this);  // sync changes no element
  self.sync();
  const std::size_t rank = global.size();
  const auto partial_extents = [&](index_t t) {
    Index e = tiling_.tile_extents(t);
    for (std::size_t k = 0; k < rank; ++k) {
      e[k] = reduced[k] ? 1 : e[k];
    }
    return e;
  };
  const auto size_of = [](const Index& e) {
    index_t n = 1;
    for (const index_t x : e) {
      n *= x;
    }
    return n;
  };
  // Each local tile reduced on its own (kept axes stay tile-sized), one after another.
  std::vector<T> mine;
  for (const index_t t : local_) {
    const Tensor<T> p = strata::reduce(tile(t), axes, init, combine, true);
    mine.insert(mine.end(), p.data(), p.data() + p.size());
  }
  std::vector<index_t> per_rank(static_cast<std::size_t>(n_ranks_), 0);
  const index_t n_tiles = tiling_.n_tiles();
  for (index_t t = 0; t < n_tiles; ++t) {
    per_rank[static_cast<std::size_t>(owners_[static_cast<std::size_t>(t)])] +=
        size_of(partial_extents(t));
  }
  std::vector<int> counts(per_rank.size(), 0);
  std::vector<int> starts(per_rank.size(), 0);
  index_t total = 0;
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    if (total + per_rank[r] > std::numeric_limits<int>::max()) {
      strata::detail::fail<ShapeError>(operation, "partial results of ", total + per_rank[r],
                                       " elements: more than one MPI message can hold");
    }
    starts[r] = static_cast<int>(total);
    counts[r] = static_cast<int>(per_rank[r]);
    total += per_rank[r];
  }
  std::vector<T> all(static_cast<std::size_t>(std::max<index_t>(total, 1)));
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), detail::mpi_type<T>(), all.data(),
                 counts.data(), starts.data(), detail::mpi_type<T>(), comm_);
  // Combine the tiles' partial results in tile order: one fixed order for every rank count.
  Index out_shape = global;
  for (std::size_t k = 0; k < rank; ++k) {
    out_shape[k] = reduced[k] ? 1 : out_shape[k];
  }
  Tensor<T> out(out_shape);
  T* const dst = out.data();
  std::fill(dst, dst + out.size(), init);
  const Index out_strides = detail::dense_strides(out_shape);
  std::vector<index_t> next(starts.begin(), starts.end());  // per rank: its next partial
  for (index_t t = 0; t < n_tiles; ++t) {
    const Index e = partial_extents(t);
    const index_t count = size_of(e);
    const T* src =
        all.data() + next[static_cast<std::size_t>(owners_[static_cast<std::size_t>(t)])];
    next[static_cast<std::size_t>(owners_[static_cast<std::size_t>(t)])] += count;
    if (count == 0) {
      continue;
    }
    const Index lo = tiling_.tile_lo(t);
    Index at(rank, 0);  // row-major position in the partial
    index_t i = 0;
    do {
      index_t o = 0;
      for (std::size_t k = 0; k < rank; ++k) {
        o += (reduced[k] ? 0 : lo[k] + at[k]) * out_strides[k];
      }
      dst[o] = combine(dst[o], src[i++]);
    } while (strata::detail::smooth_advance(e, at));
  }
  return keepdims ? out : out.squeeze(strata::detail::marked_axes(reduced));
}

template <class T>
Tensor<T> DistTensor<T>::sum(IndexSpan axes, bool keepdims) const {
  return reduce_axes("DistTensor::sum", Op::sum, axes, keepdims, T{0}, std::plus<T>{});
}

template <class T>
Tensor<T> DistTensor<T>::prod(IndexSpan axes, bool keepdims) const {
  return reduce_axes("DistTensor::prod", Op::product, axes, keepdims, T{1}, std::multiplies<T>{});
}

template <class T>
Tensor<T> DistTensor<T>::min(IndexSpan axes, bool keepdims) const requires std::totally_ordered<T> {
  const T top = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                     : std::numeric_limits<T>::max();
  return reduce_axes("DistTensor::min", Op::min, axes, keepdims, top,
                     [](T a, T b) { return b < a ? b : a; });
}

template <class T>
Tensor<T> DistTensor<T>::max(IndexSpan axes, bool keepdims) const requires std::totally_ordered<T> {
  const T bottom = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
  return reduce_axes("DistTensor::max", Op::max, axes, keepdims, bottom,
                     [](T a, T b) { return a < b ? b : a; });
}

}  // namespace strata::dist
