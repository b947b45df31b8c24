#pragma once
// VTK XML image data (.vti) that ParaView and VisIt open: one cell per
// lattice site (so the picture shows sites as pixels/voxels), named scalar
// and vector arrays as cell data, ASCII so the file is self-explanatory.
// On a lattice spread over ranks the arrays are gathered (field_export.hpp)
// and rank 0 writes the one file: ParaView opens the whole lattice as one
// data set, the same file as from one rank. write() is collective.

#include <array>
#include <fstream>
#include <iomanip>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lattice/fields/root_output.hpp"
#include "solvers/lbm/io/field_export.hpp"

namespace latte::lbm {

class VtiWriter {
 public:
  explicit VtiWriter(const Geometry& g) : dims_(g.dims()) {
    while (dims_.size() < 3) dims_.push_back(1);
  }

  template <class R, class W>
  VtiWriter& scalar(const std::string& name, const Lattice<R, W>& field) {
    scalars_.emplace_back(name, gather_component(field, 0));
    return *this;
  }
  // A vector field of up to 3 components (2-D velocities get a zero z).
  template <class T, class W>
  VtiWriter& vector(const std::string& name, const Lattice<T, W>& field) {
    std::array<std::vector<double>, 3> c;
    for (int d = 0; d < 3; ++d)
      c[d] = d < T::size ? gather_component(field, d) : std::vector<double>(static_cast<std::size_t>(field.volume()));
    vectors_.emplace_back(name, std::move(c));
    return *this;
  }

  void write(const std::string& path) const {
    write_on_root([&] { write_here(path); });
  }

 private:
  void write_here(const std::string& path) const {
    std::ofstream out(path);
    if (!out) throw std::runtime_error("lbm: cannot write " + path);
    out << std::setprecision(9);
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"ImageData\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
        << "  <ImageData WholeExtent=\"0 " << dims_[0] << " 0 " << dims_[1] << " 0 " << dims_[2]
        << "\" Origin=\"0 0 0\" Spacing=\"1 1 1\">\n"
        << "    <Piece Extent=\"0 " << dims_[0] << " 0 " << dims_[1] << " 0 " << dims_[2] << "\">\n"
        << "      <CellData";
    if (!scalars_.empty()) out << " Scalars=\"" << scalars_.front().first << '"';
    if (!vectors_.empty()) out << " Vectors=\"" << vectors_.front().first << '"';
    out << ">\n";
    for (const auto& [name, values] : scalars_) {
      out << "        <DataArray type=\"Float64\" Name=\"" << name << "\" format=\"ascii\">\n";
      for (double v : values) out << v << '\n';
      out << "        </DataArray>\n";
    }
    for (const auto& [name, c] : vectors_) {
      out << "        <DataArray type=\"Float64\" Name=\"" << name
          << "\" NumberOfComponents=\"3\" format=\"ascii\">\n";
      for (std::size_t i = 0; i < c[0].size(); ++i) out << c[0][i] << ' ' << c[1][i] << ' ' << c[2][i] << '\n';
      out << "        </DataArray>\n";
    }
    out << "      </CellData>\n    </Piece>\n  </ImageData>\n</VTKFile>\n";
    if (!out) throw std::runtime_error("lbm: error while writing " + path);
  }

  Coordinate dims_;
  std::vector<std::pair<std::string, std::vector<double>>> scalars_;
  std::vector<std::pair<std::string, std::array<std::vector<double>, 3>>> vectors_;
};

}  // namespace latte::lbm
