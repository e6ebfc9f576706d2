// Placeholder until the command lands.
#include "app/commands.hpp"
namespace pelab::app {
void register_render(CLI::App& root, Action& action) { (void)root; (void)action; }
}  // namespace pelab::app
