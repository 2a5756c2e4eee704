// Files embedded in the binary from resources/scenarios at build time (builtin scenarios and
// the heightmaps they name), so `builtin:NAME` works from any folder.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

std::optional<std::string_view> builtinResource(const std::string& name);
std::vector<std::string> builtinResourceNames();

}  // namespace wb
