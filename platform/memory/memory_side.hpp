#pragma once
// Where a field's data is used, and how. A backend evaluates statements on
// one memory side (the CPU backends on the host, CUDA on the device); a field
// keeps a copy on each side it is used from and moves data only when the side
// that asks does not hold the newest values (platform/memory/mirrored_memory.hpp).

namespace latte {

enum class MemorySide { host, device };

// What the user of a view does with it. `write` promises that every site is
// overwritten before anything is read, so the old values need not be moved;
// writing only some sites (a poke) is `read_write`.
enum class Access { read, write, read_write };

constexpr bool access_reads(Access a) { return a != Access::write; }
constexpr bool access_writes(Access a) { return a != Access::read; }

// What a buffer holds, for the transfer log: field data, or the halos and
// tables of exchanges between blocks (counted apart, so that the residency of
// fields can be checked whatever the decomposition).
enum class Traffic { field, halo };

inline const char* side_name(MemorySide side) { return side == MemorySide::host ? "host" : "device"; }

}  // namespace latte
