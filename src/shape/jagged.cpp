// Jagged and JaggedView: ragged rows over an outer grid, binary search of row starts for random
// access, odometer steps that skip empty rows, slicing and chipping.
#include "strata/shape/jagged.hpp"

#include "strata/core/checked.hpp"
#include "strata/shape/nested.hpp"

#include <algorithm>
#include <functional>
#include <ostream>

namespace strata {
namespace detail {
namespace {

/// Builds the shared description; checks ranks and sizes.
std::shared_ptr<const JaggedData> make_data(Index outer, int inner_rank,
                                            std::vector<index_t> extents, std::vector<Shape> inner,
                                            std::string_view op) {
  auto data = std::make_shared<JaggedData>();
  data->outer = std::move(outer);
  data->inner_rank = inner_rank;
  const index_t rows = checked_extents(data->outer, op);
  data->starts.assign(static_cast<std::size_t>(rows) + 1, 0);
  if (inner.empty()) {
    data->extents = std::move(extents);
    for (index_t r = 0; r < rows; ++r) {
      const index_t length = data->extents[static_cast<std::size_t>(r)];
      if (inner_rank == 1 && length >= 0) {  // 1-D rows: the size is the length
        data->starts[static_cast<std::size_t>(r) + 1] =
            checked_add(data->starts[static_cast<std::size_t>(r)], length, op);
        continue;
      }
      const index_t size = checked_extents(data->row_extents(r), op);
      data->starts[static_cast<std::size_t>(r) + 1] =
          checked_add(data->starts[static_cast<std::size_t>(r)], size, op);
    }
  } else {
    data->inner = std::move(inner);
    for (index_t r = 0; r < rows; ++r) {
      data->starts[static_cast<std::size_t>(r) + 1] =
          checked_add(data->starts[static_cast<std::size_t>(r)],
                      data->inner[static_cast<std::size_t>(r)].size(), op);
    }
  }
  return data;
}

/// Rows of lists from each row's number of lists and each list's length (checked); no rows
/// are smooth rows of rank 2.
std::shared_ptr<const JaggedData> make_list_data(Index outer, IndexSpan counts, IndexSpan lengths,
                                                 std::string_view op) {
  const index_t rows = checked_extents(outer, op);
  if (rows != static_cast<index_t>(counts.size())) {
    fail<ShapeError>(op, "outer extents ", strata::to_string(outer), " make ", rows, " rows but ",
                     counts.size(), " counts of lists were given");
  }
  if (rows == 0) {
    if (!lengths.empty()) {
      fail<ShapeError>(op, "no rows hold the ", lengths.size(), " lengths given");
    }
    return make_data(std::move(outer), 2, {}, {}, op);
  }
  auto data = std::make_shared<JaggedData>();
  data->outer = std::move(outer);
  data->inner_rank = 2;
  data->first.assign(counts.size() + 1, 0);
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] < 0) {
      fail<ShapeError>(op, "row ", r, " has a negative count of lists, ", counts[r]);
    }
    data->first[r + 1] = checked_add(data->first[r], counts[r], op);
  }
  if (data->first.back() != static_cast<index_t>(lengths.size())) {
    fail<ShapeError>(op, "the counts ", strata::to_string(counts), " make ", data->first.back(),
                     " lists but ", lengths.size(), " lengths were given");
  }
  data->list_ends.assign(lengths.size() + 1, 0);
  for (std::size_t l = 0; l < lengths.size(); ++l) {
    if (lengths[l] < 0) {
      fail<ShapeError>(op, "list ", l, " has a negative length, ", lengths[l]);
    }
    data->list_ends[l + 1] = checked_add(data->list_ends[l], lengths[l], op);
  }
  data->starts.resize(counts.size() + 1);
  for (std::size_t r = 0; r <= counts.size(); ++r) {
    data->starts[r] = data->list_ends[static_cast<std::size_t>(data->first[r])];
  }
  return data;
}

/// The counts and lengths of rows [row0, row1) of rows of lists (for a description of their own).
void gather_lists(const JaggedData& d, index_t row0, index_t row1, std::vector<index_t>& counts,
                  std::vector<index_t>& lengths) {
  for (index_t r = row0; r < row1; ++r) {
    const auto a = static_cast<std::size_t>(r);
    counts.push_back(d.first[a + 1] - d.first[a]);
    for (index_t l = d.first[a]; l < d.first[a + 1]; ++l) {
      lengths.push_back(d.list_length(l));
    }
  }
}

/// Row @p r of rows of lists as a shape of its own (a jagged matrix of the lists' lengths).
Shape list_row(const JaggedData& d, index_t r) {
  std::vector<index_t> counts;
  std::vector<index_t> lengths;
  gather_lists(d, r, r + 1, counts, lengths);
  return Jagged::from_lengths(lengths);
}

/// Rows from shapes: a table of extents when all are smooth, the shapes otherwise.
std::shared_ptr<const JaggedData> data_from_rows(IndexSpan outer, std::vector<Shape> rows,
                                                 std::string_view op) {
  const index_t count = checked_extents(outer, op);
  if (count != static_cast<index_t>(rows.size())) {
    fail<ShapeError>(op, "outer extents ", strata::to_string(outer), " make ", count, " rows but ",
                     rows.size(), " row shapes were given");
  }
  int inner_rank = 1;
  bool all_smooth = true;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    rows[r] = plain_shape(rows[r]);  // rows have no origin of their own
    if (rows[r].rank() < 1) {
      fail<ShapeError>(op, "row ", r, " has rank 0; jagged rows need rank >= 1");
    }
    if (r == 0) {
      inner_rank = rows[r].rank();
    } else if (rows[r].rank() != inner_rank) {
      fail<ShapeError>(op, "row ", r, " ", rows[r].to_string(), " has rank ", rows[r].rank(),
                       " but row 0 ", rows[0].to_string(), " has rank ", inner_rank,
                       "; all rows need one rank");
    }
    all_smooth = all_smooth && rows[r].is<Smooth>();
  }
  std::vector<index_t> extents;
  if (all_smooth) {
    extents.reserve(rows.size() * static_cast<std::size_t>(inner_rank));
    for (const Shape& row : rows) {
      const IndexSpan e = row.as<Smooth>().extents();
      extents.insert(extents.end(), e.begin(), e.end());
    }
    rows.clear();
  } else if (std::all_of(rows.begin(), rows.end(), [](const Shape& row) {
               if (!row.is<Jagged>()) {
                 return false;
               }
               const Jagged& j = row.as<Jagged>();
               return j.outer_rank() == 1 && j.inner_rank() == 1 && j.smooth_rows();
             })) {  // rows of lists: kept as their two-level offsets, no shape per row
    std::vector<index_t> counts;
    std::vector<index_t> lengths;
    counts.reserve(rows.size());
    for (const Shape& row : rows) {
      const JaggedRows& lists = row.as<Jagged>().rows();
      counts.push_back(lists.row1() - lists.row0());
      const std::vector<index_t>& e = lists.data().extents;
      lengths.insert(lengths.end(), e.begin() + lists.row0(), e.begin() + lists.row1());
    }
    return make_list_data(Index(outer.begin(), outer.end()), counts, lengths, op);
  }
  return make_data(Index(outer.begin(), outer.end()), inner_rank, std::move(extents),
                   std::move(rows), op);
}

Index erase_mode(IndexSpan values, int mode) {
  Index out(values.begin(), values.end());
  out.erase(out.begin() + mode);
  return out;
}

}  // namespace

JaggedRows::JaggedRows() : data_(make_data(Index{0}, 1, {}, {}, "Jagged")), row1_(0), outer_{0} {}

JaggedRows::JaggedRows(std::shared_ptr<const JaggedData> data, index_t row0, index_t row1,
                       Index outer)
    : data_(std::move(data)), row0_(row0), row1_(row1), outer_(std::move(outer)) {}

namespace {
// The list lengths of a row of rank 2 kept as a rectangle or as 1-D lists; false otherwise.
bool lengths_of_lists(const Shape& row, std::vector<index_t>& lengths) {
  if (row.rank() != 2) {
    return false;
  }
  if (row.is<Smooth>()) {
    const IndexSpan e = row.as<Smooth>().extents();
    lengths.assign(static_cast<std::size_t>(e[0]), e[1]);
    return true;
  }
  if (!row.is<Jagged>() || row.as<Jagged>().outer_rank() != 1 || !row.as<Jagged>().smooth_rows()) {
    return false;
  }
  const std::span<const index_t> starts = row.as<Jagged>().row_starts();
  lengths.clear();
  for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
    lengths.push_back(starts[k + 1] - starts[k]);
  }
  return true;
}
}  // namespace

bool same_row(const Shape& a, const Shape& b) {
  if (a == b) {
    return true;
  }
  if (a.is<Smooth>() == b.is<Smooth>()) {  // one form: equal only as shapes
    return false;
  }
  std::vector<index_t> la;
  std::vector<index_t> lb;
  return lengths_of_lists(a, la) && lengths_of_lists(b, lb) && la == lb;
}

Shape JaggedRows::row(index_t r) const {
  const index_t abs = row0_ + r;
  if (data_->smooth_rows()) {
    return Smooth(IndexSpan(data_->row_extents(abs)));
  }
  if (data_->list_rows()) {  // made from the offsets when asked (no shape kept per row)
    return list_row(*data_, abs);
  }
  return data_->inner[static_cast<std::size_t>(abs)];
}

index_t JaggedRows::uniform_extent(int mode, const std::function<std::string()>& what) const {
  if (mode < outer_rank()) {
    return outer_[static_cast<std::size_t>(mode)];
  }
  const int m = mode - outer_rank();
  if (row1_ == row0_) {
    fail<ShapeError>("extent", "mode ", mode, " of ", what(),
                     " is an inner mode and there are no rows to ask");
  }
  if (data_->list_rows()) {  // read from the offsets when uniform (else the rows name the error)
    const JaggedData& d = *data_;
    const auto r0 = static_cast<std::size_t>(row0_);
    const auto r1 = static_cast<std::size_t>(row1_);
    index_t e = m == 0 ? d.first[r0 + 1] - d.first[r0] : -1;
    bool uniform = true;
    for (std::size_t r = r0; r < r1 && uniform; ++r) {
      if (m == 0) {
        uniform = d.first[r + 1] - d.first[r] == e;
        continue;
      }
      for (index_t l = d.first[r]; l < d.first[r + 1] && uniform; ++l) {
        e = e < 0 ? d.list_length(l) : e;
        uniform = d.list_length(l) == e;
      }
      uniform = uniform && d.first[r + 1] > d.first[r];  // a row without lists has no extent 1
    }
    if (uniform) {
      return e;
    }
  }
  const index_t first = row(0).uniform_extent(m);
  for (index_t r = 1; r < row1_ - row0_; ++r) {
    const index_t e = row(r).uniform_extent(m);
    if (e != first) {
      fail<ShapeError>("extent", "mode ", mode, " of ", what(), " is ragged (row 0 has ", first,
                       ", row ", r, " has ", e, "); ask a row: row(r).extent(", m, ")");
    }
  }
  return first;
}

index_t JaggedRows::row_of(std::span<const index_t> offset) const {
  return row0_ + smooth_ravel(outer_, offset.first(outer_.size()));
}

void JaggedRows::first_of_row(index_t r, std::span<index_t> inner) const {
  if (data_->list_rows()) {  // the first list with an element (the row has one)
    const index_t first = data_->first[static_cast<std::size_t>(r)];
    index_t l = first;
    while (data_->list_length(l) == 0) {
      ++l;
    }
    inner[0] = l - first;
    inner[1] = 0;
  } else if (data_->smooth_rows()) {
    std::fill(inner.begin(), inner.end(), 0);
  } else {
    data_->inner[static_cast<std::size_t>(r)].unravel(0, inner);
  }
}

void JaggedRows::unravel(index_t position, std::span<index_t> offset) const {
  const auto& starts = data_->starts;
  const index_t global = starts[static_cast<std::size_t>(row0_)] + position;
  const auto first = starts.begin() + row0_;
  const auto last = starts.begin() + row1_ + 1;
  const index_t r = (std::upper_bound(first, last, global) - starts.begin()) - 1;
  const std::size_t o = outer_.size();
  smooth_unravel(r - row0_, outer_, offset.first(o));
  const index_t inside = global - starts[static_cast<std::size_t>(r)];
  if (data_->list_rows()) {  // the list holding it (past the empty ones that start there)
    const auto& ends = data_->list_ends;
    const auto a = static_cast<std::size_t>(r);
    const index_t l = (std::upper_bound(ends.begin() + data_->first[a],
                                        ends.begin() + data_->first[a + 1] + 1, global) -
                       ends.begin()) -
                      1;
    offset[o] = l - data_->first[a];
    offset[o + 1] = global - ends[static_cast<std::size_t>(l)];
  } else if (data_->smooth_rows()) {
    smooth_unravel(inside, data_->row_extents(r), offset.subspan(o));
  } else {
    data_->inner[static_cast<std::size_t>(r)].unravel(inside, offset.subspan(o));
  }
}

bool JaggedRows::advance_in_lists(index_t r, std::span<index_t> inner) const {
  const index_t first = data_->first[static_cast<std::size_t>(r)];
  index_t l = first + inner[0];
  if (inner[1] + 1 < data_->list_length(l)) {
    ++inner[1];
    return true;
  }
  for (++l; l < data_->first[static_cast<std::size_t>(r) + 1]; ++l) {  // past empty lists
    if (data_->list_length(l) > 0) {
      inner[0] = l - first;
      inner[1] = 0;
      return true;
    }
  }
  return false;
}

bool JaggedRows::advance(std::span<index_t> offset) const {
  const std::size_t o = outer_.size();
  const index_t r = row_of(offset);
  const std::span<index_t> inner = offset.subspan(o);
  const bool stepped = data_->list_rows() ? advance_in_lists(r, inner)
                       : data_->smooth_rows()
                           ? smooth_advance(data_->row_extents(r), inner)
                           : data_->inner[static_cast<std::size_t>(r)].advance(inner);
  if (stepped) {
    return true;
  }
  const auto& starts = data_->starts;
  index_t next = r + 1;
  while (next < row1_ &&
         starts[static_cast<std::size_t>(next) + 1] == starts[static_cast<std::size_t>(next)]) {
    ++next;
  }
  if (next >= row1_) {
    return false;
  }
  smooth_unravel(next - row0_, outer_, offset.first(o));
  first_of_row(next, inner);
  return true;
}

index_t JaggedRows::run_length(std::span<const index_t> offset) const {
  const index_t r = row_of(offset);
  const std::span<const index_t> inner = offset.subspan(outer_.size());
  if (data_->list_rows()) {
    return data_->list_length(data_->first[static_cast<std::size_t>(r)] + inner[0]) - inner[1];
  }
  return data_->smooth_rows() ? data_->row_extents(r).back() - inner.back()
                              : data_->inner[static_cast<std::size_t>(r)].run_length(inner);
}

index_t JaggedRows::ravel(std::span<const index_t> offset) const {
  const std::size_t o = outer_.size();
  const index_t r = row_of(offset);
  const auto inner = offset.subspan(o);
  if (data_->list_rows()) {
    return data_->list_ends[static_cast<std::size_t>(data_->first[static_cast<std::size_t>(r)] +
                                                     inner[0])] +
           inner[1] - data_->starts[static_cast<std::size_t>(row0_)];
  }
  const index_t inside = data_->smooth_rows()
                             ? smooth_ravel(data_->row_extents(r), inner)
                             : data_->inner[static_cast<std::size_t>(r)].ravel(IndexSpan(inner));
  return data_->starts[static_cast<std::size_t>(r)] -
         data_->starts[static_cast<std::size_t>(row0_)] + inside;
}

bool JaggedRows::contains_offset(std::span<const index_t> offset) const {
  if (static_cast<int>(offset.size()) != rank()) {
    return false;
  }
  const std::size_t o = outer_.size();
  if (!smooth_contains(outer_, offset.first(o))) {
    return false;
  }
  const index_t r = row_of(offset);
  const auto inner = offset.subspan(o);
  if (data_->list_rows()) {
    const auto a = static_cast<std::size_t>(r);
    return inner[0] >= 0 && inner[0] < data_->first[a + 1] - data_->first[a] && inner[1] >= 0 &&
           inner[1] < data_->list_length(data_->first[a] + inner[0]);
  }
  return data_->smooth_rows()
             ? smooth_contains(data_->row_extents(r), inner)
             : data_->inner[static_cast<std::size_t>(r)].contains_offset(IndexSpan(inner));
}

void JaggedRows::print(std::ostream& out) const {
  out << "Jagged" << strata::to_string(outer_) << "{";
  const index_t n = row1_ - row0_;
  for (index_t r = 0; r < n; ++r) {
    if (n > 8 && r == 3) {
      out << " ...";
      r = n - 3;
    }
    out << (r == 0 ? "" : " ");
    if (data_->list_rows()) {
      list_row(*data_, row0_ + r).print(out);
    } else if (data_->smooth_rows()) {
      out << strata::to_string(data_->row_extents(row0_ + r));
    } else {
      data_->inner[static_cast<std::size_t>(row0_ + r)].print(out);
    }
  }
  out << "}";
}

bool JaggedRows::same_as(const JaggedRows& other) const {
  if (outer_ != other.outer_ || data_->inner_rank != other.data_->inner_rank) {
    return false;
  }
  if (data_ == other.data_ && row0_ == other.row0_) {
    return true;
  }
  const index_t n = row1_ - row0_;
  if (data_->smooth_rows() && other.data_->smooth_rows()) {
    const auto s = static_cast<std::ptrdiff_t>(data_->inner_rank);
    return std::equal(data_->extents.begin() + row0_ * s, data_->extents.begin() + row1_ * s,
                      other.data_->extents.begin() + other.row0_ * s);
  }
  if (data_->list_rows() && other.data_->list_rows()) {
    const JaggedData& a = *data_;
    const JaggedData& b = *other.data_;
    const auto count = [](const JaggedData& d, index_t r) {
      return d.first[static_cast<std::size_t>(r) + 1] - d.first[static_cast<std::size_t>(r)];
    };
    for (index_t r = 0; r < n; ++r) {
      if (count(a, row0_ + r) != count(b, other.row0_ + r)) {
        return false;
      }
    }
    const index_t la = a.first[static_cast<std::size_t>(row0_)];
    const index_t lb = b.first[static_cast<std::size_t>(other.row0_)];
    for (index_t l = 0; l < a.first[static_cast<std::size_t>(row1_)] - la; ++l) {
      if (a.list_length(la + l) != b.list_length(lb + l)) {
        return false;
      }
    }
    return true;
  }
  for (index_t r = 0; r < n; ++r) {
    if (!same_row(row(r), other.row(r))) {
      return false;
    }
  }
  return true;
}

JaggedRows JaggedRows::box(std::span<const index_t> lo, std::span<const index_t> hi) const {
  const std::size_t o = outer_.size();
  Index extents(o, 0);
  for (std::size_t k = 0; k < o; ++k) {
    extents[k] = hi[k] - lo[k];
  }
  const index_t count = checked_size(extents, "slice");
  // Contiguous in row-major order when leading modes have extent 1 and trailing ones are whole.
  std::size_t k = 0;
  while (k < o && extents[k] == 1) {
    ++k;
  }
  bool contiguous = true;
  for (std::size_t m = k + 1; m < o; ++m) {
    contiguous = contiguous && lo[m] == 0 && hi[m] == outer_[m];
  }
  if (contiguous || count == 0) {
    const index_t start = count == 0 ? row0_ : row0_ + smooth_ravel(outer_, lo);
    return {data_, start, start + count, extents};
  }
  std::vector<index_t> table;
  std::vector<Shape> shapes;
  std::vector<index_t> lengths;
  Index at(lo.begin(), lo.end());
  Index step(o, 0);
  do {
    for (std::size_t m = 0; m < o; ++m) {
      at[m] = lo[m] + step[m];
    }
    const index_t r = row_of(at);
    if (data_->list_rows()) {
      gather_lists(*data_, r, r + 1, table, lengths);
    } else if (data_->smooth_rows()) {
      const auto e = data_->row_extents(r);
      table.insert(table.end(), e.begin(), e.end());
    } else {
      shapes.push_back(data_->inner[static_cast<std::size_t>(r)]);
    }
  } while (smooth_advance(extents, step));
  if (data_->list_rows()) {
    return {make_list_data(extents, table, lengths, "slice"), 0, count, extents};
  }
  auto data = make_data(extents, data_->inner_rank, std::move(table), std::move(shapes), "slice");
  return {data, 0, count, extents};
}

JaggedRows JaggedRows::compact() const {
  if (row0_ == 0 && row1_ == data_->rows() && outer_ == data_->outer) {
    return *this;
  }
  std::vector<index_t> table;
  std::vector<Shape> shapes;
  if (data_->list_rows()) {
    std::vector<index_t> lengths;
    gather_lists(*data_, row0_, row1_, table, lengths);
    return {make_list_data(outer_, table, lengths, "shape"), 0, row1_ - row0_, outer_};
  }
  if (data_->smooth_rows()) {
    const auto s = static_cast<std::ptrdiff_t>(data_->inner_rank);
    table.assign(data_->extents.begin() + row0_ * s, data_->extents.begin() + row1_ * s);
  } else {
    shapes.assign(data_->inner.begin() + row0_, data_->inner.begin() + row1_);
  }
  auto data = make_data(outer_, data_->inner_rank, std::move(table), std::move(shapes), "shape");
  return {data, 0, row1_ - row0_, outer_};
}

JaggedRows JaggedRows::chip_outer(int mode, index_t i) const {
  Index lo(outer_.size(), 0);
  Index hi(outer_.begin(), outer_.end());
  lo[static_cast<std::size_t>(mode)] = i;
  hi[static_cast<std::size_t>(mode)] = i + 1;
  const JaggedRows rows = box(lo, hi);
  return {rows.data_, rows.row0_, rows.row1_, erase_mode(rows.outer_, mode)};
}

JaggedRows JaggedRows::chip_inner(int mode, index_t i,
                                  const std::function<std::string()>& what) const {
  const index_t n = row1_ - row0_;
  std::vector<index_t> table;
  std::vector<Shape> shapes;
  for (index_t r = 0; r < n; ++r) {
    if (data_->smooth_rows()) {
      const auto e = data_->row_extents(row0_ + r);
      if (i < 0 || i >= e[static_cast<std::size_t>(mode)]) {
        fail<IndexError>("chip", "index ", i, " is outside [0, ", e[static_cast<std::size_t>(mode)],
                         ") of inner mode ", mode, " in row ", r, " of ", what());
      }
      const Index kept = erase_mode(e, mode);
      table.insert(table.end(), kept.begin(), kept.end());
    } else {
      shapes.push_back(row(r).chip(mode, i));
    }
  }
  Index rows_outer = outer_;
  // Chipped jagged rows are views with an origin, and may all be smooth now: store them as a
  // row built from those shapes would be (plain values; a table of extents when smooth).
  auto data = shapes.empty() ? make_data(rows_outer, data_->inner_rank - 1, std::move(table),
                                         std::move(shapes), "chip")
                             : data_from_rows(rows_outer, std::move(shapes), "chip");
  return {data, 0, n, outer_};
}

namespace {

// Appends the smooth pieces of shapes and rows to a PieceIndex in storage order, the ragged
// indices that lead to each kept in one running prefix.
class PieceWalker {
 public:
  explicit PieceWalker(PieceIndex& out) : out_(out) {}

  void shape(const Shape& s, index_t base) {
    if (s.is<Smooth>()) {
      emit(base, s.as<Smooth>().extents());
      return;
    }
    rows(s.as<Jagged>().rows(), base);
  }

  // Row r's values start at base + where the row starts among the rows (a range of rows of
  // shared data counts from its first row, as JaggedRows::ravel does).
  void rows(const JaggedRows& j, index_t base) {
    const JaggedData& d = j.data();
    base -= d.starts[static_cast<std::size_t>(j.row0())];
    const IndexSpan outer = j.outer();
    const std::size_t at = prefix_.size();
    prefix_.resize(at + outer.size(), 0);
    for (index_t abs = j.row0(); abs < j.row1(); ++abs) {
      const index_t start = base + d.starts[static_cast<std::size_t>(abs)];
      if (d.list_rows()) {  // one piece per list, after the list's index in its row
        const index_t first = d.first[static_cast<std::size_t>(abs)];
        prefix_.push_back(0);
        for (index_t l = first; l < d.first[static_cast<std::size_t>(abs) + 1]; ++l) {
          prefix_.back() = l - first;
          const index_t length = d.list_length(l);
          emit(base + d.list_ends[static_cast<std::size_t>(l)],
               std::span<const index_t>(&length, 1));
        }
        prefix_.pop_back();
      } else if (d.smooth_rows()) {
        emit(start, d.row_extents(abs));
      } else {
        shape(d.inner[static_cast<std::size_t>(abs)], start);
      }
      for (std::size_t k = outer.size(); k-- > 0;) {  // the next row's outer index
        if (++prefix_[at + k] < outer[k]) {
          break;
        }
        prefix_[at + k] = 0;
      }
    }
    prefix_.resize(at);
  }

 private:
  void emit(index_t start, std::span<const index_t> extents) {
    out_.starts.push_back(start);
    out_.split.push_back(static_cast<int>(prefix_.size()));
    const std::size_t at = out_.modes.size();
    out_.modes.resize(at + prefix_.size() + extents.size());
    std::copy(extents.begin(), extents.end(),
              std::copy(prefix_.begin(), prefix_.end(),
                        out_.modes.begin() + static_cast<std::ptrdiff_t>(at)));
  }

  PieceIndex& out_;
  Index prefix_;
};

std::shared_ptr<const PieceIndex> make_pieces(const JaggedRows& rows) {
  auto index = std::make_shared<PieceIndex>();
  index->rank = rows.rank();
  const JaggedData& data = rows.data();
  if (data.list_rows() && rows.outer_rank() == 1) {  // one piece per list, written directly
    const auto r0 = static_cast<std::size_t>(rows.row0());
    const auto r1 = static_cast<std::size_t>(rows.row1());
    const index_t l0 = data.first[r0];
    const auto pieces = static_cast<std::size_t>(data.first[r1] - l0);
    const index_t base = data.starts[r0];
    index->starts.reserve(pieces + 1);
    index->starts.resize(pieces);
    index->split.assign(pieces, 2);
    index->modes.resize(3 * pieces);
    for (std::size_t r = r0; r < r1; ++r) {
      for (index_t l = data.first[r]; l < data.first[r + 1]; ++l) {
        const auto p = static_cast<std::size_t>(l - l0);
        index->starts[p] = data.list_ends[static_cast<std::size_t>(l)] - base;
        index->modes[3 * p] = static_cast<index_t>(r - r0);
        index->modes[3 * p + 1] = l - data.first[r];
        index->modes[3 * p + 2] = data.list_length(l);
      }
    }
  } else {
    PieceWalker(*index).rows(rows, 0);
  }
  index->starts.push_back(rows.size());
  if (rows.outer_rank() == 1 && rows.data().inner_rank == 2) {
    index->lists = list_index(rows);
  }
  return index;
}

}  // namespace

std::shared_ptr<const PieceIndex> piece_index(const JaggedRows& rows) {
  const JaggedData& data = rows.data();
  if (rows.row0() != 0 || rows.row1() != data.rows() || rows.outer() != data.outer) {
    return make_pieces(rows);
  }
  const std::lock_guard<std::mutex> lock(data.pieces_mutex);
  if (!data.pieces) {
    data.pieces = make_pieces(rows);
  }
  return data.pieces;
}

namespace {
std::shared_ptr<const ListIndex> make_list_index(const JaggedRows& rows) {
  auto index = std::make_shared<ListIndex>();
  const JaggedData& data = rows.data();
  index->counts.assign(static_cast<std::size_t>(rows.row1() - rows.row0()), 0);
  std::vector<index_t> lengths;
  const auto block = [&](std::size_t r, std::span<const index_t> e) {  // a rectangular row
    lengths.insert(lengths.end(), static_cast<std::size_t>(e[0]), e[1]);
    index->counts[r] = e[0];
  };
  for (index_t abs = rows.row0(); abs < rows.row1(); ++abs) {
    const auto r = static_cast<std::size_t>(abs - rows.row0());
    if (data.list_rows()) {
      const auto a = static_cast<std::size_t>(abs);
      for (index_t l = data.first[a]; l < data.first[a + 1]; ++l) {
        lengths.push_back(data.list_length(l));
      }
      index->counts[r] = data.first[a + 1] - data.first[a];
      continue;
    }
    if (data.smooth_rows()) {
      block(r, data.row_extents(abs));
      continue;
    }
    const Shape& row = data.inner[static_cast<std::size_t>(abs)];
    if (row.is<Smooth>()) {
      block(r, row.as<Smooth>().extents());
      continue;
    }
    const JaggedRows& lists = row.as<Jagged>().rows();  // 1-D rows: sizes are lengths
    const std::vector<index_t>& starts = lists.data().starts;
    for (index_t l = lists.row0(); l < lists.row1(); ++l) {
      lengths.push_back(starts[static_cast<std::size_t>(l) + 1] -
                        starts[static_cast<std::size_t>(l)]);
    }
    index->counts[r] = lists.row1() - lists.row0();
  }
  index->first.assign(index->counts.size() + 1, 0);
  for (std::size_t r = 0; r < index->counts.size(); ++r) {
    index->first[r + 1] = index->first[r] + index->counts[r];
  }
  index->lists = Jagged::from_lengths(lengths);
  return index;
}
}  // namespace

std::shared_ptr<const ListIndex> list_index(const JaggedRows& rows) {
  const JaggedData& data = rows.data();
  if (rows.row0() != 0 || rows.row1() != data.rows() || rows.outer() != data.outer) {
    return make_list_index(rows);
  }
  const std::lock_guard<std::mutex> lock(data.lists_mutex);
  if (!data.lists) {
    data.lists = make_list_index(rows);
  }
  return data.lists;
}

Jagged rows_of_lists(IndexSpan counts, IndexSpan lengths) {
  const Index outer{static_cast<index_t>(counts.size())};
  std::size_t l = 0;
  bool rectangular = true;
  for (std::size_t r = 0; r < counts.size() && rectangular; ++r) {
    if (counts[r] < 0 || l + static_cast<std::size_t>(counts[r]) > lengths.size()) {
      rectangular = false;  // from_lists names the error
      break;
    }
    const auto n = static_cast<std::size_t>(counts[r]);
    rectangular = std::all_of(lengths.begin() + static_cast<std::ptrdiff_t>(l),
                              lengths.begin() + static_cast<std::ptrdiff_t>(l + n),
                              [&](index_t x) { return x == lengths[l]; });
    l += n;
  }
  if (rectangular && l == lengths.size()) {
    Index table(2 * counts.size(), 0);
    l = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      table[2 * r] = counts[r];
      table[2 * r + 1] = counts[r] == 0 ? 0 : lengths[l];
      l += static_cast<std::size_t>(counts[r]);
    }
    return Jagged::from_extents(outer, 2, table);
  }
  return Jagged::from_lists(counts, lengths);
}

namespace {
void walk_levels(const Shape& s, std::size_t k, std::vector<std::vector<index_t>>& offsets,
                 std::string_view operation) {
  std::vector<index_t>& level = offsets[k];
  if (s.is<Smooth>()) {
    const IndexSpan extents = s.as<Smooth>().extents();
    if (k + 1 == offsets.size()) {
      level.push_back(level.back() + extents.front());
      return;
    }
    // a entries of the sub-block's shape: its levels repeated a times.
    const Shape child(Smooth(extents.subspan(1)));
    level.push_back(level.back() + extents.front());
    for (index_t c = 0; c < extents.front(); ++c) {
      walk_levels(child, k + 1, offsets, operation);
    }
    return;
  }
  const Jagged& rows = s.as<Jagged>();
  if (rows.outer_rank() != 1) {
    fail<ShapeError>(operation, "takes rows of lists, not a row of shape ", rows.to_string(),
                     " (several outer modes)");
  }
  level.push_back(level.back() + rows.n_rows());
  for (index_t c = 0; c < rows.n_rows(); ++c) {
    walk_levels(rows.row(c), k + 1, offsets, operation);
  }
}
}  // namespace

std::vector<std::vector<index_t>> level_offsets(const Jagged& shape, std::string_view operation) {
  if (shape.outer_rank() != 1) {
    fail<ShapeError>(operation, "takes the lists of a shape with one outer mode, not ",
                     shape.to_string());
  }
  const auto depth = static_cast<std::size_t>(shape.inner_rank());
  std::vector<std::vector<index_t>> offsets(depth, std::vector<index_t>{0});
  if (shape.smooth_rows() && depth == 1) {
    const std::span<const index_t> starts = shape.row_starts();
    offsets[0].assign(starts.begin(), starts.end());
    return offsets;
  }
  const JaggedRows& rows = shape.rows();
  if (rows.data().list_rows()) {  // the two levels it keeps, counted from its first row
    const JaggedData& d = rows.data();
    const auto first = d.first.begin() + rows.row0();
    const index_t l0 = *first;
    offsets[0].resize(static_cast<std::size_t>(shape.n_rows()) + 1);
    std::transform(first, first + shape.n_rows() + 1, offsets[0].begin(),
                   [l0](index_t l) { return l - l0; });
    const auto ends = d.list_ends.begin() + l0;
    const index_t v0 = *ends;
    offsets[1].resize(static_cast<std::size_t>(offsets[0].back()) + 1);
    std::transform(ends, ends + offsets[0].back() + 1, offsets[1].begin(),
                   [v0](index_t v) { return v - v0; });
    return offsets;
  }
  for (index_t r = 0; r < shape.n_rows(); ++r) {
    walk_levels(shape.row(r), 0, offsets, operation);
  }
  return offsets;
}

/// slice() of a Jagged or JaggedView: outer bounds only, absolute indices.
JaggedView slice_rows(const JaggedRows& rows, IndexSpan origin, IndexSpan lo, IndexSpan hi,
                      const std::function<std::string()>& what) {
  const auto o = static_cast<std::size_t>(rows.outer_rank());
  if (lo.size() != o || hi.size() != o) {
    fail<IndexError>("slice", "bounds ", strata::to_string(lo), " and ", strata::to_string(hi),
                     " need ", o, " entries for ", what(),
                     " (a jagged shape is sliced along its outer modes; rows stay whole)");
  }
  Index lo_offset(o, 0);
  Index hi_offset(o, 0);
  for (std::size_t k = 0; k < o; ++k) {
    if (lo[k] > hi[k]) {
      fail<IndexError>("slice", "lo ", strata::to_string(lo), " exceeds hi ", strata::to_string(hi),
                       " in mode ", k);
    }
    const index_t extent = rows.outer()[k];
    if (lo[k] < origin[k] || hi[k] > origin[k] + extent) {
      fail<IndexError>("slice", "bounds [", lo[k], ", ", hi[k], ") of mode ", k, " leave [",
                       origin[k], ", ", origin[k] + extent, ") of ", what());
    }
    lo_offset[k] = lo[k] - origin[k];
    hi_offset[k] = hi[k] - origin[k];
  }
  Index new_origin(origin.begin(), origin.end());
  std::copy(lo.begin(), lo.end(), new_origin.begin());
  return {rows.box(lo_offset, hi_offset), new_origin};
}

/// chip() of a Jagged or JaggedView.
Shape chip_rows(const JaggedRows& rows, IndexSpan origin, int mode, index_t i,
                const std::function<std::string()>& what) {
  const int o = rows.outer_rank();
  const auto m = static_cast<std::size_t>(mode);
  if (mode < o) {
    const index_t extent = rows.outer()[m];
    if (i < origin[m] || i >= origin[m] + extent) {
      fail<IndexError>("chip", "index ", i, " is outside [", origin[m], ", ", origin[m] + extent,
                       ") of mode ", mode, " in ", what());
    }
    if (o == 1) {
      return rows.row(i - origin[m]);
    }
    return JaggedView(rows.chip_outer(mode, i - origin[m]), erase_mode(origin, mode));
  }
  const int inner_mode = mode - o;
  if (rows.data().inner_rank == 1) {
    for (index_t r = 0; r < rows.row1() - rows.row0(); ++r) {
      const index_t length = rows.row(r).extent(0);
      if (i < 0 || i >= length) {
        fail<IndexError>("chip", "index ", i, " is outside [0, ", length, ") of mode ", mode,
                         " in row ", r, " of ", what());
      }
    }
    return SmoothView(rows.outer(), origin.first(static_cast<std::size_t>(o)));
  }
  return JaggedView(rows.chip_inner(inner_mode, i, what), erase_mode(origin, mode));
}

}  // namespace detail

Jagged::Jagged() = default;

Jagged::Jagged(std::initializer_list<Smooth> rows)
    : Jagged(std::vector<Shape>(rows.begin(), rows.end())) {}

Jagged::Jagged(std::vector<Shape> rows) {
  const Index outer{static_cast<index_t>(rows.size())};
  *this = Jagged(outer, std::move(rows));
}

Jagged::Jagged(IndexSpan outer, std::vector<Shape> rows) {
  auto data = detail::data_from_rows(outer, std::move(rows), "Jagged");
  const index_t n = data->rows();
  rows_ = detail::JaggedRows(data, 0, n, data->outer);
}

Jagged Jagged::from_lengths(IndexSpan lengths) {
  return from_extents({static_cast<index_t>(lengths.size())}, 1, lengths);
}

Jagged Jagged::from_extents(IndexSpan outer, int inner_rank, IndexSpan extents) {
  if (inner_rank < 1) {
    detail::fail<ShapeError>("Jagged::from_extents", "inner rank ", inner_rank, " is not >= 1");
  }
  const index_t rows = detail::checked_extents(outer, "Jagged::from_extents");
  if (checked_mul(rows, inner_rank, "Jagged::from_extents") !=
      static_cast<index_t>(extents.size())) {
    detail::fail<ShapeError>("Jagged::from_extents", "extents table has ", extents.size(),
                             " entries; ", rows, " rows of rank ", inner_rank, " need ",
                             rows * inner_rank);
  }
  auto data = detail::make_data(Index(outer.begin(), outer.end()), inner_rank,
                                std::vector<index_t>(extents.begin(), extents.end()), {},
                                "Jagged::from_extents");
  return Jagged(detail::JaggedRows(data, 0, rows, data->outer));
}

Jagged Jagged::from_lists(IndexSpan counts, IndexSpan lengths) {
  return from_lists(Index{static_cast<index_t>(counts.size())}, counts, lengths);
}

Jagged Jagged::from_lists(IndexSpan outer, IndexSpan counts, IndexSpan lengths) {
  auto data = detail::make_list_data(Index(outer.begin(), outer.end()), counts, lengths,
                                     "Jagged::from_lists");
  const index_t n = data->rows();
  return Jagged(detail::JaggedRows(data, 0, n, data->outer));
}

namespace {
// Offsets from 0 that never decrease (ListOffsetArray's), named @p what in an error.
void check_offsets(IndexSpan offsets, std::string_view what) {
  constexpr std::string_view op = "Jagged::from_offsets";
  if (offsets.empty()) {
    detail::fail<ShapeError>(op, "the ", what, " are empty (rows + 1 of them, from 0)");
  }
  if (offsets.front() != 0) {
    detail::fail<ShapeError>(op, "the ", what, " start at ", offsets.front(), ", not 0");
  }
  for (std::size_t k = 1; k < offsets.size(); ++k) {
    if (offsets[k] < offsets[k - 1]) {
      detail::fail<ShapeError>(op, "the ", what, " decrease at ", k, ": ", offsets[k - 1], " then ",
                               offsets[k]);
    }
  }
}
}  // namespace

Jagged Jagged::from_offsets(IndexSpan offsets) {
  check_offsets(offsets, "offsets");
  Index lengths(offsets.size() - 1, 0);
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    lengths[r] = offsets[r + 1] - offsets[r];
  }
  return from_lengths(lengths);
}

Jagged Jagged::from_offsets(std::vector<index_t> row_offsets, std::vector<index_t> list_offsets) {
  check_offsets(row_offsets, "row offsets");
  check_offsets(list_offsets, "list offsets");
  const auto lists = static_cast<index_t>(list_offsets.size()) - 1;
  if (row_offsets.back() != lists) {
    detail::fail<ShapeError>("Jagged::from_offsets", "the row offsets end at ", row_offsets.back(),
                             " lists but the list offsets hold ", lists);
  }
  const auto rows = static_cast<index_t>(row_offsets.size()) - 1;
  if (rows == 0) {
    return from_lists({}, {});
  }
  auto data = std::make_shared<detail::JaggedData>();
  data->outer = Index{rows};
  data->inner_rank = 2;
  data->first = std::move(row_offsets);
  data->list_ends = std::move(list_offsets);
  data->starts.resize(data->first.size());
  for (std::size_t r = 0; r < data->first.size(); ++r) {
    data->starts[r] = data->list_ends[static_cast<std::size_t>(data->first[r])];
  }
  return Jagged(detail::JaggedRows(std::move(data), 0, rows, Index{rows}));
}

std::span<const index_t> Jagged::row_starts() const noexcept {
  return {rows_.data().starts.data() + rows_.row0(), static_cast<std::size_t>(n_rows()) + 1};
}

JaggedView Jagged::slice(IndexSpan lo, IndexSpan hi) const {
  return detail::slice_rows(rows_, origin(), lo, hi, [this] { return to_string(); });
}

Shape Jagged::chip(int mode, index_t i) const {
  check_mode("chip", mode);
  return detail::chip_rows(rows_, origin(), mode, i, [this] { return to_string(); });
}

JaggedView::JaggedView(const Jagged& shape)
    : rows_(shape.rows_), origin_(static_cast<std::size_t>(shape.rank()), 0) {}

JaggedView JaggedView::slice(IndexSpan lo, IndexSpan hi) const {
  return detail::slice_rows(rows_, origin_, lo, hi, [this] { return to_string(); });
}

Shape JaggedView::chip(int mode, index_t i) const {
  check_mode("chip", mode);
  return detail::chip_rows(rows_, origin_, mode, i, [this] { return to_string(); });
}

void JaggedView::print(std::ostream& out) const {
  rows_.print(out);
  out << " at " << strata::to_string(origin_);
}

}  // namespace strata
