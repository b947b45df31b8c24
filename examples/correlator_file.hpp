#pragma once
// The correlators of one ensemble in one file, with the parameters that
// made them stored beside the data: HDF5 (read with h5py as Grid/Hadrons
// users do) and the same numbers as CSV.
//
// HDF5 layout (h5py: f["correlators/point_point/pion/p_0_0_0"][:] is a
// complex array of shape (configurations, T)):
//   /                          attributes: every parameter, as text
//   /configurations            the configurations' file names, in order (strings)
//   /correlators/<path>        complex (compound {r, i} of 64-bit reals, as h5py
//                              writes complex numbers) [configuration][t], the
//                              source at t = 0; attributes: the record's text
//                              attributes and "momentum" (integers) if it has one
//   /analysis/<path>           real [t][2]: estimate and jackknife error per
//                              entry (an effective mass); attributes: numbers
//                              (a fit's mass, error, chi^2 / dof, window)
// Groups are made level by level, without modification times, so the file
// is the same bytes whenever and on however many ranks it is written.
// The file is written through path.tmp and renamed, so an interrupted run
// leaves no half file under the name.
//
// CSV (<path>.csv beside it): one line per configuration and t,
//   correlator,configuration,t,re,im
// with %.17g reals (they read back to the same bits).
//
// Host code on one process: under mpirun, call it on rank 0 only.

#include <complex>
#include <string>
#include <utility>
#include <vector>

namespace latte::files {

using TextAttributes = std::vector<std::pair<std::string, std::string>>;

struct CorrelatorRecord {
  std::string path;                                       // e.g. "point_point/pion/p_0_0_0"
  TextAttributes attributes;                              // source, sink, channel, gammas...
  std::vector<int> momentum;                              // n (p = 2 pi n / L); empty: none stored
  std::vector<std::vector<std::complex<double>>> values;  // [configuration][t]
};

struct AnalysisRecord {
  std::string path;                                   // e.g. "point_point/pion/p_0_0_0/effective_mass"
  std::vector<double> value, error;                   // per entry (t)
  std::vector<std::pair<std::string, double>> numbers;  // fit results and the like
};

struct CorrelatorFile {
  TextAttributes parameters;
  std::vector<std::string> configurations;
  std::vector<CorrelatorRecord> correlators;
  std::vector<AnalysisRecord> analysis;
};

// Throws std::runtime_error naming the file and what failed.
void write_correlator_hdf5(const std::string& path, const CorrelatorFile& file);
CorrelatorFile read_correlator_hdf5(const std::string& path);
void write_correlator_csv(const std::string& path, const CorrelatorFile& file);

}  // namespace latte::files
