#include "strata/dist/tensor.hpp"

#include <array>
#include <utility>

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
