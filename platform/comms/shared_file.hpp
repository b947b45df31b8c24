#pragma once
// One file that every rank of a lattice's communicator reads or writes
// together: the parallel input and output under the lattice file formats
// (NERSC gauge files, lattice-Boltzmann checkpoints). A format stores one
// record per site (record_bytes each) in global lexicographic order,
// dimension 0 fastest, from some byte offset after its header; each rank
// moves only its own block of sites, so the file is the same bytes whatever
// the number of ranks, and no rank ever holds more than its block.
//
//   SharedFile file(communicator, path, SharedFile::Mode::write);   // collective
//   file.view_block(header_bytes, record_bytes, global, local, origin);
//   for each local slice: file.write_block(records, count);          // collective, in block order
//   file.root_write_at(0, header.data(), header.size());              // collective; rank 0's bytes land
//   file.close();                                                     // collective
//
// With MPI and more than one rank this is MPI-IO: the block is a subarray
// file view and the transfers are collective (MPI_File_write_all), so the
// MPI library aggregates them into large contiguous requests. One rank (a
// build without MPI, or a job of one rank) uses stdio.
//
// Every failure is a FileAccessError; opening agrees across ranks (all open
// or all throw), the transfers throw on the ranks where they fail.

#if defined(LATTE_MPI)
#include "platform/comms/mpi_shared_file.hpp"
#else
#include "platform/comms/serial_shared_file.hpp"
#endif
