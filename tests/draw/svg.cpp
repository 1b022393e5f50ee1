// Tests for strata/draw/svg.hpp: every picture is parsed as XML and its cells checked against
// values computed here by hand (addresses from strides, tiles from tile extents, sources from
// where each concatenated tensor sits, overlaps by brute force).
#include "strata/draw/svg.hpp"

#include "check_error.hpp"
#include "strata/projection/projections.hpp"
#include "strata/select/concat.hpp"
#include "strata/select/pad.hpp"
#include "strata/tensor/generators.hpp"

#include <boost/property_tree/ptree.hpp>
#include <boost/property_tree/xml_parser.hpp>
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace test_draw_svg {

using namespace strata;
using strata::test::check_error;

namespace {

using Attributes = std::map<std::string, std::string>;

/// Every element of the document with its tag, attributes and text, in document order.
struct Element {
  std::string tag;
  Attributes attributes;
  std::string text;
};

void collect(const boost::property_tree::ptree& node, const std::string& tag,
             std::vector<Element>& out) {
  Element e{tag, {}, node.data()};
  if (const auto attrs = node.get_child_optional("<xmlattr>")) {
    for (const auto& [name, value] : *attrs) {
      e.attributes[name] = value.data();
    }
  }
  out.push_back(e);
  for (const auto& [child_tag, child] : node) {
    if (child_tag != "<xmlattr>" && child_tag != "<xmlcomment>") {
      collect(child, child_tag, out);
    }
  }
}

/// Parses @p svg (throws on malformed XML) and lists its elements.
std::vector<Element> parse(const std::string& svg) {
  std::istringstream in(svg);
  boost::property_tree::ptree tree;
  boost::property_tree::read_xml(in, tree);
  REQUIRE(tree.count("svg") == 1);
  std::vector<Element> out;
  collect(tree.get_child("svg"), "svg", out);
  return out;
}

/// The elements whose class list holds @p css_class.
std::vector<Element> of_class(const std::vector<Element>& elements, const std::string& css_class) {
  std::vector<Element> out;
  for (const Element& e : elements) {
    const auto it = e.attributes.find("class");
    if (it == e.attributes.end()) {
      continue;
    }
    std::istringstream words(it->second);
    std::string w;
    while (words >> w) {
      if (w == css_class) {
        out.push_back(e);
        break;
      }
    }
  }
  return out;
}

Index index_of(const Element& e, const std::string& name = "data-index") {
  std::istringstream in(e.attributes.at(name));
  Index out;
  index_t v = 0;
  while (in >> v) {
    out.push_back(v);
  }
  return out;
}

index_t number(const Element& e, const std::string& name) {
  return std::stoll(e.attributes.at(name));
}

/// The texts of the document, in order.
std::vector<std::string> texts(const std::vector<Element>& elements) {
  std::vector<std::string> out;
  for (const Element& e : elements) {
    if (e.tag == "text") {
      out.push_back(e.text);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("draw::dimensions labels each index with its address", "[draw]") {
  // A 3 x 4 row-major tensor transposed: index (i, j) reads address j * 4 + i.
  const auto t = iota<int>({3, 4});
  const auto doc = parse(draw::dimensions(t.transpose().dims(), "t.transpose()"));
  const auto cells = of_class(doc, "cell");
  REQUIRE(cells.size() == 12);
  std::set<Index> seen;
  for (const Element& c : cells) {
    const Index i = index_of(c);
    REQUIRE(i.size() == 2);
    CHECK(number(c, "data-address") == i[1] * 4 + i[0]);
    seen.insert(i);
  }
  CHECK(seen.size() == 12);
  // The buffer strip: 12 addresses, each read once.
  const auto buffer = of_class(doc, "buffer");
  CHECK(buffer.size() == 12);
  CHECK(of_class(doc, "read").size() == 12);
  const auto words = texts(doc);
  CHECK(std::find(words.begin(), words.end(), "t.transpose()") != words.end());

  SECTION("a broadcast view reads addresses several times, a strided one skips some") {
    const auto row = iota<int>({4});
    const auto b = parse(draw::dimensions(row.dims().broadcast({3, 4})));
    for (const Element& c : of_class(b, "cell")) {
      CHECK(number(c, "data-address") == index_of(c)[1]);
    }
    for (const Element& c : of_class(b, "buffer")) {
      CHECK(number(c, "data-reads") == 3);
    }
    const auto every_other =
        parse(draw::dimensions(t.select({Range{0, 3}, Range{0, 4, 2}}).dims()));
    const auto buf = of_class(every_other, "buffer");
    CHECK(buf.size() == 11);  // addresses 0 .. 10
    CHECK(of_class(every_other, "read").size() == 6);
  }
  SECTION("a rolled view, rank 3 drawn as blocks, rank 0 as one cell") {
    const auto rolled = parse(draw::dimensions(iota<int>({5}).dims().rotate(2, 0)));
    for (const Element& c : of_class(rolled, "cell")) {
      CHECK(number(c, "data-address") == (index_of(c)[0] + 5 - 2) % 5);
    }
    const auto cube = of_class(parse(draw::dimensions(iota<int>({2, 3, 4}).dims())), "cell");
    CHECK(cube.size() == 24);
    CHECK(of_class(parse(draw::dimensions(Tensor<int>(Index{}).dims())), "cell").size() == 1);
  }
}

TEST_CASE("draw::tensor labels each element with its value", "[draw]") {
  Tensor<double> t({2, 3});
  for (index_t i = 0; i < 2; ++i) {
    for (index_t j = 0; j < 3; ++j) {
      t(i, j) = 10.0 * static_cast<double>(i) + static_cast<double>(j) + 0.5;
    }
  }
  const auto doc = parse(draw::tensor(t.reverse({1}), "flipped"));
  const auto cells = of_class(doc, "cell");
  REQUIRE(cells.size() == 6);
  const auto words = texts(doc);
  for (const Element& c : cells) {
    const Index i = index_of(c);
    CHECK(number(c, "data-address") == i[0] * 3 + (2 - i[1]));
  }
  CHECK(std::find(words.begin(), words.end(), "12.5") != words.end());
  CHECK(std::find(words.begin(), words.end(), "0.5") != words.end());
}

TEST_CASE("draw::layout colours each tile, ragged edge tiles included", "[draw]") {
  const auto l = Layout::tiled(Smooth{5, 7}, {2, 3});
  const auto doc = parse(draw::layout(l));
  const auto cells = of_class(doc, "cell");
  REQUIRE(cells.size() == 35);
  std::map<index_t, std::set<std::string>> fills;
  std::map<index_t, index_t> counts;
  for (const Element& c : cells) {
    const Index i = index_of(c);
    const index_t tile = (i[0] / 2) * 3 + i[1] / 3;  // a 3 x 3 grid of tiles
    CHECK(number(c, "data-tile") == tile);
    CHECK(number(c, "data-address") == l.address(i));
    fills[tile].insert(c.attributes.at("fill"));
    ++counts[tile];
  }
  CHECK(fills.size() == 9);
  std::set<std::string> colours;
  for (const auto& [tile, f] : fills) {
    CHECK(f.size() == 1);  // one colour per tile
    colours.insert(*f.begin());
  }
  CHECK(colours.size() == 9);  // distinct colours
  CHECK(counts[0] == 6);
  CHECK(counts[2] == 2);  // ragged right edge: 2 x 1
  CHECK(counts[8] == 1);  // the corner
  // The storage order: one line through all 35 cells.
  const auto order = of_class(doc, "order");
  REQUIRE(order.size() == 1);
  const std::string points = order[0].attributes.at("points");
  CHECK(std::count(points.begin(), points.end(), ',') == 35);

  const auto column = of_class(parse(draw::layout(Layout::column_major(Smooth{2, 3}))), "cell");
  for (const Element& c : column) {
    const Index i = index_of(c);
    CHECK(number(c, "data-address") == i[0] + 2 * i[1]);
  }
}

TEST_CASE("draw::shape and draw::slice show absolute and relative indices", "[draw]") {
  const auto jagged = Jagged::from_lengths({3, 0, 2});
  const auto cells = of_class(parse(draw::shape(jagged)), "cell");
  REQUIRE(cells.size() == 5);
  std::set<Index> got;
  for (const Element& c : cells) {
    got.insert(index_of(c));
  }
  CHECK(got == std::set<Index>{Index{0, 0}, Index{0, 1}, Index{0, 2}, Index{2, 0}, Index{2, 1}});

  const Smooth box{4, 5};
  const auto view = box.slice({1, 2}, {3, 5});
  const auto doc = parse(draw::slice(box, view));
  CHECK(of_class(doc, "cell").size() == 20 + 6);
  const auto inside = of_class(doc, "slice");
  REQUIRE(inside.size() == 6);
  for (const Element& c : inside) {
    const Index abs_index = index_of(c);
    const Index rel_index = index_of(c, "data-relative");
    CHECK(abs_index[0] >= 1);
    CHECK(abs_index[1] >= 2);
    CHECK(rel_index == Index{abs_index[0] - 1, abs_index[1] - 2});
  }
  const auto words = texts(doc);
  CHECK(std::find(words.begin(), words.end(), "(1 2)") != words.end());

  const auto rows = Jagged::from_lengths({2, 4, 1, 3});
  const auto tail = of_class(parse(draw::slice(rows, rows.slice({1}, {3}))), "slice");
  CHECK(tail.size() == 5);  // rows 1 and 2: 4 + 1
  for (const Element& c : tail) {
    CHECK(index_of(c, "data-relative")[0] == index_of(c)[0] - 1);
  }
}

TEST_CASE("draw::jagged draws rows, values and offsets", "[draw]") {
  auto jt = JaggedTensor<int>::from_values({1, 2, 3, 4, 5, 6}, Jagged::from_lengths({3, 0, 2, 1}));
  const auto doc = parse(draw::jagged(jt));
  CHECK(of_class(doc, "row-cell").size() == 6);
  const auto values = of_class(doc, "value");
  REQUIRE(values.size() == 6);
  const std::vector<index_t> row_of_value = {0, 0, 0, 2, 2, 3};
  for (const Element& v : values) {
    CHECK(number(v, "data-row") == row_of_value[static_cast<std::size_t>(number(v, "data-index"))]);
  }
  const auto offsets = of_class(doc, "offset");
  REQUIRE(offsets.size() == 5);
  const std::vector<index_t> expected = {0, 3, 3, 5, 6};
  for (const Element& o : offsets) {
    CHECK(number(o, "data-offset") == expected[static_cast<std::size_t>(number(o, "data-index"))]);
  }
  CHECK(of_class(doc, "pointer").size() == 5);
}

TEST_CASE("draw::sparse shows the stored entries and the CSR arrays", "[draw]") {
  // [[0 3 0 0 1] [0 0 0 9 0] [7 0 5 0 0] [0 0 0 2 0]]: addresses 1 4 8 10 12 18.
  auto K = sparse<double>({4, 5});
  K(0, 1) = 3;
  K(0, 4) = 1;
  K(1, 3) = 9;
  K(2, 0) = 7;
  K(2, 2) = 5;
  K(3, 3) = 2;
  const auto doc = parse(draw::sparse(K));
  const auto cells = of_class(doc, "cell");
  REQUIRE(cells.size() == 20);
  const std::set<index_t> stored = {1, 4, 8, 10, 12, 18};
  for (const Element& c : cells) {
    const Index i = index_of(c);
    CHECK(number(c, "data-stored") == (stored.count(i[0] * 5 + i[1]) ? 1 : 0));
  }
  CHECK(of_class(doc, "address").size() == 6);
  CHECK(of_class(doc, "value").size() == 6);
  const auto columns = of_class(doc, "column");
  REQUIRE(columns.size() == 6);
  const auto offsets = of_class(doc, "offset");
  REQUIRE(offsets.size() == 5);
  const auto words = texts(doc);
  for (const std::string w : {"18", "9"}) {
    CHECK(std::find(words.begin(), words.end(), w) != words.end());
  }
  check_error<LayoutError>([&] { (void)draw::sparse(K.transpose()); }, "draw::sparse", "[5 4]");
  check_error<LayoutError>(
      [] {
        (void)draw::sparse(Tensor<double>({2, 2}));
      },
      "draw::sparse", "[2 2]");
}

TEST_CASE("draw::selection colours each block by the tensor it reads", "[draw]") {
  const auto a = iota<int>({2, 3});
  const auto b = full<int>({1, 3}, 7);
  const auto s = concat<int>(0, {a, b});
  CHECK(s.source_at({0, 0}) == a.buffer().identity());
  CHECK(s.source_at({-1, 2}) == b.buffer().identity());
  const auto doc = parse(draw::selection(s, {draw::source("a", a), draw::source("b", b)}));
  const auto cells = of_class(doc, "cell");
  REQUIRE(cells.size() == 9);
  for (const Element& c : cells) {
    CHECK(number(c, "data-source") == (index_of(c)[0] < 2 ? 0 : 1));
  }
  const auto words = texts(doc);
  CHECK(std::find(words.begin(), words.end(), "a") != words.end());
  CHECK(std::find(words.begin(), words.end(), "b") != words.end());
  CHECK(of_class(doc, "legend").size() == 2);

  SECTION("pad constants read no tensor; reflections read the source") {
    const auto padded = pad(a, {{1, 0}, {0, 2}}, PadMode::constant, 0);
    CHECK(padded.source_at({0, 0}) == nullptr);
    for (const Element& c : of_class(parse(draw::selection(padded)), "cell")) {
      const Index i = index_of(c);
      CHECK(number(c, "data-source") == (i[0] >= 1 && i[1] < 3 ? 0 : -1));
    }
    const auto reflected = pad(a, {{1, 1}, {0, 0}}, PadMode::reflect);
    for (const Element& c : of_class(parse(draw::selection(reflected)), "cell")) {
      CHECK(number(c, "data-source") == 0);
    }
  }
}

TEST_CASE("draw::projection outlines each block's region and shades overlaps", "[draw]") {
  // A 3 x 3 convolution window over an 8 x 8 index space in blocks of 4 x 4 (padding 1).
  const auto p = conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1});
  const ZRange index_space({0, 0}, {8, 8});
  const ZRange tensor({0, 0}, {8, 8});
  const auto doc = parse(draw::projection(p, index_space, {4, 4}, tensor, "conv"));
  const auto points = of_class(doc, "point");
  REQUIRE(points.size() == 64);
  for (const Element& e : points) {
    const Index i = index_of(e);
    CHECK(number(e, "data-block") == (i[0] / 4) * 2 + i[1] / 4);
  }
  CHECK(of_class(doc, "region").size() == 4);
  // By hand: block (bi, bj) reads rows [4 bi - 1, 4 bi + 5) and the same for columns, clipped.
  index_t halo = 0;
  for (const Element& e : of_class(doc, "cell")) {
    const Index t = index_of(e);
    index_t readers = 0;
    for (index_t bi = 0; bi < 2; ++bi) {
      for (index_t bj = 0; bj < 2; ++bj) {
        const bool in_rows = t[0] >= 4 * bi - 1 && t[0] < 4 * bi + 5;
        const bool in_cols = t[1] >= 4 * bj - 1 && t[1] < 4 * bj + 5;
        readers += in_rows && in_cols ? 1 : 0;
      }
    }
    CHECK(number(e, "data-readers") == readers);
    halo += readers > 1 ? 1 : 0;
  }
  CHECK(of_class(doc, "halo").size() == static_cast<std::size_t>(halo));
  CHECK(halo == 64 - 36);  // all but the 3 x 3 interiors of each quadrant

  SECTION("rank 1") {
    const auto q = conv_window_projection({3}, {1}, {1}, {0});
    const auto one = parse(draw::projection(q, ZRange({0}, {6}), {3}, ZRange({0}, {8})));
    CHECK(of_class(one, "point").size() == 6);
    CHECK(of_class(one, "halo").size() == 2);  // elements 3 and 4 are read by both blocks
  }
}

TEST_CASE("draw::distribution colours elements by owner and outlines a patch", "[draw][dist]") {
  const auto tiling = strata::dist::Tiling::regular(Index{5, 6}, Index{2, 4});  // 3 x 2 tiles
  const std::vector<int> owners = {0, 1, 2, 3, 0, 1};                           // by hand
  const auto doc = parse(draw::distribution(tiling, owners, Index{1, 2}, Index{4, 5}));
  const auto cells = of_class(doc, "cell");
  REQUIRE(cells.size() == 30);
  for (const Element& c : cells) {
    const Index i = index_of(c);
    const index_t tile = (i[0] / 2) * 2 + i[1] / 4;  // rows of 2, columns of 4
    CHECK(number(c, "data-tile") == tile);
    CHECK(number(c, "data-owner") == owners[static_cast<std::size_t>(tile)]);
    const bool inside = i[0] >= 1 && i[0] < 4 && i[1] >= 2 && i[1] < 5;
    CHECK((c.attributes.count("data-patch") == 1) == inside);
  }
  CHECK(of_class(doc, "patch").size() == 9);
  CHECK(of_class(doc, "tile-boundary").size() == 3 + 4);  // column and row boundaries
  const auto words = texts(doc);
  CHECK(std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return w.find("the patch [1:4, 2:5], held by ranks 0 1 2 3") != std::string::npos;
  }));  // NumPy's slice notation; tiles 0-3
  check_error<ShapeError>(
      [&] {
        (void)draw::distribution(tiling, {0, 1});
      },
      "draw::distribution", "2 owners");
  check_error<strata::IndexError>(
      [&] {
        (void)draw::distribution(tiling, owners, Index{0, 0}, Index{6, 1});
      },
      "draw::distribution", "[6 1]");
}

TEST_CASE("draw::chunks shows the elements a view reads and the chunks it touches", "[draw]") {
  // Every other row of a 6 x 8 array in chunks of 2 x 3, columns 1 to 4: by hand, rows 0, 2, 4
  // meet chunk rows 0, 1, 2 and columns 1-4 meet chunk columns 0 and 1: six of nine chunks.
  const strata::Dimensions array{6, 8};
  const auto view = array.select({strata::Range{{}, {}, 2}, strata::Range{1, 5}});
  const auto doc = parse(draw::chunks(Index{6, 8}, Index{2, 3}, view, "every other row"));
  REQUIRE(of_class(doc, "cell").size() == 48);
  const auto has_class = [](const Element& e, const std::string& word) {
    std::istringstream words(e.attributes.at("class"));
    std::string w;
    while (words >> w) {
      if (w == word) {
        return true;
      }
    }
    return false;
  };
  for (const Element& c : of_class(doc, "cell")) {
    const Index i = index_of(c);
    const bool read = i[0] % 2 == 0 && i[1] >= 1 && i[1] < 5;
    const bool chunk = i[1] < 6;
    CHECK(has_class(c, "read") == read);
    CHECK(has_class(c, "chunk") == (!read && chunk));
  }
  CHECK(of_class(doc, "chunk-boundary").size() == 4 + 4);  // columns 0 3 6 8, rows 0 2 4 6
  const auto words = texts(doc);
  CHECK(std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return w.find("6 of 9 chunks read") != std::string::npos;
  }));
  check_error<ShapeError>([&] { (void)draw::chunks(Index{6, 8}, Index{2}, view); },
                          "draw::chunks", "[2]");
  check_error<strata::IndexError>(
      [&] { (void)draw::chunks(Index{4, 8}, Index{2, 3}, view); }, "draw::chunks", "32");
}

TEST_CASE("draw::contraction draws each step as a matrix product of mode groups", "[draw]") {
  const strata::Tensor<double> a(strata::Index{2, 5});
  const strata::Tensor<double> b(strata::Index{5, 4});
  const strata::Tensor<double> c(strata::Index{4, 3});
  const strata::Tensor<double> t(strata::Index{3, 3, 2});
  const auto plan = strata::ContractionPlan::make(
      strata::EinsumSpec::parse("ij,jk,kl->il", std::vector<int>{2, 2, 2}),
      std::vector<strata::Index>{a.shape(), b.shape(), c.shape()});
  const auto elements = parse(strata::draw::contraction(plan));
  // Two steps: each a left and a right operand (class operand) and a result.
  CHECK(of_class(elements, "operand").size() == 4);
  CHECK(of_class(elements, "result").size() == 2);
  std::string text;
  for (const Element& e : elements) {
    text += e.text + "\n";
  }
  CHECK(text.find("step 1") != std::string::npos);
  CHECK(text.find("step 2") != std::string::npos);
  CHECK(text.find("gemm") != std::string::npos);
  CHECK(text.find("t2 = il") != std::string::npos);
  // An operand's own diagonal and sums are listed before the steps.
  const auto traced = strata::ContractionPlan::make(
      strata::EinsumSpec::parse("iij,jk->ik", std::vector<int>{3, 2}),
      std::vector<strata::Index>{t.shape(), strata::Index{2, 4}});
  std::string traced_text;
  for (const Element& e : parse(strata::draw::contraction(traced))) {
    traced_text += e.text + "\n";
  }
  CHECK(traced_text.find("operand 0: iij -> ij") != std::string::npos);
}

TEST_CASE("draw refuses what it cannot draw", "[draw][errors]") {
  check_error<ShapeError>(
      [] {
        (void)draw::dimensions(iota<int>({1, 1, 1, 1, 2}).dims());
      },
      "draw::dimensions", "rank 5");
  check_error<ShapeError>(
      [] {
        (void)draw::tensor(Tensor<int>({100, 100}));
      },
      "draw::tensor", "[100 100]");
  check_error<ShapeError>(
      [] {
        (void)draw::layout(Layout::row_major(Smooth{1, 1, 1, 1, 1}));
      },
      "draw::layout", "rank 5");
  check_error<ShapeError>([] { (void)draw::shape(Smooth{5000}); }, "draw::shape", "5000");
  check_error<ShapeError>(
      [] {
        (void)draw::slice(Smooth{3, 3}, Smooth{3});
      },
      "draw::slice", "rank 1");
  check_error<ShapeError>(
      [] {
        (void)draw::jagged(JaggedTensor<int>(Jagged::from_extents({2}, 2, {1, 2, 3, 4})));
      },
      "draw::jagged", "rank 3");
  const auto p = conv_window_projection({3, 3}, {1, 1}, {1, 1}, {1, 1});
  check_error<ShapeError>(
      [&] {
        (void)draw::projection(p, ZRange({0, 0}, {4, 4}), {2, 0}, ZRange({0, 0}, {4, 4}));
      },
      "draw::projection", "[2 0]");
  check_error<ShapeError>(
      [&] {
        (void)draw::projection(p, ZRange({0}, {4}), {2}, ZRange({0, 0}, {4, 4}));
      },
      "draw::projection", "index space of rank 1");
  const auto s = concat<int>(0, {iota<int>({2, 2}), iota<int>({1, 2})});
  check_error<IndexError>([&] { (void)s.source_at({3, 0}); }, "source_at", "[3 0]");
  check_error<IndexError>([&] { (void)s.source_at({0}); }, "source_at", "[0]");
}

}  // namespace test_draw_svg
