// Tests for strata/io/hdf5.hpp: round trips, views of datasets against the same views in memory,
// tiles, ragged and sparse data, attributes, and every bad input the issue lists.
#include "strata/io/hdf5.hpp"

#include "check_error.hpp"
#include "layout/view_helpers.hpp"
#include "strata/expr/reduce.hpp"
#include "strata/tensor/generators.hpp"

#include <catch2/catch.hpp>

#include <unistd.h>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace io = strata::io;
using strata::Index;
using strata::index_t;
using strata::Range;
using strata::Tensor;

namespace {

/// A file name of its own for each test (ctest runs test cases in parallel processes).
std::string temp_file(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("strata_io_" + std::to_string(::getpid()) + "_" + name + ".h5"))
      .string();
}

/// Removes the file when the test ends.
struct Scratch {
  std::string path;
  explicit Scratch(const std::string& name) : path(temp_file(name)) {
    std::filesystem::remove(path);
  }
  ~Scratch() { std::filesystem::remove(path); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

/// A value of T for position i, distinct for neighbours, with negatives where T has them.
template <class T>
T value_at(index_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return i % 3 == 1;
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    using R = typename T::value_type;
    return {static_cast<R>(i) * R(0.5), -static_cast<R>(i)};
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(i) * T(0.25) - T(3);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>((i * 7) % 100 - 50);
  } else {
    return static_cast<T>((i * 7) % 200);
  }
}

template <class T>
Tensor<T> numbered(const Index& shape) {
  auto t = Tensor<T>(shape);
  T* p = t.data();
  for (index_t i = 0; i < t.size(); ++i) {
    p[i] = value_at<T>(i);
  }
  return t;
}

template <class T>
void check_equal(const Tensor<const T>& actual, const Tensor<const T>& expected) {
  REQUIRE(actual.shape() == expected.shape());
  const auto a = actual.to_vector();
  const auto e = expected.to_vector();
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("element " << i);
    CHECK(a[i] == e[i]);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("a tensor of every element type and rank 0-5 goes to a file and back", "[io]",
                   bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                   std::uint16_t, std::uint32_t, std::uint64_t, float, double, std::complex<float>,
                   std::complex<double>) {
  using T = TestType;
  Scratch file("roundtrip_" + std::string(strata::detail::dtype_name<T>()));
  const std::vector<Index> shapes{
      {}, {0}, {5}, {3, 0, 2}, {2, 3, 4}, {2, 1, 3, 2}, {1, 2, 1, 3, 2}};
  {
    io::File f(file.path, io::Mode::truncate);
    for (std::size_t s = 0; s < shapes.size(); ++s) {
      const auto d = f.write("t" + std::to_string(s), numbered<T>(shapes[s]));
      CHECK(d.dtype() == io::dtype_of<T>());
    }
  }
  const io::File f(file.path);
  for (std::size_t s = 0; s < shapes.size(); ++s) {
    INFO("shape " << strata::to_string(shapes[s]));
    const auto d = f.dataset("t" + std::to_string(s));
    CHECK(d.file_shape() == shapes[s]);
    CHECK(d.dtype() == io::dtype_of<T>());
    check_equal<T>(d.read<T>(), numbered<T>(shapes[s]));
  }
}

TEST_CASE("views of a dataset read and write what the same views of the tensor do", "[io]") {
  Scratch file("views");
  std::mt19937_64 rng(20261126);
  io::File f(file.path, io::Mode::truncate);
  for (int trial = 0; trial < 150; ++trial) {
    const auto rank = static_cast<std::size_t>(strata::test::uniform(rng, 0, 4));
    Index shape(rank);
    for (auto& e : shape) {
      e = strata::test::uniform(rng, 0, 9) == 0 ? strata::test::uniform(rng, 0, 1)
                                                : strata::test::uniform(rng, 1, 6);
    }
    Tensor<double> memory = numbered<double>(shape);
    const std::string name = "a" + std::to_string(trial);
    const auto ds =
        f.write(name, memory, {.chunks = trial % 3 == 0 && rank > 0 ? Index(rank, 2) : Index{}});
    strata::Dimensions view{shape};
    const index_t steps = strata::test::uniform(rng, 1, 6);
    for (index_t s = 0; s < steps; ++s) {
      view = strata::test::random_step(rng, view);
    }
    INFO("trial " << trial << " shape " << strata::to_string(shape) << " view "
                  << strata::to_string(view));
    const Tensor<const double> expected(memory.buffer(), view);
    check_equal<double>(ds.view(view).read<double>(), expected.copy());

    // The same view read into a flipped destination.
    Tensor<double> into = Tensor<double>(view.shape()).reverse();
    ds.view(view).read_into(into);
    check_equal<double>(into, expected.copy());

    // Writes, where the view writes each stored element once.
    if (!view.aliases()) {
      const auto src = strata::iota<double>(view.shape());
      ds.view(view).write(src);
      Tensor<double>(memory.buffer(), view).assign(src);
      check_equal<double>(ds.read<double>(), memory);
    } else {
      CHECK_THROWS_AS(ds.view(view).write(strata::iota<double>(view.shape())), strata::LayoutError);
    }
  }
}

TEST_CASE("a hyperslab read reads only the view", "[io]") {
  Scratch file("hyperslab");
  io::File f(file.path, io::Mode::truncate);
  const auto a = numbered<float>({6, 8});
  f.write("a", a);
  const auto d = f.dataset("a");
  // Every other row, columns reversed: one hyperslab in the file, a flip in memory.
  const auto v = d.select({Range{{}, {}, 2}, Range{{}, {}, -1}});
  CHECK(v.shape() == Index{3, 8});
  check_equal<float>(v.read<float>(), a.select({Range{{}, {}, 2}, Range{{}, {}, -1}}).copy());
  const auto plan = io::detail::plan_transfer(d.file_shape(), v.dims());
  CHECK(plan.hyperslab);
  CHECK(plan.start == Index{0, 0});
  CHECK(plan.step == Index{2, 1});
  CHECK(plan.count == Index{3, 8});
  CHECK_FALSE(plan.direct);
  // An index array: a list of elements, each read once.
  const auto rows = d.select({std::vector<index_t>{4, 1, 4}, 3});
  const auto points = io::detail::plan_transfer(d.file_shape(), rows.dims());
  CHECK_FALSE(points.hyperslab);
  CHECK(points.points == std::vector<index_t>{11, 35});
  check_equal<float>(rows.read<float>(),
                     Tensor<float>::of({a.at({4, 3}), a.at({1, 3}), a.at({4, 3})}));
  // A plain crop is read straight into the result.
  CHECK(io::detail::plan_transfer(d.file_shape(), d.select({Range{1, 3}, Range{2, 5}}).dims())
            .direct);
}

TEST_CASE("stored elements convert to the type asked for as HDF5 converts", "[io]") {
  Scratch file("convert");
  io::File f(file.path, io::Mode::truncate);
  f.write("d", Tensor<double>::of({1.75, -2.5, 300.0, 1e20}));
  const auto i = f.read<std::int32_t>("d").to_vector();
  CHECK(i[0] == 1);  // toward zero
  CHECK(i[1] == -2);
  CHECK(i[2] == 300);
  CHECK(i[3] == std::numeric_limits<std::int32_t>::max());  // saturates
  const auto u8 = f.read<std::uint8_t>("d").to_vector();
  CHECK(u8[1] == 0);
  CHECK(u8[2] == 255);
  f.write("i", Tensor<std::int16_t>::of({-3, 7}));
  CHECK(f.read<double>("i").to_vector() == std::vector<double>{-3.0, 7.0});
  f.write("c", Tensor<std::complex<double>>::of({{1.5, -2.0}}));
  CHECK(f.read<std::complex<float>>("c").to_vector()[0] == std::complex<float>(1.5F, -2.0F));
  // Written through a dataset of another type: converted on the way in.
  f.dataset("d").select({Range{0, 2}}).write(Tensor<std::int64_t>::of({4, 5}));
  CHECK(f.read<double>("d").to_vector() == std::vector<double>{4.0, 5.0, 300.0, 1e20});
}

TEST_CASE("chunked and compressed datasets, and tiled tensors as chunks", "[io]") {
  Scratch file("chunks");
  io::File f(file.path, io::Mode::truncate);
  const auto a = numbered<double>({50, 37});
  const auto d = f.write("z", a, {.chunks = {16, 16}, .deflate = 6, .shuffle = true});
  CHECK(d.chunks() == Index{16, 16});
  check_equal<double>(f.read<double>("z"), a);
  // Compression alone chooses chunks.
  CHECK_FALSE(f.write("auto", a, {.deflate = 1}).chunks().empty());
  check_equal<double>(f.read<double>("auto"), a);

  auto tiled = strata::LayoutTensor<double>::from_dense(
      a, strata::Layout::tiled(strata::Smooth{50, 37}, {8, 10}));
  const auto t = f.write("tiled", tiled, {.deflate = 4});
  CHECK(t.chunks() == Index{8, 10});
  check_equal<double>(f.read<double>("tiled"), a);
  const auto back = f.dataset("tiled").read_tiled<double>();
  CHECK(Index(back.layout().tile().begin(), back.layout().tile().end()) == Index{8, 10});
  check_equal<double>(back.to_dense(), a);
  const auto other = f.dataset("z").read_tiled<double>(Index{7, 20});
  check_equal<double>(other.to_dense(), a);
  // Empty axes take chunks too.
  f.write("empty", Tensor<float>({0, 4}), {.chunks = {3, 3}, .deflate = 1});
  CHECK(f.dataset("empty").file_shape() == Index{0, 4});
}

TEST_CASE("jagged tensors are values + offsets, sparse tensors scipy's CSR arrays", "[io]") {
  Scratch file("ragged");
  io::File f(file.path, io::Mode::truncate);
  const strata::JaggedTensor<float> jt(std::vector<std::vector<float>>{{1, 2, 3}, {}, {4, 5}});
  f.write("rows", jt);
  CHECK(f.group("rows").attrs().get<std::string>("strata:type") == "jagged");
  CHECK(f.read<index_t>("rows/offsets").to_vector() == std::vector<index_t>{0, 3, 3, 5});
  CHECK(f.read<float>("rows/values").to_vector() == std::vector<float>{1, 2, 3, 4, 5});
  const auto back = f.read_jagged<float>("rows");
  CHECK(back.shape().n_rows() == 3);
  CHECK(back.values().to_vector() == std::vector<float>{1, 2, 3, 4, 5});
  CHECK(std::vector<index_t>(back.offsets().begin(), back.offsets().end()) ==
        std::vector<index_t>{0, 3, 3, 5});
  // A slice of rows is written from its own first row.
  f.write("tail", jt.rows(1, 3));
  CHECK(f.read<index_t>("tail/offsets").to_vector() == std::vector<index_t>{0, 0, 2});

  auto K = strata::sparse<double>({4, 5});
  K(0, 1) = 2.0;
  K(2, 4) = -1.0;
  K(2, 0) = 3.0;
  f.write_sparse("K", K);
  const auto g = f.group("K");
  CHECK(g.attrs().get<std::string>("encoding-type") == "csr_matrix");
  CHECK(g.attrs().get<std::vector<index_t>>("shape") == std::vector<index_t>{4, 5});
  CHECK(f.read<index_t>("K/indptr").to_vector() == std::vector<index_t>{0, 1, 1, 3, 3});
  CHECK(f.read<index_t>("K/indices").to_vector() == std::vector<index_t>{1, 0, 4});
  CHECK(f.read<double>("K/data").to_vector() == std::vector<double>{2.0, 3.0, -1.0});
  const auto S = f.read_sparse<double>("K");
  check_equal<double>(S.copy(), K.copy());
  CHECK(strata::csr(S).nnz() == 3);
}

TEST_CASE("rows of lists are values + two levels of offsets", "[io][lists]") {
  // n * var * var as awkward's nested ListOffsetArrays: offsets (rows + 1, into the lists) and
  // list_offsets (lists + 1, into the values); random rows with empty rows and empty lists, whole
  // and as a slice of rows, back as the same nested vectors.
  Scratch file("lists");
  io::File f(file.path, io::Mode::truncate);
  using Lists = std::vector<std::vector<std::vector<double>>>;
  const strata::JaggedTensor<double> events(Lists{{{1, 2, 3}, {}}, {}, {{4}, {5, 6}}});
  f.write("events", events);
  CHECK(f.group("events").attrs().get<std::string>("strata:type") == "jagged");
  CHECK(f.read<index_t>("events/offsets").to_vector() == std::vector<index_t>{0, 2, 2, 4});
  CHECK(f.read<index_t>("events/list_offsets").to_vector() == std::vector<index_t>{0, 3, 3, 4, 6});
  CHECK(f.read<double>("events/values").to_vector() == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(strata::to_string(f.read_jagged<double>("events")) ==
        "[[[1, 2, 3], []], [], [[4], [5, 6]]]");
  f.write("tail", events.rows(1, 3));  // from its own first row and list
  CHECK(f.read<index_t>("tail/offsets").to_vector() == std::vector<index_t>{0, 0, 2});
  CHECK(f.read<index_t>("tail/list_offsets").to_vector() == std::vector<index_t>{0, 1, 3});
  CHECK(strata::to_string(f.read_jagged<double>("tail")) == "[[], [[4], [5, 6]]]");

  std::mt19937 rng(20261129);
  const auto draw = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int round = 0; round < 10; ++round) {
    Lists rows(static_cast<std::size_t>(draw(0, 6)));
    for (auto& row : rows) {
      row.resize(static_cast<std::size_t>(draw(0, 3)));
      for (auto& list : row) {
        list.resize(static_cast<std::size_t>(draw(0, 3)));
        for (double& x : list) {
          x = draw(-50, 50);
        }
      }
    }
    const strata::JaggedTensor<double> t(rows);
    const std::string name = "random_" + std::to_string(round);
    f.write(name, t);
    const auto back = f.read_jagged<double>(name);
    INFO("round " << round << ": " << strata::to_string(t));
    CHECK(back.shape() == t.shape());
    CHECK(strata::to_string(back) == strata::to_string(t));
    CHECK(back.values().to_vector() == t.values().to_vector());
  }
}

TEST_CASE("jagged groups reject other forms and offsets that do not fit", "[io][errors]") {
  Scratch file("bad_lists");
  io::File f(file.path, io::Mode::truncate);
  using strata::ShapeError;
  using strata::test::check_error;
  const strata::JaggedTensor<double> deep(
      std::vector<std::vector<std::vector<std::vector<double>>>>{{{{1.0}}}});
  check_error<ShapeError>([&] { f.write("deep", deep); }, "Group::write",
                          "jagged tensor 'deep' has rank 4");
  CHECK_FALSE(f.contains("deep"));
  const auto ints = [](std::vector<index_t> v) {
    const auto n = static_cast<index_t>(v.size());
    return Tensor<index_t>::from_vector(std::move(v), {n});
  };
  f.write("a/values", Tensor<double>::of({1, 2, 3}));
  f.write("a/offsets", ints({0, 1, 1}));
  f.write("a/list_offsets", ints({0, 2, 1}));  // falls at list 1
  check_error<ShapeError>([&] { (void)f.read_jagged<double>("a"); }, "Group::read_jagged",
                          "the number of values (3), found 0 to 1");
  check_error<ShapeError>([&] { (void)f.read_jagged<double>("a"); }, "Group::read_jagged",
                          "the list offsets of 'a' in");
  f.write("b/values", Tensor<double>::of({1, 2, 3}));
  f.write("b/offsets", ints({0, 1, 3}));  // three lists, but list_offsets hold two
  f.write("b/list_offsets", ints({0, 2, 3}));
  check_error<ShapeError>([&] { (void)f.read_jagged<double>("b"); }, "Group::read_jagged",
                          "the offsets of 'b' in");
  check_error<ShapeError>([&] { (void)f.read_jagged<double>("b"); }, "Group::read_jagged",
                          "the number of lists (2), found 0 to 3");
  f.write("c/values", Tensor<double>::of({1, 2, 3}));
  f.write("c/offsets", ints({0, 2, 1, 3}));
  check_error<ShapeError>([&] { (void)f.read_jagged<double>("c"); }, "Group::read_jagged",
                          "the offsets of 'c' fall at row 1 (2 then 1)");
  f.write("d/values", Tensor<double>::of({1, 2, 3}));
  f.write("d/offsets", ints({0, 1}));
  f.write("d/list_offsets", ints({0, 3, 1, 3}));
  check_error<ShapeError>([&] { (void)f.read_jagged<double>("d"); }, "Group::read_jagged",
                          "the list offsets of 'd' fall at list 1 (3 then 1)");
}

TEST_CASE("groups and attributes", "[io]") {
  Scratch file("groups");
  {
    io::File f(file.path, io::Mode::truncate);
    f.write("run/step_1/u", Tensor<double>::of({1, 2}));
    CHECK(f.contains("run/step_1/u"));
    CHECK(f.is_group("run"));
    CHECK_FALSE(f.is_group("run/step_1/u"));
    CHECK(f.group("run").names() == std::vector<std::string>{"step_1"});
    auto g = f.require_group("run/step_2");
    CHECK(g.path() == "/run/step_2");
    CHECK(f.require_group("run/step_2").path() == "/run/step_2");
    f.attrs().set("title", "heat");
    f.attrs().set("step", 42);
    f.attrs().set("dt", 0.5);
    f.attrs().set("ok", true);
    f.attrs().set("origin", std::vector<double>{0.0, 1.5});
    f.dataset("run/step_1/u").attrs().set("units", std::string("m/s"));
    f.remove("run/step_2");
    CHECK_FALSE(f.contains("run/step_2"));
  }
  const io::File f(file.path);
  CHECK(f.attrs().names() == std::vector<std::string>{"dt", "ok", "origin", "step", "title"});
  CHECK(f.attrs().get<std::string>("title") == "heat");
  CHECK(f.attrs().get<int>("step") == 42);
  CHECK(f.attrs().get<double>("step") == 42.0);
  CHECK(f.attrs().get<double>("dt") == 0.5);
  CHECK(f.attrs().get<bool>("ok"));
  CHECK(f.attrs().dtype("ok") == io::DType::boolean);
  CHECK(f.attrs().get<std::vector<double>>("origin") == std::vector<double>{0.0, 1.5});
  CHECK(f.dataset("run/step_1/u").attrs().get<std::string>("units") == "m/s");
  strata::test::check_error<strata::TypeError>([&] { (void)f.attrs().get<double>("title"); },
                                               "Attributes::get", "title");
  strata::test::check_error<strata::TypeError>([&] { (void)f.attrs().get<double>("origin"); },
                                               "Attributes::get", "origin");
  strata::test::check_error<strata::IOError>([&] { (void)f.attrs().get<double>("nope"); },
                                             "Attributes::get", "nope");
  strata::test::check_error<strata::IOError>([&] { f.attrs().set("step", 1); }, "Attributes::set",
                                             "read-only");
  CHECK(f.attrs().get<int>("step") == 42);
}

TEST_CASE("a write appears under its name only when complete", "[io]") {
  Scratch file("staged");
  io::File f(file.path, io::Mode::truncate);
  f.write("x", Tensor<double>::of({1, 2, 3}));
  const auto failing = strata::generate<double>({100}, [](index_t i) -> double {
    if (i == 57) {
      throw std::runtime_error("the source failed at element 57");
    }
    return static_cast<double>(i);
  });
  CHECK_THROWS_WITH(f.write("x", failing, {.overwrite = true}),
                    Catch::Matchers::Contains("element 57"));
  CHECK(f.read<double>("x").to_vector() == std::vector<double>{1, 2, 3});  // the old one stands
  CHECK_THROWS(f.write("y", failing));
  CHECK_FALSE(f.contains("y"));
  CHECK(f.names() == std::vector<std::string>{"x"});  // no partial object left behind
  f.write("x", Tensor<double>::of({4.0}), {.overwrite = true});
  CHECK(f.read<double>("x").to_vector() == std::vector<double>{4.0});
}

TEST_CASE("bad input to files is an error that names the operation and the argument", "[io]") {
  Scratch file("bad");
  Scratch text("bad_text");
  Scratch cut("bad_cut");
  {
    io::File f(file.path, io::Mode::truncate);
    f.write("a", numbered<double>({4, 5}));
    f.write("flags", Tensor<bool>::of({true, false}));
    f.create_group("g");
  }
  using strata::test::check_error;
  check_error<strata::IOError>([&] { io::File("/nonexistent/strata.h5"); }, "File",
                               "/nonexistent/strata.h5");
  std::ofstream(text.path) << "not an HDF5 file\n";
  check_error<strata::IOError>([&] { io::File(text.path); }, "File", "not an HDF5 file");
  check_error<strata::IOError>([&] { io::File(file.path, io::Mode::exclusive); }, "File", "exists");
  // A truncated file: an IOError, at open or at read, never a crash.
  std::filesystem::copy_file(file.path, cut.path);
  std::filesystem::resize_file(cut.path, std::filesystem::file_size(cut.path) / 2);
  CHECK_THROWS_AS(io::File(cut.path).read<double>("a"), strata::IOError);

  {
    const io::File f(file.path);
    check_error<strata::IOError>([&] { (void)f.dataset("missing"); }, "Group::dataset", "missing");
    check_error<strata::IOError>([&] { (void)f.dataset("g"); }, "Group::dataset", "group");
    check_error<strata::IOError>([&] { (void)f.group("a"); }, "Group::group", "dataset");
    Tensor<double> wrong({5, 4});
    check_error<strata::ShapeError>([&] { f.dataset("a").read_into(wrong); }, "Dataset::read_into",
                                    "[5 4]");
    check_error<strata::ShapeError>([&] { f.dataset("a").read_into(wrong); }, "Dataset::read_into",
                                    "[4 5]");
    check_error<strata::TypeError>([&] { (void)f.read<bool>("a"); }, "Dataset::read", "float64");
    check_error<strata::TypeError>([&] { (void)f.read<int>("flags"); }, "Dataset::read", "bool");
    CHECK_THROWS_AS(f.dataset("a").select({0, 5}), strata::IndexError);
    CHECK_THROWS_AS(f.dataset("a").select({7}), strata::IndexError);
    check_error<strata::IndexError>(
        [&] {
          (void)f.dataset("a").view(strata::Dimensions(Index{4, 6}));
        },
        "Dataset::view", "23");
    check_error<strata::IOError>(
        [&] {
          f.dataset("a").write(Tensor<double>({4, 5}));
        },
        "Dataset::write", "read-only");
    check_error<strata::IOError>([&] { f.write("b", Tensor<double>({2})); }, "Group::write",
                                 "read-only");
    CHECK(f.read<double>("a").to_vector() == numbered<double>({4, 5}).to_vector());
  }
  // HDF5 opens a file once per process: the read-only handle is closed first.
  io::File w(file.path, io::Mode::read_write);
  check_error<strata::IOError>([&] { w.write("a", Tensor<double>({2})); }, "Group::write",
                               "exists already");
  check_error<strata::IOError>([&] { w.create_group("g"); }, "Group::create_group", "'g'");
  check_error<strata::ShapeError>(
      [&] {
        w.create_dataset("c", Index{4, 4}, io::DType::float32, {.chunks = {2}});
      },
      "Group::create_dataset", "[2]");
  check_error<strata::IndexError>(
      [&] { w.create_dataset("c", Index{4}, io::DType::float32, {.deflate = 12}); },
      "Group::create_dataset", "12");
  const auto repeated =
      w.dataset("a").view(strata::Dimensions{4, 5}.select({0}).broadcast(Index{3, 5}));
  check_error<strata::LayoutError>(
      [&] {
        repeated.write(Tensor<double>({3, 5}));
      },
      "Dataset::write", "repeats");
  CHECK(w.read<double>("a").to_vector() == numbered<double>({4, 5}).to_vector());
}

TEST_CASE("a lazy dataset is a tensor whose elements are read a block at a time", "[io]") {
  Scratch file("lazy");
  io::File f(file.path, io::Mode::truncate);
  const auto a = numbered<double>({40, 30});
  f.write("c", a, {.chunks = {10, 10}});
  f.write("flat", a);
  const auto lazy = f.dataset("c").lazy<double>(4);
  const auto* buffer = lazy.buffer().get<io::DatasetBuffer<double>>();
  REQUIRE(buffer != nullptr);
  CHECK(buffer->blocks_read() == 0);  // nothing read yet
  CHECK(lazy.at({25, 13}) == a.at({25, 13}));
  CHECK(buffer->blocks_read() == 1);  // one chunk
  // A view and a reduction of it: only the chunks the view touches are read.
  const auto corner = lazy.select({Range{0, 10}, Range{{}, {}, -1}});
  CHECK(strata::sum(corner) == strata::sum(a.select({Range{0, 10}, Range{{}, {}, -1}})));
  CHECK(buffer->blocks_read() == 1 + 3);
  // Random views of a chunked and of a contiguous dataset, against the same views in memory.
  std::mt19937_64 rng(7);
  for (const char* name : {"c", "flat"}) {
    const auto t = f.dataset(name).lazy<float>(2);
    for (int trial = 0; trial < 40; ++trial) {
      strata::Dimensions view{40, 30};
      for (index_t s = strata::test::uniform(rng, 1, 5); s > 0; --s) {
        view = strata::test::random_step(rng, view);
      }
      INFO(name << " view " << strata::to_string(view));
      const Tensor<const float> got(t.buffer(), view);
      const Tensor<const double> expected(a.buffer(), view);
      const auto g = got.to_vector();
      const auto e = expected.to_vector();
      REQUIRE(g.size() == e.size());
      for (std::size_t i = 0; i < g.size(); ++i) {
        CHECK(g[i] == static_cast<float>(e[i]));
      }
    }
  }
  // The dataset's own view becomes the tensor's map.
  CHECK(f.dataset("flat").select({3}).lazy<double>().to_vector() == a.select({3}).to_vector());
  strata::test::check_error<strata::TypeError>([&] { (void)f.dataset("c").lazy<bool>(); },
                                               "Dataset::lazy", "bool");
  strata::test::check_error<strata::ShapeError>([&] { (void)f.dataset("c").lazy<double>(0); },
                                                "Dataset::lazy", "0 blocks");
}
