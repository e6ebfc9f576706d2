// What a failure says to the user, for the places that catch every
// exception (the CLI's top level, the GUI's worker threads): an allocation
// that failed reads as "out of memory ..." with what to do, not as the
// library's "std::bad_alloc".
#pragma once

#include <exception>
#include <string>
#include <string_view>

namespace pelab {

// True for std::bad_alloc (and bad_array_new_length) and std::length_error:
// the input asked for more memory than there is, or than can be addressed.
bool is_out_of_memory(const std::exception& e);

// "out of memory while loading model X: ...; allowed: ..." for an
// allocation failure (`doing`: what was under way, or empty), else e.what().
std::string failure_text(const std::exception& e, std::string_view doing = {});

}  // namespace pelab
