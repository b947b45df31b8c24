#pragma once
// How much of the machine other processes used while a benchmark ran. On a
// two-core machine shared with compilers, one preempted OpenMP thread stalls
// a whole statically scheduled loop, so a bandwidth figure means little
// without this. Linux only (/proc); elsewhere the fractions read as -1.

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>

namespace latte::bench {

struct CpuTimes {
  double machine_busy = -1;  // seconds of all CPUs, all processes
  double machine_total = -1;
  double machine_steal = -1;  // time the hypervisor gave to other guests
  double self = -1;           // seconds of this process, all threads
};

inline CpuTimes read_cpu_times() {
  CpuTimes t;
  const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::ifstream stat("/proc/stat");
  std::string label;
  double user, nice, system, idle, iowait, irq, softirq, steal;
  if (stat >> label >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal && label == "cpu") {
    t.machine_busy = (user + nice + system + irq + softirq) / tick;
    t.machine_steal = steal / tick;
    t.machine_total = t.machine_busy + (idle + iowait + steal) / tick;
  }
  // Fields 14 and 15 of /proc/self/stat; field 2 may contain spaces but is
  // closed by the last ')'.
  std::ifstream self_stat("/proc/self/stat");
  std::string line;
  if (std::getline(self_stat, line)) {
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string field;
    double utime = 0, stime = 0;
    for (int k = 3; k <= 15 && rest >> field; ++k) {
      if (k == 14) utime = std::stod(field);
      if (k == 15) stime = std::stod(field);
    }
    t.self = (utime + stime) / tick;
  }
  return t;
}

struct MachineLoad {
  double other_processes = -1;  // fraction of all CPU time used by others
  double steal = -1;            // fraction of all CPU time stolen by the host
};

inline MachineLoad load_between(const CpuTimes& start, const CpuTimes& end) {
  MachineLoad load;
  const double total = end.machine_total - start.machine_total;
  if (start.machine_total < 0 || end.self < 0 || total <= 0) return load;
  const double others = (end.machine_busy - start.machine_busy) - (end.self - start.self);
  load.other_processes = others > 0 ? others / total : 0.0;
  load.steal = (end.machine_steal - start.machine_steal) / total;
  return load;
}

// Waits (up to max_seconds) for a one-second window in which other processes
// used less than `threshold` of the machine; returns whether one came.
inline bool wait_for_quiet(double max_seconds, double threshold = 0.1) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(max_seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    const CpuTimes start = read_cpu_times();
    std::this_thread::sleep_for(std::chrono::seconds(1));
    const MachineLoad load = load_between(start, read_cpu_times());
    if (load.other_processes < 0) return false;
    if (load.other_processes < threshold) return true;
  }
  return false;
}

}  // namespace latte::bench
