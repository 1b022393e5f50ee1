#include "strata/dist/tensor.hpp"

#include <sched.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace strata::dist {

Ghosts Ghosts::of(const ZProjection& reads, IndexSpan block, bool periodic) {
  if (reads.index_rank() != reads.tensor_rank() ||
      std::cmp_not_equal(block.size(), reads.index_rank())) {
    strata::detail::fail<ShapeError>("Ghosts::of", "a projection of index rank ",
                                     reads.index_rank(), " and tensor rank ", reads.tensor_rank(),
                                     " for blocks ", to_string(block), ": the ranks must agree");
  }
  const Index zero(block.size(), 0);
  const ZRange region = reads.apply(ZRange(zero, block));
  Ghosts g;
  g.periodic = periodic;
  for (std::size_t k = 0; k < block.size(); ++k) {
    const index_t below = -region.start()[k];
    const index_t above = region.end()[k] - block[k];
    if (below < 0 || above < 0) {
      strata::detail::fail<ShapeError>("Ghosts::of", "the region ", to_string(region.start()),
                                       " to ", to_string(region.end()), " of the block ",
                                       to_string(block), " does not contain the block");
    }
    g.lower.push_back(below);
    g.upper.push_back(above);
  }
  return g;
}

}  // namespace strata::dist

namespace strata::dist::detail {

MPI_Op mpi_op(Op op) {
  switch (op) {
    case Op::sum:
      return MPI_SUM;
    case Op::product:
      return MPI_PROD;
    case Op::min:
      return MPI_MIN;
    case Op::max:
      return MPI_MAX;
    case Op::replace:
      return MPI_REPLACE;
  }
  return MPI_SUM;
}

int cores_per_rank(MPI_Comm comm) {
  // The cores this process may run on, and those of all the node's ranks together: unbound
  // ranks share one mask (divide it among them), bound ranks have their own (keep it).
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) {
    const auto all = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    for (int c = 0; c < all && c < CPU_SETSIZE; ++c) {
      CPU_SET(c, &mine);
    }
  }
  constexpr std::size_t kWords = sizeof(cpu_set_t) / sizeof(unsigned long);
  std::array<unsigned long, kWords> words{};
  std::memcpy(words.data(), &mine, sizeof words);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 1;
  MPI_Comm_size(node, &node_size);
  MPI_Allreduce(MPI_IN_PLACE, words.data(), static_cast<int>(kWords), MPI_UNSIGNED_LONG, MPI_BOR,
                node);
  MPI_Comm_free(&node);
  cpu_set_t together;
  std::memcpy(&together, words.data(), sizeof words);
  const int own = CPU_COUNT(&mine);
  const int shared = CPU_COUNT(&together) / std::max(node_size, 1);
  return std::max(1, std::min(own, shared));
}

Datatype::Datatype(IndexSpan sizes, IndexSpan strides, MPI_Datatype base) {
  // Nested hvectors from the last axis out: each level repeats the level inside it sizes[k]
  // times, strides[k] elements apart (any sign: flipped views need no copy).
  MPI_Aint lower = 0;
  MPI_Aint extent = 0;
  MPI_Type_get_extent(base, &lower, &extent);
  MPI_Datatype current = base;
  for (std::size_t k = sizes.size(); k-- > 0;) {
    MPI_Datatype next = MPI_DATATYPE_NULL;
    MPI_Type_create_hvector(static_cast<int>(sizes[k]), 1,
                            static_cast<MPI_Aint>(strides[k]) * extent, current, &next);
    if (current != base) {
      MPI_Type_free(&current);
    }
    current = next;
  }
  if (current == base) {  // rank 0: one element
    MPI_Type_contiguous(1, base, &current);
  }
  MPI_Type_commit(&current);
  type_ = current;
}

Datatype::~Datatype() {
  if (type_ != MPI_DATATYPE_NULL) {
    MPI_Type_free(&type_);
  }
}

void agree(MPI_Comm comm, std::string_view operation, std::uint64_t digest) {
  const std::array<std::uint64_t, 2> mine{digest, ~digest};
  std::array<std::uint64_t, 2> most{};
  MPI_Allreduce(mine.data(), most.data(), 2, MPI_UINT64_T, MPI_MAX, comm);
  if (most[0] != ~most[1]) {  // the largest digest differs from the smallest
    strata::detail::fail<CollectiveError>(
        operation,
        "the ranks passed different arguments (a collective operation needs the same "
        "arguments, in the same order, on every rank)");
  }
}

namespace {

// The attribute under which a user's communicator keeps its checks communicator (a
// heap-held shared_ptr, which tensors share): the deleter drops the communicator's share when
// MPI frees the user's communicator; the duplicate is freed with its last tensor.
int checks_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(
        MPI_COMM_NULL_COPY_FN,
        [](MPI_Comm, int, void* value, void*) -> int {
          delete static_cast<std::shared_ptr<const MPI_Comm>*>(value);  // NOLINT: MPI's pointer
          return MPI_SUCCESS;
        },
        &k, nullptr);
    return k;
  }();
  return keyval;
}

// Tensors made by this process: identities are never reused.
std::uint64_t tensors_made = 0;

}  // namespace

std::shared_ptr<const MPI_Comm> checks_comm(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, checks_keyval(), &value, &found);
  if (found != 0) {
    return *static_cast<std::shared_ptr<const MPI_Comm>*>(value);
  }
  auto* checks = new MPI_Comm(MPI_COMM_NULL);  // NOLINT: owned by the shared_ptr below
  MPI_Comm_dup(comm, checks);
  std::shared_ptr<const MPI_Comm> shared(checks, [](MPI_Comm* c) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized == 0) {
      MPI_Comm_free(c);
    }
    delete c;  // NOLINT: the shared_ptr's deleter
  });
  MPI_Comm_set_attr(comm, checks_keyval(),
                    new std::shared_ptr<const MPI_Comm>(shared));  // NOLINT: MPI's pointer
  return shared;
}

std::uint64_t agree_on_identity(MPI_Comm checks) {
  std::uint64_t identity = 0;
  MPI_Allreduce(&tensors_made, &identity, 1, MPI_UINT64_T, MPI_MAX, checks);
  tensors_made = identity + 1;
  return identity;
}

void check_box(std::string_view operation, IndexSpan lo, IndexSpan hi, IndexSpan shape) {
  bool valid = lo.size() == shape.size() && hi.size() == shape.size();
  for (std::size_t k = 0; valid && k < shape.size(); ++k) {
    valid = 0 <= lo[k] && lo[k] <= hi[k] && hi[k] <= shape[k];
  }
  if (!valid) {
    strata::detail::fail<IndexError>(operation, "box [", to_string(lo), ", ", to_string(hi),
                                     ") is not inside the shape ", to_string(shape));
  }
}

}  // namespace strata::dist::detail

// ---- the window cache ------------------------------------------------------------------------
//
// Making a window is slow (MPI_Win_allocate registers its memory: about 150 ms for 128 MiB per
// rank on the development machine, more than moving the data), so the windows of destroyed
// tensors over all processes are kept, at most kCachedWindows of them, and reused by the next
// tensor of exactly the same sizes. Every decision depends only on what every rank holds alike
// (the sizes of all ranks, the order of construction and destruction, which is collective),
// so all ranks hit or miss together. Tensors over smaller communicators are not cached: a
// cache shared by overlapping communicators could order their collective frees differently
// on different ranks.

namespace strata::dist::detail {
namespace {

struct CachedWindow {
  MPI_Comm comm;
  MPI_Win window;
  std::vector<MPI_Aint> bytes;
  int unit;
  void* base;
};

constexpr std::size_t kCachedWindows = 2;

std::vector<CachedWindow>& cached_windows() {  // the most recently released first
  static std::vector<CachedWindow> windows;
  return windows;
}

void free_window(CachedWindow& w) noexcept {
  MPI_Win_unlock_all(w.window);
  MPI_Win_free(&w.window);
  MPI_Comm_free(&w.comm);
}

void free_cached() noexcept {
  for (CachedWindow& w : cached_windows()) {
    free_window(w);
  }
  cached_windows().clear();
}

// MPI_Finalize deletes MPI_COMM_SELF's attributes first: the cache goes then.
int free_at_finalize(MPI_Comm /*comm*/, int /*keyval*/, void* /*value*/, void* /*state*/) {
  free_cached();
  return MPI_SUCCESS;
}

bool hooked_to_finalize() noexcept {
  static const bool hooked = [] {
    int keyval = MPI_KEYVAL_INVALID;
    return MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_at_finalize, &keyval, nullptr) ==
               MPI_SUCCESS &&
           MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr) == MPI_SUCCESS;
  }();
  return hooked;
}

bool spans_all(MPI_Comm comm) noexcept {
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &result);
  return result == MPI_IDENT || result == MPI_CONGRUENT;
}

// Whether a new window can be MPI-3 shared memory: every rank of comm on this node, and room
// for the whole window in /dev/shm (where Open MPI and MPICH keep shared windows on Linux; a
// container's is often 64 MiB, and a full one fails on first touch, not at allocation).
// STRATA_SHARED_WINDOWS=0 in rank 0's environment keeps MPI_Win_allocate (tests and benchmarks
// compare the two routes). Decided by rank 0's answer, so every rank takes the same route.
bool fits_shared_memory(MPI_Comm comm, const std::vector<MPI_Aint>& bytes) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int fits = node_size == size ? 1 : 0;
  const char* const wanted = std::getenv("STRATA_SHARED_WINDOWS");
  if (wanted != nullptr && std::string_view(wanted) == "0") {
    fits = 0;
  }
  if (rank == 0 && fits == 1) {
    // Each rank's part rounded up to pages (alloc_shared_noncontig), with a margin.
    constexpr MPI_Aint kPage = 1 << 16;
    MPI_Aint total = 0;
    for (const MPI_Aint b : bytes) {
      total += (b + kPage - 1) / kPage * kPage;
    }
    struct statvfs shm {};
    fits = statvfs("/dev/shm", &shm) == 0 &&
                   static_cast<double>(shm.f_bavail) * static_cast<double>(shm.f_frsize) >=
                       1.25 * static_cast<double>(total)
               ? 1
               : 0;
  }
  MPI_Bcast(&fits, 1, MPI_INT, 0, comm);
  return fits == 1;
}

}  // namespace

std::vector<void*> shared_bases(MPI_Win window, int n_ranks) {
  int* flavor = nullptr;
  int found = 0;
  MPI_Win_get_attr(window, MPI_WIN_CREATE_FLAVOR, static_cast<void*>(&flavor), &found);
  std::vector<void*> bases;
  if (found == 0 || flavor == nullptr || *flavor != MPI_WIN_FLAVOR_SHARED) {
    return bases;
  }
  for (int r = 0; r < n_ranks; ++r) {
    MPI_Aint size = 0;
    int unit = 0;
    void* base = nullptr;
    MPI_Win_shared_query(window, r, &size, &unit, static_cast<void*>(&base));
    bases.push_back(base);
  }
  return bases;
}

void* acquire_window(MPI_Comm& comm, const std::vector<MPI_Aint>& bytes, int unit,
                     MPI_Win& window) {
  std::vector<CachedWindow>& cache = cached_windows();
  if (spans_all(comm)) {
    for (auto w = cache.begin(); w != cache.end(); ++w) {
      if (w->unit == unit && w->bytes == bytes) {
        MPI_Comm_free(&comm);  // the window's own communicator is congruent with it
        comm = w->comm;
        window = w->window;
        void* const base = w->base;
        cache.erase(w);
        return base;
      }
    }
  }
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  void* base = nullptr;
  const MPI_Aint mine = bytes[static_cast<std::size_t>(rank)];
  if (fits_shared_memory(comm, bytes)) {
    // Each rank's part on its own pages (first touched by its owner).
    MPI_Info info = MPI_INFO_NULL;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    MPI_Win_allocate_shared(mine, unit, info, comm, &base, &window);
    MPI_Info_free(&info);
  } else {
    MPI_Win_allocate(mine, unit, MPI_INFO_NULL, comm, &base, &window);
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, window);
  return base;
}

void release_window(MPI_Comm& comm, const std::vector<MPI_Aint>& bytes, int unit,
                    MPI_Win& window) noexcept {
  if (spans_all(comm) && hooked_to_finalize()) {
    MPI_Barrier(comm);  // every rank is done with the window before its memory is reused
    void* base = nullptr;
    int found = 0;
    MPI_Win_get_attr(window, MPI_WIN_BASE, static_cast<void*>(&base), &found);
    std::vector<CachedWindow>& cache = cached_windows();
    cache.insert(cache.begin(), CachedWindow{comm, window, bytes, unit, base});
    comm = MPI_COMM_NULL;
    window = MPI_WIN_NULL;
    while (cache.size() > kCachedWindows) {
      free_window(cache.back());
      cache.pop_back();
    }
    return;
  }
  MPI_Win_unlock_all(window);
  MPI_Win_free(&window);
  MPI_Comm_free(&comm);
}

}  // namespace strata::dist::detail

namespace strata::dist {

void release_cached_windows() {
  detail::free_cached();
}

}  // namespace strata::dist
