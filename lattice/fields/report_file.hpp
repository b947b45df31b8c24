#pragma once
// A text file of results (a table, a profile, a time series) written once
// under mpirun: a std::ostream that writes to the file on rank 0 and
// discards what it is given on the other ranks, so the code that fills it
// runs unchanged on any number of ranks:
//
//   latte::ReportFile csv(directory + "/forces.csv");   // every rank
//   csv << step << ',' << drag << '\n';
//
// Opening is collective: if rank 0 cannot open the file, every rank throws
// the same std::runtime_error naming it. Values printed should be the same
// on every rank (results of reductions, gathered fields), as they are in a
// report.

#include <fstream>
#include <ostream>
#include <stdexcept>
#include <streambuf>
#include <string>

#include "platform/comms/communicator.hpp"

namespace latte {

class ReportFile : public std::ostream {
 public:
  // append: continue an existing file (a resumed run's history).
  explicit ReportFile(const std::string& path, bool append = false) : std::ostream(&discard_) {
    const Communicator world = world_communicator();
    std::string failure;
    if (world.rank() == 0) {
      if (file_.open(path, std::ios::out | (append ? std::ios::app : std::ios::trunc)))
        rdbuf(&file_);
      else
        failure = "Latte: cannot write the report file '" + path + "'";
    }
    failure = world.first_failure(failure);
    if (!failure.empty()) throw std::runtime_error(failure);
  }

 private:
  struct Discard : std::streambuf {
    int overflow(int c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  };
  Discard discard_;
  std::filebuf file_;
};

}  // namespace latte
