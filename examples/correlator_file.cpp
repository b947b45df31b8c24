// The correlator file's HDF5 and CSV writers and the HDF5 reader
// (examples/correlator_file.hpp says the layout).

#include "examples/correlator_file.hpp"

#include <hdf5.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace latte::files {

namespace {

// An HDF5 handle closed by the right function when it goes out of scope.
class Handle {
 public:
  Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  Handle(Handle&& other) noexcept : id_(other.id_), close_(other.close_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept {
    if (this != &other) {
      if (id_ >= 0) close_(id_);
      id_ = other.id_;
      close_ = other.close_;
      other.id_ = -1;
    }
    return *this;
  }
  ~Handle() {
    if (id_ >= 0) close_(id_);
  }
  operator hid_t() const { return id_; }
  bool valid() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

class Hdf5Error : public std::runtime_error {
 public:
  Hdf5Error(const std::string& file, const std::string& what)
      : std::runtime_error("Latte: correlator file " + file + ": " + what) {}
};

void check(herr_t status, const std::string& file, const std::string& what) {
  if (status < 0) throw Hdf5Error(file, what);
}
hid_t checked(hid_t id, const std::string& file, const std::string& what) {
  if (id < 0) throw Hdf5Error(file, what);
  return id;
}

// HDF5 prints its own error stack by default; the exception says it here.
struct QuietHdf5 {
  H5E_auto2_t function = nullptr;
  void* data = nullptr;
  QuietHdf5() {
    H5Eget_auto2(H5E_DEFAULT, &function, &data);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietHdf5() { H5Eset_auto2(H5E_DEFAULT, function, data); }
};

// Complex numbers as h5py writes them: a compound of two 64-bit reals
// named r and i.
Handle complex_type(const std::string& file) {
  Handle type(checked(H5Tcreate(H5T_COMPOUND, 2 * sizeof(double)), file, "complex type"), H5Tclose);
  check(H5Tinsert(type, "r", 0, H5T_NATIVE_DOUBLE), file, "complex type");
  check(H5Tinsert(type, "i", sizeof(double), H5T_NATIVE_DOUBLE), file, "complex type");
  return type;
}

Handle text_type(const std::string& file) {
  Handle type(checked(H5Tcopy(H5T_C_S1), file, "string type"), H5Tclose);
  check(H5Tset_size(type, H5T_VARIABLE), file, "string type");
  check(H5Tset_cset(type, H5T_CSET_UTF8), file, "string type");
  return type;
}

// Creation properties without modification times (the same bytes on every
// write), and with the attributes' creation order kept where an object
// has attributes, so they read back in the order they were written.
Handle untimed(hid_t property_class, const std::string& file) {
  Handle list(checked(H5Pcreate(property_class), file, "property list"), H5Pclose);
  check(H5Pset_obj_track_times(list, false), file, "property list");
  if (property_class != H5P_GROUP_CREATE)
    check(H5Pset_attr_creation_order(list, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED), file, "property list");
  return list;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::string part;
  for (char c : path) {
    if (c == '/') {
      if (!part.empty()) parts.push_back(part);
      part.clear();
    } else {
      part += c;
    }
  }
  if (!part.empty()) parts.push_back(part);
  return parts;
}

// The group at `path` below `parent`, made level by level where missing.
Handle open_or_make_group(hid_t parent, const std::vector<std::string>& levels, const std::string& file) {
  Handle current(H5Gopen2(parent, ".", H5P_DEFAULT), H5Gclose);
  for (const std::string& level : levels) {
    const htri_t exists = H5Lexists(current, level.c_str(), H5P_DEFAULT);
    Handle gcpl = untimed(H5P_GROUP_CREATE, file);
    hid_t next = exists > 0 ? H5Gopen2(current, level.c_str(), H5P_DEFAULT)
                            : H5Gcreate2(current, level.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT);
    checked(next, file, "group " + level);
    current = Handle(next, H5Gclose);
  }
  return Handle(H5Gopen2(current, ".", H5P_DEFAULT), H5Gclose);
}

void write_text_attribute(hid_t object, const std::string& name, const std::string& value, const std::string& file) {
  Handle type = text_type(file);
  Handle space(checked(H5Screate(H5S_SCALAR), file, "attribute " + name), H5Sclose);
  Handle attribute(checked(H5Acreate2(object, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), file,
                           "attribute " + name),
                   H5Aclose);
  const char* text = value.c_str();
  check(H5Awrite(attribute, type, &text), file, "attribute " + name);
}

void write_number_attribute(hid_t object, const std::string& name, double value, const std::string& file) {
  Handle space(checked(H5Screate(H5S_SCALAR), file, "attribute " + name), H5Sclose);
  Handle attribute(checked(H5Acreate2(object, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT), file,
                           "attribute " + name),
                   H5Aclose);
  check(H5Awrite(attribute, H5T_NATIVE_DOUBLE, &value), file, "attribute " + name);
}

void write_integers_attribute(hid_t object, const std::string& name, const std::vector<int>& values,
                              const std::string& file) {
  const hsize_t size = values.size();
  Handle space(checked(H5Screate_simple(1, &size, nullptr), file, "attribute " + name), H5Sclose);
  Handle attribute(checked(H5Acreate2(object, name.c_str(), H5T_STD_I32LE, space, H5P_DEFAULT, H5P_DEFAULT), file,
                           "attribute " + name),
                   H5Aclose);
  check(H5Awrite(attribute, H5T_NATIVE_INT, values.data()), file, "attribute " + name);
}

// A dataset at `path` (its groups made first) of the given type and shape.
Handle make_dataset(hid_t root, const std::string& path, hid_t stored_type, const std::vector<hsize_t>& shape,
                    const std::string& file) {
  std::vector<std::string> levels = split_path(path);
  if (levels.empty()) throw Hdf5Error(file, "an empty dataset path");
  const std::string name = levels.back();
  levels.pop_back();
  Handle group = open_or_make_group(root, levels, file);
  Handle space(checked(H5Screate_simple(static_cast<int>(shape.size()), shape.data(), nullptr), file, path), H5Sclose);
  Handle dcpl = untimed(H5P_DATASET_CREATE, file);
  return Handle(checked(H5Dcreate2(group, name.c_str(), stored_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), file,
                        "dataset " + path),
                H5Dclose);
}

std::string read_text_attribute(hid_t attribute, const std::string& file) {
  Handle type = text_type(file);
  char* text = nullptr;
  check(H5Aread(attribute, type, &text), file, "a text attribute");
  std::string value = text ? text : "";
  H5free_memory(text);
  return value;
}

struct AttributeVisit {
  const std::string* file;
  TextAttributes* text;
  std::vector<int>* momentum;
  std::vector<std::pair<std::string, double>>* numbers;
};

herr_t read_attribute(hid_t object, const char* name, const H5A_info_t*, void* data) {
  auto& visit = *static_cast<AttributeVisit*>(data);
  Handle attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  Handle type(H5Aget_type(attribute), H5Tclose);
  const H5T_class_t kind = H5Tget_class(type);
  if (kind == H5T_STRING && visit.text) {
    visit.text->emplace_back(name, read_text_attribute(attribute, *visit.file));
  } else if (kind == H5T_INTEGER && visit.momentum && std::string(name) == "momentum") {
    Handle space(H5Aget_space(attribute), H5Sclose);
    visit.momentum->resize(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    if (H5Aread(attribute, H5T_NATIVE_INT, visit.momentum->data()) < 0) return -1;
  } else if (kind == H5T_FLOAT && visit.numbers) {
    double value = 0;
    if (H5Aread(attribute, H5T_NATIVE_DOUBLE, &value) < 0) return -1;
    visit.numbers->emplace_back(name, value);
  }
  return 0;
}

// Every dataset below `group`, as paths relative to it, in name order.
herr_t collect_dataset(hid_t, const char* name, const H5O_info_t* info, void* data) {
  if (info->type == H5O_TYPE_DATASET) static_cast<std::vector<std::string>*>(data)->push_back(name);
  return 0;
}

std::vector<std::string> datasets_below(hid_t root, const std::string& group, const std::string& file) {
  std::vector<std::string> paths;
  if (H5Lexists(root, group.c_str(), H5P_DEFAULT) <= 0) return paths;
  Handle g(checked(H5Gopen2(root, group.c_str(), H5P_DEFAULT), file, "group " + group), H5Gclose);
  check(H5Ovisit2(g, H5_INDEX_NAME, H5_ITER_INC, collect_dataset, &paths, H5O_INFO_BASIC), file, "group " + group);
  return paths;
}

}  // namespace

void write_correlator_hdf5(const std::string& path, const CorrelatorFile& content) {
  const QuietHdf5 quiet;
  const std::string temporary = path + ".tmp";
  try {
    Handle fcpl = untimed(H5P_FILE_CREATE, path);
    Handle file(checked(H5Fcreate(temporary.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT), path,
                        "cannot create " + temporary),
                H5Fclose);
    for (const auto& [name, value] : content.parameters) write_text_attribute(file, name, value, path);

    // The configurations' names.
    {
      Handle type = text_type(path);
      Handle names = make_dataset(file, "configurations", type, {content.configurations.size()}, path);
      std::vector<const char*> texts;
      for (const std::string& name : content.configurations) texts.push_back(name.c_str());
      if (!texts.empty()) check(H5Dwrite(names, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()), path, "configurations");
    }

    Handle complex = complex_type(path);
    for (const CorrelatorRecord& record : content.correlators) {
      const std::size_t rows = record.values.size(), columns = rows ? record.values.front().size() : 0;
      std::vector<std::complex<double>> flat;
      flat.reserve(rows * columns);
      for (const auto& row : record.values) {
        if (row.size() != columns)
          throw Hdf5Error(path, "correlator " + record.path + " has rows of " + std::to_string(row.size()) + " and " +
                                    std::to_string(columns) + " timeslices");
        flat.insert(flat.end(), row.begin(), row.end());
      }
      // Stored little-endian whatever the machine: a compound of two IEEE F64LE.
      Handle stored(checked(H5Tcreate(H5T_COMPOUND, 16), path, "complex type"), H5Tclose);
      check(H5Tinsert(stored, "r", 0, H5T_IEEE_F64LE), path, "complex type");
      check(H5Tinsert(stored, "i", 8, H5T_IEEE_F64LE), path, "complex type");
      Handle data = make_dataset(file, "correlators/" + record.path, stored, {rows, columns}, path);
      if (!flat.empty())
        check(H5Dwrite(data, complex, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data()), path, "correlator " + record.path);
      for (const auto& [name, value] : record.attributes) write_text_attribute(data, name, value, path);
      if (!record.momentum.empty()) write_integers_attribute(data, "momentum", record.momentum, path);
    }

    for (const AnalysisRecord& record : content.analysis) {
      if (record.error.size() != record.value.size())
        throw Hdf5Error(path, "analysis " + record.path + " has " + std::to_string(record.value.size()) + " values and " +
                                  std::to_string(record.error.size()) + " errors");
      std::vector<double> pairs;
      for (std::size_t i = 0; i < record.value.size(); ++i) {
        pairs.push_back(record.value[i]);
        pairs.push_back(record.error[i]);
      }
      Handle data = make_dataset(file, "analysis/" + record.path, H5T_IEEE_F64LE, {record.value.size(), 2}, path);
      if (!pairs.empty())
        check(H5Dwrite(data, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, pairs.data()), path,
              "analysis " + record.path);
      for (const auto& [name, value] : record.numbers) write_number_attribute(data, name, value, path);
    }
    check(H5Fflush(file, H5F_SCOPE_GLOBAL), path, "flush");
  } catch (...) {
    std::filesystem::remove(temporary);
    throw;
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw Hdf5Error(path, "cannot rename " + temporary + ": " + error.message());
}

CorrelatorFile read_correlator_hdf5(const std::string& path) {
  const QuietHdf5 quiet;
  CorrelatorFile content;
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
  if (!file.valid()) throw Hdf5Error(path, "cannot be opened as an HDF5 file");
  AttributeVisit root{&path, &content.parameters, nullptr, nullptr};
  check(H5Aiterate2(file, H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, read_attribute, &root), path, "root attributes");

  if (H5Lexists(file, "configurations", H5P_DEFAULT) > 0) {
    Handle names(checked(H5Dopen2(file, "configurations", H5P_DEFAULT), path, "configurations"), H5Dclose);
    Handle space(H5Dget_space(names), H5Sclose);
    std::vector<char*> texts(static_cast<std::size_t>(H5Sget_simple_extent_npoints(space)));
    Handle type = text_type(path);
    if (!texts.empty()) check(H5Dread(names, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, texts.data()), path, "configurations");
    for (char* text : texts) {
      content.configurations.push_back(text ? text : "");
      H5free_memory(text);
    }
  }

  Handle complex = complex_type(path);
  for (const std::string& relative : datasets_below(file, "correlators", path)) {
    CorrelatorRecord record;
    record.path = relative;
    Handle data(checked(H5Dopen2(file, ("correlators/" + relative).c_str(), H5P_DEFAULT), path, relative), H5Dclose);
    Handle space(H5Dget_space(data), H5Sclose);
    hsize_t shape[2] = {0, 0};
    if (H5Sget_simple_extent_ndims(space) != 2) throw Hdf5Error(path, "correlator " + relative + " is not two-dimensional");
    H5Sget_simple_extent_dims(space, shape, nullptr);
    std::vector<std::complex<double>> flat(shape[0] * shape[1]);
    if (!flat.empty())
      check(H5Dread(data, complex, H5S_ALL, H5S_ALL, H5P_DEFAULT, flat.data()), path, "correlator " + relative);
    for (hsize_t c = 0; c < shape[0]; ++c)
      record.values.emplace_back(flat.begin() + c * shape[1], flat.begin() + (c + 1) * shape[1]);
    AttributeVisit visit{&path, &record.attributes, &record.momentum, nullptr};
    check(H5Aiterate2(data, H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, read_attribute, &visit), path, relative);
    content.correlators.push_back(std::move(record));
  }

  for (const std::string& relative : datasets_below(file, "analysis", path)) {
    AnalysisRecord record;
    record.path = relative;
    Handle data(checked(H5Dopen2(file, ("analysis/" + relative).c_str(), H5P_DEFAULT), path, relative), H5Dclose);
    Handle space(H5Dget_space(data), H5Sclose);
    hsize_t shape[2] = {0, 0};
    H5Sget_simple_extent_dims(space, shape, nullptr);
    std::vector<double> pairs(shape[0] * 2);
    if (!pairs.empty()) check(H5Dread(data, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, pairs.data()), path, relative);
    for (hsize_t i = 0; i < shape[0]; ++i) {
      record.value.push_back(pairs[2 * i]);
      record.error.push_back(pairs[2 * i + 1]);
    }
    AttributeVisit visit{&path, nullptr, nullptr, &record.numbers};
    check(H5Aiterate2(data, H5_INDEX_CRT_ORDER, H5_ITER_INC, nullptr, read_attribute, &visit), path, relative);
    content.analysis.push_back(std::move(record));
  }
  return content;
}

void write_correlator_csv(const std::string& path, const CorrelatorFile& content) {
  const std::string temporary = path + ".tmp";
  std::FILE* out = std::fopen(temporary.c_str(), "w");
  if (!out) throw std::runtime_error("Latte: cannot write " + temporary);
  std::fprintf(out, "correlator,configuration,t,re,im\n");
  for (const CorrelatorRecord& record : content.correlators)
    for (std::size_t c = 0; c < record.values.size(); ++c)
      for (std::size_t t = 0; t < record.values[c].size(); ++t)
        std::fprintf(out, "%s,%s,%zu,%.17g,%.17g\n", record.path.c_str(),
                     c < content.configurations.size() ? content.configurations[c].c_str() : std::to_string(c).c_str(), t,
                     record.values[c][t].real(), record.values[c][t].imag());
  const bool failed = std::ferror(out) != 0;
  if (std::fclose(out) != 0 || failed) throw std::runtime_error("Latte: writing " + temporary + " failed");
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw std::runtime_error("Latte: cannot rename " + temporary + " to " + path + ": " + error.message());
}

}  // namespace latte::files
